package logtest

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/partlog"
)

func testIndexes(t *testing.T, open Open) {
	l := opened(t, open, partlog.Options{})
	require.Equal(t, uint64(0), l.LastIndex(), "new log")
	require.Equal(t, uint64(1), l.FirstIndex(), "new log")
	for want := uint64(1); want <= 10; want++ {
		got, err := l.Append(payload(want, 8))
		require.NoError(t, err)
		require.Equal(t, want, got)
		require.Equal(t, want, l.LastIndex())
		require.Equal(t, uint64(1), l.FirstIndex())
	}
}

// Sizes from empty to 64 KiB; Scan from 1 and from the middle; the same
// after a reopen (durable).
func testAppendScan(t *testing.T, open Open) {
	sizes := []int{0, 1, 7, 100, 4096, 65536, 0, 3}
	var want [][]byte
	for i, size := range sizes {
		want = append(want, payload(uint64(i+1), size))
	}
	l := opened(t, open, partlog.Options{})
	appendAll(t, l, want)
	requireLog(t, l, 1, want)
	requireLog(t, l, 5, want[4:])
	require.NoError(t, l.Close())

	l = opened(t, open, partlog.Options{})
	requireLog(t, l, 1, want)
}

func testEnqueueOrder(t *testing.T, open Open) {
	const n = 300
	l := opened(t, open, partlog.Options{})
	var (
		mu   sync.Mutex
		got  []uint64
		wg   sync.WaitGroup
		want = entries(1, n, 50)
	)
	wg.Add(n)
	for _, p := range want {
		require.NoError(t, l.Enqueue(p, func(index uint64) {
			mu.Lock()
			got = append(got, index)
			mu.Unlock()
			wg.Done()
		}))
	}
	require.NoError(t, l.Enqueue(payload(n+1, 50), nil)) // nil done is allowed
	wg.Wait()
	for i, index := range got {
		require.Equal(t, uint64(i+1), index, "done callbacks out of index order")
	}
	_, err := l.Append(payload(n+2, 50)) // after it, n+1 is durable too
	require.NoError(t, err)
	requireLog(t, l, 1, append(want, payload(n+1, 50), payload(n+2, 50)))
}

// OnDurable sees every index exactly once, in order, with the payloads,
// before any caller learns of them.
func testOnDurable(t *testing.T, open Open) {
	var (
		mu     sync.Mutex
		next   = uint64(1)
		seen   [][]byte
		broken string
	)
	l := opened(t, open, partlog.Options{OnDurable: func(first uint64, payloads [][]byte) {
		mu.Lock()
		defer mu.Unlock()
		if first != next && broken == "" {
			broken = "OnDurable batches not contiguous"
		}
		next = first + uint64(len(payloads))
		seen = append(seen, payloads...)
	}})
	want := concurrentAppends(t, l, 4, 60)
	mu.Lock()
	defer mu.Unlock()
	require.Empty(t, broken)
	require.Len(t, seen, len(want))
	for i := range want {
		require.Equal(t, want[i], seen[i], "index %d", i+1)
	}
}

func testCommitted(t *testing.T, open Open) {
	l := opened(t, open, partlog.Options{})
	select {
	case <-l.Committed():
		t.Fatal("Committed signalled before any append")
	default:
	}
	_, err := l.Append([]byte("a"))
	require.NoError(t, err)
	select {
	case <-l.Committed():
	default:
		t.Fatal("no Committed signal pending when Append returned")
	}
	pending := make(chan bool, 1)
	require.NoError(t, l.Enqueue([]byte("b"), func(uint64) {
		select {
		case <-l.Committed():
			pending <- true
		default:
			pending <- false
		}
	}))
	require.True(t, <-pending, "no Committed signal pending when done ran")
}

func testConcurrent(t *testing.T, open Open) {
	l := opened(t, open, partlog.Options{})
	want := concurrentAppends(t, l, 8, 50)
	requireLog(t, l, 1, want)
	// Every entry was in exactly one durable batch, and the batches
	// grouped them (no more batches than entries).
	sizes := l.BatchSizes()
	require.Equal(t, uint64(len(want)), sizes.Sum, "entries over the durable batches")
	require.Positive(t, sizes.Count())
	require.LessOrEqual(t, sizes.Count(), uint64(len(want)))
}

// concurrentAppends runs writers goroutines, each appending perWriter
// entries (Append and Enqueue alternately), and returns the payloads by
// index after checking that no index was given twice and none is missing.
func concurrentAppends(t *testing.T, l partlog.PartitionLog, writers, perWriter int) [][]byte {
	t.Helper()
	var (
		mu      sync.Mutex
		byIndex = map[uint64][]byte{}
		dup     []uint64
		wg      sync.WaitGroup
	)
	record := func(index uint64, p []byte) {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := byIndex[index]; ok {
			dup = append(dup, index)
		}
		byIndex[index] = p
	}
	errs := make(chan error, writers*perWriter)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			appendSome(l, w, perWriter, record, errs)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	require.Empty(t, dup, "indexes given twice")
	total := writers * perWriter
	require.Len(t, byIndex, total)
	want := make([][]byte, total)
	for i := range want {
		p, ok := byIndex[uint64(i+1)]
		require.True(t, ok, "index %d missing", i+1)
		want[i] = p
	}
	return want
}

// appendSome is one writer of concurrentAppends; it returns once all its
// entries are durable.
func appendSome(l partlog.PartitionLog, w, n int, record func(uint64, []byte), errs chan<- error) {
	var done sync.WaitGroup
	for k := range n {
		p := payload(uint64(w*1_000_000+k), 20+k%40)
		if k%2 == 0 {
			index, err := l.Append(p)
			if err != nil {
				errs <- err
				continue
			}
			record(index, p)
			continue
		}
		done.Add(1)
		if err := l.Enqueue(p, func(index uint64) { record(index, p); done.Done() }); err != nil {
			done.Done()
			errs <- err
		}
	}
	done.Wait()
}
