package client

import "sync"

// requestID identifies a signed request within one second: with the
// timestamp, it is everything the canonical string covers.
type requestID struct {
	method string
	target string
	body   [32]byte // SHA-256 of the body
}

// signedSet makes the requests a Client signs unique within each second.
//
// Invariants, under mu: sec is the latest timestamp handed out; next holds
// every requestID signed at sec (and nothing older), mapped to the next
// _r value to try for it. The set is cleared when sec advances, so it never
// holds more than one second of requests.
type signedSet struct {
	mu   sync.Mutex
	sec  int64
	next map[requestID]uint32
}

// claim picks the timestamp for a request (now, from the caller's clock,
// but never earlier than one already handed out, so the set only ever
// moves forward) and a target no request signed at that timestamp has
// used, and records it.
func (s *signedSet) claim(now func() int64, method, target string, body [32]byte) (int64, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Read the clock under the lock: otherwise a request that read second
	// t could arrive after one that read t+1 and clear t+1's set.
	ts := now()
	if s.next == nil {
		s.next = make(map[requestID]uint32)
	}
	if ts > s.sec {
		clear(s.next)
		s.sec = ts
	}
	ts = s.sec
	id := requestID{method, target, body}
	n, dup := s.next[id]
	if !dup {
		s.next[id] = 1
		return ts, target
	}
	// The caller's own target may already carry an _r (or another
	// request may have produced this candidate): skip to one unused.
	for ; ; n++ {
		cand := requestID{method, withUniqueParam(target, n), body}
		if _, used := s.next[cand]; !used {
			s.next[cand] = 1
			s.next[id] = n + 1
			return ts, cand.target
		}
	}
}

// rewind lets the timestamps go back to now when a clock correction moved
// them backwards (a Client whose clock ran ahead): claim never hands out
// an earlier second than one it handed out, so without this it would go
// on signing with the refused future second.
func (s *signedSet) rewind(now int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now < s.sec {
		clear(s.next)
		s.sec = now
	}
}
