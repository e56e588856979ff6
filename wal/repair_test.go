package wal

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// segmentEntries splits a segment file into its tidwall entries (prefix and
// data) and returns each entry's data and start offset.
func segmentEntries(t testing.TB, data []byte) (datas [][]byte, offs []int) {
	t.Helper()
	for off := 0; off < len(data); {
		d, n, err := nextEntry(data[off:])
		require.NoError(t, err)
		datas, offs = append(datas, d), append(offs, off)
		off += n
	}
	return datas, offs
}

func joinEntries(datas [][]byte) []byte {
	var out []byte
	for _, d := range datas {
		out = binary.AppendUvarint(out, uint64(len(d)))
		out = append(out, d...)
	}
	return out
}

// snapshot reads every file of dir, to prove that something left it alone.
func snapshot(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = b
	}
	return out
}

// tailFile is the last segment of a closed log.
type tailFile struct {
	path  string
	name  string
	first uint64
	data  []byte
	datas [][]byte // entry data (frames)
	offs  []int    // entry offsets
}

func readTail(t testing.TB, dir string) tailFile {
	t.Helper()
	segs, err := listSegments(dir)
	require.NoError(t, err)
	s := segs[len(segs)-1]
	data, err := os.ReadFile(s.path)
	require.NoError(t, err)
	tf := tailFile{path: s.path, name: s.name, first: s.first, data: data}
	tf.datas, tf.offs = segmentEntries(t, data)
	return tf
}

// reframe returns entry k of the tail re-encoded with the given index and
// prevCRC: a checksum-valid frame in the wrong place.
func (tf tailFile) reframe(t testing.TB, k int, index uint64, prevCRC uint32) []byte {
	t.Helper()
	f, err := DecodeFrame(tf.datas[k])
	require.NoError(t, err)
	b, _ := AppendFrame(nil, index, prevCRC, f.Payload)
	return b
}

func (tf tailFile) write(t testing.TB, data []byte) {
	t.Helper()
	require.NoError(t, os.WriteFile(tf.path, data, 0o640))
}

func flip(b []byte, at int) []byte {
	b = bytes.Clone(b)
	b[at] ^= 0x20
	return b
}

func TestRepair(t *testing.T) {
	const n = 10
	type outcome struct {
		cutAt    int    // offset Open cuts at; -1 when it refuses
		lastGood uint64 // with cutAt >= 0
		refuse   string // substring of Open's error when it refuses
		// Verify's view before the repair
		problemIndex uint64
		torn         bool
	}
	tests := []struct {
		name    string
		segSize int
		damage  func(t *testing.T, tf tailFile) outcome
	}{
		{"truncated mid entry", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, tf.data[:len(tf.data)-5])
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"truncated mid header", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, tf.data[:tf.offs[n-1]+3])
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"truncated after length prefix", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, tf.data[:tf.offs[n-1]+1])
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"zero-filled tail", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, append(bytes.Clone(tf.data), make([]byte, 4096)...))
			return outcome{cutAt: len(tf.data), lastGood: n, problemIndex: n + 1, torn: true}
		}},
		{"last entry zeroed in place", 0, func(t *testing.T, tf tailFile) outcome {
			b := bytes.Clone(tf.data)
			clear(b[tf.offs[n-1]:])
			tf.write(t, b)
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"bit flip in last payload", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, flip(tf.data, len(tf.data)-1))
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"bit flip in last header", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, flip(tf.data, tf.offs[n-1]+1+13)) // prevCRC
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"bit flip in last magic", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, flip(tf.data, tf.offs[n-1]+1))
			return outcome{cutAt: tf.offs[n-1], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"bit flip in middle frame", 0, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, flip(tf.data, tf.offs[4]+1+HeaderSize))
			return outcome{cutAt: -1, refuse: "index 5 at offset", problemIndex: 5}
		}},
		{"bit flip in last length prefix keeps an intact frame", 0, func(t *testing.T, tf tailFile) outcome {
			b := bytes.Clone(tf.data)
			b[tf.offs[n-1]]++ // one byte longer than the file holds
			tf.write(t, b)
			return outcome{cutAt: -1, refuse: fmt.Sprintf("index %d at offset", n), problemIndex: n}
		}},
		{"wrong index in middle", 0, func(t *testing.T, tf tailFile) outcome {
			prev, err := DecodeFrame(tf.datas[3])
			require.NoError(t, err)
			datas := append([][]byte(nil), tf.datas...)
			datas[4] = tf.reframe(t, 4, 50, prev.CRC)
			tf.write(t, joinEntries(datas))
			return outcome{cutAt: -1, refuse: "index 5 at offset", problemIndex: 5}
		}},
		{"wrong index at end", 0, func(t *testing.T, tf tailFile) outcome {
			prev, err := DecodeFrame(tf.datas[n-2])
			require.NoError(t, err)
			datas := append([][]byte(nil), tf.datas...)
			datas[n-1] = tf.reframe(t, n-1, 99, prev.CRC)
			tf.write(t, joinEntries(datas))
			return outcome{cutAt: -1, refuse: "frame carries index 99", problemIndex: n}
		}},
		{"chain broken at end", 0, func(t *testing.T, tf tailFile) outcome {
			datas := append([][]byte(nil), tf.datas...)
			datas[n-1] = tf.reframe(t, n-1, n, 12345)
			tf.write(t, joinEntries(datas))
			return outcome{cutAt: -1, refuse: "chain broken", problemIndex: n}
		}},
		{"first frame prevCRC not zero", 0, func(t *testing.T, tf tailFile) outcome {
			datas := append([][]byte(nil), tf.datas...)
			datas[0] = tf.reframe(t, 0, 1, 7)
			tf.write(t, joinEntries(datas))
			return outcome{cutAt: -1, refuse: "index 1", problemIndex: 1}
		}},
		{"torn tail in a later segment", 200, func(t *testing.T, tf tailFile) outcome {
			last := len(tf.datas) - 1
			tf.write(t, tf.data[:len(tf.data)-3])
			return outcome{cutAt: tf.offs[last], lastGood: n - 1, problemIndex: n, torn: true}
		}},
		{"all-zero last segment", 200, func(t *testing.T, tf tailFile) outcome {
			tf.write(t, make([]byte, len(tf.data)))
			return outcome{cutAt: 0, lastGood: tf.first - 1, problemIndex: tf.first, torn: true}
		}},
		{"chain broken across segments", 200, func(t *testing.T, tf tailFile) outcome {
			datas := append([][]byte(nil), tf.datas...)
			datas[0] = tf.reframe(t, 0, tf.first, 4242)
			tf.write(t, joinEntries(datas))
			return outcome{cutAt: -1, refuse: "chain broken", problemIndex: tf.first}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			opts := Options{SegmentSize: tt.segSize}
			l := openLog(t, dir, opts)
			appendN(t, l, n)
			require.NoError(t, l.Close())
			tf := readTail(t, dir)
			if tt.segSize != 0 {
				require.Greater(t, tf.first, uint64(1), "test needs several segments")
			}
			want := tt.damage(t, tf)
			damaged, err := os.ReadFile(tf.path)
			require.NoError(t, err)

			before := snapshot(t, dir)
			vr, err := Verify(dir)
			require.NoError(t, err)
			require.Equal(t, before, snapshot(t, dir), "Verify must not modify files")
			require.NotEmpty(t, vr.Problem)
			require.Equal(t, want.problemIndex, vr.ProblemIndex, vr.Problem)
			require.Equal(t, want.torn, vr.TailTorn, vr.Problem)

			l, rep, err := Open(dir, testOptions(t, opts))
			if want.cutAt < 0 {
				require.ErrorIs(t, err, ErrCorrupt)
				require.ErrorContains(t, err, want.refuse)
				require.Nil(t, l)
				require.Equal(t, before, snapshot(t, dir), "a refused Open must not modify files")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tf.name, rep.Segment)
			require.Equal(t, int64(want.cutAt), rep.CutAtOffset)
			require.Equal(t, int64(len(damaged)-want.cutAt), rep.CutBytes)
			require.Equal(t, filepath.Join(dir, fmt.Sprintf("%s.%d.broken", tf.name, want.cutAt)), rep.BrokenFile)
			require.Equal(t, want.lastGood, rep.LastGoodIndex)
			broken, err := os.ReadFile(rep.BrokenFile)
			require.NoError(t, err)
			require.Equal(t, damaged[want.cutAt:], broken, "the .broken file holds the cut bytes")
			if want.cutAt == 0 {
				require.NoFileExists(t, tf.path, "an emptied last segment is removed")
			}

			requireEntries(t, l, 1, want.lastGood)
			appendN(t, l, 5)
			require.NoError(t, l.Close())

			l = openLog(t, dir, opts) // requires a zero RepairReport
			requireEntries(t, l, 1, want.lastGood+5)
			require.NoError(t, l.Close())
			requireVerifyClean(t, dir, 1, want.lastGood+5)
		})
	}
}

func TestRepairRemovesEmptyLastSegment(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 200}
	l := openLog(t, dir, opts)
	appendN(t, l, 10)
	require.NoError(t, l.Close())
	// What a crash right after tidwall created the next segment leaves.
	empty := filepath.Join(dir, segmentName(11))
	if _, err := os.Stat(empty); os.IsNotExist(err) {
		require.NoError(t, os.WriteFile(empty, nil, 0o640))
	}
	requireVerifyClean(t, dir, 1, 10)

	l, rep, err := Open(dir, testOptions(t, opts))
	require.NoError(t, err)
	require.Zero(t, rep, "removing an empty segment cuts nothing")
	require.NoFileExists(t, empty)
	requireEntries(t, l, 1, 10)
	appendN(t, l, 5)
	require.NoError(t, l.Close())
	requireVerifyClean(t, dir, 1, 15)
}

func TestRepairEntirelyZeroOnlySegment(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, segmentName(1)), make([]byte, 4096), 0o640))
	vr, err := Verify(dir)
	require.NoError(t, err)
	require.True(t, vr.TailTorn)
	require.Equal(t, uint64(1), vr.ProblemIndex)

	l, rep, err := Open(dir, testOptions(t, Options{}))
	require.NoError(t, err)
	require.Equal(t, int64(0), rep.CutAtOffset)
	require.Equal(t, int64(4096), rep.CutBytes)
	require.Equal(t, uint64(0), rep.LastGoodIndex)
	require.Equal(t, uint64(0), l.LastIndex())
	appendN(t, l, 3)
	require.NoError(t, l.Close())
	requireVerifyClean(t, dir, 1, 3)
}

func TestRefusesDamageInEarlierSegment(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 200}
	l := openLog(t, dir, opts)
	appendN(t, l, 30)
	require.NoError(t, l.Close())
	segs, err := listSegments(dir)
	require.NoError(t, err)
	require.Greater(t, len(segs), 3)

	// Damage the middle of the first segment: Open does not read it, Scan
	// and Verify catch it.
	first, err := os.ReadFile(segs[0].path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(segs[0].path, flip(first, 30), 0o640))
	vr, err := Verify(dir)
	require.NoError(t, err)
	require.Equal(t, uint64(1), vr.ProblemIndex, vr.Problem)
	require.False(t, vr.TailTorn)

	l = openLog(t, dir, opts)
	err = l.Scan(1, func(uint64, []byte) error { return nil })
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, "index 1")
	_, err = l.Read(1)
	require.ErrorIs(t, err, ErrChecksum)
	require.NoError(t, l.Close())

	// Damage the last frame of the segment before the tail: Open needs it
	// to chain the tail, so it refuses. (If the last segment is empty, Open
	// removes it and the one before is the tail.)
	segs, err = listSegments(dir)
	require.NoError(t, err)
	tail := len(segs) - 1
	if st, err := os.Stat(segs[tail].path); err == nil && st.Size() == 0 {
		tail--
	}
	prev := segs[tail-1]
	data, err := os.ReadFile(prev.path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(prev.path, flip(data, len(data)-1), 0o640))
	_, _, err = Open(dir, testOptions(t, opts))
	require.ErrorIs(t, err, ErrCorrupt)
	require.ErrorContains(t, err, prev.name)
}

func TestVerifyReportsGapAndCounts(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 200}
	l := openLog(t, dir, opts)
	appendN(t, l, 30)
	require.NoError(t, l.Close())
	segs, err := listSegments(dir)
	require.NoError(t, err)

	vr, err := Verify(dir)
	require.NoError(t, err)
	var total int64
	for _, s := range segs {
		st, err := os.Stat(s.path)
		require.NoError(t, err)
		total += st.Size()
	}
	require.Equal(t, VerifyReport{FirstIndex: 1, LastIndex: 30, Records: 30, Bytes: total, Segments: len(segs)}, vr)

	require.NoError(t, os.Remove(segs[1].path))
	vr, err = Verify(dir)
	require.NoError(t, err)
	require.Contains(t, vr.Problem, "starts at index")
	require.Equal(t, segs[1].first, vr.ProblemIndex)
	require.Equal(t, segs[1].first-1, vr.LastIndex)
	require.False(t, vr.TailTorn)
}

// TestRepairKeepsEarlierBrokenFiles: a second tear at the same offset of the
// same segment must not overwrite the evidence of the first.
func TestRepairKeepsEarlierBrokenFiles(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{})
	appendN(t, l, 10)
	require.NoError(t, l.Close())

	tear := func(next []byte) (RepairReport, []byte) {
		tf := readTail(t, dir)
		tf.write(t, tf.data[:tf.offs[len(tf.offs)-1]+1+20]) // up to the crc
		l, rep, err := Open(dir, testOptions(t, Options{}))
		require.NoError(t, err)
		broken, err := os.ReadFile(rep.BrokenFile)
		require.NoError(t, err)
		require.Equal(t, uint64(9), rep.LastGoodIndex)
		idx, err := l.Append(next) // index 10 again, at the same offset
		require.NoError(t, err)
		require.Equal(t, uint64(10), idx)
		require.NoError(t, l.Close())
		return rep, broken
	}
	first, firstBytes := tear([]byte("A"))   // cuts the original index 10
	second, secondBytes := tear([]byte("A")) // cuts "A": other bytes, same offset
	third, thirdBytes := tear([]byte("B"))   // cuts "A" again: same bytes
	require.Equal(t, first.CutAtOffset, second.CutAtOffset)
	require.NotEqual(t, firstBytes, secondBytes)
	require.Equal(t, filepath.Join(dir, fmt.Sprintf("%s.%d.2.broken", first.Segment, first.CutAtOffset)), second.BrokenFile)
	require.Equal(t, second, third, "an identical tear reuses its file")
	require.Equal(t, secondBytes, thirdBytes)
	still, err := os.ReadFile(first.BrokenFile)
	require.NoError(t, err)
	require.Equal(t, firstBytes, still)
}
