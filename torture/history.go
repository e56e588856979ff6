package torture

import (
	"crypto/sha256"
	"sync"
	"time"
)

// outcome is what the client learnt of one request in the end.
type outcome uint8

const (
	outPending    outcome = iota // not answered yet
	outAcked                     // a 2xx: the write happened, exactly once
	outAnswered                  // a final non-2xx from the handler
	outUnresolved                // never answered: executed at most once, unknown which
)

// request is one write of the workload as the history keeps it: what was
// sent (so it can be sent again with the same Idempotency-Key) and what
// the client was told. Answers are kept as a hash and a head: the replay
// check compares the hash, messages show the head.
type request struct {
	seq     int
	worker  int
	op      string // "contacts.create", …
	method  string
	path    string // relative to the base path
	idemKey string // "" for writes sent without one (quotes, public submits)
	body    []byte

	outcome  outcome
	status   int
	respHash [sha256.Size]byte
	respHead string
	answerAt time.Time
	gen      int // server generation that answered

	attempts int
	unknowns int // attempts with no answer: transport error, timeout, 503
	refusals int // 429, stale timestamp, idempotency_in_progress
	// durableBefore: an attempt had no answer and the next one was a
	// replay, so the first had executed (and was durable) after all.
	durableBefore bool
	recordID      string
	// apply updates the record from the answer of a request resolved at
	// the end (set by the operation when it gave up on it).
	apply func(status int, body []byte, replayed bool)
}

// maxHead bounds the answer bytes a request keeps for messages.
const maxHead = 240

func (r *request) setAnswer(status int, body []byte, gen int) {
	r.status, r.respHash, r.gen, r.answerAt = status, sha256.Sum256(body), gen, time.Now()
	r.respHead = string(body[:min(len(body), maxHead)])
	if status/100 == 2 {
		r.outcome = outAcked
	} else {
		r.outcome = outAnswered
	}
}

// history is every write sent, bounded by maxRequests (past it the
// workers stop starting operations), and the totals of every attempt.
type history struct {
	mu          sync.Mutex
	maxRequests int
	reqs        []*request
	replayable  []*request // acknowledged with an Idempotency-Key, in ack order
	unresolved  []*request // given up without an answer (resolved at the end)

	attempts, reads, acked, answered, refused, unknown int
	unknownDurable, unknownFresh                       int
}

func newHistory(maxRequests int) *history { return &history{maxRequests: maxRequests} }

// add registers a request about to be sent; false when the history is full.
func (h *history) add(r *request) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.reqs) >= h.maxRequests {
		return false
	}
	r.seq = len(h.reqs)
	h.reqs = append(h.reqs, r)
	return true
}

// full reports whether no more requests may be added.
func (h *history) full() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.reqs) >= h.maxRequests
}

// settle records a request's final answer. replayed is the answer's
// Idempotency-Replayed; after unknown attempts it tells whether the
// first execution was durable.
func (h *history) settle(r *request, status int, body []byte, gen int, replayed bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r.setAnswer(status, body, gen)
	if r.unknowns > 0 {
		if replayed {
			r.durableBefore = true
			h.unknownDurable++
		} else {
			h.unknownFresh++
		}
	}
	if r.outcome == outAcked {
		h.acked++
		if r.idemKey != "" {
			h.replayable = append(h.replayable, r)
		}
	} else {
		h.answered++
	}
}

// giveUp records a request that never got an answer.
func (h *history) giveUp(r *request) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r.outcome = outUnresolved
	h.unresolved = append(h.unresolved, r)
}

// attempt counts one attempt of a write and how it ended.
func (h *history) attempt(r *request, unknown, refused bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.attempts++
	r.attempts++
	switch {
	case unknown:
		h.unknown++
		r.unknowns++
	case refused:
		h.refused++
		r.refusals++
	}
}

// read counts one read request.
func (h *history) read() {
	h.mu.Lock()
	h.reads++
	h.mu.Unlock()
}

// takeUnresolved hands over the requests given up so far.
func (h *history) takeUnresolved() []*request {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.unresolved
	h.unresolved = nil
	return out
}

// replaySample picks up to n acknowledged replayable writes: half of them
// among the latest (the ones closest to a fault), the rest from all.
func (h *history) replaySample(n int, pick func(int) int) []*request {
	h.mu.Lock()
	defer h.mu.Unlock()
	all := h.replayable
	if len(all) == 0 || n <= 0 {
		return nil
	}
	recent := all[max(0, len(all)-n):]
	out := make([]*request, 0, n)
	for range n / 2 {
		out = append(out, recent[pick(len(recent))])
	}
	for len(out) < n {
		out = append(out, all[pick(len(all))])
	}
	return out
}

// snapshotReplayable returns the acknowledged replayable writes so far.
func (h *history) snapshotReplayable() []*request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]*request(nil), h.replayable...)
}
