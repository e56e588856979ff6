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
	var live *IdemRecord
	full := false
	if req.Idem != nil {
		live = s.LiveIdem(req.Idem.Scope, env.Now)
		// Expired records leave the map only when the next EvIdemPut is
		// applied, so count only the live ones: counting all would refuse
		// every idempotent write once full, and nothing would ever expire.
		full = len(s.Idem) >= MaxIdemPerAccount && len(s.Idem)-s.expiredIdem(env.Now) >= MaxIdemPerAccount
	}
	return handleIdem(req.Idem, live, full, MaxIdemPerAccount, env, func() ([]Event, Reply, *Error) { return s.Decide(req.Cmd, env) })
}

// handleIdem is the idempotency wrapper every entity shares: live is the
// stored answer for idem's scope (nil if none), full says the entity holds
// as many live records as it may.
func handleIdem(idem *IdemRequest, live *IdemRecord, full bool, limit int, env Env, decide func() ([]Event, Reply, *Error)) Outcome {
	if idem != nil {
		if live != nil {
			if live.BodyHash != idem.BodyHash {
				return Outcome{Reply: ErrKeyReused().Reply()}
			}
			return Outcome{Reply: Reply{Status: live.Status, Body: live.Body}, Replayed: true}
		}
		if full {
			return Outcome{Reply: ErrUnavailable("idempotency store of this %s is full (%d live keys); retry later", entityKind(limit), limit).Reply()}
		}
	}
	events, reply, err := decide()
	if err != nil {
		reply = err.Reply()
		events = nil
	}
	if idem != nil && len(reply.Body) <= MaxStoredReplyBytes {
		events = append(events, Event{Kind: EvIdemPut, Idem: &IdemRecord{
			Scope: idem.Scope, BodyHash: idem.BodyHash,
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

func entityKind(limit int) string {
	if limit == MaxIdemPerOrder {
		return "order"
	}
	return "account"
}
