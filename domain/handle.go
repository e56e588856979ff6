package domain

import "time"

// IdemRequest is the idempotency identity of a write: its scope and the
// SHA-256 of its raw body.
type IdemRequest struct {
	Scope    string
	BodyHash [32]byte
}

// Request is a command plus its optional idempotency identity.
type Request struct {
	Cmd  Command
	Idem *IdemRequest
}

// Outcome is what Handle decided: the events to make durable (possibly
// none), the reply to send once they are, and whether it is a replay.
type Outcome struct {
	Events   []Event
	Reply    Reply
	Replayed bool
}

// Handle runs a request through idempotency and Decide. With an
// Idempotency-Key: a live record with the same body hash is replayed
// byte-for-byte; a different body is 422 (not stored); otherwise the
// command's answer, success or refusal, is stored with its events in one
// record. The caller has already answered 409 for a key still in flight.
func (s *AccountState) Handle(req Request, env Env) Outcome {
	if req.Idem != nil {
		if rec := s.LiveIdem(req.Idem.Scope, env.Now); rec != nil {
			if rec.BodyHash != req.Idem.BodyHash {
				return Outcome{Reply: ErrKeyReused().Reply()}
			}
			return Outcome{Reply: Reply{Status: rec.Status, Body: rec.Body}, Replayed: true}
		}
		// Expired records leave the map only when the next EvIdemPut is
		// applied, so count only the live ones: counting all would refuse
		// every idempotent write once full, and nothing would ever expire.
		if len(s.Idem) >= MaxIdemPerAccount && len(s.Idem)-s.expiredIdem(env.Now) >= MaxIdemPerAccount {
			return Outcome{Reply: ErrUnavailable("idempotency store of this account is full (%d live keys); retry later", MaxIdemPerAccount).Reply()}
		}
	}
	events, reply, err := s.Decide(req.Cmd, env)
	if err != nil {
		reply = err.Reply()
		events = nil
	}
	if req.Idem != nil && len(reply.Body) <= MaxStoredReplyBytes {
		events = append(events, Event{Kind: EvIdemPut, Idem: &IdemRecord{
			Scope: req.Idem.Scope, BodyHash: req.Idem.BodyHash,
			Status: reply.Status, Body: reply.Body, CreatedAt: env.Now,
		}})
	}
	return Outcome{Events: events, Reply: reply}
}

// InFlight reports whether scope has an answer in spec (decided, not yet
// durable) that committed does not hold yet: CONTRACT.md's 409
// idempotency_in_progress.
func InFlight(spec, committed *AccountState, scope string, now time.Time) bool {
	return spec.LiveIdem(scope, now) != nil && committed.LiveIdem(scope, now) == nil
}
