package jslog

import (
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// TruncateFront drops the messages wholly below index: it purges every
// message before the one holding index (index <= LastIndex()+1). Entries
// >= index always remain, and so may some below it, in the same message.
// The last message is never purged, even for index LastIndex()+1: it is
// where Open learns LastIndex and the chain's crc. FirstIndex moves before
// the purge is sent, so a concurrent Scan below it is ErrOutOfRange, not
// a gap.
func (l *Log) TruncateFront(index uint64) error {
	l.truncMu.Lock()
	defer l.truncMu.Unlock()
	if l.closed.Load() {
		return fmt.Errorf("jslog: truncate front: %w", ErrClosed)
	}
	last, front := *l.durable.Load(), *l.front.Load()
	if index > last.index+1 {
		return fmt.Errorf("jslog: truncate front of stream %s to %d: %w: last index is %d", l.cfg.Stream, index, ErrOutOfRange, last.index)
	}
	if index <= front.index || last.index == 0 {
		return nil
	}
	seq, first, err := l.locate(l.ctx, min(index, last.index), front.seq, last.seq)
	if err != nil {
		return fmt.Errorf("jslog: truncate front of stream %s to %d: %w", l.cfg.Stream, index, err)
	}
	if seq <= front.seq {
		return nil
	}
	l.front.Store(&position{index: first, seq: seq})
	ctx, cancel := l.requestContext()
	defer cancel()
	if err := l.stream.Purge(ctx, jetstream.WithPurgeSequence(seq)); err != nil {
		return fmt.Errorf("jslog: truncate front of stream %s to %d: purge below sequence %d: %w", l.cfg.Stream, index, seq, err)
	}
	l.opts.Logf("jslog: truncated front stream=%s index=%d first_index=%d first_seq=%d", l.cfg.Stream, index, first, seq)
	return nil
}
