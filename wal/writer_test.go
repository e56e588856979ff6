package wal

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFsyncFailureIsFatal injects an fsync error through the writer's sync
// hook: the batch fails, OnFatal runs once, and the log
// refuses everything after, without ever calling fsync again.
func TestFsyncFailureIsFatal(t *testing.T) {
	dir := t.TempDir()
	var fatal []error
	var fatalMu sync.Mutex
	l, _, err := Open(dir, Options{
		Logf: t.Logf,
		OnFatal: func(err error) {
			fatalMu.Lock()
			fatal = append(fatal, err)
			fatalMu.Unlock()
		},
	})
	require.NoError(t, err)
	appendN(t, l, 5)

	var syncs atomic.Int32
	l.syncHook = func(_, _ uint64, _ func() error) error { // set before the next Append: no race with the writer
		syncs.Add(1)
		return syscall.EIO
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := l.Append([]byte("doomed"))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if errors.Is(err, ErrQueueFull) {
			continue
		}
		require.ErrorIs(t, err, ErrFailed)
	}
	require.Equal(t, int32(1), syncs.Load(), "fsync is never retried")
	require.Equal(t, uint64(5), l.LastIndex(), "nothing after the failure is durable")

	fatalMu.Lock()
	require.Len(t, fatal, 1, "OnFatal runs once")
	require.ErrorIs(t, fatal[0], syscall.EIO)
	fatalMu.Unlock()

	_, err = l.Append([]byte("after"))
	require.ErrorIs(t, err, ErrFailed)
	require.ErrorIs(t, err, syscall.EIO)
	require.ErrorIs(t, l.Enqueue([]byte("after"), func(uint64) { t.Error("done called on a failed log") }), ErrFailed)
	got, err := l.Read(5)
	require.NoError(t, err, "durable entries stay readable")
	require.Equal(t, payloadFor(5), got)

	require.ErrorIs(t, l.Close(), ErrFailed)
	require.Equal(t, int32(1), syncs.Load())

	// A restart re-reads what is on disk; the log opens and chains on.
	l, _, err = Open(dir, testOptions(t, Options{}))
	require.NoError(t, err)
	require.GreaterOrEqual(t, l.LastIndex(), uint64(5))
	require.NoError(t, l.Scan(1, func(uint64, []byte) error { return nil }))
	appendN(t, l, 2)
	require.NoError(t, l.Close())
}

// TestEnqueueFailureSkipsDone: an Enqueue whose batch fails never gets its
// done callback.
func TestEnqueueFailureSkipsDone(t *testing.T) {
	fatal := make(chan error, 1)
	l, _, err := Open(t.TempDir(), Options{Logf: t.Logf, OnFatal: func(err error) { fatal <- err }})
	require.NoError(t, err)
	l.syncHook = func(_, _ uint64, _ func() error) error { return syscall.EIO }
	require.NoError(t, l.Enqueue([]byte("x"), func(uint64) { t.Error("done called for a failed batch") }))
	select {
	case err := <-fatal:
		require.ErrorIs(t, err, syscall.EIO)
	case <-time.After(10 * time.Second):
		t.Fatal("OnFatal not called")
	}
	require.ErrorIs(t, l.Close(), ErrFailed)
}

// BenchmarkAppendParallel measures durable appends/s with group commit:
// par goroutines per core (GOMAXPROCS) call Append with 100-byte payloads
// and each waits for its fsync. par=256 is the reference load. In a closed
// loop like this, half the callers wait in the batch being fsynced while
// the other half gather in the next one, so appends/s is about
// goroutines / (2 × (write + fsync)): it measures the disk's fsync latency
// more than this code. The stubfsync variant replaces only the tail fsync
// (through the test hook) to show the CPU ceiling of the rest.
func BenchmarkAppendParallel(b *testing.B) {
	for _, par := range []int{64, 256, 1024} {
		b.Run(fmt.Sprintf("par=%d", par), func(b *testing.B) { benchAppendParallel(b, par, false) })
	}
	b.Run("par=256/stubfsync", func(b *testing.B) { benchAppendParallel(b, 256, true) })
}

func benchAppendParallel(b *testing.B, par int, stubFsync bool) {
	l, _, err := Open(b.TempDir(), Options{Logf: b.Logf, OnFatal: func(err error) { b.Error(err) }})
	require.NoError(b, err)
	if stubFsync {
		l.syncHook = func(_, _ uint64, _ func() error) error { return nil }
	}
	payload := bytes.Repeat([]byte("p"), 100)
	var batches atomic.Int64
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-l.Committed():
				batches.Add(1)
			case <-stop:
				return
			}
		}
	}()
	b.SetParallelism(par)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := l.Append(payload); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
	if n := batches.Load(); n > 0 {
		b.ReportMetric(float64(b.N)/float64(n), "appends/batch")
	}
	require.NoError(b, l.Close())
}

// BenchmarkAppendSerial is one caller: every append pays a whole fsync.
func BenchmarkAppendSerial(b *testing.B) {
	l, _, err := Open(b.TempDir(), Options{OnFatal: func(err error) { b.Error(err) }})
	require.NoError(b, err)
	payload := bytes.Repeat([]byte("p"), 100)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := l.Append(payload); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
	require.NoError(b, l.Close())
}

// TestOnDurableSeesEveryBatchFirst: the hook gets every entry once, in
// index order, with its payload, and before any caller of that entry
// returns (so a tailing reader fed by it never lags an acknowledgement).
func TestOnDurableSeesEveryBatchFirst(t *testing.T) {
	var mu sync.Mutex
	var seen [][]byte // seen[i-1] is the payload of index i
	l := openLog(t, t.TempDir(), Options{OnDurable: func(first uint64, payloads [][]byte) {
		mu.Lock()
		defer mu.Unlock()
		require.Equal(t, uint64(len(seen)+1), first, "batches arrive in order without gaps")
		seen = append(seen, payloads...)
	}})
	defer l.Close()
	seenUpTo := func(i uint64) bool {
		mu.Lock()
		defer mu.Unlock()
		return uint64(len(seen)) >= i
	}
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				idx, err := l.Append(fmt.Appendf(nil, "w%d-%d", w, i))
				require.NoError(t, err)
				require.True(t, seenUpTo(idx), "index %d acknowledged before OnDurable saw it", idx)
			}
		}()
	}
	wg.Wait()
	require.Len(t, seen, 32*50)
	for i, p := range seen {
		got, err := l.Read(uint64(i + 1))
		require.NoError(t, err)
		require.Equal(t, got, p, "index %d", i+1)
	}
}
