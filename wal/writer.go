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
// batch's callers. While a batch is being written and fsynced, new arrivals
// collect in the next one, so batches grow with load and no timer is
// needed: an idle log writes a lone append at once, a busy one amortizes
// each fsync over up to MaxBatch appends.
//
// Indexes are handed out at enqueue time, in queue order, and the writer
// writes batches in the same order, so request i of a batch that starts at
// first gets index first+i. The writer checks this against tidwall.
//
// Pipeline.
//
// Everything the writer does between two fsyncs is time the disk idles:
// waking callers, framing, tidwall's WriteBatch (which also copies the
// batch into its in-memory copy of the tail segment) and the size check.
// So the writer keeps up to two batches past the queue, each within
// MaxBatch entries and maxBatchBytes (or one larger payload), and one
// fsync in flight; the queue keeps its own limits:
//
//	inflight  its fdatasync is running (or done and not yet collected);
//	          nothing in it is acknowledged
//	ready     framed, written to tidwall and checked, directory synced if
//	          it started a segment; its fdatasync is queued in the syncer
//	          behind inflight's
//
// While inflight's fsync runs, the writer takes the next batch from the
// queue, prepares it into ready (takeNext says when) and queues its sync.
// The syncer's goroutine starts that sync the moment inflight's returns,
// so the device is busy again without waiting for the writer (fsync.go);
// the writer then collects inflight's result and acknowledges it (finish),
// and ready becomes inflight. Each batch is acknowledged only after an
// fsync that was started after its own write returned (its sync is queued
// only once the write returned), so it covers the batch's bytes; fsyncs
// never overlap (the syncer runs one at a time); acknowledgements stay in
// index order because batches pass through ready and inflight in queue
// order and the syncer reports in start order.
//
// Failure: the first write, check or fsync error is recorded (fail) and
// from then on nothing is acknowledged, not even an inflight batch whose
// fsync succeeds afterwards, and no fsync is ever started again: ready and
// everything queued fail with ErrFailed.

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
	// syncFile is the tail segment after the batch was written: its
	// fdatasync makes the batch durable (an earlier segment the batch
	// reached into was fsynced by tidwall when it started the next).
	syncFile *os.File
}

func (b *batch) last() uint64 { return b.first + uint64(len(b.reqs)) - 1 }

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
	// want, when positive, is the queue length at which an enqueue kicks
	// the writer's wait for the fsync in flight (takeAtLeast).
	want int
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
	wanted := q.want > 0 && q.queued >= q.want
	if wanted {
		q.want = 0 // one kick per takeGrown that asked
	}
	q.mu.Unlock()
	if wasIdle {
		q.kick()
	}
	if wanted {
		l.kickWriter()
	}
	return index, sig, nil
}

// take removes and returns the oldest waiting batch. With block it waits
// until there is one, and returns nil only when the queue is empty and will
// stay so (closed or failed); without, it returns nil when the queue is
// empty.
func (q *queue) take(block bool) *batch {
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

// takeGrown returns the oldest waiting batch once at least base+grow
// requests wait. Until then it returns nil and has the enqueue that gets
// there kick the writer.
func (q *queue) takeGrown(base, grow int) *batch {
	q.mu.Lock()
	defer q.mu.Unlock()
	want := max(base+grow, 1)
	if q.queued < want {
		q.want = want
		return nil
	}
	return q.pop()
}

func (q *queue) length() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.queued
}

// pop removes the oldest waiting batch; q.mu is held and there is one.
func (q *queue) pop() *batch {
	q.want = 0
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

// run is the writer goroutine: the pipeline loop (see "Pipeline" above).
// It returns once the queue is closed (or failed) and drained and nothing
// is ready or in flight.
func (l *Log) run() {
	defer close(l.stopped)
	for {
		if l.inflight == nil {
			// Nothing in flight, so nothing ready either (synced
			// promotes ready): wait for the queue.
			b := l.q.take(true)
			if b == nil {
				return
			}
			l.prepareOrFail(b)
			l.startSync(b)
			continue
		}
		if l.ready == nil && l.werr == nil {
			if b := l.takeNext(); b != nil {
				l.prepareOrFail(b)
				l.queueSync(b)
			}
		}
		if done, err := l.syncer.wait(); done {
			l.synced(err)
		}
	}
}

// takeNext returns the next batch to prepare while an fsync is in flight,
// or nil for not yet: it is time once the queue has grown by 3/4 of the
// batch acknowledged last beyond what waited when the fsync was started
// (in the pipeline, just before that acknowledgement); the enqueue that
// gets there kicks the writer's wait. Otherwise the batch is taken when
// the fsync completes.
//
// Taking as soon as anything waits leaves the device idle least but cuts
// batches short: the appenders woken by one acknowledgement rejoin only
// two batches later, so under a closed loop of N appenders batches hold
// about N/3 entries instead of N/2 (measured at 1,024 appenders: about
// 340 per fsync against 525). Taking at the completion gathers everything,
// as a serial writer does, but puts the prepare back between two fsyncs.
// Counting growth since the acknowledgement waits for most of the callers
// just woken to be back (under open load: for about 3/4 of the fsync),
// however many were already waiting; a threshold on the queue's length
// alone also holds steady at N/3. A prepare that has not started by the
// completion starts then: late, not lost. A timer (prepare at the
// expected completion less the expected prepare time) was tried first:
// under load the writer woke a median 60-100 µs after its deadline.
func (l *Log) takeNext() *batch {
	return l.q.takeGrown(l.takeBase, l.lastLen-l.lastLen/4)
}

// kickWriter makes the writer's wait for the fsync in flight return (every
// syncer's wait listens on syncKick), so that it takes the batch takeGrown
// asked for. A kick that finds the buffer full is redundant, and a stale
// one only has the writer look at the queue once more.
func (l *Log) kickWriter() {
	select {
	case l.syncKick <- struct{}{}:
	default:
	}
}

// prepareOrFail prepares b unless the log has failed, recording a failure
// of its own. A batch that was not prepared is never synced (startSync
// fails it).
func (l *Log) prepareOrFail(b *batch) {
	if l.werr != nil {
		return
	}
	if err := l.prepare(b); err != nil {
		l.fail(err)
	}
}

// startSync starts b's fsync with nothing in flight, making it inflight;
// after a failure it fails b instead, so that nothing is synced after the
// first error (a retried fsync may report success for pages the kernel
// dropped).
func (l *Log) startSync(b *batch) {
	if l.werr != nil {
		l.finish(b, l.werr)
		return
	}
	// Sampled before the start, so that nothing the fsync (or a test's
	// hook) sets off can be counted as already waiting.
	l.takeBase = l.q.length()
	l.syncJob(b)
	l.inflight = b
}

// queueSync queues the fsync of b, just prepared while inflight's runs, to
// start when inflight's returns: b becomes ready. After a failure (b's own
// write included) it fails b instead.
func (l *Log) queueSync(b *batch) {
	if l.werr != nil {
		l.finish(b, l.werr)
		return
	}
	l.syncJob(b)
	l.ready = b
}

// syncJob hands b's fsync to the syncer, through the tests' hook if set.
func (l *Log) syncJob(b *batch) {
	f := b.syncFile
	sync := l.stats.timed(func() error { return fdatasync(f) }) // FsyncDurations (stats.go)
	if l.syncHook == nil {
		l.syncer.start(sync)
		return
	}
	first, last, hook := b.first, b.last(), l.syncHook
	l.syncer.start(func() error { return hook(first, last, sync) })
}

// synced handles the completion of inflight's fsync (err is its result):
// ready's fsync, queued behind it, is already running, so ready becomes
// inflight, and then inflight's callers are acknowledged.
func (l *Log) synced(err error) {
	b := l.inflight
	l.inflight = nil
	if err != nil && l.werr == nil {
		l.fail(fmt.Errorf("fsync indexes %d..%d: %w", b.first, b.last(), err))
	}
	l.lastLen = len(b.reqs)
	if next := l.ready; next != nil {
		// Its sync started when b's returned (or, after a failure, the
		// syncer refused it: its result fails it when collected).
		l.ready = nil
		l.takeBase = l.q.length()
		l.inflight = next
	}
	if b.syncFile != l.tail {
		// A later batch started a new segment while b's fsync ran; b held
		// the last reference to the old one (prepare kept it open).
		b.syncFile.Close()
	}
	l.finish(b, l.werr)
}

// prepare frames b, writes it with one tidwall WriteBatch, checks the tail
// segment against the writer's model of tidwall and, if tidwall started a
// segment file, fsyncs the directory, so that b's own fdatasync is all it
// still needs. It may run while the previous batch's fsync is in flight:
// it acknowledges nothing, and a failure here fails that batch too.
func (l *Log) prepare(b *batch) error {
	if want := l.written + 1; b.first != want {
		panic(fmt.Sprintf("wal: writer: batch starts at index %d, want %d", b.first, want))
	}
	newSegment := l.frame(b)
	if err := l.tw.WriteBatch(&l.twBatch); err != nil {
		return fmt.Errorf("write indexes %d..%d: %w", b.first, b.last(), err)
	}
	l.written = b.last()
	if newSegment != 0 {
		// The in-flight fsync may be on the old tail: it is closed when
		// that fsync completes (synced), not here.
		if l.inflight == nil || l.inflight.syncFile != l.tail {
			l.tail.Close()
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
	b.syncFile = l.tail
	if l.writeHook != nil {
		if err := l.writeHook(b.first, b.last()); err != nil {
			return fmt.Errorf("write indexes %d..%d: %w", b.first, b.last(), err)
		}
	}
	if newSegment != 0 {
		if err := syncDir(l.dir); err != nil {
			return fmt.Errorf("indexes %d..%d: %w", b.first, b.last(), err)
		}
	}
	return nil
}

// frame builds b's frames into l.twBatch, chained to the last written
// frame, and advances the model of the tail segment's size. It returns the
// first index of the last segment file the write will create, 0 for none.
//
// tidwall v1.2.1 writeBatch starts a new segment file before the batch
// when the tail is already over SegmentSize, and after any entry that
// brings it to SegmentSize or more. We mirror that rule to know when the
// directory needs an fsync, and check the mirror against the file system
// after every batch (checkTail), so a different tidwall cannot make us
// skip a needed directory fsync silently.
func (l *Log) frame(b *batch) (newSegment uint64) {
	segSize := int64(l.opts.SegmentSize)
	if l.tailBytes > segSize {
		newSegment, l.tailBytes, l.tailEntries = b.first, 0, 0
	}
	crc := l.prevCRC
	l.twBatch.Clear()
	for i, r := range b.reqs {
		index := b.first + uint64(i)
		l.scratch, crc = AppendFrame(l.scratch[:0], index, crc, r.payload)
		l.twBatch.Write(index, l.scratch)
		l.tailBytes += int64(entrySize(len(l.scratch)))
		l.tailEntries++
		if l.tailBytes >= segSize {
			newSegment, l.tailBytes, l.tailEntries = index+1, 0, 0
		}
	}
	if cap(l.scratch) > 1<<20 {
		l.scratch = nil // do not pin a buffer grown for one huge payload
	}
	l.prevCRC = crc
	l.tailWritten = true
	l.tailSize.Store(l.tailMemory())
	return newSegment
}

// errTailMismatch means tidwall's files are not where the mirror of its
// segment rule says; see frame.
var errTailMismatch = errors.New("tail segment does not match the writer's model of tidwall")

// checkTail verifies that the tail segment file is where frame's mirror of
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
// refused and nothing more is acknowledged, and reports it to OnFatal
// once. Only the writer goroutine calls it.
func (l *Log) fail(err error) {
	if l.werr == nil {
		l.werr = err
	}
	l.q.mu.Lock()
	if l.q.failed == nil {
		l.q.failed = err
	}
	l.q.mu.Unlock()
	l.opts.Logf("wal: fatal dir=%s err=%q", l.dir, err.Error())
	l.fatalOnce.Do(func() { l.opts.OnFatal(err) })
}

// finish tells b's callers the outcome (failed, the log's first error, nil
// for durable) and recycles b. On success it publishes LastIndex, then
// OnDurable sees the batch, then the Committed signal goes (so it is
// pending by the time any caller learns of the batch), then the Append
// callers are woken (they run on other cores while this goroutine calls
// the done callbacks, in index order).
func (l *Log) finish(b *batch, failed error) {
	if failed == nil {
		l.last.Store(b.last())
		l.batches.Add(1)
		l.stats.durable(len(b.reqs))
		if l.opts.OnDurable != nil {
			l.payloads = l.payloads[:0]
			for _, r := range b.reqs {
				l.payloads = append(l.payloads, r.payload)
			}
			l.opts.OnDurable(b.first, l.payloads)
			clear(l.payloads)
		}
		select {
		case l.committed <- struct{}{}:
		default:
		}
	}
	if b.sig != nil {
		if failed != nil {
			b.sig.err = fmt.Errorf("%w: %w", ErrFailed, failed)
		}
		close(b.sig.ch)
	}
	if failed == nil {
		for i, r := range b.reqs {
			if r.done != nil {
				r.done(b.first + uint64(i))
			}
		}
	}
	clear(b.reqs) // drop payload references
	b.reqs, b.bytes, b.sig, b.syncFile = b.reqs[:0], 0, nil, nil
	if cap(b.reqs) > 4*DefaultMaxBatch {
		return // let an unusually large batch go
	}
	batchPool.Put(b)
}
