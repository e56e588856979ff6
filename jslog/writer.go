package jslog

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/internal/histogram"
	"github.com/fxd-labs/fxd/partlog/groupcommit"
	"github.com/fxd-labs/fxd/wal"
)

// Append writes payload as the next entry and returns its index once the
// message holding it is acknowledged by the stream (stored and fsynced on
// a quorum of its replicas). Errors: ErrTooLarge, ErrQueueFull and
// ErrClosed at once; ErrFailed (wrapped) when the log failed before or
// while publishing it, in which case the entry may or may not be stored.
// The log owns payload after the call.
func (l *Log) Append(payload []byte) (uint64, error) {
	return groupcommit.Await(l.enqueue(payload, nil, true))
}

// Enqueue queues payload as the next entry and returns at once; done (may
// be nil) runs with the index on the writer goroutine once the entry is
// durable, in index order, and must not block. If the log fails, done is
// never called and Options.OnFatal reports the failure. The log owns
// payload after the call.
func (l *Log) Enqueue(payload []byte, done func(index uint64)) error {
	_, _, err := l.enqueue(payload, done, false)
	return err
}

func (l *Log) enqueue(payload []byte, done func(uint64), wait bool) (uint64, *groupcommit.Signal, error) {
	if l.opts.Follow {
		return 0, nil, fmt.Errorf("jslog: append to stream %s: %w", l.cfg.Stream, ErrFollower)
	}
	if len(payload) > wal.MaxPayload {
		return 0, nil, fmt.Errorf("jslog: %w: %d bytes, limit %d", ErrTooLarge, len(payload), wal.MaxPayload)
	}
	if wal.HeaderSize+len(payload) > l.maxFrame {
		return 0, nil, fmt.Errorf("jslog: %w: %d bytes, the server's max_payload leaves room for %d",
			ErrTooLarge, len(payload), l.maxFrame-wal.HeaderSize)
	}
	index, sig, _, err := l.q.Add(groupcommit.Request{Payload: payload, Done: done}, wait)
	if err != nil {
		return 0, nil, fmt.Errorf("jslog: append to stream %s: %w", l.cfg.Stream, err)
	}
	return index, sig, nil
}

// run is the writer goroutine: one batch at a time, published, then
// acknowledged. It returns once the queue is closed (or failed) and
// drained; batches taken after a failure fail without being published.
func (l *Log) run() {
	defer close(l.stopped)
	for {
		b := l.q.Take(true)
		if b == nil {
			return
		}
		if err := l.q.Failure(); err != nil {
			l.finish(b, err)
			continue
		}
		seq, err := l.publish(b)
		if err != nil {
			l.fail(err)
			l.finish(b, err)
			continue
		}
		l.lastSeq = seq
		l.durable.Store(&position{index: b.Last(), seq: seq})
		l.finish(b, nil)
	}
}

// publish sends b as one message fenced on the stream's last sequence as
// this writer knows it, and returns the message's sequence. Any error
// leaves the log unable to go on: a fence refusal means another writer
// appended (this one is deposed), and a timeout or a lost connection
// leaves the outcome unknown (the message may be stored; the next Open
// reads the truth). Only "no responders" is retried, by nats.go: no
// stream received that message.
func (l *Log) publish(b *batch) (uint64, error) {
	var crc uint32
	l.buf, crc = encodeBatch(l.buf[:0], b.First, l.chainCRC, b.Reqs)
	msg := &nats.Msg{Subject: l.cfg.Subject, Header: batchHeader(b.First, len(b.Reqs)), Data: l.buf}
	ctx, cancel := context.WithTimeout(context.Background(), l.cfg.PublishTimeout)
	defer cancel()
	ack, err := l.js.PublishMsg(ctx, msg,
		jetstream.WithExpectLastSequence(l.lastSeq),
		jetstream.WithExpectStream(l.cfg.Stream),
		jetstream.WithRetryWait(publishRetryWait),
		jetstream.WithRetryAttempts(int(l.cfg.PublishTimeout/publishRetryWait)))
	if cap(l.buf) > 2*l.maxBatchBytes {
		l.buf = nil // do not pin a buffer grown for one huge entry
	}
	if err != nil {
		if Fenced(err) {
			return 0, fmt.Errorf("fenced: another writer appended to stream %s after sequence %d: %w", l.cfg.Stream, l.lastSeq, err)
		}
		return 0, fmt.Errorf("publish indexes %d..%d (outcome unknown): %w", b.First, b.Last(), err)
	}
	if ack.Stream != l.cfg.Stream || ack.Duplicate || ack.Sequence != l.lastSeq+1 {
		return 0, fmt.Errorf("publish indexes %d..%d: ack %+v, want stream %s sequence %d", b.First, b.Last(), *ack, l.cfg.Stream, l.lastSeq+1)
	}
	l.chainCRC = crc
	return ack.Sequence, nil
}

// Fenced reports a refusal by Nats-Expected-Last-Sequence: another writer
// appended (replicated streams may answer with either code). The relay
// journal fences its appends the same way (cluster/relayjournal.go).
func Fenced(err error) bool {
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	return apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant
}

// fail records the first publish failure, after which every append is
// refused and nothing more is published, and reports it to OnFatal once.
// Only the writer goroutine calls it.
func (l *Log) fail(err error) {
	err = fmt.Errorf("jslog: stream %s: %w", l.cfg.Stream, err)
	l.q.Fail(err)
	l.opts.Logf("jslog: fatal stream=%s err=%q", l.cfg.Stream, err.Error())
	l.fatalOnce.Do(func() { l.opts.OnFatal(err) })
}

// finish tells b's callers the outcome (groupcommit.Queue.Complete): on
// success LastIndex is already published; then OnDurable sees the batch
// and the Committed signal goes, before any caller learns of the batch.
func (l *Log) finish(b *batch, failed error) { l.q.Complete(b, failed, l.durableBatch) }

// durableBatch is finish's work for a published batch.
func (l *Log) durableBatch(b *batch) {
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

// BatchSizes is the histogram of entries per message published since
// Open (a follower publishes none).
func (l *Log) BatchSizes() histogram.Snapshot { return l.q.BatchSizes() }

// batch is one group commit of the stream: one message.
type batch = groupcommit.Batch[struct{}]

// frameCost is what one payload adds to a message: its frame.
func frameCost(payloadLen int) int64 { return int64(wal.HeaderSize + payloadLen) }
