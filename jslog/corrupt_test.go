package jslog_test

import (
	"strconv"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/wal"
)

// forged is a message written behind the log's back: frames for indexes
// from first, the first chained to prev, and the headers claimed.
type forged struct {
	first, headFirst uint64
	count            int
	prev             uint32
	payloads         []string
	flip             int // if >= 0, the data byte to flip
}

func (f forged) publish(t *testing.T, js jetstream.JetStream, subject string) uint32 {
	t.Helper()
	var data []byte
	crc := f.prev
	for i, p := range f.payloads {
		data, crc = wal.AppendFrame(data, f.first+uint64(i), crc, []byte(p))
	}
	if f.flip >= 0 {
		data[f.flip] ^= 0x40
	}
	h := nats.Header{}
	h.Set(jslog.HeaderFirstIndex, strconv.FormatUint(f.headFirst, 10))
	h.Set(jslog.HeaderCount, strconv.Itoa(f.count))
	_, err := js.PublishMsg(testCtx(t), &nats.Msg{Subject: subject, Header: h, Data: data})
	require.NoError(t, err)
	return crc
}

// A message that breaks the chain, or whose headers disagree with its
// frames, or whose bytes are damaged, is ErrCorrupt: at Open when it is
// the last message (Open verifies it), at Scan otherwise, never skipped.
func TestForgedMessageIsCorrupt(t *testing.T) {
	for _, tc := range []struct {
		name     string
		forge    func(last uint64, crc uint32) forged
		thenGood bool // a valid message chained to the forged one follows it
		atOpen   bool
		want     string
	}{
		{"chain broken", func(last uint64, crc uint32) forged {
			return forged{first: last + 1, headFirst: last + 1, count: 1, prev: crc ^ 1, payloads: []string{"x"}, flip: -1}
		}, false, false, "chain broken"},
		{"chain broken mid-log", func(last uint64, crc uint32) forged {
			return forged{first: last + 1, headFirst: last + 1, count: 2, prev: 0xdeadbeef, payloads: []string{"x", "y"}, flip: -1}
		}, true, false, "chain broken"},
		{"index gap", func(last uint64, crc uint32) forged {
			return forged{first: last + 2, headFirst: last + 2, count: 1, prev: crc, payloads: []string{"x"}, flip: -1}
		}, true, false, "starts at index"},
		{"first index header lies", func(last uint64, crc uint32) forged {
			return forged{first: last + 1, headFirst: last + 2, count: 1, prev: crc, payloads: []string{"x"}, flip: -1}
		}, false, true, "frame carries index"},
		{"count header lies", func(last uint64, crc uint32) forged {
			return forged{first: last + 1, headFirst: last + 1, count: 1, prev: crc, payloads: []string{"xx", "y"}, flip: -1}
		}, false, true, "more frames than"},
		{"count header impossible", func(last uint64, crc uint32) forged {
			return forged{first: last + 1, headFirst: last + 1, count: 3, prev: crc, payloads: []string{"xx", "y"}, flip: -1}
		}, false, true, "Fxd-Count"},
		{"bit flipped", func(last uint64, crc uint32) forged {
			return forged{first: last + 1, headFirst: last + 1, count: 1, prev: crc, payloads: []string{"payload"}, flip: wal.HeaderSize + 2}
		}, false, true, "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := soloJS(t)
			cfg := jslog.Config{Stream: newStream(t, js), Replicas: 1}
			forgeAfter(t, js, cfg, tc.forge, tc.thenGood)

			l, err := jslog.Open(testCtx(t), js, cfg, partlog.Options{})
			if tc.atOpen {
				require.ErrorIs(t, err, partlog.ErrCorrupt)
				require.ErrorContains(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			t.Cleanup(func() { _ = l.Close() })
			err = l.Scan(1, func(uint64, []byte) error { return nil })
			require.ErrorIs(t, err, partlog.ErrCorrupt)
			require.ErrorContains(t, err, tc.want)
			// Scanning from the forged message itself still checks its
			// link to the message before.
			err = l.Scan(4, func(uint64, []byte) error { return nil })
			require.ErrorIs(t, err, partlog.ErrCorrupt)
		})
	}
}

// forgeAfter writes three good entries through a log, then the forged
// message (and, with thenGood, a valid one chained to it).
func forgeAfter(t *testing.T, js jetstream.JetStream, cfg jslog.Config, forge func(uint64, uint32) forged, thenGood bool) {
	t.Helper()
	l, err := jslog.Open(testCtx(t), js, cfg, partlog.Options{})
	require.NoError(t, err)
	for _, p := range []string{"a", "b", "c"} {
		_, err := l.Append([]byte(p))
		require.NoError(t, err)
	}
	require.NoError(t, l.Close())
	lastCRC := chainCRC("a", "b", "c")
	f := forge(3, lastCRC)
	crc := f.publish(t, js, "fxd.log."+cfg.Stream)
	if thenGood {
		next := f.first + uint64(len(f.payloads))
		forged{first: next, headFirst: next, count: 1, prev: crc, payloads: []string{"z"}, flip: -1}.publish(t, js, "fxd.log."+cfg.Stream)
	}
}

// chainCRC is the crc of the last frame of a log holding payloads from
// index 1.
func chainCRC(payloads ...string) uint32 {
	var crc uint32
	for i, p := range payloads {
		_, crc = wal.AppendFrame(nil, uint64(i+1), crc, []byte(p))
	}
	return crc
}
