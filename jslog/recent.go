package jslog

import (
	"cmp"
	"slices"
	"sync"
)

// A follower's log keeps the last messages its consumer delivered, so the
// applier reads them from memory instead of asking the stream's leader
// for each (three reads per message per follower cost the leader more
// CPU than the write itself; see docs/DECISIONS.md, "Beyond one machine").
// A message not held (the applier fell behind by more than the bounds,
// or the follower just opened) is read from the leader as before.
const (
	recentMessages = 64      // messages held per follower
	recentBytes    = 4 << 20 // their data, at most, per follower
)

// recent is a follower's ring of delivered messages, by stream sequence:
// consecutive, the newest last.
type recent struct {
	mu    sync.Mutex
	msgs  []*message // oldest first; sequences consecutive
	bytes int
}

// put adds m, the message after the newest held (another one starts the
// ring again: the consumer was recreated, or a message was not decoded),
// and drops the oldest beyond the bounds.
func (r *recent) put(m *message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n := len(r.msgs); n > 0 && r.msgs[n-1].seq+1 != m.seq {
		clear(r.msgs)
		r.msgs, r.bytes = r.msgs[:0], 0
	}
	r.msgs = append(r.msgs, m)
	r.bytes += m.size
	for len(r.msgs) > recentMessages || r.bytes > recentBytes && len(r.msgs) > 1 {
		r.bytes -= r.msgs[0].size
		r.msgs[0] = nil
		r.msgs = r.msgs[1:]
	}
}

// get returns the message at seq if held.
func (r *recent) get(seq uint64) *message {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.msgs) == 0 || seq < r.msgs[0].seq {
		return nil
	}
	if i := seq - r.msgs[0].seq; i < uint64(len(r.msgs)) {
		return r.msgs[i]
	}
	return nil
}

// holding returns the held message whose entries include index, if any.
func (r *recent) holding(index uint64) *message {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.msgs) == 0 || index < r.msgs[0].first || index > r.msgs[len(r.msgs)-1].last() {
		return nil
	}
	i, _ := slices.BinarySearchFunc(r.msgs, index, func(m *message, index uint64) int {
		return cmp.Compare(m.last(), index)
	})
	if r.msgs[i].first > index {
		return nil
	}
	return r.msgs[i]
}
