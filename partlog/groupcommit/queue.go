// Package groupcommit is the append queue both logs of the engine share
// (wal, jslog): appenders put payloads into a FIFO of batches, one writer
// goroutine takes the oldest batch, makes it durable with one write and
// one fsync (or one replicated publish), and only then wakes the batch's
// callers. While a batch is being made durable, new arrivals collect in
// the next one, so batches grow with load and no timer is needed: an idle
// log writes a lone append at once, a busy one amortizes each fsync over
// up to Limits.MaxBatch appends.
//
// Indexes are handed out at enqueue time, in queue order, and the writer
// takes batches in the same order, so request i of a batch that starts at
// First gets index First+i.
package groupcommit

import (
	"fmt"
	"sync"

	"github.com/fxd-labs/fxd/internal/histogram"
	"github.com/fxd-labs/fxd/partlog"
)

// Request is one payload waiting for the writer.
type Request struct {
	Payload []byte
	Done    func(index uint64) // Enqueue's callback; nil for Append
}

// Signal tells the Append callers of one batch that it is durable (Err
// nil) or failed. It is apart from the batch so that the writer can reuse
// the batch while callers are still waking up and reading Err.
type Signal struct {
	ch  chan struct{} // closed exactly once
	err error         // written before ch is closed
}

// Wait blocks until the batch is durable (nil) or failed.
func (s *Signal) Wait() error {
	<-s.ch
	return s.err
}

// Batch is a run of requests with consecutive indexes, made durable at
// once. Own is what the log keeps with a batch while it writes it (the
// local log: the segment file its fsync covers).
type Batch[X any] struct {
	First uint64
	Reqs  []Request
	cost  int64   // what Limits.MaxBatchCost counts of Reqs
	bytes int64   // payload bytes of Reqs: what the queue counts
	Sig   *Signal // nil until an Append joins the batch
	Own   X
}

// Last is the batch's last index.
func (b *Batch[X]) Last() uint64 { return b.First + uint64(len(b.Reqs)) - 1 }

// Cost is what Limits.MaxBatchCost counts of the batch.
func (b *Batch[X]) Cost() int64 { return b.cost }

// Limits bound a Queue. A batch closes at MaxBatch requests or once the
// next request's Cost would take it past MaxBatchCost (a single costlier
// request forms a batch of its own).
type Limits struct {
	MaxQueue      int   // requests waiting; beyond it ErrQueueFull
	MaxQueueBytes int64 // payload bytes waiting (one payload always fits an empty queue)
	MaxBatch      int
	MaxBatchCost  int64
	// Cost of one payload against MaxBatchCost (default its length).
	Cost func(payloadLen int) int64
}

// Queue holds the appends waiting for the writer, within its Limits; so
// pending holds at most MaxQueue batches.
type Queue[X any] struct {
	mu      sync.Mutex
	lim     Limits
	pending []*Batch[X] // pending[head:] wait, oldest first
	head    int
	queued  int   // requests in pending[head:]
	bytes   int64 // payload bytes in pending[head:]
	next    uint64
	closed  bool
	failed  error         // the log's first failure; set once
	wake    chan struct{} // 1-buffered: work arrived, Close or a failure
	// want, when positive, is the queue length at which Add reports that
	// the writer asked to be kicked (TakeGrown).
	want int
	pool sync.Pool
	// sizes counts the requests of each durable batch (Complete).
	sizes histogram.Fixed
}

// sizeBounds are the upper bounds of the batch-size buckets, in requests:
// powers of two past either log's default MaxBatch.
var sizeBounds = []uint64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}

// Init readies the queue to hand out indexes from next.
func (q *Queue[X]) Init(next uint64, lim Limits) {
	if lim.Cost == nil {
		lim.Cost = func(n int) int64 { return int64(n) }
	}
	q.next, q.lim = next, lim
	q.wake = make(chan struct{}, 1)
	q.sizes.Init(sizeBounds)
	q.pool.New = func() any { return &Batch[X]{Reqs: make([]Request, 0, 256)} }
}

// kick wakes the writer if it waits in Take. A kick that finds the buffer
// full is redundant: the writer rechecks the queue after every wake-up.
func (q *Queue[X]) kick() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// Add queues one request and returns its index, and the batch's signal
// when wait is set. kickWriter reports that the queue reached the length a
// TakeGrown asked for: the writer wants a kick. Errors: ErrFailed
// (wrapped), ErrClosed, ErrQueueFull (wrapped).
func (q *Queue[X]) Add(r Request, wait bool) (index uint64, sig *Signal, kickWriter bool, err error) {
	size, cost := int64(len(r.Payload)), q.lim.Cost(len(r.Payload))
	q.mu.Lock()
	switch {
	case q.failed != nil:
		err := q.failed
		q.mu.Unlock()
		return 0, nil, false, fmt.Errorf("%w: %w", partlog.ErrFailed, err)
	case q.closed:
		q.mu.Unlock()
		return 0, nil, false, partlog.ErrClosed
	case q.queued >= q.lim.MaxQueue, q.queued > 0 && q.bytes+size > q.lim.MaxQueueBytes:
		queued, bytes := q.queued, q.bytes
		q.mu.Unlock()
		return 0, nil, false, fmt.Errorf("%w: %d appends, %d bytes waiting", partlog.ErrQueueFull, queued, bytes)
	}
	b := q.batchFor(cost)
	index = q.next
	q.next++
	b.Reqs = append(b.Reqs, r)
	b.cost += cost
	b.bytes += size
	if wait {
		if b.Sig == nil {
			b.Sig = &Signal{ch: make(chan struct{})}
		}
		sig = b.Sig
	}
	wasIdle := q.queued == 0
	q.queued++
	q.bytes += size
	if q.want > 0 && q.queued >= q.want {
		q.want, kickWriter = 0, true // one kick per TakeGrown that asked
	}
	q.mu.Unlock()
	if wasIdle {
		q.kick()
	}
	return index, sig, kickWriter, nil
}

// batchFor is the newest batch while it has room for cost, else a new
// one; q.mu is held.
func (q *Queue[X]) batchFor(cost int64) *Batch[X] {
	if n := len(q.pending); n > q.head {
		b := q.pending[n-1]
		if len(b.Reqs) < q.lim.MaxBatch && b.cost+cost <= q.lim.MaxBatchCost {
			return b
		}
	}
	b := q.pool.Get().(*Batch[X])
	b.First = q.next
	q.pending = append(q.pending, b)
	return b
}

// Await is Append's wait: the index once the batch holding it is durable,
// or the error of the enqueue or of the batch.
func Await(index uint64, sig *Signal, err error) (uint64, error) {
	if err != nil {
		return 0, err
	}
	if err := sig.Wait(); err != nil {
		return 0, err
	}
	return index, nil
}
