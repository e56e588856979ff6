package ratelimit

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// refLimiter is the naive reading of CONTRACT.md: per class a slice of
// admission times; a request is admitted iff, for every class it counts
// against, fewer than L of them are > now-window. It is O(history) and
// written for obviousness, to check Limiter against.
type refLimiter struct {
	limit  [3]int
	window int64
	log    [3][]int64
}

func newRef(l Limits) *refLimiter {
	return &refLimiter{limit: [3]int{l.Read, l.Write, l.Heavy}, window: int64(l.Window)}
}

func (r *refLimiter) live(c Class, now int64) []int64 {
	var out []int64
	for _, t := range r.log[c] {
		if t > now-r.window {
			out = append(out, t)
		}
	}
	r.log[c] = out // forget the expired: they never count again
	return out
}

func (r *refLimiter) allow(now int64, c Class) Decision {
	classes := []Class{c}
	if c == Heavy {
		classes = []Class{Heavy, Write}
	}
	ok := true
	for _, k := range classes {
		if len(r.live(k, now)) >= r.limit[k] {
			ok = false
		}
	}
	if ok {
		for _, k := range classes {
			r.log[k] = append(r.log[k], now)
		}
	}
	var best Decision
	var bestFree int64
	for i, k := range classes {
		live := r.live(k, now)
		free := now
		if len(live) > 0 {
			free = live[0] + r.window
		}
		d := Decision{Allowed: ok, Limit: r.limit[k], Remaining: r.limit[k] - len(live), Reset: ceilDiv(free, nsPerSec)}
		if !ok {
			d.RetryAfter = max(1, int(ceilDiv(free-now, nsPerSec)))
		}
		if i == 0 || d.Remaining < best.Remaining || (d.Remaining == best.Remaining && free > bestFree) {
			best, bestFree = d, free
		}
	}
	return best
}

// TestMatchesReference drives random admission sequences through Limiter
// and refLimiter and requires identical decisions. Times are whole
// milliseconds (the Limiter's resolution), so the two must agree exactly.
func TestMatchesReference(t *testing.T) {
	ms := int64(time.Millisecond)
	tests := []struct {
		name    string
		limits  Limits
		maxStep int64 // ms
		steps   int
	}{
		{"tiny limits, 1s window", Limits{Read: 7, Write: 5, Heavy: 3, Window: time.Second}, 300, 200_000},
		{"default limits", DefaultLimits, 250, 100_000},
		{"bursts and long gaps", Limits{Read: 4, Write: 3, Heavy: 2, Window: 10 * time.Second}, 25_000, 50_000},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(i), 42))
			l, ref := New(tc.limits), newRef(tc.limits)
			now := t0
			for step := 0; step < tc.steps; step++ {
				switch rng.IntN(4) {
				case 0: // same instant: bursts
				case 1: // land exactly on a window boundary of an earlier instant
					now += int64(tc.limits.Window) - rng.Int64N(3)*ms
				default:
					now += rng.Int64N(tc.maxStep+1) * ms
				}
				c := Class(rng.IntN(3))
				want := ref.allow(now, c)
				got := l.Allow(now, c)
				require.Equal(t, want, got, "step %d, now %d, class %v", step, now, c)
			}
		})
	}
}

// TestWraparound keeps the read window non-empty for 200 days, so its
// uint32 offsets must be rebased (it never empties, so it never re-bases for
// free), and requires the reference's answers throughout, including at the
// exact instants entries expire.
func TestWraparound(t *testing.T) {
	limits := Limits{Read: 3, Write: 2, Heavy: 1, Window: MaxWindow}
	window := int64(MaxWindow)
	rng := rand.New(rand.NewPCG(7, 7))
	l, ref := New(limits), newRef(limits)
	now := t0
	end := t0 + int64(200*24*time.Hour)
	require.Equal(t, ref.allow(now, Read), l.Allow(now, Read))
	rebases := 0
	for now < end {
		// Below the window, so the newest read admission is always live;
		// or exactly onto (or 1 ms before) the oldest's expiry.
		next := now + rng.Int64N(int64(20*time.Hour)/nsPerMs)*nsPerMs
		if live := ref.live(Read, now); rng.IntN(2) == 0 && len(live) > 0 && live[0]+window > now {
			next = live[0] + window - rng.Int64N(2)*nsPerMs
		}
		now = max(next, now)
		before := l.read.baseMs
		require.Equal(t, ref.allow(now, Read), l.Allow(now, Read), "now %d", now)
		require.Positive(t, l.read.n)
		if l.read.baseMs != before {
			rebases++
		}
		if c := Class(rng.IntN(3)); c != Read {
			require.Equal(t, ref.allow(now, c), l.Allow(now, c), "now %d", now)
		}
		for i := 0; i < int(l.read.n); i++ {
			require.LessOrEqual(t, int64(l.read.ts[(int(l.read.head)+i)%len(l.read.ts)]), rebaseAfterMs+1)
		}
	}
	require.GreaterOrEqual(t, rebases, 7, "200 days must rebase every ~24.8 days")
}

// TestNeverMoreThanLimit uses nanosecond times (below the Limiter's
// resolution): the Limiter may then differ from exact arithmetic, but only
// by refusing, never by admitting L requests in any window, and it refuses
// only when L admissions lie within window+2ms.
func TestNeverMoreThanLimit(t *testing.T) {
	limits := Limits{Read: 5, Write: 4, Heavy: 2, Window: time.Second}
	lim := [3]int{5, 4, 2}
	rng := rand.New(rand.NewPCG(3, 9))
	l := New(limits)
	var admitted [3][]int64
	count := func(c Class, from, now int64) int {
		n := 0
		for _, t := range admitted[c] {
			if t > from && t <= now {
				n++
			}
		}
		return n
	}
	now := t0
	for step := 0; step < 100_000; step++ {
		now += rng.Int64N(int64(400 * time.Microsecond * 100))
		c := Class(rng.IntN(3))
		classes := []Class{c}
		if c == Heavy {
			classes = append(classes, Write)
		}
		for k := range admitted { // keep only what any check below can see
			for len(admitted[k]) > 0 && admitted[k][0] <= now-2*int64(time.Second) {
				admitted[k] = admitted[k][1:]
			}
		}
		d := l.Allow(now, c)
		if d.Allowed {
			for _, k := range classes {
				require.Less(t, count(k, now-int64(time.Second), now), lim[k], "admitted beyond the limit")
				admitted[k] = append(admitted[k], now)
			}
			continue
		}
		full := false
		for _, k := range classes {
			if count(k, now-int64(time.Second)-2*nsPerMs, now) >= lim[k] {
				full = true
			}
		}
		require.True(t, full, "refused at %d although no class was near its limit", now)
	}
}
