package domain

import (
	"strings"
	"time"
)

// IdemRequest is the idempotency identity of a write: its scope and the
// SHA-256 of its raw body.
//
// Until set makes it a signature guard instead of an Idempotency-Key: the
// write carries no key, and its signature could be accepted again by a
// process that did not see it (one started, or a partition's new owner,
// before the signature's timestamp). The store remembers the signature
// until Until, the end of its freshness window, so that a second use is
// 401 replayed whichever process receives it (IdemStore.Handle). LookOnly
// is a guard to look for and not to store: no later process accepts the
// signature, but one before this process's start (or before its node took
// the partition up) may have, and guarded it.
type IdemRequest struct {
	Scope    string
	BodyHash [32]byte
	Until    time.Time
	LookOnly bool
}

// Guard reports whether r is a signature guard (see IdemRequest).
func (r *IdemRequest) Guard() bool { return !r.Until.IsZero() }

// Stores reports whether Handle keeps a record for r (an answer or a
// guard): every r but a look-only guard; false for nil.
func (r *IdemRequest) Stores() bool { return r != nil && !r.LookOnly }

// Request is a command plus its optional idempotency identity, aimed at
// one entity (the command's Kind says which kind).
type Request struct {
	Cmd  Command
	Idem *IdemRequest
}

// Outcome is what Handle decided: the events to make durable (possibly
// none), the reply to send once they are, and whether it is a replay. Err
// is the refusal Decide returned (nil on success and on a replay), so a
// host-side caller (the chain side) tells a refusal from a success by its
// code, not by the reply's HTTP status.
type Outcome struct {
	Events   []Event
	Reply    Reply
	Replayed bool
	Err      *Error
	// Unkept marks a refusal decided before any entity was asked
	// (Refuse): no record holds it under the request's Idempotency-Key,
	// so a host that has one keeps it where the route keeps its key's
	// answers (httpd's idempotency homes).
	Unkept bool
}

// Handle runs a request through the account's idempotency store and
// Decide. The caller has already answered 409 for a key still in flight.
func (s *AccountState) Handle(req Request, env Env) Outcome {
	return s.Idem.Handle(req.Idem, env, MaxIdemPerAccount, "account", func() ([]Event, Reply, *Error) { return s.Decide(req.Cmd, env) })
}

// Refuse is an outcome without events: err as the answer and as a value.
// Desks and hosts use it for refusals decided before an entity is asked,
// which no entity has stored under an Idempotency-Key (Unkept).
func Refuse(err *Error) Outcome { return Outcome{Reply: err.Reply(), Err: err, Unkept: true} }

// HandleRequest is how a host runs req on s: s.Handle, except for a
// RecordAnswer aimed at an entity that is not an account (an order, a
// transfer, a payment link, a webhook endpoint or event). Their Decide
// knows no such command, so it goes through the entity's idempotency store
// alone, under the limit every such kind keeps: stored and replayed there
// beside the answers of the entity's own commands, so one key meets one
// record whichever of the two it came with.
func HandleRequest(s Entity, req Request, env Env) Outcome {
	c, ok := req.Cmd.(RecordAnswer)
	if !ok {
		return s.Handle(req, env) // every command but this one
	}
	st, stored := s.(storedEntity)
	if !stored {
		return s.Handle(req, env)
	}
	what := strings.ReplaceAll(c.Kind.String(), "_", " ") // as the kinds' own Handle name themselves
	return st.idem().Handle(req.Idem, env, MaxIdemPerOrder, what, func() ([]Event, Reply, *Error) { return nil, c.Reply, nil })
}

// IdemOf is the idempotency store of s (nil for a kind without one, a
// claim), for a host to look a request up in without running it
// (IdemStore.Lookup).
func IdemOf(s Entity) *IdemStore {
	switch s := s.(type) {
	case *AccountState:
		return &s.Idem
	case storedEntity:
		return s.idem()
	}
	return nil
}
