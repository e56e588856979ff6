package wal

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCopyRange copies ranges that start and end inside segments, on
// segment boundaries and across many segments; each copy verifies as a
// log of its own holding exactly the range, and opens and continues.
func TestCopyRange(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 512}
	l := openLog(t, dir, opts)
	appendN(t, l, 300)
	segs, err := listSegments(dir)
	require.NoError(t, err)
	require.Greater(t, len(segs), 10)
	boundary := segs[3].first // first index of a segment

	tests := []struct {
		name     string
		from, to uint64
	}{
		{"whole log", 1, 300},
		{"one entry", 7, 7},
		{"inside one segment", boundary + 1, boundary + 2},
		{"from a segment start", boundary, 250},
		{"to a segment end", 2, boundary - 1},
		{"the last entry", 300, 300},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "copy")
			rep, err := l.CopyRange(dst, tc.from, tc.to)
			require.NoError(t, err)
			require.Equal(t, tc.to-tc.from+1, rep.Records)
			require.Equal(t, segmentName(tc.from), segmentNames(t, dst)[0])
			require.Len(t, segmentNames(t, dst), rep.Segments)
			requireVerifyClean(t, dst, tc.from, tc.to)
			next := tc.from
			require.NoError(t, ScanDir(dst, func(i uint64, p []byte) error {
				require.Equal(t, next, i)
				require.Equal(t, payloadFor(i), p)
				next++
				return nil
			}))
			require.Equal(t, tc.to+1, next)

			c := openLog(t, dst, opts)
			requireEntries(t, c, tc.from, tc.to)
			appendN(t, c, 20)
			require.NoError(t, c.Close())
			requireVerifyClean(t, dst, tc.from, tc.to+20)
		})
	}
	require.NoError(t, l.Close())
}

func TestCopyRangeRefuses(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{SegmentSize: 512})
	defer l.Close()
	appendN(t, l, 200)
	require.NoError(t, l.TruncateFront(150))
	first := l.FirstIndex()
	require.Greater(t, first, uint64(1))

	tests := []struct {
		name     string
		from, to uint64
	}{
		{"zero", 0, 10},
		{"reversed", 180, 170},
		{"truncated in front", first - 1, 190},
		{"past the last index", first, 201},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "copy")
			_, err := l.CopyRange(dst, tc.from, tc.to)
			require.ErrorIs(t, err, ErrOutOfRange)
			require.NoDirExists(t, dst)
		})
	}
	existing := t.TempDir()
	_, err := l.CopyRange(existing, first, 200)
	require.Error(t, err, "the destination must not exist")
}

// TestCopyRangeWhileAppending copies up to the last durable index while
// appenders keep writing (and starting segments) behind it: every copy is
// exactly its range, never a torn or partial frame.
func TestCopyRangeWhileAppending(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 1024}
	l := openLog(t, dir, opts)
	appendN(t, l, 50)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() { // also when a check below fails: no appender outlives the test
		close(stop)
		wg.Wait()
		require.NoError(t, l.Close())
	}()
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := l.Append([]byte("concurrent payload of some length")); err != nil {
					t.Errorf("append: %v", err)
					return
				}
			}
		}()
	}
	for i := range 20 {
		last := l.LastIndex()
		from := uint64(1 + i)
		dst := filepath.Join(t.TempDir(), "copy")
		_, err := l.CopyRange(dst, from, last)
		require.NoError(t, err)
		requireVerifyClean(t, dst, from, last)
	}
}
