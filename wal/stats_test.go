package wal

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestFsyncBuckets(t *testing.T) {
	l := &Log{}
	s := &l.stats
	s.init()
	for _, d := range []time.Duration{0, 50 * time.Microsecond, 51 * time.Microsecond, 3 * time.Millisecond, 2 * time.Second} {
		s.fsynced(d)
	}
	f := l.FsyncDurations()
	require.Len(t, f.Counts, len(f.Bounds)+1)
	require.Equal(t, uint64(2), f.Counts[0], "0 and 50 µs: the first bound is inclusive")
	require.Equal(t, uint64(1), f.Counts[1], "51 µs")
	require.Equal(t, uint64(1), f.Counts[6], "3 ms is within 5 ms")
	require.Equal(t, uint64(1), f.Counts[len(f.Counts)-1], "2 s is above every bound")
	require.Equal(t, uint64(5), f.Count())
	require.Equal(t, uint64(2_003_101_000), f.Sum, "nanoseconds")
	require.Equal(t, uint64(50_000), f.Bounds[0])
}

// TestStatsCountEveryBatch: after appends from many goroutines, one fsync
// is timed per durable batch and the batches' records are every entry.
func TestStatsCountEveryBatch(t *testing.T) {
	l, _, err := Open(t.TempDir(), Options{OnFatal: func(err error) { t.Errorf("fatal: %v", err) }})
	require.NoError(t, err)
	defer l.Close()
	const writers, each = 16, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				_, err := l.Append(fmt.Appendf(nil, "w%d-%d", w, i))
				require.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	f, b := l.FsyncDurations(), l.BatchSizes()
	require.Equal(t, l.Batches(), f.Count())
	require.Equal(t, l.Batches(), b.Count())
	require.Equal(t, uint64(writers*each), b.Sum)
	require.Equal(t, uint64(writers*each), l.LastIndex())
	require.Positive(t, f.Sum)
}
