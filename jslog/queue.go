package jslog

import (
	"fmt"
	"sync"

	"github.com/fxd-labs/fxd/wal"
)

// Group commit.
//
// Appenders put requests into a FIFO of batches under q.mu; each request
// joins the newest batch while it has room (Config.MaxBatch entries and
// the batch byte bound, counted in frame bytes), else starts one. The one
// writer goroutine takes the oldest batch, publishes it as one message and
// waits for its PubAck; meanwhile new arrivals collect in the next batch.
// So batches grow with load and no timer is needed: an idle log publishes
// a lone append at once, a busy one amortizes each replicated fsync over
// up to MaxBatch appends.
//
// Indexes are handed out at enqueue time, in queue order, and batches are
// published in the same order, so request i of a batch that starts at
// first gets index first+i.

// request is one payload waiting for the writer.
type request struct {
	payload []byte
	done    func(index uint64) // Enqueue's callback; nil for Append
}

// signal tells the Append callers of one batch that it is durable (err
// nil) or failed.
type signal struct {
	ch  chan struct{} // closed exactly once
	err error         // written before ch is closed
}

// batch is a run of requests with consecutive indexes: one message.
type batch struct {
	first   uint64
	reqs    []request
	bytes   int     // frame bytes of reqs: what the message's data will be
	payload int64   // payload bytes of reqs: what the queue counts
	sig     *signal // nil until an Append joins the batch
}

func (b *batch) last() uint64 { return b.first + uint64(len(b.reqs)) - 1 }

// queue holds the appends waiting for the writer, within Config.MaxQueue
// requests and Config.MaxQueueBytes payload bytes; so pending holds at
// most MaxQueue batches.
type queue struct {
	mu       sync.Mutex
	pending  []*batch // pending[head:] wait, oldest first
	head     int
	queued   int   // requests in pending[head:]
	bytes    int64 // payload bytes in pending[head:]
	next     uint64
	closed   bool
	failed   error         // the first publish failure; set once
	wake     chan struct{} // 1-buffered: work arrived, Close or a failure
	maxBatch int           // entries per batch
	maxBytes int           // frame bytes per batch (one larger entry alone)
}

func (q *queue) init(next uint64, maxBatch, maxBytes int) {
	q.next, q.maxBatch, q.maxBytes = next, maxBatch, maxBytes
	q.wake = make(chan struct{}, 1)
}

// kick wakes the writer if it waits; a kick that finds the buffer full is
// redundant, since the writer rechecks the queue after every wake-up.
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

// add queues one request and returns its index, and the batch's signal
// when wait is set. Errors are ErrFailed, ErrClosed and ErrQueueFull.
func (q *queue) add(r request, wait bool, maxQueue int, maxQueueBytes int64) (uint64, *signal, error) {
	size := int64(len(r.payload))
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.failed != nil:
		return 0, nil, fmt.Errorf("%w: %w", ErrFailed, q.failed)
	case q.closed:
		return 0, nil, ErrClosed
	case q.queued >= maxQueue, q.queued > 0 && q.bytes+size > maxQueueBytes:
		return 0, nil, fmt.Errorf("%w: %d appends, %d bytes waiting", ErrQueueFull, q.queued, q.bytes)
	}
	frame := wal.HeaderSize + len(r.payload)
	var b *batch
	if n := len(q.pending); n > q.head {
		b = q.pending[n-1]
		if len(b.reqs) >= q.maxBatch || b.bytes+frame > q.maxBytes {
			b = nil
		}
	}
	if b == nil {
		b = &batch{first: q.next}
		q.pending = append(q.pending, b)
	}
	index := q.next
	q.next++
	b.reqs = append(b.reqs, r)
	b.bytes += frame
	b.payload += size
	var sig *signal
	if wait {
		if b.sig == nil {
			b.sig = &signal{ch: make(chan struct{})}
		}
		sig = b.sig
	}
	if q.queued == 0 {
		q.kick()
	}
	q.queued++
	q.bytes += size
	return index, sig, nil
}

// take removes and returns the oldest waiting batch, waiting until there
// is one; it returns nil once the queue is empty and will stay so (closed
// or failed).
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
	q.bytes -= b.payload
	return b
}
