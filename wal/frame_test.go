package wal

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFrameRoundTrip(t *testing.T) {
	tests := []struct {
		name    string
		index   uint64
		prevCRC uint32
		payload []byte
	}{
		{"empty payload", 1, 0, []byte{}},
		{"small", 2, 0xdeadbeef, []byte("hello")},
		{"max index", ^uint64(0), 1, []byte{0, 1, 2}},
		{"max payload", 7, 42, bytes.Repeat([]byte{0xF7}, MaxPayload)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prefix := []byte("prefix")
			b, crc := AppendFrame(append([]byte(nil), prefix...), tt.index, tt.prevCRC, tt.payload)
			require.Equal(t, prefix, b[:len(prefix)], "AppendFrame must append")
			b = b[len(prefix):]
			require.Len(t, b, HeaderSize+len(tt.payload))
			f, err := DecodeFrame(b)
			require.NoError(t, err)
			require.Equal(t, tt.index, f.Index)
			require.Equal(t, tt.prevCRC, f.PrevCRC)
			require.Equal(t, crc, f.CRC)
			require.Equal(t, tt.payload, f.Payload)
		})
	}
}

func TestFrameLayout(t *testing.T) {
	b, crc := AppendFrame(nil, 0x0102030405060708, 0x11223344, []byte("xy"))
	want := []byte{
		0xF7, 0xD1, 1, 0,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
		0x44, 0x33, 0x22, 0x11,
		2, 0, 0, 0,
	}
	want = binary.LittleEndian.AppendUint32(want, crc)
	want = append(want, 'x', 'y')
	require.Equal(t, want, b)
	require.Equal(t, frameCRC(b[:20], []byte("xy")), crc)
}

func TestDecodeFrameErrors(t *testing.T) {
	good, _ := AppendFrame(nil, 9, 123, []byte("payload"))
	mut := func(f func(b []byte) []byte) []byte {
		return f(append([]byte(nil), good...))
	}
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"nil", nil, ErrShort},
		{"header cut", good[:HeaderSize-1], ErrShort},
		{"payload cut", good[:len(good)-1], ErrShort},
		{"trailing byte", append(append([]byte(nil), good...), 0), ErrLength},
		{"zeros", make([]byte, 64), ErrBadMagic},
		{"bad magic", mut(func(b []byte) []byte { b[1] ^= 1; return b }), ErrBadMagic},
		{"bad version", mut(func(b []byte) []byte { b[2] = 2; return b }), ErrBadVersion},
		{"bad flags", mut(func(b []byte) []byte { b[3] = 0x80; return b }), ErrBadFlags},
		{"length too big", mut(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[16:], MaxPayload+1)
			return b
		}), ErrLength},
		{"length max uint32", mut(func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[16:], ^uint32(0))
			return b
		}), ErrLength},
		{"index bit flip", mut(func(b []byte) []byte { b[4] ^= 0x10; return b }), ErrChecksum},
		{"prevCRC bit flip", mut(func(b []byte) []byte { b[13] ^= 0x01; return b }), ErrChecksum},
		{"crc bit flip", mut(func(b []byte) []byte { b[22] ^= 0x80; return b }), ErrChecksum},
		{"payload bit flip", mut(func(b []byte) []byte { b[len(b)-1] ^= 0x04; return b }), ErrChecksum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeFrame(tt.in)
			require.ErrorIs(t, err, tt.want)
		})
	}
}

func TestAppendFramePanicsOnTooLarge(t *testing.T) {
	require.Panics(t, func() { AppendFrame(nil, 1, 0, make([]byte, MaxPayload+1)) })
}

// FuzzDecodeFrame: DecodeFrame never panics, and any bytes it accepts are
// exactly the encoding of the frame it returns. The seeds in
// testdata/fuzz/FuzzDecodeFrame (valid, truncated, flipped frames) run with
// every go test.
func FuzzDecodeFrame(f *testing.F) {
	good, _ := AppendFrame(nil, 1, 0, []byte("seed"))
	f.Add(good)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := DecodeFrame(b)
		if err != nil {
			return
		}
		re, crc := AppendFrame(nil, fr.Index, fr.PrevCRC, fr.Payload)
		if !bytes.Equal(re, b) {
			t.Fatalf("accepted %x, which re-encodes as %x", b, re)
		}
		if crc != fr.CRC {
			t.Fatalf("accepted crc %#x, re-encoding computes %#x", fr.CRC, crc)
		}
	})
}

func BenchmarkDecodeFrame(b *testing.B) {
	frame, _ := AppendFrame(nil, 12345, 0xabcdef, bytes.Repeat([]byte("x"), 100))
	b.SetBytes(int64(len(frame)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeFrame(frame); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendFrame(b *testing.B) {
	payload := bytes.Repeat([]byte("x"), 100)
	buf := make([]byte, 0, 256)
	b.SetBytes(HeaderSize + 100)
	b.ReportAllocs()
	var crc uint32
	for b.Loop() {
		buf, crc = AppendFrame(buf[:0], 12345, crc, payload)
	}
}

// TestSplitFrame: frames laid end to end split back one by one; a cut or
// damaged buffer is refused with DecodeFrame's errors.
func TestSplitFrame(t *testing.T) {
	var buf []byte
	var crc uint32
	payloads := [][]byte{[]byte("a"), {}, bytes.Repeat([]byte{7}, 300)}
	for i, p := range payloads {
		buf, crc = AppendFrame(buf, uint64(i+1), crc, p)
	}
	rest := buf
	for i, p := range payloads {
		f, next, err := SplitFrame(rest)
		require.NoError(t, err)
		require.Equal(t, uint64(i+1), f.Index)
		require.Equal(t, p, f.Payload)
		rest = next
	}
	require.Empty(t, rest)

	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"header cut", buf[:HeaderSize-1], ErrShort},
		{"payload cut", buf[:HeaderSize], ErrShort},
		{"bad magic", append([]byte{0}, buf[1:]...), ErrBadMagic},
		{"flipped payload bit", func() []byte {
			b := append([]byte(nil), buf...)
			b[HeaderSize] ^= 1
			return b
		}(), ErrChecksum},
	} {
		_, _, err := SplitFrame(tc.b)
		require.ErrorIs(t, err, tc.want, tc.name)
	}
}
