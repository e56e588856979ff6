// Package actors hosts the entities of package domain in protoactor-go
// actors and connects them to the log and the snapshot store.
//
// The write path of one command:
//
//	Exec -> account actor: Handle on the speculative state -> wal.Enqueue
//	     -> (group commit, fsync) -> durable message back to the actor
//	     -> Apply to the committed state -> publish -> reply
//
// Each actor keeps two states. The speculative state has every event that
// was handed to the log, so the next command is decided after the previous
// one without waiting for its fsync (many commands of one account share a
// group commit). The committed state has only durable events; every read is
// answered from it, so nobody ever sees a write that a crash could undo.
// Rows are immutable, so both states share them and the second state costs
// only map slots.
//
// Replies leave in the order commands arrived: a reply that needs no log
// write still waits behind the writes before it, because it may depend on
// them (a replay, a "not found" after a pending delete).
//
// A failed log write ends the process (wal.Options.OnFatal), so an event in
// the speculative state is either made durable or the state is gone.
package actors
