// Package partlog names what the engine needs of its log, so that one
// engine runs on either of two logs (DESIGN.md, "Beyond one machine"): the
// local write-ahead log of a single node (package wal) and a replicated
// JetStream stream, one per partition, of a cluster (package jslog).
//
// The contract is the local log's, which the engine was written against:
// a log of payloads at contiguous indexes from 1, each append durable
// before it is acknowledged, read back verified (every payload framed and
// checksummed, each frame chained to the one before by its CRC), truncated
// only in front. The conformance suite in partlog/logtest holds both
// implementations to it.
package partlog

import (
	"errors"

	"github.com/fxd-labs/fxd/internal/histogram"
)

// PartitionLog is the engine's log. All methods are safe for concurrent
// use.
type PartitionLog interface {
	// Append writes payload as the next entry and returns its index once
	// the entry is durable. The log owns payload after the call.
	Append(payload []byte) (uint64, error)
	// Enqueue queues payload as the next entry and returns at once; done
	// (may be nil) runs with the index once the entry is durable, in index
	// order, on the log's goroutine (it must not block). On a failure of
	// the log done is never called and Options.OnFatal reports it.
	Enqueue(payload []byte, done func(index uint64)) error
	// Scan calls fn for each entry from `from` to the LastIndex seen when
	// it starts, in order, verifying frames and the chain. from >
	// LastIndex scans nothing; from < FirstIndex is ErrOutOfRange. The
	// payload is valid only until fn returns; an error of fn is returned
	// as is.
	Scan(from uint64, fn func(index uint64, payload []byte) error) error
	// FirstIndex is the first index held, LastIndex()+1 when empty.
	FirstIndex() uint64
	// LastIndex is the last durable index, 0 for a new log.
	LastIndex() uint64
	// TruncateFront drops entries below index (index <= LastIndex()+1);
	// it may keep some of them (whole segments or messages only), never
	// one at or above index.
	TruncateFront(index uint64) error
	// Committed receives (1-buffered, dropping when full) after every
	// durable batch: a tailing reader waits on it, then scans up to
	// LastIndex.
	Committed() <-chan struct{}
	// BatchSizes is the histogram of entries per durable batch since
	// Open (the local log: one fsync each; a stream: one message each;
	// a follower appends none).
	BatchSizes() histogram.Snapshot
	// Close flushes nothing it has not acknowledged and releases the log.
	Close() error
}

// Options are what every implementation takes from the engine.
type Options struct {
	// OnDurable, if set, is called on the log's goroutine after every
	// durable batch, before its callers learn of it, with the batch's
	// first index and payloads in order; it must not block or modify them
	// (it may keep them). The engine's applier is fed this way.
	OnDurable func(first uint64, payloads [][]byte)
	// OnFatal is called once when the log can no longer make appends
	// durable (a failed write or fsync; a fenced append: another node
	// appended first). After it every append fails with ErrFailed.
	OnFatal func(err error)
	// Logf receives one line per notable event.
	Logf func(format string, args ...any)
	// Follow opens the log to follow another writer (a cluster node that
	// does not own the partition keeps its store warm): appends are
	// ErrFollower, and LastIndex and Committed follow what the owner
	// appends. Only a replicated log can (jslog).
	Follow bool
}

// Errors every implementation returns (wrapped, with detail); match them
// with errors.Is.
var (
	// ErrQueueFull: the append queue is at its bound; retry later.
	ErrQueueFull = errors.New("log: append queue full")
	// ErrClosed: the log was closed.
	ErrClosed = errors.New("log: closed")
	// ErrTooLarge: the payload exceeds the log's limit.
	ErrTooLarge = errors.New("log: payload too large")
	// ErrFailed: the log failed (see Options.OnFatal) and takes no more
	// appends.
	ErrFailed = errors.New("log: failed")
	// ErrOutOfRange: an index outside [FirstIndex, LastIndex].
	ErrOutOfRange = errors.New("log: index out of range")
	// ErrCorrupt: a stored entry failed verification.
	ErrCorrupt = errors.New("log: corrupt")
	// ErrFollower: the log was opened to follow (Options.Follow).
	ErrFollower = errors.New("log: opened to follow another writer")
)
