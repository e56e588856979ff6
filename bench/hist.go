package bench

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// Hist is a log-linear latency histogram in the style of HdrHistogram:
// values (nanoseconds) below 2^histSubBits are counted exactly, larger
// values in 2^histSubBits buckets per power of two, so every reported
// quantile is within 1/2^histSubBits (0.8 %) of a recorded value. Recording
// is a few instructions and never allocates; one Hist per worker, merged at
// the end, keeps recording free of contention.
type Hist struct {
	counts [histBuckets]int64
	n      int64
	sum    int64
	min    int64
	max    int64
}

const (
	histSubBits = 7
	histSub     = 1 << histSubBits
	// histMaxExp covers values up to 2^(histMaxExp+histSubBits) ns (~39 h).
	histMaxExp  = 40
	histBuckets = (histMaxExp + 1) * histSub
)

// bucketOf maps a value to its bucket index.
func bucketOf(v int64) int {
	if v < histSub {
		if v < 0 {
			return 0
		}
		return int(v)
	}
	e := bits.Len64(uint64(v)) - histSubBits - 1 // v>>e is in [histSub, 2*histSub)
	if e >= histMaxExp {
		return histBuckets - 1
	}
	return (e+1)*histSub + int(v>>e) - histSub
}

// bucketMid is the midpoint of a bucket's value range.
func bucketMid(i int) int64 {
	if i < histSub {
		return int64(i)
	}
	e := i/histSub - 1
	m := int64(i%histSub + histSub)
	return m<<e + (int64(1)<<e)/2
}

// Record adds one value (ns).
func (h *Hist) Record(v int64) {
	h.counts[bucketOf(v)]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += v
}

// RecordAtomic is Record for a Hist shared between goroutines. Only
// counts, n and sum are kept (min and max are not).
func (h *Hist) RecordAtomic(v int64) {
	atomic.AddInt64(&h.counts[bucketOf(v)], 1)
	atomic.AddInt64(&h.n, 1)
	atomic.AddInt64(&h.sum, v)
}

// Merge adds o's values to h.
func (h *Hist) Merge(o *Hist) {
	if o.n == 0 {
		return
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	if o.max > h.max {
		h.max = o.max
	}
	h.n += o.n
	h.sum += o.sum
}

// Count is the number of values recorded.
func (h *Hist) Count() int64 { return h.n }

// Quantile returns the value at quantile q (0..1): the smallest bucket
// whose cumulative count reaches ceil(q*n), reported as its midpoint and
// clamped to the recorded maximum when that is known.
func (h *Hist) Quantile(q float64) int64 {
	if h.n == 0 {
		return 0
	}
	if q >= 1 && h.max > 0 {
		return h.max
	}
	rank := int64(q*float64(h.n) + 0.999999)
	if rank < 1 {
		rank = 1
	}
	var cum int64
	for i, c := range h.counts {
		cum += c
		if cum >= rank {
			v := bucketMid(i)
			if h.max > 0 && v > h.max {
				v = h.max
			}
			return v
		}
	}
	return h.max
}

// Latency is a latency summary in milliseconds (floats are fine here:
// these are measurements, not money).
type Latency struct {
	Count  int64   `json:"count"`
	MeanMs float64 `json:"mean_ms"`
	P50Ms  float64 `json:"p50_ms"`
	P90Ms  float64 `json:"p90_ms"`
	P99Ms  float64 `json:"p99_ms"`
	P999Ms float64 `json:"p99_9_ms"`
	MaxMs  float64 `json:"max_ms"`
}

func ms(ns int64) float64 { return float64(ns) / float64(time.Millisecond) }

// Summary returns the standard quantiles.
func (h *Hist) Summary() Latency {
	l := Latency{Count: h.n}
	if h.n == 0 {
		return l
	}
	l.MeanMs = ms(h.sum / h.n)
	l.P50Ms = ms(h.Quantile(0.50))
	l.P90Ms = ms(h.Quantile(0.90))
	l.P99Ms = ms(h.Quantile(0.99))
	l.P999Ms = ms(h.Quantile(0.999))
	l.MaxMs = ms(h.max)
	if h.max == 0 { // an atomic Hist keeps no max
		l.MaxMs = ms(h.Quantile(1))
	}
	return l
}
