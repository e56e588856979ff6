package jslog

import (
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/partlog"
)

// ErrFollower is partlog's: an append to a log opened to follow.
var ErrFollower = partlog.ErrFollower

// follow is the goroutine of a log opened with Options.Follow, in place of
// the writer: an ordered consumer delivers every message after the last
// one the log knows (Open's read, then each followed); each is decoded
// into the log's recent messages, where Scan finds it without asking the
// stream's leader, and moves LastIndex to its last index and signals
// Committed. Scan verifies the frames and the chain as for any log. It
// ends when the log is closed; a consumer that cannot be made yet is
// asked for again.
func (l *Log) follow() {
	defer close(l.stopped)
	for l.ctx.Err() == nil {
		start := l.durable.Load().seq + 1
		cons, err := l.stream.OrderedConsumer(l.ctx, jetstream.OrderedConsumerConfig{
			DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
			OptStartSeq:   start,
		})
		var cc jetstream.ConsumeContext
		if err == nil {
			cc, err = cons.Consume(func(msg jetstream.Msg) {
				if err := l.followed(msg); err != nil {
					l.opts.Logf("jslog: follow stream=%s: %s", l.cfg.Stream, err)
				}
			}, jetstream.PullMaxBytes(followPullBytes))
		}
		if err == nil {
			<-l.ctx.Done()
			cc.Stop()
			return
		}
		// The stream's leader being elected: try again, from where the
		// log got to, until closed.
		l.opts.Logf("jslog: follow stream=%s: %s; retrying", l.cfg.Stream, err)
		select {
		case <-l.ctx.Done():
		case <-time.After(followRetry):
		}
	}
}

const (
	// followRetry is the pause before a follower asks for its consumer
	// again.
	followRetry = time.Second
	// followPullBytes bounds the message data a follower's consumer asks
	// for at a time (nats.go buffers up to that much).
	followPullBytes = 4 << 20
)

// followed keeps msg among the recent messages and moves LastIndex to its
// end. A message that does not decode is not kept: Scan reads it from the
// leader and reports what is wrong with it.
func (l *Log) followed(msg jetstream.Msg) error {
	md, err := msg.Metadata()
	if err != nil {
		return err
	}
	m, err := decodeMessage(&jetstream.RawStreamMsg{Subject: msg.Subject(), Sequence: md.Sequence.Stream,
		Header: msg.Headers(), Data: msg.Data()}, l.cfg.Subject)
	if err != nil {
		return err
	}
	l.recent.put(m)
	// Only forward: a redelivery after the consumer was recreated says
	// nothing new. A gap is Scan's to find (it verifies the chain).
	if last := m.last(); last > l.LastIndex() {
		l.durable.Store(&position{index: last, seq: m.seq})
		select {
		case l.committed <- struct{}{}:
		default:
		}
	}
	return nil
}

// closeFollower ends the follow goroutine.
func (l *Log) closeFollower() error {
	if !l.closed.CompareAndSwap(false, true) {
		return ErrClosed
	}
	l.cancel()
	<-l.stopped
	return nil
}
