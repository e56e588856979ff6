package domain

// IdemRequest is the idempotency identity of a write: its scope and the
// SHA-256 of its raw body.
type IdemRequest struct {
	Scope    string
	BodyHash [32]byte
}

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
}

// Handle runs a request through the account's idempotency store and
// Decide. The caller has already answered 409 for a key still in flight.
func (s *AccountState) Handle(req Request, env Env) Outcome {
	return s.Idem.Handle(req.Idem, env, MaxIdemPerAccount, "account", func() ([]Event, Reply, *Error) { return s.Decide(req.Cmd, env) })
}

// Refuse is an outcome without events: err as the answer and as a value.
// Hosts use it for refusals decided before an entity is asked (not stored
// under an Idempotency-Key).
func Refuse(err *Error) Outcome { return Outcome{Reply: err.Reply(), Err: err} }
