package wal_test

import (
	"testing"

	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/partlog/logtest"
	"github.com/fxd-labs/fxd/wal"
)

// The local log is the engine's log on a single node.
var _ partlog.PartitionLog = (*wal.Log)(nil)

// The local log passes the conformance suite of every engine log. Small
// segments make TruncateFront drop whole segments within the suite's 64
// KiB.
func TestConformance(t *testing.T) {
	logtest.Run(t, func(t *testing.T) logtest.Open {
		dir := t.TempDir()
		return func(opts partlog.Options) (partlog.PartitionLog, error) {
			l, _, err := wal.Open(dir, wal.Options{
				SegmentSize: 16 << 10,
				OnDurable:   opts.OnDurable,
				OnFatal:     opts.OnFatal,
				Logf:        opts.Logf,
			})
			if err != nil {
				return nil, err
			}
			return l, nil
		}
	})
}
