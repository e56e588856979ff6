package jslog

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// Scan calls fn for each entry from `from` to the LastIndex seen when it
// starts, in order. It finds the message holding `from` by binary search
// over the stream's sequences (readMessage per probe; no index of the
// messages is kept in memory), then reads forward one message at a time
// from the stream's leader, verifying every frame, the headers against
// the frames, and the chain across messages, including the link from the
// message before the first one read. The payload is valid only until fn
// returns; an error of fn is returned as is. from > LastIndex scans
// nothing; from < FirstIndex is ErrOutOfRange.
func (l *Log) Scan(from uint64, fn func(index uint64, payload []byte) error) error {
	if l.closed.Load() {
		return fmt.Errorf("jslog: scan: %w", ErrClosed)
	}
	last, front := *l.durable.Load(), *l.front.Load()
	if from < front.index {
		return fmt.Errorf("jslog: scan stream %s: %w: from %d, log holds %d..%d", l.cfg.Stream, ErrOutOfRange, from, front.index, last.index)
	}
	if from > last.index {
		return nil
	}
	if err := l.scan(from, front, last, fn); err != nil {
		var cb callbackError
		if errors.As(err, &cb) {
			return cb.err
		}
		return fmt.Errorf("jslog: scan stream %s from %d: %w", l.cfg.Stream, from, err)
	}
	return nil
}

// callbackError carries fn's own error, which Scan returns as is.
type callbackError struct{ err error }

func (e callbackError) Error() string { return e.err.Error() }

func (l *Log) scan(from uint64, front, last position, fn func(uint64, []byte) error) error {
	ctx := l.ctx
	seq, _, err := l.locate(ctx, from, front.seq, last.seq)
	if err != nil {
		return err
	}
	var next uint64 // the first index the next message must hold; 0: not known
	var prevCRC uint32
	chained := false
	if seq > front.seq {
		prev, err := l.readMessage(ctx, seq-1)
		if err != nil {
			return err
		}
		next, prevCRC, chained = prev.last()+1, prev.lastCRC(), true
	}
	for s := seq; s <= last.seq; s++ {
		m, err := l.readMessage(ctx, s)
		if err != nil {
			return err
		}
		if err := linked(m, next, prevCRC, chained); err != nil {
			return err
		}
		for i, f := range m.frames {
			index := m.first + uint64(i)
			if index < from || index > last.index {
				continue
			}
			if err := fn(index, f.Payload); err != nil {
				return callbackError{err}
			}
		}
		next, prevCRC, chained = m.last()+1, m.lastCRC(), true
	}
	if next != last.index+1 {
		return fmt.Errorf("%w: message %d ends at index %d, the log's last index is %d", ErrCorrupt, last.seq, next-1, last.index)
	}
	return nil
}

// linked checks that m continues the message before it: its first index
// is next and its first frame chains to prevCRC (when chained).
func linked(m *message, next uint64, prevCRC uint32, chained bool) error {
	if !chained {
		return nil
	}
	if m.first != next {
		return fmt.Errorf("%w: message %d starts at index %d, want %d", ErrCorrupt, m.seq, m.first, next)
	}
	if m.firstPrev() != prevCRC {
		return fmt.Errorf("%w: message %d: chain broken at index %d: prevCRC %#08x, index %d has crc %#08x",
			ErrCorrupt, m.seq, m.first, m.firstPrev(), m.first-1, prevCRC)
	}
	return nil
}

// locate returns the sequence and first index of the message in lo..hi
// holding index, which lies in that range of messages: the last message
// whose first index is at most index. A follower's recent messages
// answer first; then it probes the last message (a tailing reader's
// case), then searches, reading one message's headers per probe.
func (l *Log) locate(ctx context.Context, index, lo, hi uint64) (uint64, uint64, error) {
	if m := l.recent.holding(index); m != nil && m.seq >= lo && m.seq <= hi {
		return m.seq, m.first, nil
	}
	first, err := l.firstIndexAt(ctx, hi)
	if err != nil {
		return 0, 0, err
	}
	if first <= index {
		return hi, first, nil
	}
	from, to := lo, hi
	found, foundFirst := lo, uint64(0)
	hi--
	for lo <= hi {
		mid := lo + (hi-lo)/2
		first, err := l.firstIndexAt(ctx, mid)
		if err != nil {
			return 0, 0, err
		}
		if first <= index {
			found, foundFirst, lo = mid, first, mid+1
		} else {
			hi = mid - 1
		}
	}
	if foundFirst == 0 || foundFirst > index {
		return 0, 0, fmt.Errorf("%w: no message in sequences %d..%d holds index %d", ErrCorrupt, from, to, index)
	}
	return found, foundFirst, nil
}

// firstIndexAt reads the first index a message claims (headers only; the
// frames are verified when the message is read for its entries).
func (l *Log) firstIndexAt(ctx context.Context, seq uint64) (uint64, error) {
	if m := l.recent.get(seq); m != nil {
		return m.first, nil
	}
	raw, err := l.getMsg(ctx, seq)
	if err != nil {
		return 0, err
	}
	first, _, err := headerRange(raw)
	return first, err
}

// readMessage reads and verifies the message at seq: a follower's from its
// recent messages if held (verified as they were delivered), otherwise
// from the stream's leader.
func (l *Log) readMessage(ctx context.Context, seq uint64) (*message, error) {
	if m := l.recent.get(seq); m != nil {
		return m, nil
	}
	raw, err := l.getMsg(ctx, seq)
	if err != nil {
		return nil, err
	}
	return decodeMessage(raw, l.cfg.Subject)
}

// getMsg reads the message at seq from the stream's leader. A message
// missing below the front was purged by a TruncateFront meanwhile
// (ErrOutOfRange); anywhere else it is a gap in the log (ErrCorrupt).
func (l *Log) getMsg(ctx context.Context, seq uint64) (*jetstream.RawStreamMsg, error) {
	ctx, cancel := context.WithTimeout(ctx, l.cfg.RequestTimeout) // ctx: Open's, or l.ctx
	defer cancel()
	raw, err := l.stream.GetMsg(ctx, seq)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound) && seq < l.front.Load().seq:
		return nil, fmt.Errorf("%w: message %d was truncated", ErrOutOfRange, seq)
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return nil, fmt.Errorf("%w: message %d is missing", ErrCorrupt, seq)
	case err != nil:
		return nil, fmt.Errorf("get message %d: %w", seq, err)
	}
	return raw, nil
}
