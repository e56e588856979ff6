package wal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Group commit.
//
// Appenders put requests into a FIFO of batches under q.mu; the one writer
// goroutine takes the oldest batch, frames it, writes it with one tidwall
// WriteBatch and one fsync, and only then publishes LastIndex and wakes the
// batch's callers. While it writes and fsyncs, new arrivals collect in the
// next batch, so batches grow with load and no timer is needed: an idle log
// writes a lone append at once, a busy one amortizes each fsync over up to
// MaxBatch appends.
//
// Indexes are handed out at enqueue time, in queue order, and the writer
// writes batches in the same order, so request i of a batch that starts at
// first gets index first+i. The writer checks this against tidwall.

// request is one payload waiting for the writer.
type request struct {
	payload []byte
	done    func(index uint64) // Enqueue's callback; nil for Append
}

// signal tells the Append callers of one batch that it is durable (err nil)
// or failed. It is apart from batch so that the writer can reuse the batch
// while callers are still waking up and reading err.
type signal struct {
	ch  chan struct{} // closed exactly once
	err error         // written before ch is closed
}

// batch is a run of requests with consecutive indexes, written with one
// WriteBatch and one fsync.
type batch struct {
	first uint64
	reqs  []request
	bytes int64   // payload bytes in reqs
	sig   *signal // nil until an Append joins the batch
}

var batchPool = sync.Pool{New: func() any { return &batch{reqs: make([]request, 0, 256)} }}

// queue holds the appends waiting for the writer. Its limits are
// Options.MaxQueue requests and Options.MaxQueueBytes payload bytes.
type queue struct {
	mu      sync.Mutex
	pending []*batch // pending[head:] wait, oldest first
	head    int
	queued  int   // requests in pending[head:]
	bytes   int64 // payload bytes in pending[head:]
	next    uint64
	closed  bool
	failed  error         // first write/fsync error; set once
	wake    chan struct{} // 1-buffered: work arrived or Close was called
}

func (q *queue) init(next uint64) {
	q.next = next
	q.wake = make(chan struct{}, 1)
}

// kick wakes the writer if it is waiting. A kick that finds the buffer full
// is redundant: the writer rechecks the queue after every wake-up.
func (q *queue) kick() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *queue) failure() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.failed
}

// Append writes payload as the next entry and returns its index once the
// entry is durable: written and fsynced. It returns ErrQueueFull at once when
// the queue is at its limits, ErrTooLarge, ErrClosed, or an error wrapping
// ErrFailed after a write or fsync failure (the entry may or may not be on
// disk then; the log is dead). As with Enqueue, the log owns payload after
// the call (Options.OnDurable may keep it): do not modify it.
func (l *Log) Append(payload []byte) (uint64, error) {
	index, sig, err := l.enqueue(payload, nil, true)
	if err != nil {
		return 0, err
	}
	<-sig.ch
	if sig.err != nil {
		return 0, sig.err
	}
	return index, nil
}

// Enqueue queues payload as the next entry and returns without waiting. done
// (which may be nil) is called with the entry's index on the writer
// goroutine after the fsync that makes it durable, in index order; it must
// not block, or it stalls every append. If the log fails, done is never
// called and OnFatal reports the failure. The log owns payload after the
// call: do not modify it. Errors are those of Append, returned at once.
func (l *Log) Enqueue(payload []byte, done func(index uint64)) error {
	_, _, err := l.enqueue(payload, done, false)
	return err
}

func (l *Log) enqueue(payload []byte, done func(uint64), wait bool) (uint64, *signal, error) {
	if len(payload) > MaxPayload {
		return 0, nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(payload), MaxPayload)
	}
	size := int64(len(payload))
	q := &l.q
	q.mu.Lock()
	switch {
	case q.failed != nil:
		err := q.failed
		q.mu.Unlock()
		return 0, nil, fmt.Errorf("%w: %w", ErrFailed, err)
	case q.closed:
		q.mu.Unlock()
		return 0, nil, ErrClosed
	case q.queued >= l.opts.MaxQueue, q.queued > 0 && q.bytes+size > l.opts.MaxQueueBytes:
		q.mu.Unlock()
		return 0, nil, ErrQueueFull
	}
	var b *batch
	if n := len(q.pending); n > q.head {
		b = q.pending[n-1]
		if len(b.reqs) >= l.opts.MaxBatch || b.bytes+size > maxBatchBytes {
			b = nil
		}
	}
	if b == nil {
		b = batchPool.Get().(*batch)
		b.first = q.next
		q.pending = append(q.pending, b)
	}
	index := q.next
	q.next++
	b.reqs = append(b.reqs, request{payload: payload, done: done})
	b.bytes += size
	var sig *signal
	if wait {
		if b.sig == nil {
			b.sig = &signal{ch: make(chan struct{})}
		}
		sig = b.sig
	}
	wasIdle := q.queued == 0
	q.queued++
	q.bytes += size
	q.mu.Unlock()
	if wasIdle {
		q.kick()
	}
	return index, sig, nil
}

// take removes and returns the oldest waiting batch, blocking until there
// is one. It returns nil when the queue is empty and will stay so (closed or
// failed).
func (q *queue) take() *batch {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.head == len(q.pending) {
		if q.closed || q.failed != nil {
			return nil
		}
		q.mu.Unlock()
		<-q.wake
		q.mu.Lock()
	}
	b := q.pending[q.head]
	q.pending[q.head] = nil
	q.head++
	if q.head == len(q.pending) {
		q.pending, q.head = q.pending[:0], 0
	}
	q.queued -= len(b.reqs)
	q.bytes -= b.bytes
	return b
}

// run is the writer goroutine.
func (l *Log) run() {
	defer close(l.stopped)
	for {
		b := l.q.take()
		if b == nil {
			return
		}
		err := l.q.failure()
		if err == nil {
			if err = l.commit(b); err != nil {
				l.fail(err)
			}
		}
		if err != nil {
			err = fmt.Errorf("%w: %w", ErrFailed, err)
		}
		l.finish(b, err)
	}
}

// commit makes batch b durable: frame, one WriteBatch, one fsync of the tail
// segment, and an fsync of the directory if tidwall started a new segment
// file. Only then does it publish LastIndex.
func (l *Log) commit(b *batch) error {
	n := uint64(len(b.reqs))
	if want := l.last.Load() + 1; b.first != want {
		panic(fmt.Sprintf("wal: writer: batch starts at index %d, want %d", b.first, want))
	}
	// tidwall v1.2.1 writeBatch starts a new segment file before the batch
	// when the tail is already over SegmentSize, and after any entry that
	// brings it to SegmentSize or more. We mirror that rule to know when the
	// directory needs an fsync, and check the mirror against the file system
	// after every batch (checkTail), so a different tidwall cannot make us
	// skip a needed directory fsync silently.
	segSize := int64(l.opts.SegmentSize)
	newSegment := uint64(0) // first index of the last segment tidwall created
	if l.tailBytes > segSize {
		newSegment, l.tailBytes = b.first, 0
	}
	crc := l.prevCRC
	l.twBatch.Clear()
	for i, r := range b.reqs {
		index := b.first + uint64(i)
		l.scratch, crc = AppendFrame(l.scratch[:0], index, crc, r.payload)
		l.twBatch.Write(index, l.scratch)
		l.tailBytes += int64(entrySize(len(l.scratch)))
		if l.tailBytes >= segSize {
			newSegment, l.tailBytes = index+1, 0
		}
	}
	if cap(l.scratch) > 1<<20 {
		l.scratch = nil // do not pin a buffer grown for one huge payload
	}
	if err := l.tw.WriteBatch(&l.twBatch); err != nil {
		return fmt.Errorf("write indexes %d..%d: %w", b.first, b.first+n-1, err)
	}
	if newSegment != 0 {
		if err := l.tail.Close(); err != nil {
			return err
		}
		f, err := os.Open(filepath.Join(l.dir, segmentName(newSegment)))
		if err != nil {
			return fmt.Errorf("%w: %w", errTailMismatch, err)
		}
		l.tail = f
	}
	if err := l.checkTail(); err != nil {
		return err
	}
	if err := l.syncTail(); err != nil {
		return fmt.Errorf("fsync indexes %d..%d: %w", b.first, b.first+n-1, err)
	}
	if newSegment != 0 {
		if err := syncDir(l.dir); err != nil {
			return fmt.Errorf("indexes %d..%d: %w", b.first, b.first+n-1, err)
		}
	}
	l.prevCRC = crc
	l.last.Store(b.first + n - 1)
	l.batches.Add(1)
	return nil
}

// errTailMismatch means tidwall's files are not where the mirror of its
// segment rule says; see commit.
var errTailMismatch = errors.New("tail segment does not match the writer's model of tidwall")

// checkTail verifies that the tail segment file is where commit's mirror of
// tidwall's segment rule puts it (l.tail was opened by that name) and has
// the size it predicts. Failing here means a changed tidwall: the batch is
// not acknowledged.
func (l *Log) checkTail() error {
	st, err := l.tail.Stat()
	if err != nil {
		return fmt.Errorf("%w: %w", errTailMismatch, err)
	}
	if st.Size() != l.tailBytes {
		return fmt.Errorf("%w: %s is %d bytes, expected %d", errTailMismatch, l.tail.Name(), st.Size(), l.tailBytes)
	}
	return nil
}

// fail records the first write/fsync error, after which every append is
// refused, and reports it to OnFatal once.
func (l *Log) fail(err error) {
	l.q.mu.Lock()
	if l.q.failed == nil {
		l.q.failed = err
	}
	l.q.mu.Unlock()
	l.opts.Logf("wal: fatal dir=%s err=%q", l.dir, err.Error())
	l.fatalOnce.Do(func() { l.opts.OnFatal(err) })
}

// finish tells b's callers the outcome and recycles b. On success
// OnDurable sees the batch first, then the Committed signal goes (so it is
// pending by the time any caller learns of the batch), then the Append
// callers are woken (they run on other cores while this goroutine calls
// the done callbacks, in index order).
func (l *Log) finish(b *batch, err error) {
	if err == nil && l.opts.OnDurable != nil {
		l.payloads = l.payloads[:0]
		for _, r := range b.reqs {
			l.payloads = append(l.payloads, r.payload)
		}
		l.opts.OnDurable(b.first, l.payloads)
		clear(l.payloads)
	}
	if err == nil {
		select {
		case l.committed <- struct{}{}:
		default:
		}
	}
	if b.sig != nil {
		b.sig.err = err
		close(b.sig.ch)
	}
	if err == nil {
		for i, r := range b.reqs {
			if r.done != nil {
				r.done(b.first + uint64(i))
			}
		}
	}
	clear(b.reqs) // drop payload references
	b.reqs, b.bytes, b.sig = b.reqs[:0], 0, nil
	if cap(b.reqs) > 4*DefaultMaxBatch {
		return // let an unusually large batch go
	}
	batchPool.Put(b)
}
