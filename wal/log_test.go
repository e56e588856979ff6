package wal

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	tidwall "github.com/tidwall/wal"
)

// testOptions fails the test on a fatal error and logs to t.
func testOptions(t testing.TB, o Options) Options {
	t.Helper()
	if o.OnFatal == nil {
		o.OnFatal = func(err error) { t.Errorf("unexpected OnFatal: %v", err) }
	}
	if o.Logf == nil {
		o.Logf = t.Logf
	}
	return o
}

func openLog(t testing.TB, dir string, o Options) *Log {
	t.Helper()
	l, rep, err := Open(dir, testOptions(t, o))
	require.NoError(t, err)
	require.Zero(t, rep, "nothing to repair")
	return l
}

func payloadFor(i uint64) []byte {
	return fmt.Appendf(nil, "entry-%d-%s", i, string(make([]byte, int(i%7))))
}

// appendN appends payloadFor(i) for the next n indexes.
func appendN(t testing.TB, l *Log, n int) {
	t.Helper()
	for range n {
		next := l.LastIndex() + 1
		got, err := l.Append(payloadFor(next))
		require.NoError(t, err)
		require.Equal(t, next, got)
	}
}

// requireEntries checks that the log holds payloadFor(i) for first..last,
// through Read and through Scan, chain included.
func requireEntries(t testing.TB, l *Log, first, last uint64) {
	t.Helper()
	require.Equal(t, first, l.FirstIndex())
	require.Equal(t, last, l.LastIndex())
	for i := first; i <= last; i++ {
		got, err := l.Read(i)
		require.NoError(t, err)
		require.Equal(t, payloadFor(i), got, "index %d", i)
	}
	next := first
	require.NoError(t, l.Scan(first, func(i uint64, p []byte) error {
		require.Equal(t, next, i)
		require.Equal(t, payloadFor(i), p)
		next++
		return nil
	}))
	require.Equal(t, last+1, next)
}

func segmentNames(t testing.TB, dir string) []string {
	t.Helper()
	segs, err := listSegments(dir)
	require.NoError(t, err)
	names := make([]string, len(segs))
	for i, s := range segs {
		names[i] = s.name
	}
	return names
}

func requireVerifyClean(t testing.TB, dir string, first, last uint64) {
	t.Helper()
	rep, err := Verify(dir)
	require.NoError(t, err)
	require.Empty(t, rep.Problem)
	require.Equal(t, first, rep.FirstIndex)
	require.Equal(t, last, rep.LastIndex)
	require.Equal(t, last+1-first, rep.Records)
}

func TestNewLogIsEmpty(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "wal") // Open creates parents
	l := openLog(t, dir, Options{})
	require.Equal(t, uint64(1), l.FirstIndex())
	require.Equal(t, uint64(0), l.LastIndex())
	_, err := l.Read(1)
	require.ErrorIs(t, err, ErrOutOfRange)
	_, err = l.Read(0)
	require.ErrorIs(t, err, ErrOutOfRange)
	require.NoError(t, l.Scan(1, func(uint64, []byte) error { t.Fatal("no entries"); return nil }))
	require.NoError(t, l.Close())
	requireVerifyClean(t, dir, 1, 0)
}

func TestAppendReadScanRoundTrip(t *testing.T) {
	tests := []struct {
		name     string
		payloads [][]byte
	}{
		{"one", [][]byte{[]byte("a")}},
		{"empty payloads", [][]byte{{}, nil, {}}},
		{"binary", [][]byte{{0xF7, 0xD1, 1, 0}, make([]byte, 100), {0xff}}},
		{"large", [][]byte{make([]byte, 1<<20), []byte("after"), make([]byte, MaxPayload)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			l := openLog(t, dir, Options{})
			for i, p := range tt.payloads {
				idx, err := l.Append(p)
				require.NoError(t, err)
				require.Equal(t, uint64(i+1), idx)
			}
			check := func(l *Log) {
				for i, p := range tt.payloads {
					got, err := l.Read(uint64(i + 1))
					require.NoError(t, err)
					require.Equal(t, len(p), len(got))
					require.Equal(t, string(p), string(got))
				}
				var seen []uint64
				require.NoError(t, l.Scan(1, func(i uint64, p []byte) error {
					seen = append(seen, i)
					require.Equal(t, string(tt.payloads[i-1]), string(p))
					return nil
				}))
				require.Len(t, seen, len(tt.payloads))
			}
			check(l)
			require.NoError(t, l.Close())
			l = openLog(t, dir, Options{})
			check(l)
			require.NoError(t, l.Close())
			requireVerifyClean(t, dir, 1, uint64(len(tt.payloads)))
		})
	}
}

func TestReopenContinuesChain(t *testing.T) {
	dir := t.TempDir()
	for round := range 4 {
		l := openLog(t, dir, Options{})
		require.Equal(t, uint64(round*10), l.LastIndex())
		appendN(t, l, 10)
		requireEntries(t, l, 1, uint64(round*10+10))
		require.NoError(t, l.Close())
	}
	requireVerifyClean(t, dir, 1, 40)
}

func TestScanFromMiddleAndErrors(t *testing.T) {
	l := openLog(t, t.TempDir(), Options{})
	defer l.Close()
	appendN(t, l, 20)
	var got []uint64
	require.NoError(t, l.Scan(15, func(i uint64, p []byte) error {
		got = append(got, i)
		return nil
	}))
	require.Equal(t, []uint64{15, 16, 17, 18, 19, 20}, got)

	require.NoError(t, l.Scan(21, func(uint64, []byte) error { t.Fatal("nothing past the end"); return nil }))
	require.ErrorIs(t, l.Scan(0, func(uint64, []byte) error { return nil }), ErrOutOfRange)

	stop := errors.New("stop")
	n := 0
	require.ErrorIs(t, l.Scan(1, func(uint64, []byte) error { n++; return stop }), stop)
	require.Equal(t, 1, n)

	// fn may scribble on the payload without damaging the log.
	require.NoError(t, l.Scan(1, func(_ uint64, p []byte) error { clear(p); return nil }))
	requireEntries(t, l, 1, 20)
}

func TestManySegments(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 1024}
	l := openLog(t, dir, opts)
	appendN(t, l, 500)
	requireEntries(t, l, 1, 500)
	require.NoError(t, l.Close())
	names := segmentNames(t, dir)
	require.Greater(t, len(names), 10)
	require.Equal(t, segmentName(1), names[0])

	l = openLog(t, dir, opts)
	requireEntries(t, l, 1, 500)
	appendN(t, l, 100)
	requireEntries(t, l, 1, 600)
	require.NoError(t, l.Close())
	requireVerifyClean(t, dir, 1, 600)
}

// TestSegmentModelMatchesTidwall drives batches of random sizes through
// segment sizes around the entry size. commit mirrors tidwall's rule for
// starting segment files and checks the mirror after each batch; a mismatch
// would call OnFatal, which fails the test.
func TestSegmentModelMatchesTidwall(t *testing.T) {
	for _, segSize := range []int{1, 97, 500, 4096} {
		t.Run(fmt.Sprint(segSize), func(t *testing.T) {
			dir := t.TempDir()
			rng := rand.New(rand.NewPCG(uint64(segSize), 1))
			var next uint64 = 1
			fatal := make(chan error, 1)
			for range 3 { // reopen in between: tidwall reloads the tail
				l := openLog(t, dir, Options{SegmentSize: segSize, OnFatal: func(err error) { fatal <- err }})
				for range 10 {
					burst := 1 + rng.IntN(20)
					done := make(chan struct{}, burst)
					for range burst {
						p := make([]byte, rng.IntN(200))
						require.NoError(t, l.Enqueue(p, func(uint64) { done <- struct{}{} }))
					}
					for range burst {
						select {
						case <-done:
						case err := <-fatal:
							t.Fatalf("writer failed: %v", err)
						}
					}
					next += uint64(burst)
				}
				require.Equal(t, next-1, l.LastIndex())
				require.NoError(t, l.Close())
			}
			rep, err := Verify(dir)
			require.NoError(t, err)
			require.Empty(t, rep.Problem)
			require.Equal(t, next-1, rep.LastIndex)
		})
	}
}

func TestTruncateFront(t *testing.T) {
	dir := t.TempDir()
	opts := Options{SegmentSize: 512}
	l := openLog(t, dir, opts)
	appendN(t, l, 300)
	before := segmentNames(t, dir)
	require.Greater(t, len(before), 10)

	require.NoError(t, l.TruncateFront(1), "no-op")
	require.Equal(t, uint64(1), l.FirstIndex())

	require.NoError(t, l.TruncateFront(150))
	first := l.FirstIndex()
	require.LessOrEqual(t, first, uint64(150), "entries >= index remain")
	require.Greater(t, first, uint64(1), "whole segments below were dropped")
	require.Equal(t, segmentName(first), segmentNames(t, dir)[0])
	requireEntries(t, l, first, 300)
	_, err := l.Read(first - 1)
	require.ErrorIs(t, err, ErrOutOfRange)
	require.ErrorIs(t, l.Scan(first-1, func(uint64, []byte) error { return nil }), ErrOutOfRange)

	require.NoError(t, l.TruncateFront(100), "below FirstIndex is a no-op")
	require.Equal(t, first, l.FirstIndex())
	require.ErrorIs(t, l.TruncateFront(302), ErrOutOfRange)

	// Up to LastIndex()+1: only the tail segment stays.
	require.NoError(t, l.TruncateFront(301))
	names := segmentNames(t, dir)
	require.Len(t, names, 1)
	first = l.FirstIndex()
	requireEntries(t, l, first, 300)
	appendN(t, l, 50)
	requireEntries(t, l, first, 350)
	require.NoError(t, l.Close())

	l = openLog(t, dir, opts)
	requireEntries(t, l, first, 350)
	require.NoError(t, l.Close())
	requireVerifyClean(t, dir, first, 350)
}

// TestConcurrentAppend: segment rollover, group commit and the chain under
// concurrent appenders.
func TestConcurrentAppend(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{SegmentSize: 64 << 10, MaxBatch: 64})
	const workers, each = 64, 100
	var mu sync.Mutex
	byIndex := map[uint64]string{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				p := fmt.Sprintf("w%d-%d", w, i)
				if i%2 == 0 {
					idx, err := l.Append([]byte(p))
					require.NoError(t, err)
					require.LessOrEqual(t, idx, l.LastIndex(), "durable before Append returns")
					mu.Lock()
					byIndex[idx] = p
					mu.Unlock()
					continue
				}
				wg.Add(1)
				require.NoError(t, l.Enqueue([]byte(p), func(idx uint64) {
					mu.Lock()
					byIndex[idx] = p
					mu.Unlock()
					wg.Done()
				}))
			}
		}()
	}
	wg.Wait()
	const n = workers * each
	require.Len(t, byIndex, n, "every index exactly once")
	require.Equal(t, uint64(n), l.LastIndex())
	next := uint64(1)
	require.NoError(t, l.Scan(1, func(i uint64, p []byte) error {
		require.Equal(t, next, i)
		require.Equal(t, byIndex[i], string(p))
		next++
		return nil
	}))
	require.Equal(t, uint64(n+1), next)
	require.NoError(t, l.Close())
	requireVerifyClean(t, dir, 1, n)
}

func TestEnqueueDoneInOrder(t *testing.T) {
	l := openLog(t, t.TempDir(), Options{MaxBatch: 7})
	var got []uint64 // only the writer goroutine appends
	var wg sync.WaitGroup
	for i := range 1000 {
		wg.Add(1)
		require.NoError(t, l.Enqueue([]byte{byte(i)}, func(idx uint64) {
			if idx > l.LastIndex() {
				t.Errorf("done(%d) before LastIndex %d covers it", idx, l.LastIndex())
			}
			got = append(got, idx)
			wg.Done()
		}))
	}
	wg.Wait()
	require.Len(t, got, 1000)
	for i, idx := range got {
		require.Equal(t, uint64(i+1), idx)
	}
	// Each batch is one fsync and holds at most MaxBatch appends.
	require.GreaterOrEqual(t, l.Batches(), uint64(1000/7+1))
	require.LessOrEqual(t, l.Batches(), uint64(1000))
	require.NoError(t, l.Close())
}

func TestQueueFull(t *testing.T) {
	l := openLog(t, t.TempDir(), Options{MaxQueue: 10})
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	// Hold the writer inside its first write: it takes nothing from the
	// queue until released (an fsync in flight would not stop it from
	// preparing the next batch, see writer.go "Pipeline").
	l.writeHook = func(first, last uint64) error {
		select {
		case entered <- struct{}{}:
			<-release
		default:
		}
		return nil
	}
	var wg sync.WaitGroup
	wg.Add(1)
	require.NoError(t, l.Enqueue([]byte("first"), func(uint64) { wg.Done() }))
	<-entered
	for i := range 10 {
		wg.Add(1)
		require.NoError(t, l.Enqueue([]byte{byte(i)}, func(uint64) { wg.Done() }))
	}
	require.ErrorIs(t, l.Enqueue([]byte("x"), nil), ErrQueueFull)
	_, err := l.Append([]byte("x"))
	require.ErrorIs(t, err, ErrQueueFull)
	close(release)
	wg.Wait()
	require.Equal(t, uint64(11), l.LastIndex())
	appendN(t, l, 1)
	require.NoError(t, l.Close())
}

func TestQueueBytesLimit(t *testing.T) {
	l := openLog(t, t.TempDir(), Options{MaxQueueBytes: 100})
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	l.writeHook = func(first, last uint64) error { // as in TestQueueFull
		select {
		case entered <- struct{}{}:
			<-release
		default:
		}
		return nil
	}
	require.NoError(t, l.Enqueue([]byte("first"), nil))
	<-entered
	require.NoError(t, l.Enqueue(make([]byte, 1000), nil), "an empty queue takes any payload")
	require.ErrorIs(t, l.Enqueue([]byte("x"), nil), ErrQueueFull)
	close(release)
	require.NoError(t, l.Close())
	require.Equal(t, uint64(2), l.LastIndex())
}

func TestErrorsAfterClose(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{})
	appendN(t, l, 3)
	_, err := l.Append(make([]byte, MaxPayload+1))
	require.ErrorIs(t, err, ErrTooLarge)
	require.ErrorIs(t, l.Enqueue(make([]byte, MaxPayload+1), nil), ErrTooLarge)
	require.NoError(t, l.Close())
	require.ErrorIs(t, l.Close(), ErrClosed)
	_, err = l.Append([]byte("x"))
	require.ErrorIs(t, err, ErrClosed)
	require.ErrorIs(t, l.Enqueue([]byte("x"), nil), ErrClosed)
	_, err = l.Read(1)
	require.ErrorIs(t, err, ErrClosed)
	require.ErrorIs(t, l.Scan(1, func(uint64, []byte) error { return nil }), ErrClosed)
	require.ErrorIs(t, l.TruncateFront(2), ErrClosed)
}

func TestCloseDrainsQueue(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{})
	done := 0
	for i := range 500 {
		require.NoError(t, l.Enqueue([]byte{byte(i)}, func(uint64) { done++ }))
	}
	require.NoError(t, l.Close())
	require.Equal(t, 500, done)
	requireVerifyClean(t, dir, 1, 500)
}

func TestSecondOpenIsRefused(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{})
	_, _, err := Open(dir, testOptions(t, Options{}))
	require.ErrorContains(t, err, "lock")
	require.NoError(t, l.Close())
	l = openLog(t, dir, Options{})
	require.NoError(t, l.Close())
}

func TestCommittedSignal(t *testing.T) {
	l := openLog(t, t.TempDir(), Options{})
	defer l.Close()
	appendN(t, l, 1)
	select {
	case <-l.Committed():
	default:
		t.Fatal("no signal after a durable batch")
	}
	// A tailing reader: wait, scan from where it left off.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		next := uint64(1)
		for next <= 200 {
			<-l.Committed()
			require.NoError(t, l.Scan(next, func(i uint64, p []byte) error {
				require.Equal(t, next, i)
				next++
				return nil
			}))
		}
	}()
	appendN(t, l, 199)
	wg.Wait()
}

func TestOpenIgnoresForeignFiles(t *testing.T) {
	dir := t.TempDir()
	l := openLog(t, dir, Options{})
	appendN(t, l, 3)
	require.NoError(t, l.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "README"), []byte("x"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, segmentName(1)+".7.broken"), []byte("x"), 0o600))
	l = openLog(t, dir, Options{})
	requireEntries(t, l, 1, 3)
	require.NoError(t, l.Close())

	require.NoError(t, os.WriteFile(filepath.Join(dir, segmentName(2)+".START"), nil, 0o600))
	_, _, err := Open(dir, testOptions(t, Options{}))
	require.ErrorContains(t, err, ".START")
}

// TailBytes follows the tail segment: the file's bytes and a position per
// entry before the first write, and the room tidwall reserved for it
// (SegmentSize + TailReserve) once written, across a segment roll and a
// reopen; DropReadCache leaves the log readable.
func TestTailBytesAndDropReadCache(t *testing.T) {
	dir := t.TempDir()
	l, _, err := Open(dir, Options{SegmentSize: 4096})
	require.NoError(t, err)
	tailSize := func(written bool) int64 {
		st, err := l.tail.Stat()
		require.NoError(t, err)
		segs, err := listSegments(dir)
		require.NoError(t, err)
		tailFirst := segs[len(segs)-1].first
		n := int64(0)
		require.NoError(t, l.Scan(l.FirstIndex(), func(i uint64, _ []byte) error {
			if i >= tailFirst {
				n++
			}
			return nil
		}))
		held := st.Size()
		if written {
			held = max(held, 4096+tidwall.TailReserve)
		}
		return held + tidwallPosBytes*n
	}
	require.Equal(t, tailSize(false), l.TailBytes())
	for i := range 200 {
		_, err := l.Append(make([]byte, 50+i%7))
		require.NoError(t, err)
		require.Equal(t, tailSize(true), l.TailBytes(), "after append %d", i)
	}
	require.Less(t, l.TailBytes(), int64(4096+tidwall.TailReserve+tidwallPosBytes*200), "the segment rolled")
	n := 0
	require.NoError(t, l.Scan(1, func(uint64, []byte) error { n++; return nil }))
	l.DropReadCache()
	m := 0
	require.NoError(t, l.Scan(1, func(uint64, []byte) error { m++; return nil }))
	require.Equal(t, 200, n)
	require.Equal(t, n, m)
	require.NoError(t, l.Close())
	l, _, err = Open(dir, Options{SegmentSize: 4096})
	require.NoError(t, err)
	defer l.Close()
	require.Equal(t, tailSize(false), l.TailBytes(), "reopened: nothing written yet")
	_, err = l.Append([]byte("x"))
	require.NoError(t, err)
	require.Equal(t, tailSize(true), l.TailBytes())
}
