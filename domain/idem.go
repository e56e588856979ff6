package domain

import (
	"maps"
	"slices"
	"sort"
	"time"
)

// IdemStore is the one idempotency store every entity kind keeps (accounts,
// orders, transfers, payment links): the stored answers of requests made
// with an Idempotency-Key, and the signature guards of writes made without
// one (IdemRequest.Until), by IdemRecord.Scope. Each kind of record keeps
// its scopes in arrival order, so expiry is O(expired) and deterministic:
// answers expire 24 h after creation, in creation order; guards at their
// Until, at most the 60 s freshness window after arrival, so nearly in
// order (one that expired behind a later one is dropped with it, and
// counts as gone already). Records leave only when a later record is put
// (Put expires what has expired at that record's time), so two replicas
// applying the same events hold the same records; readers compare with
// their own clock.
//
// Guards need no limit of their own: a key admits at most 120 writes a
// minute (the rate limit), so an entity holds at most 120 live guards per
// key of its account.
type IdemStore struct {
	recs   map[string]*IdemRecord
	order  []string // answers' scopes, oldest first
	guards []string // guards' scopes, in arrival order
}

// Get returns the record stored for scope, live or not (nil if none).
func (s *IdemStore) Get(scope string) *IdemRecord { return s.recs[scope] }

// Len is the number of records held, expired ones and guards included.
func (s *IdemStore) Len() int { return len(s.recs) }

// Live returns the record for scope if it still counts at now: an answer
// younger than the retention, a guard before its Until.
func (s *IdemStore) Live(scope string, now time.Time) *IdemRecord {
	r := s.recs[scope]
	if r == nil || !r.live(now) {
		return nil
	}
	return r
}

// LiveCount is the number of answers (not guards) live at now.
func (s *IdemStore) LiveCount(now time.Time) int { return len(s.order) - s.expired(s.order, now) }

// expired counts the expired prefix of scopes at now. It reads only.
func (s *IdemStore) expired(scopes []string, now time.Time) int {
	n := 0
	for n < len(scopes) && !s.recs[scopes[n]].live(now) {
		n++
	}
	return n
}

// drop removes the expired prefix of scopes at now from the store and
// returns the rest.
func (s *IdemStore) drop(scopes []string, now time.Time) []string {
	cut := s.expired(scopes, now)
	if cut == 0 {
		return scopes
	}
	for _, scope := range scopes[:cut] {
		delete(s.recs, scope)
	}
	return append(scopes[:0], scopes[cut:]...)
}

// Put stores r, first dropping the records expired at r's creation time. A
// live scope written again keeps its place; an expired one goes to the back.
func (s *IdemStore) Put(r *IdemRecord) {
	if s.recs == nil {
		s.recs = map[string]*IdemRecord{}
	}
	s.order = s.drop(s.order, r.CreatedAt)
	s.guards = s.drop(s.guards, r.CreatedAt)
	if _, ok := s.recs[r.Scope]; !ok {
		if r.Guard() {
			s.guards = append(s.guards, r.Scope)
		} else {
			s.order = append(s.order, r.Scope)
		}
	}
	s.recs[r.Scope] = r
}

// Load inserts records read from the snapshot store in creation order,
// skipping those already expired at now.
func (s *IdemStore) Load(records []*IdemRecord, now time.Time) {
	sort.SliceStable(records, func(i, j int) bool { return records[i].CreatedAt.Before(records[j].CreatedAt) })
	for _, r := range records {
		if r.live(now) {
			s.Put(r)
		}
	}
}

// Clone copies the store; records are shared, they are immutable.
func (s *IdemStore) Clone() IdemStore {
	return IdemStore{recs: maps.Clone(s.recs), order: slices.Clone(s.order), guards: slices.Clone(s.guards)}
}

// Handle runs a request through idempotency: with an Idempotency-Key, a
// live record with the same body hash is replayed byte-for-byte; a
// different body is 422 (not stored); a store holding limit live records
// refuses with 503 (the records expire, so not for long); otherwise
// decide runs and its answer, success or refusal, is stored with its
// events in one record. what names the entity kind in that 503.
//
// A signature guard is stored the same way, without the answer (unless
// LookOnly), and a live one refuses the request: 401 replayed, as the
// replay cache would have in the process that accepted the signature
// first.
func (s *IdemStore) Handle(idem *IdemRequest, env Env, limit int, what string, decide func() ([]Event, Reply, *Error)) Outcome {
	if out, ok := s.Lookup(idem, env.Now); ok {
		return out
	}
	if idem != nil && !idem.Guard() && s.LiveCount(env.Now) >= limit {
		return Outcome{Reply: ErrUnavailable("idempotency store of this %s is full (%d live keys); retry later", what, limit).Reply()}
	}
	events, reply, err := decide()
	if err != nil {
		reply = err.Reply()
		events = nil
	}
	// A 503 is the service's passing state (a full desk, an account or the
	// chain not answering), not the request's answer: it is not stored, so
	// the retry the 503 asks for executes.
	if idem.Stores() && reply.Status != 503 && len(reply.Body) <= MaxStoredReplyBytes {
		events = append(events, Event{Kind: EvIdemPut, Idem: idemRecord(idem, reply, env.Now)})
	}
	return Outcome{Events: events, Reply: reply, Err: err}
}

// Lookup is what the store answers idem before anything runs, Handle's
// first step: for a live record of its scope, 401 replayed if it is a
// guard, 422 for another body, else the stored answer replayed. ok is
// false when no live record holds the scope (or idem is nil): the request
// is to run. A host looks first this way when running would cost what a
// replay must not (POST /fx/quotes asks the makers).
func (s *IdemStore) Lookup(idem *IdemRequest, now time.Time) (Outcome, bool) {
	if idem == nil {
		return Outcome{}, false
	}
	live := s.Live(idem.Scope, now)
	switch {
	case live == nil:
		return Outcome{}, false
	case live.Guard():
		err := ErrReplayed() // the guard is the stored answer: not Refuse
		return Outcome{Reply: err.Reply(), Err: err}, true
	case live.BodyHash != idem.BodyHash:
		return Outcome{Reply: ErrKeyReused().Reply()}, true
	}
	return Outcome{Reply: Reply{Status: live.Status, Body: live.Body}, Replayed: true}, true
}

// InFlight reports whether scope has an answer in spec (decided, not yet
// durable) that committed does not hold yet: CONTRACT.md's 409
// idempotency_in_progress.
func (s *IdemStore) InFlight(committed *IdemStore, scope string, now time.Time) bool {
	return s.Live(scope, now) != nil && committed.Live(scope, now) == nil
}

// idemRecord is what Handle stores for idem: the answer, or for a guard
// only its scope, status and end.
func idemRecord(idem *IdemRequest, reply Reply, now time.Time) *IdemRecord {
	r := &IdemRecord{Scope: idem.Scope, BodyHash: idem.BodyHash, Status: reply.Status, CreatedAt: now}
	if idem.Guard() {
		r.Until = idem.Until
	} else {
		r.Body = reply.Body
	}
	return r
}
