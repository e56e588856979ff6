package domain

import (
	"maps"
	"sort"
	"time"
)

// IdemStore is the one idempotency store every entity kind keeps (accounts,
// orders, transfers, payment links): the stored answers of requests made
// with an Idempotency-Key, by IdemRecord.Scope, with their scopes in
// creation order so expiry is O(expired) and deterministic. Records leave
// it only when a later record is put (Put expires what is older than the
// retention at that record's time), so two replicas applying the same
// events hold the same records; readers compare with their own clock.
type IdemStore struct {
	recs  map[string]*IdemRecord
	order []string // scopes, oldest first
}

// Get returns the record stored for scope, live or not (nil if none).
func (s *IdemStore) Get(scope string) *IdemRecord { return s.recs[scope] }

// Len is the number of records held, expired ones included.
func (s *IdemStore) Len() int { return len(s.recs) }

// Live returns the stored answer for scope if it is younger than the
// retention at now.
func (s *IdemStore) Live(scope string, now time.Time) *IdemRecord {
	r := s.recs[scope]
	if r == nil || now.Sub(r.CreatedAt) >= IdemRetention {
		return nil
	}
	return r
}

// LiveCount is the number of records younger than the retention at now.
func (s *IdemStore) LiveCount(now time.Time) int { return len(s.recs) - s.expired(now) }

// expired counts the expired prefix of the order at now. It reads only.
func (s *IdemStore) expired(now time.Time) int {
	n := 0
	for n < len(s.order) && now.Sub(s.recs[s.order[n]].CreatedAt) >= IdemRetention {
		n++
	}
	return n
}

// Put stores r, first dropping the records expired at r's creation time. A
// live scope written again keeps its place; an expired one goes to the back.
func (s *IdemStore) Put(r *IdemRecord) {
	if s.recs == nil {
		s.recs = map[string]*IdemRecord{}
	}
	if cut := s.expired(r.CreatedAt); cut > 0 {
		for _, scope := range s.order[:cut] {
			delete(s.recs, scope)
		}
		s.order = append(s.order[:0], s.order[cut:]...)
	}
	if _, ok := s.recs[r.Scope]; !ok {
		s.order = append(s.order, r.Scope)
	}
	s.recs[r.Scope] = r
}

// Load inserts records read from the snapshot store in creation order,
// skipping those already expired at now.
func (s *IdemStore) Load(records []*IdemRecord, now time.Time) {
	sort.SliceStable(records, func(i, j int) bool { return records[i].CreatedAt.Before(records[j].CreatedAt) })
	for _, r := range records {
		if now.Sub(r.CreatedAt) < IdemRetention {
			s.Put(r)
		}
	}
}

// Clone copies the store; records are shared, they are immutable.
func (s *IdemStore) Clone() IdemStore {
	return IdemStore{recs: maps.Clone(s.recs), order: append([]string(nil), s.order...)}
}

// Handle runs a request through idempotency: with an Idempotency-Key, a
// live record with the same body hash is replayed byte-for-byte; a
// different body is 422 (not stored); a store holding limit live records
// refuses with 503 (the records expire, so not for long); otherwise
// decide runs and its answer, success or refusal, is stored with its
// events in one record. what names the entity kind in that 503.
func (s *IdemStore) Handle(idem *IdemRequest, env Env, limit int, what string, decide func() ([]Event, Reply, *Error)) Outcome {
	if idem != nil {
		if live := s.Live(idem.Scope, env.Now); live != nil {
			if live.BodyHash != idem.BodyHash {
				return Outcome{Reply: ErrKeyReused().Reply()}
			}
			return Outcome{Reply: Reply{Status: live.Status, Body: live.Body}, Replayed: true}
		}
		if s.LiveCount(env.Now) >= limit {
			return Outcome{Reply: ErrUnavailable("idempotency store of this %s is full (%d live keys); retry later", what, limit).Reply()}
		}
	}
	events, reply, err := decide()
	if err != nil {
		reply = err.Reply()
		events = nil
	}
	// A 503 is the service's passing state (a full desk, an account or the
	// chain not answering), not the request's answer: it is not stored, so
	// the retry the 503 asks for executes.
	if idem != nil && reply.Status != 503 && len(reply.Body) <= MaxStoredReplyBytes {
		events = append(events, Event{Kind: EvIdemPut, Idem: &IdemRecord{
			Scope: idem.Scope, BodyHash: idem.BodyHash,
			Status: reply.Status, Body: reply.Body, CreatedAt: env.Now,
		}})
	}
	return Outcome{Events: events, Reply: reply, Err: err}
}

// InFlight reports whether scope has an answer in spec (decided, not yet
// durable) that committed does not hold yet: CONTRACT.md's 409
// idempotency_in_progress.
func (s *IdemStore) InFlight(committed *IdemStore, scope string, now time.Time) bool {
	return s.Live(scope, now) != nil && committed.Live(scope, now) == nil
}
