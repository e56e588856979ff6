package wal

import (
	"bytes"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pipe drives the writer's pipeline (writer.go, "Pipeline") through the
// test hooks: it can hold the fsync of one batch until released, fail the
// fsync or the write of a batch, and records the order of sync and write
// events and of acknowledgements.
type pipe struct {
	t *testing.T
	l *Log

	// Set before the log is used (the hooks read them on other goroutines).
	holdSync  uint64           // first index of the batch whose fsync waits for release
	failSync  map[uint64]error // by first index: the fsync's result instead of syncing
	failWrite map[uint64]error // by first index: the write's result instead of writing
	holdWrite uint64           // first index of the batch whose write waits for releaseWrite

	entered      chan uint64    // holdSync's fsync has started
	release      chan error     // its result: nil syncs for real
	wroteCh      chan [2]uint64 // every batch write: first, last
	releaseWrite chan struct{}
	fatal        chan error
	acked        chan uint64 // every done callback

	mu      sync.Mutex
	events  []string // "sync 4-4", "synced 4-4", "write 5-5", in order
	dones   []uint64 // done callbacks, in call order
	durable []uint64 // every index OnDurable saw, in order
}

func newPipe(t *testing.T, o Options, setup func(p *pipe)) *pipe {
	p := &pipe{t: t, failSync: map[uint64]error{}, failWrite: map[uint64]error{},
		entered: make(chan uint64, 1), release: make(chan error, 1), wroteCh: make(chan [2]uint64, 1024),
		releaseWrite: make(chan struct{}), fatal: make(chan error, 4), acked: make(chan uint64, 1024)}
	if setup != nil {
		setup(p)
	}
	o.Logf = t.Logf
	o.OnFatal = func(err error) { p.fatal <- err }
	o.OnDurable = func(first uint64, payloads [][]byte) {
		p.mu.Lock()
		defer p.mu.Unlock()
		for i := range payloads {
			p.durable = append(p.durable, first+uint64(i))
		}
	}
	l, _, err := Open(t.TempDir(), o)
	require.NoError(t, err)
	p.l = l
	l.syncHook = p.syncHook
	l.writeHook = p.writeHook
	return p
}

func (p *pipe) event(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.events = append(p.events, fmt.Sprintf(format, args...))
}

func (p *pipe) syncHook(first, last uint64, sync func() error) error {
	p.event("sync %d-%d", first, last)
	var err error
	switch e, failed := p.failSync[first]; {
	case first == p.holdSync:
		p.entered <- first
		if err = <-p.release; err == nil {
			err = sync()
		}
	case failed:
		err = e
	default:
		err = sync()
	}
	p.event("synced %d-%d", first, last)
	return err
}

func (p *pipe) writeHook(first, last uint64) error {
	p.event("write %d-%d", first, last)
	p.wroteCh <- [2]uint64{first, last}
	if first == p.holdWrite {
		<-p.releaseWrite
	}
	return p.failWrite[first]
}

// enqueue queues payload, recording its acknowledgement.
func (p *pipe) enqueue(payload []byte) {
	require.NoError(p.t, p.l.Enqueue(payload, func(i uint64) {
		p.mu.Lock()
		p.dones = append(p.dones, i)
		p.mu.Unlock()
		p.acked <- i
	}))
}

// await receives from ch; the deadline only turns a hang into a failure.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s", what)
		panic("unreachable")
	}
}

// waitWrite returns the write of the batch starting at first.
func (p *pipe) waitWrite(first uint64) [2]uint64 {
	p.t.Helper()
	for {
		if w := await(p.t, p.wroteCh, fmt.Sprintf("write of index %d", first)); w[0] == first {
			return w
		}
	}
}

func (p *pipe) waitAcked(index uint64) {
	p.t.Helper()
	for await(p.t, p.acked, fmt.Sprintf("done(%d)", index)) != index {
	}
}

func (p *pipe) snapshot() (events []string, dones, durable []uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.events), slices.Clone(p.dones), slices.Clone(p.durable)
}

// syncStarts lists the first index of every fsync started, in order.
func syncStarts(events []string) []uint64 {
	var out []uint64
	for _, e := range events {
		var first, last uint64
		if _, err := fmt.Sscanf(e, "sync %d-%d", &first, &last); err == nil {
			out = append(out, first)
		}
	}
	return out
}

// TestPipelineWritesNextBatchDuringFsync: while batch 4's fsync is in
// flight, batch 5 is framed and written; 5's fsync starts only after 4's
// completed; nothing is acknowledged before its own fsync, and the
// acknowledgements come in index order.
func TestPipelineWritesNextBatchDuringFsync(t *testing.T) {
	p := newPipe(t, Options{}, func(p *pipe) { p.holdSync = 4 })
	l := p.l
	appendN(t, l, 3)
	p.enqueue(payloadFor(4))
	require.Equal(t, uint64(4), await(t, p.entered, "fsync of 4"))
	p.enqueue(payloadFor(5))
	require.Equal(t, [2]uint64{5, 5}, p.waitWrite(5), "5 is written while 4's fsync runs")

	_, dones, durable := p.snapshot()
	require.Empty(t, dones, "nothing acknowledged before its fsync")
	require.Equal(t, []uint64{1, 2, 3}, durable)
	require.Equal(t, uint64(3), l.LastIndex())

	p.release <- nil
	p.waitAcked(5)
	events, dones, durable := p.snapshot()
	require.Equal(t, []uint64{4, 5}, dones)
	require.Equal(t, []uint64{1, 2, 3, 4, 5}, durable)
	require.Equal(t, []string{"sync 4-4", "write 5-5", "synced 4-4", "sync 5-5", "synced 5-5"}, events[len(events)-5:],
		"one fsync at a time, the next one started only after the previous completed")
	requireEntries(t, l, 1, 5)
	require.NoError(t, l.Close())
}

// TestPipelineFailure: the first write or fsync error is fatal even when
// the next batch is already written or an fsync is in flight. Nothing
// after the error is acknowledged, no fsync is started after it (a retry
// could report success for dropped pages), later appends are refused,
// and a restart chains on from what is on disk.
func TestPipelineFailure(t *testing.T) {
	for _, tc := range []struct {
		name      string
		setup     func(p *pipe)
		release   error    // result of batch 4's held fsync (nil: real sync)
		failsAt5  bool     // the log has failed once 5 is written: 6 is refused
		wantAcked []uint64 // done callbacks, in order
		wantSyncs []uint64 // fsyncs started, by first index
	}{{
		name:      "fsync of 4 fails after 5 is written",
		release:   syscall.EIO,
		wantAcked: nil,
		wantSyncs: []uint64{1, 2, 3, 4},
	}, {
		name:      "write of 5 fails while 4's fsync runs",
		setup:     func(p *pipe) { p.failWrite[5] = syscall.EIO },
		failsAt5:  true,
		wantAcked: nil, // 4's fsync succeeds, but it completes after the failure
		wantSyncs: []uint64{1, 2, 3, 4},
	}, {
		name:      "fsync of 5 fails after 4 is acknowledged",
		setup:     func(p *pipe) { p.failSync[5] = syscall.EIO },
		wantAcked: []uint64{4},
		wantSyncs: []uint64{1, 2, 3, 4, 5},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipe(t, Options{}, func(p *pipe) {
				p.holdSync = 4
				if tc.setup != nil {
					tc.setup(p)
				}
			})
			l := p.l
			appendN(t, l, 3)
			p.enqueue(payloadFor(4))
			await(t, p.entered, "fsync of 4")
			p.enqueue(payloadFor(5))
			p.waitWrite(5)
			if tc.failsAt5 {
				require.ErrorIs(t, await(t, p.fatal, "OnFatal"), syscall.EIO)
				require.ErrorIs(t, l.Enqueue(payloadFor(6), nil), ErrFailed)
				p.release <- tc.release
			} else {
				p.enqueue(payloadFor(6)) // waits in the queue: one batch is ready already
				p.release <- tc.release
				require.ErrorIs(t, await(t, p.fatal, "OnFatal"), syscall.EIO)
			}

			_, err := l.Append([]byte("after"))
			require.ErrorIs(t, err, ErrFailed)
			require.ErrorIs(t, err, syscall.EIO)
			require.ErrorIs(t, l.Close(), ErrFailed) // the writer has stopped: everything is settled

			events, dones, durable := p.snapshot()
			last := uint64(3 + len(tc.wantAcked))
			require.Equal(t, tc.wantAcked, dones)
			require.Equal(t, last, l.LastIndex())
			require.Equal(t, last, uint64(len(durable)), "OnDurable saw exactly the acknowledged entries")
			require.Equal(t, tc.wantSyncs, syncStarts(events))
			require.Len(t, p.fatal, 0, "OnFatal runs once")

			reopened := openLog(t, l.dir, Options{})
			require.GreaterOrEqual(t, reopened.LastIndex(), last)
			require.NoError(t, reopened.Scan(1, func(uint64, []byte) error { return nil }), "the chain holds")
			appendN(t, reopened, 1)
			require.NoError(t, reopened.Close())
		})
	}
}

// TestPipelineSegmentRoll: the batch written while the previous one's
// fsync is in flight starts a new segment file. The in-flight fsync still
// has its file (the old tail stays open until it completes, or the fsync
// would fail), both batches are acknowledged in order, and the log
// verifies and reopens with the new segment.
func TestPipelineSegmentRoll(t *testing.T) {
	// Segments of 4 KiB; an entry is its payload + 24 (frame header) + 2
	// (length prefix). Five entries of 300 B and batch 6 (300 B) fill
	// 1,956 B; batch 7 crosses 4,096.
	for _, tc := range []struct {
		name     string
		multi    bool  // build an acknowledged batch of 4 first, so 3 new arrivals start the next batch
		next     []int // payload sizes of the batch written during 6's fsync
		wantSegs []string
	}{{
		name:     "the next batch's only entry ends the segment",
		next:     []int{2200},
		wantSegs: []string{segmentName(1), segmentName(8)},
	}, {
		name:     "the segment ends inside the next batch",
		multi:    true,
		next:     []int{1500, 1500, 1500},
		wantSegs: []string{segmentName(1), segmentName(9)},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipe(t, Options{SegmentSize: 4096}, func(p *pipe) {
				p.holdSync = 6
				if tc.multi {
					p.holdWrite = 1
				}
			})
			l := p.l
			payload := func(n int) []byte { return bytes.Repeat([]byte{'x'}, n) }
			if tc.multi {
				p.enqueue(payload(300))
				p.waitWrite(1) // the writer waits inside batch 1's write
				for range 4 {
					p.enqueue(payload(300))
				}
				close(p.releaseWrite)
				p.waitAcked(5)
			} else {
				for range 5 {
					_, err := l.Append(payload(300))
					require.NoError(t, err)
				}
			}
			p.enqueue(payload(300))
			await(t, p.entered, "fsync of 6")
			for _, n := range tc.next {
				p.enqueue(payload(n))
			}
			last := 6 + uint64(len(tc.next))
			require.Equal(t, [2]uint64{7, last}, p.waitWrite(7), "the next batch is written during 6's fsync")
			require.Equal(t, tc.wantSegs, segmentNames(t, l.dir), "and started a segment")
			p.release <- nil
			p.waitAcked(last)
			_, dones, _ := p.snapshot()
			require.Equal(t, last, dones[len(dones)-1])
			require.True(t, slices.IsSorted(dones))
			require.Len(t, p.fatal, 0)
			require.Equal(t, last, l.LastIndex())
			require.NoError(t, l.Close())
			requireVerifyClean(t, l.dir, 1, last)

			reopened := openLog(t, l.dir, Options{SegmentSize: 4096})
			require.Equal(t, last, reopened.LastIndex())
			require.NoError(t, reopened.Scan(1, func(uint64, []byte) error { return nil }))
			require.NoError(t, reopened.Close())
		})
	}
}

// TestPipelineAcksInOrder: under concurrent Append and Enqueue, with
// segments rolling, every acknowledgement comes after its own fsync (OnDurable
// and LastIndex already cover it) and done callbacks come in index order.
func TestPipelineAcksInOrder(t *testing.T) {
	var durableUpTo atomic.Uint64
	var dones []uint64 // done callbacks run on the writer goroutine only
	dir := t.TempDir()
	l := openLog(t, dir, Options{SegmentSize: 16 << 10, OnDurable: func(first uint64, payloads [][]byte) {
		if want := durableUpTo.Load() + 1; first != want {
			t.Errorf("OnDurable batch starts at %d, want %d", first, want)
		}
		durableUpTo.Store(first + uint64(len(payloads)) - 1)
	}})
	const workers, each = 32, 200
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				p := fmt.Appendf(nil, "w%d-%d", w, i)
				if i%2 == 0 {
					idx, err := l.Append(p)
					if err != nil || idx > durableUpTo.Load() || idx > l.LastIndex() {
						t.Errorf("Append = %d, %v; durable up to %d, LastIndex %d", idx, err, durableUpTo.Load(), l.LastIndex())
					}
					continue
				}
				wg.Add(1)
				if err := l.Enqueue(p, func(idx uint64) {
					defer wg.Done()
					if idx > durableUpTo.Load() || idx > l.LastIndex() {
						t.Errorf("done(%d) before it is durable", idx)
					}
					dones = append(dones, idx)
				}); err != nil {
					t.Error(err)
					wg.Done()
				}
			}
		}()
	}
	wg.Wait()
	require.NoError(t, l.Close()) // orders the writer's appends to dones before the reads below
	require.Len(t, dones, workers*each/2)
	require.True(t, slices.IsSorted(dones), "done callbacks in index order")
	require.Equal(t, uint64(workers*each), durableUpTo.Load())
	requireVerifyClean(t, dir, 1, workers*each)
	require.Greater(t, len(segmentNames(t, dir)), 1, "segments rolled")
}
