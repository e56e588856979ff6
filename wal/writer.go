package wal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fxd-labs/fxd/partlog/groupcommit"
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
// The syncer's goroutine starts that sync once inflight's has returned
// and its result is handed over, without waiting for the writer to
// collect it (fsync.go); the writer collects inflight's result and
// acknowledges it (finish), and ready becomes inflight. Each batch is
// acknowledged only after an fsync that was started after its own write
// returned (its sync is queued only once the write returned), so it covers
// the batch's bytes; fsyncs never overlap (the syncer runs one at a time);
// acknowledgements stay in index order because batches pass through ready
// and inflight in queue order and the syncer reports in start order.
//
// Failure: the first write, check or fsync error is recorded (fail) and
// from then on nothing is acknowledged, not even an inflight batch whose
// fsync succeeds afterwards, and no fsync is ever started again: ready and
// everything queued fail with ErrFailed.

// batch is one group commit of the local log; Own is the tail segment
// after the batch was written: its fdatasync makes the batch durable (an
// earlier segment the batch reached into was fsynced by tidwall when it
// started the next).
type batch = groupcommit.Batch[*os.File]

// Append writes payload as the next entry and returns its index once the
// entry is durable: written and fsynced. It returns ErrQueueFull at once when
// the queue is at its limits, ErrTooLarge, ErrClosed, or an error wrapping
// ErrFailed after a write or fsync failure (the entry may or may not be on
// disk then; the log is dead). As with Enqueue, the log owns payload after
// the call (Options.OnDurable may keep it): do not modify it.
func (l *Log) Append(payload []byte) (uint64, error) {
	return groupcommit.Await(l.enqueue(payload, nil, true))
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

func (l *Log) enqueue(payload []byte, done func(uint64), wait bool) (uint64, *groupcommit.Signal, error) {
	if len(payload) > MaxPayload {
		return 0, nil, fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(payload), MaxPayload)
	}
	index, sig, kick, err := l.q.Add(groupcommit.Request{Payload: payload, Done: done}, wait)
	if err != nil {
		return 0, nil, err
	}
	if kick {
		l.kickWriter()
	}
	return index, sig, nil
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
			b := l.q.Take(true)
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
	return l.q.TakeGrown(l.takeBase, l.lastLen-l.lastLen/4)
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
	l.takeBase = l.q.Len()
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
	f := b.Own
	sync := l.stats.timed(func() error { return fdatasync(f) }) // FsyncDurations (stats.go)
	if l.syncHook == nil {
		l.syncer.start(sync)
		return
	}
	first, last, hook := b.First, b.Last(), l.syncHook
	l.syncer.start(func() error { return hook(first, last, sync) })
}

// synced handles the completion of inflight's fsync (err is its result):
// ready's fsync, queued behind it, is already running, so ready becomes
// inflight, and then inflight's callers are acknowledged.
func (l *Log) synced(err error) {
	b := l.inflight
	l.inflight = nil
	if err != nil && l.werr == nil {
		l.fail(fmt.Errorf("fsync indexes %d..%d: %w", b.First, b.Last(), err))
	}
	l.lastLen = len(b.Reqs)
	if next := l.ready; next != nil {
		// Its sync started when b's returned (or, after a failure, the
		// syncer refused it: its result fails it when collected).
		l.ready = nil
		l.takeBase = l.q.Len()
		l.inflight = next
	}
	if b.Own != l.tail {
		// A later batch started a new segment while b's fsync ran; b held
		// the last reference to the old one (prepare kept it open).
		b.Own.Close()
	}
	l.finish(b, l.werr)
}

// prepare frames b, writes it with one tidwall WriteBatch, checks the tail
// segment against the writer's model of tidwall and, if tidwall started a
// segment file, fsyncs the directory, so that b's own fdatasync is all it
// still needs. It may run while the previous batch's fsync is in flight:
// it acknowledges nothing, and a failure here fails that batch too.
func (l *Log) prepare(b *batch) error {
	if want := l.written + 1; b.First != want {
		panic(fmt.Sprintf("wal: writer: batch starts at index %d, want %d", b.First, want))
	}
	newSegment := l.frame(b)
	if err := l.tw.WriteBatch(&l.twBatch); err != nil {
		return fmt.Errorf("write indexes %d..%d: %w", b.First, b.Last(), err)
	}
	l.written = b.Last()
	if newSegment != 0 {
		// The in-flight fsync may be on the old tail: it is closed when
		// that fsync completes (synced), not here.
		if l.inflight == nil || l.inflight.Own != l.tail {
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
	b.Own = l.tail
	if l.writeHook != nil {
		if err := l.writeHook(b.First, b.Last()); err != nil {
			return fmt.Errorf("write indexes %d..%d: %w", b.First, b.Last(), err)
		}
	}
	if newSegment != 0 {
		if err := syncDir(l.dir); err != nil {
			return fmt.Errorf("indexes %d..%d: %w", b.First, b.Last(), err)
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
		newSegment, l.tailBytes, l.tailEntries = b.First, 0, 0
	}
	crc := l.prevCRC
	l.twBatch.Clear()
	for i, r := range b.Reqs {
		index := b.First + uint64(i)
		l.scratch, crc = AppendFrame(l.scratch[:0], index, crc, r.Payload)
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
	l.q.Fail(err)
	l.opts.Logf("wal: fatal dir=%s err=%q", l.dir, err.Error())
	l.fatalOnce.Do(func() { l.opts.OnFatal(err) })
}

// finish tells b's callers the outcome (failed, the log's first error, nil
// for durable) and recycles b (groupcommit.Queue.Complete): on success it
// publishes LastIndex, then OnDurable sees the batch, then the Committed
// signal goes, before any caller learns of the batch.
func (l *Log) finish(b *batch, failed error) { l.q.Complete(b, failed, l.durable) }

// durable is finish's work for a durable batch.
func (l *Log) durable(b *batch) {
	l.last.Store(b.Last())
	if l.opts.OnDurable != nil {
		l.payloads = b.Payloads(l.payloads[:0])
		l.opts.OnDurable(b.First, l.payloads)
		clear(l.payloads)
	}
	select {
	case l.committed <- struct{}{}:
	default:
	}
}
