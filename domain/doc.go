// Package domain holds the pure state machines of fxd: the records an
// account owns (profile, API keys, contacts, idempotency records), the
// commands that change them and the events that record each change.
//
// Every entity follows one shape:
//
//	Decide(state, command, env) -> (events, reply, error)  // no I/O, no clock, no randomness of its own
//	state.Apply(event)                                     // total and deterministic
//
// Events are state transfers: each carries the complete new value of the one
// row it writes (or the id of the row it deletes). That keeps Apply trivial,
// lets the snapshot applier write rows without re-running any logic, and makes
// "state rebuilt from the log equals the live state" easy to prove.
//
// Rows are immutable once they are inside an event: Decide always builds a
// fresh value, so the same pointer can sit in several states (the actor's
// speculative state and its committed state) without copies.
//
// Nothing in this package does I/O; time and ids come in through Env.
package domain
