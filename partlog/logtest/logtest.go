// Package logtest is the conformance suite of partlog.PartitionLog: one
// set of tests that every log of the engine passes (the local wal and the
// JetStream jslog), so that the engine runs the same on either.
//
// An implementation's test calls Run with a function that makes a new,
// empty log and returns an Open for it; every call of that Open opens the
// same log again (the same directory, the same stream), which is how the
// suite closes and reopens a log. The suite closes every log it opens
// before it opens the next; newLog's t cleans up the storage.
//
// The log must make truncation observable: after 64 entries of 1 KiB,
// each appended alone, TruncateFront(48) must drop at least entry 1
// (local: segments of at most 16 KiB; JetStream: one message per Append).
package logtest

import (
	"testing"

	"github.com/fxd-labs/fxd/partlog"
)

// Open opens one log with opts: the same log on every call.
type Open func(opts partlog.Options) (partlog.PartitionLog, error)

// NewLog makes a new, empty log whose storage t's cleanup removes, and
// returns its Open.
type NewLog func(t *testing.T) Open

// Run runs every conformance test as a subtest of t.
func Run(t *testing.T, newLog NewLog) {
	for _, tc := range []struct {
		name string
		test func(t *testing.T, open Open)
	}{
		{"IndexesContiguousFromOne", testIndexes},
		{"AppendDurableAndScannable", testAppendScan},
		{"EnqueueDoneInIndexOrder", testEnqueueOrder},
		{"OnDurableEveryIndexOnceInOrder", testOnDurable},
		{"CommittedSignals", testCommitted},
		{"ConcurrentAppenders", testConcurrent},
		{"ScanBounds", testScanBounds},
		{"TruncateFrontKeepsIndexAndAbove", testTruncateFront},
		{"ReopenContinuesChain", testReopen},
		{"CloseFlushesQueued", testCloseFlushes},
		{"TooLarge", testTooLarge},
		{"ClosedAfterClose", testClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.test(t, newLog(t))
		})
	}
}
