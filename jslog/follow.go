package jslog

import (
	"fmt"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/partlog"
)

// ErrFollower is partlog's: an append to a log opened to follow.
var ErrFollower = partlog.ErrFollower

// follow is the goroutine of a log opened with Options.Follow, in place of
// the writer: an ordered consumer delivers the headers of every message
// after the last one the log knows (Open's read, then each followed), and
// each moves LastIndex to the message's last index and signals Committed. The reader then scans, and Scan reads
// and verifies the frames from the stream's leader as for any log; the
// headers only say how far to read. It ends when the log is closed; a
// consumer that cannot be made yet is asked for again.
func (l *Log) follow() {
	defer close(l.stopped)
	for l.ctx.Err() == nil {
		start := l.durable.Load().seq + 1
		cons, err := l.stream.OrderedConsumer(l.ctx, jetstream.OrderedConsumerConfig{
			DeliverPolicy: jetstream.DeliverByStartSequencePolicy,
			OptStartSeq:   start,
			HeadersOnly:   true,
		})
		var cc jetstream.ConsumeContext
		if err == nil {
			cc, err = cons.Consume(func(msg jetstream.Msg) {
				if err := l.followed(msg); err != nil {
					l.opts.Logf("jslog: follow stream=%s: %s", l.cfg.Stream, err)
				}
			})
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

// followRetry is the pause before a follower asks for its consumer again.
const followRetry = time.Second

// followed moves LastIndex to the end of the message msg announces.
func (l *Log) followed(msg jetstream.Msg) error {
	md, err := msg.Metadata()
	if err != nil {
		return err
	}
	// A headers-only delivery says the data's size in Nats-Msg-Size.
	size, err := strconv.Atoi(msg.Headers().Get(nats.MsgSize))
	if err != nil {
		return fmt.Errorf("%w: message %d: header %s is %q", ErrCorrupt, md.Sequence.Stream, nats.MsgSize, msg.Headers().Get(nats.MsgSize))
	}
	first, count, err := parseRange(msg.Headers(), md.Sequence.Stream, size)
	if err != nil {
		return err
	}
	// Only forward: a redelivery after the consumer was recreated says
	// nothing new. A gap is Scan's to find (it verifies the chain).
	if last := first + uint64(count) - 1; last > l.LastIndex() {
		l.durable.Store(&position{index: last, seq: md.Sequence.Stream})
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
