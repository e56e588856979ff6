// Package histogram is the one fixed-bucket histogram of fxd's metrics
// (log fsync durations and batch sizes, API latencies): observed with a
// few atomic adds, no lock and no allocation, and read whole at scrape
// time as Prometheus's cumulative buckets.
package histogram

import "sync/atomic"

// Fixed counts observations (non-negative integers: nanoseconds, records)
// into buckets with fixed upper bounds. Init it before use; it is safe for
// concurrent use after that.
type Fixed struct {
	bounds []uint64        // ascending upper bounds, inclusive
	counts []atomic.Uint64 // counts[i]: within bounds[i], above bounds[i-1]; the last: above every bound
	sum    atomic.Uint64
}

// Init sets the ascending upper bounds (bounds is kept; do not modify it).
func (h *Fixed) Init(bounds []uint64) {
	for i := 1; i < len(bounds); i++ {
		if bounds[i] <= bounds[i-1] {
			panic("histogram: bounds not ascending")
		}
	}
	h.bounds, h.counts = bounds, make([]atomic.Uint64, len(bounds)+1)
}

// Observe counts one observation of v.
func (h *Fixed) Observe(v uint64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sum.Add(v)
}

// Snapshot is a reading of a Fixed.
type Snapshot struct {
	Bounds []uint64 // the upper bounds
	Counts []uint64 // per bucket, not cumulative; len(Bounds)+1, the last above every bound
	Sum    uint64   // of the observations
}

// Read returns the histogram as it stands (each count read atomically,
// not all at one instant: good enough for a scrape).
func (h *Fixed) Read() Snapshot {
	s := Snapshot{Bounds: h.bounds, Counts: make([]uint64, len(h.counts)), Sum: h.sum.Load()}
	for i := range h.counts {
		s.Counts[i] = h.counts[i].Load()
	}
	return s
}

// Add returns the sum of s and o, two readings of histograms with the
// same bounds (the engine's logs, one per partition); an empty reading
// (no bounds) adds nothing.
func (s Snapshot) Add(o Snapshot) Snapshot {
	switch {
	case len(o.Bounds) == 0:
		return s
	case len(s.Bounds) == 0:
		return Snapshot{Bounds: o.Bounds, Counts: append([]uint64(nil), o.Counts...), Sum: o.Sum}
	case len(s.Bounds) != len(o.Bounds):
		panic("histogram: adding readings with different bounds")
	}
	out := Snapshot{Bounds: s.Bounds, Counts: make([]uint64, len(s.Counts)), Sum: s.Sum + o.Sum}
	for i := range s.Counts {
		out.Counts[i] = s.Counts[i] + o.Counts[i]
	}
	return out
}

// Count is the number of observations.
func (s Snapshot) Count() uint64 {
	var n uint64
	for _, c := range s.Counts {
		n += c
	}
	return n
}

// Cumulative is the snapshot as Prometheus wants it, in units scaled by
// scale (1e-9 turns nanoseconds into seconds): the count, the sum, and the
// cumulative count at each bound.
func (s Snapshot) Cumulative(scale float64) (count uint64, sum float64, buckets map[float64]uint64) {
	buckets = make(map[float64]uint64, len(s.Bounds))
	for i, n := range s.Counts {
		count += n
		if i < len(s.Bounds) {
			buckets[float64(s.Bounds[i])*scale] = count
		}
	}
	return count, float64(s.Sum) * scale, buckets
}
