package logtest

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/partlog"
)

// Every acknowledged entry is back after a reopen, and appends continue at
// LastIndex+1 on an unbroken chain (Scan verifies it across the reopen).
func testReopen(t *testing.T, open Open) {
	want := entries(1, 40, 30)
	l := opened(t, open, partlog.Options{})
	var wg sync.WaitGroup
	wg.Add(20)
	for _, p := range want[:20] {
		require.NoError(t, l.Enqueue(p, func(uint64) { wg.Done() }))
	}
	wg.Wait()
	appendAll(t, l, want[20:])
	require.NoError(t, l.Close())

	for round := range 2 {
		l = opened(t, open, partlog.Options{})
		requireLog(t, l, 1, want)
		next := uint64(len(want) + 1)
		index, err := l.Append(payload(next, 30))
		require.NoError(t, err, "round %d", round)
		require.Equal(t, next, index)
		want = append(want, payload(next, 30))
		requireLog(t, l, 1, want)
		requireLog(t, l, next, want[next-1:])
		require.NoError(t, l.Close())
	}
}

// Close returns only after every queued append is durable and its done
// has run.
func testCloseFlushes(t *testing.T, open Open) {
	const n = 200
	want := entries(1, n, 40)
	l := opened(t, open, partlog.Options{})
	var (
		mu   sync.Mutex
		done []uint64
	)
	for _, p := range want {
		require.NoError(t, l.Enqueue(p, func(index uint64) {
			mu.Lock()
			done = append(done, index)
			mu.Unlock()
		}))
	}
	require.NoError(t, l.Close())
	mu.Lock()
	require.Len(t, done, n, "done callbacks run by the time Close returns")
	mu.Unlock()

	l = opened(t, open, partlog.Options{})
	requireLog(t, l, 1, want)
}
