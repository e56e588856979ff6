package ratelimit

import "math"

// rebaseAfterMs is how far now may run ahead of a window's base before the
// entries are re-expressed against a later base. Entries are uint32
// milliseconds after the base, good for 2^32 ms (~49.7 days); rebasing at
// 2^31 ms (~24.8 days) keeps every stored offset below 2^31+1.
const rebaseAfterMs = int64(1) << 31

// minRing is the ring a window starts with on its first admission.
const minRing = 4

// window is the admission log of one class of one key: the times of the
// last limit admitted requests, in a ring.
//
// The ring is sized on use: empty until the first admission, then doubled
// whenever it is full and below limit. A key that sends a request now and
// then holds a few bytes, not limit×4 (3,000 bytes at the default limits);
// only a key that really bursts holds a ring as long as its burst.
//
// Invariants between calls:
//   - n <= len(ts) <= limit;
//   - the n live entries are ts[head], ts[head+1 mod len], …, oldest first,
//     non-decreasing (time never runs backwards inside a window);
//   - entry e stands for unix millisecond baseMs+e, the admission time
//     rounded UP to the millisecond;
//   - 0 <= e <= rebaseAfterMs+1, so it fits a uint32 (rebase keeps this).
//
// Rounding: admissions are stored rounded up and now is rounded down when
// expiring, so an entry leaves the window at most 2 ms after its exact
// nanosecond expiry and never before. The limiter can therefore be 2 ms
// stricter than exact arithmetic, never more lenient. In exchange an entry
// is 4 bytes instead of 8.
//
// Wraparound: a window that is empty re-bases to now for free; one that has
// been continuously non-empty for ~24.8 days is rebased in O(n) (rebase),
// once per 24.8 days. Entries older than the new base are already outside
// the window, so clamping them to the base keeps every decision unchanged.
type window struct {
	ts       []uint32
	head     int32
	n        int32
	limit    int32
	baseMs   int64
	lastNs   int64
	windowMs int64
}

// init empties w for limit admissions per windowMs, keeping its ring (a
// reused slot keeps what it grew to).
func (w *window) init(limit int, windowMs int64) {
	*w = window{ts: w.ts[:0], limit: int32(limit), windowMs: windowMs, lastNs: math.MinInt64}
}

// advance moves w to time now, expiring the entries that have left the
// window, and returns now clamped so that it never runs backwards.
func (w *window) advance(now int64) int64 {
	if now < w.lastNs {
		now = w.lastNs
	}
	w.lastNs = now
	nowMs := floorDiv(now, nsPerMs)
	if w.n > 0 && nowMs-w.baseMs > rebaseAfterMs {
		w.rebase(nowMs)
	}
	// An entry is out once it is at or before now-window: "admitted in the
	// previous 60 s" is the half-open interval (now-window, now].
	cutoff := nowMs - w.windowMs - w.baseMs
	for w.n > 0 && int64(w.ts[w.head]) <= cutoff {
		w.head++
		if int(w.head) == len(w.ts) {
			w.head = 0
		}
		w.n--
	}
	if w.n == 0 {
		w.baseMs = nowMs
	}
	return now
}

// rebase re-expresses the live entries against base nowMs-window, clamping
// the ones before it (already expired) to 0.
func (w *window) rebase(nowMs int64) {
	newBase := nowMs - w.windowMs
	delta := newBase - w.baseMs
	for i, j := int32(0), int(w.head); i < w.n; i++ {
		if e := int64(w.ts[j]); e <= delta {
			w.ts[j] = 0
		} else {
			w.ts[j] = uint32(e - delta)
		}
		if j++; j == len(w.ts) {
			j = 0
		}
	}
	w.baseMs = newBase
}

// full reports whether the window admits nothing more right now (after
// advance).
func (w *window) full() bool { return w.n == w.limit }

// idle reports whether w holds no admission (after advance): it decides
// exactly as a new window would.
func (w *window) idle() bool { return w.n == 0 }

// push records an admission at now (as returned by advance, !full()).
func (w *window) push(now int64) {
	if int(w.n) == len(w.ts) {
		w.grow()
	}
	i := int(w.head + w.n)
	if i >= len(w.ts) {
		i -= len(w.ts)
	}
	w.ts[i] = uint32(ceilDiv(now, nsPerMs) - w.baseMs)
	w.n++
}

// grow doubles a full ring (at least minRing, at most limit), the live
// entries moved to its start in order.
func (w *window) grow() {
	size := min(max(2*len(w.ts), minRing), int(w.limit))
	if size <= len(w.ts) {
		panic("ratelimit: grow of a ring already at its limit")
	}
	ts := make([]uint32, size)
	for i, j := 0, int(w.head); i < int(w.n); i++ {
		ts[i] = w.ts[j]
		if j++; j == len(w.ts) {
			j = 0
		}
	}
	w.ts, w.head = ts, 0
}

// entryNs returns the unix nanoseconds an entry stands for.
func (w *window) entryNs(i int) int64 {
	return (w.baseMs + int64(w.ts[i])) * nsPerMs
}

// newestNs returns the latest admission, or math.MinInt64 when empty.
func (w *window) newestNs() int64 {
	if w.n == 0 {
		return math.MinInt64
	}
	i := int(w.head + w.n - 1)
	if i >= len(w.ts) {
		i -= len(w.ts)
	}
	return w.entryNs(i)
}

// freeAt returns when the window next frees a slot: the oldest admission
// plus the window, or now when it holds none.
func (w *window) freeAt(now int64) int64 {
	if w.n == 0 {
		return now
	}
	return w.entryNs(int(w.head)) + w.windowMs*nsPerMs
}

// decide reports the window's state after a decision at now, and the exact
// time it next frees a slot (for choosing the tightest class).
func (w *window) decide(allowed bool, now int64) (Decision, int64) {
	free := w.freeAt(now)
	d := Decision{
		Allowed:   allowed,
		Limit:     int(w.limit),
		Remaining: int(w.limit - w.n),
		Reset:     ceilDiv(free, nsPerSec),
	}
	if !allowed {
		d.RetryAfter = retryAfter(free, now)
	}
	return d, free
}

// retryAfter is the whole seconds from now until free, rounded up, at
// least 1 (a client told 0 would retry at once and be refused again).
func retryAfter(free, now int64) int {
	s := ceilDiv(free-now, nsPerSec)
	if s < 1 {
		s = 1
	}
	return int(s)
}
