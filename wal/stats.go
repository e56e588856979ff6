package wal

import (
	"sync/atomic"
	"time"
)

// Writer statistics, for the service's metrics: how long each fsync took
// and how many records each durable batch held. They are fixed-bucket
// histograms updated with a few atomic adds per batch (none per record),
// read whole by FsyncDurations and BatchSizes.

// fsyncBounds are the upper bounds of the fsync-duration buckets: a
// datacenter NVMe fdatasync takes tens of µs, a cloud volume's ms, a
// struggling disk up to seconds.
var fsyncBounds = [...]time.Duration{
	50 * time.Microsecond, 100 * time.Microsecond, 250 * time.Microsecond, 500 * time.Microsecond,
	time.Millisecond, 2500 * time.Microsecond, 5 * time.Millisecond, 10 * time.Millisecond,
	25 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 250 * time.Millisecond,
	500 * time.Millisecond, time.Second,
}

// batchBounds are the upper bounds of the batch-size buckets, in records:
// powers of two up to DefaultMaxBatch.
var batchBounds = [...]uint64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}

// Histogram is a reading of one of the writer's histograms.
type Histogram struct {
	// Bounds are the buckets' upper bounds, ascending (seconds for
	// fsyncs, records for batches).
	Bounds []float64
	// Counts[i] counts observations up to Bounds[i] and above
	// Bounds[i-1]; the last of its len(Bounds)+1 counts those above every
	// bound.
	Counts []uint64
	// Sum is the sum of the observations (seconds or records).
	Sum float64
}

// Count is the number of observations.
func (h Histogram) Count() uint64 {
	var n uint64
	for _, c := range h.Counts {
		n += c
	}
	return n
}

// writerStats are the writer's histograms. Only the writer and the syncer
// observe; anyone reads.
type writerStats struct {
	fsyncs     [len(fsyncBounds) + 1]atomic.Uint64
	fsyncNanos atomic.Uint64
	batches    [len(batchBounds) + 1]atomic.Uint64
	records    atomic.Uint64
}

// fsynced records one fsync's duration.
func (s *writerStats) fsynced(took time.Duration) {
	i := 0
	for i < len(fsyncBounds) && took > fsyncBounds[i] {
		i++
	}
	s.fsyncs[i].Add(1)
	s.fsyncNanos.Add(uint64(max(took, 0)))
}

// timed wraps a sync so that it records its duration.
func (s *writerStats) timed(sync func() error) func() error {
	return func() error {
		start := time.Now()
		err := sync()
		s.fsynced(time.Since(start))
		return err
	}
}

// durable records the size of one durable batch.
func (s *writerStats) durable(records int) {
	n := uint64(records)
	i := 0
	for i < len(batchBounds) && n > batchBounds[i] {
		i++
	}
	s.batches[i].Add(1)
	s.records.Add(n)
}

// FsyncDurations is the histogram of fsync durations (seconds) since
// Open: each batch's fdatasync, timed around the call itself.
func (l *Log) FsyncDurations() Histogram {
	s := &l.stats
	h := Histogram{Bounds: make([]float64, len(fsyncBounds)), Counts: make([]uint64, len(s.fsyncs))}
	for i, b := range fsyncBounds {
		h.Bounds[i] = b.Seconds()
	}
	for i := range s.fsyncs {
		h.Counts[i] = s.fsyncs[i].Load()
	}
	h.Sum = time.Duration(s.fsyncNanos.Load()).Seconds()
	return h
}

// BatchSizes is the histogram of records per durable batch since Open
// (one fsync each).
func (l *Log) BatchSizes() Histogram {
	s := &l.stats
	h := Histogram{Bounds: make([]float64, len(batchBounds)), Counts: make([]uint64, len(s.batches))}
	for i, b := range batchBounds {
		h.Bounds[i] = float64(b)
	}
	for i := range s.batches {
		h.Counts[i] = s.batches[i].Load()
	}
	h.Sum = float64(s.records.Load())
	return h
}
