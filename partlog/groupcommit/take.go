package groupcommit

import (
	"fmt"

	"github.com/fxd-labs/fxd/internal/histogram"
	"github.com/fxd-labs/fxd/partlog"
)

// Take removes and returns the oldest waiting batch. With block it waits
// until there is one, and returns nil only when the queue is empty and
// will stay so (closed or failed); without, it returns nil when the queue
// is empty.
func (q *Queue[X]) Take(block bool) *Batch[X] {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.head == len(q.pending) {
		if !block || q.closed || q.failed != nil {
			return nil
		}
		q.mu.Unlock()
		<-q.wake
		q.mu.Lock()
	}
	return q.pop()
}

// TakeGrown returns the oldest waiting batch once at least base+grow
// requests wait. Until then it returns nil and has the Add that gets there
// report kickWriter.
func (q *Queue[X]) TakeGrown(base, grow int) *Batch[X] {
	q.mu.Lock()
	defer q.mu.Unlock()
	want := max(base+grow, 1)
	if q.queued < want {
		q.want = want
		return nil
	}
	return q.pop()
}

// Len is the number of requests waiting.
func (q *Queue[X]) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queued
}

// pop removes the oldest waiting batch; q.mu is held and there is one.
func (q *Queue[X]) pop() *Batch[X] {
	q.want = 0
	b := q.pending[q.head]
	q.pending[q.head] = nil
	q.head++
	if q.head == len(q.pending) {
		q.pending, q.head = q.pending[:0], 0
	}
	q.queued -= len(b.Reqs)
	q.bytes -= b.bytes
	return b
}

// Failure is the log's first failure, nil while it has none.
func (q *Queue[X]) Failure() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.failed
}

// Fail records the log's first failure (later ones are ignored): from
// then on Add refuses with ErrFailed and Take drains without waiting. It
// reports whether err was the first.
func (q *Queue[X]) Fail(err error) bool {
	q.mu.Lock()
	first := q.failed == nil
	if first {
		q.failed = err
	}
	q.mu.Unlock()
	q.kick()
	return first
}

// Close refuses further Adds (ErrClosed) and wakes the writer, which
// drains what waits; false when the queue was already closed.
func (q *Queue[X]) Close() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	q.closed = true
	q.mu.Unlock()
	q.kick()
	return true
}

// Complete tells b's callers the outcome (failed nil: durable) and
// recycles b. On success durable(b) runs first (the log publishes
// LastIndex, feeds OnDurable and signals Committed there, so all of that
// is done by the time any caller learns of the batch), then the Append
// callers wake (on other cores, while this goroutine runs the done
// callbacks in index order). A failed batch's callers get ErrFailed; its
// done callbacks never run.
func (q *Queue[X]) Complete(b *Batch[X], failed error, durable func(*Batch[X])) {
	if failed == nil {
		q.sizes.Observe(uint64(len(b.Reqs)))
		durable(b)
	}
	if b.Sig != nil {
		if failed != nil {
			b.Sig.err = fmt.Errorf("%w: %w", partlog.ErrFailed, failed)
		}
		close(b.Sig.ch)
	}
	if failed == nil {
		for i, r := range b.Reqs {
			if r.Done != nil {
				r.Done(b.First + uint64(i))
			}
		}
	}
	clear(b.Reqs) // drop payload references
	var zero X
	b.Reqs, b.cost, b.bytes, b.Sig, b.Own = b.Reqs[:0], 0, 0, nil, zero
	if cap(b.Reqs) > 4*q.lim.MaxBatch {
		return // let an unusually large batch go
	}
	q.pool.Put(b)
}

// BatchSizes is the histogram of requests per durable batch (one fsync,
// or one stream message, each) since Init; its count is the batches.
func (q *Queue[X]) BatchSizes() histogram.Snapshot { return q.sizes.Read() }

// Payloads appends b's payloads to dst (for OnDurable).
func (b *Batch[X]) Payloads(dst [][]byte) [][]byte {
	for _, r := range b.Reqs {
		dst = append(dst, r.Payload)
	}
	return dst
}
