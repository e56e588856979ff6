package wal

import (
	"time"

	"github.com/fxd-labs/fxd/internal/histogram"
)

// Writer statistics, for the service's metrics: how long each fsync took
// (here) and how many records each durable batch held (the append
// queue's, shared with the stream log: groupcommit.Queue.BatchSizes).
// They are fixed-bucket histograms updated with a few atomic adds per
// batch (none per record), read whole by FsyncDurations and BatchSizes.

// fsyncBounds are the upper bounds of the fsync-duration buckets, in
// nanoseconds: a datacenter NVMe fdatasync takes tens of µs, a cloud
// volume's ms, a struggling disk up to seconds.
var fsyncBounds = []uint64{
	50e3, 100e3, 250e3, 500e3, 1e6, 2.5e6, 5e6, 10e6, 25e6, 50e6, 100e6, 250e6, 500e6, 1e9,
}

// writerStats are the writer's histograms. Only the syncer observes;
// anyone reads. newLog inits them.
type writerStats struct {
	fsyncs histogram.Fixed // nanoseconds
}

func (s *writerStats) init() { s.fsyncs.Init(fsyncBounds) }

// fsynced records one fsync's duration.
func (s *writerStats) fsynced(took time.Duration) { s.fsyncs.Observe(uint64(max(took, 0))) }

// timed wraps a sync so that it records its duration.
func (s *writerStats) timed(sync func() error) func() error {
	return func() error {
		start := time.Now()
		err := sync()
		s.fsynced(time.Since(start))
		return err
	}
}

// FsyncDurations is the histogram of fsync durations (nanoseconds) since
// Open: each batch's fdatasync, timed around the call itself.
func (l *Log) FsyncDurations() histogram.Snapshot { return l.stats.fsyncs.Read() }

// BatchSizes is the histogram of records per durable batch since Open
// (one fsync each).
func (l *Log) BatchSizes() histogram.Snapshot { return l.q.BatchSizes() }
