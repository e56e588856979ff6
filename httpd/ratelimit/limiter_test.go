package ratelimit

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// t0 is an arbitrary instant on a whole second (unix nanoseconds).
const t0 = int64(1_795_000_000) * nsPerSec

const sec = int64(time.Second)

func TestExactlyLimitPerWindow(t *testing.T) {
	tests := []struct {
		class Class
		limit int
	}{
		{Read, 600},
		{Write, 120},
		{Heavy, 30},
	}
	for _, tc := range tests {
		t.Run(tc.class.String(), func(t *testing.T) {
			l := New(DefaultLimits)
			// Spread the admissions 10 ms apart: the first frees its slot
			// exactly 60 s after it was admitted.
			step := 10 * int64(time.Millisecond)
			for i := 0; i < tc.limit; i++ {
				d := l.Allow(t0+int64(i)*step, tc.class)
				require.True(t, d.Allowed, "request %d", i)
				require.Equal(t, tc.limit-i-1, d.Remaining)
			}
			last := t0 + int64(tc.limit-1)*step
			d := l.Allow(last, tc.class)
			require.False(t, d.Allowed, "request L+1")
			require.Equal(t, tc.limit, d.Limit)
			require.Zero(t, d.Remaining)

			// One nanosecond before the oldest leaves: still refused.
			require.False(t, l.Allow(t0+time.Minute.Nanoseconds()-1, tc.class).Allowed)
			// Exactly at oldest+window the oldest is no longer in the
			// previous 60 s: one slot, and only one.
			d = l.Allow(t0+time.Minute.Nanoseconds(), tc.class)
			require.True(t, d.Allowed)
			require.Zero(t, d.Remaining)
			require.False(t, l.Allow(t0+time.Minute.Nanoseconds(), tc.class).Allowed)
			require.True(t, l.Allow(t0+time.Minute.Nanoseconds()+step, tc.class).Allowed)
		})
	}
}

func TestClassesAreIndependentExceptHeavy(t *testing.T) {
	l := New(Limits{Read: 2, Write: 3, Heavy: 2, Window: time.Minute})
	// Reads do not touch write or heavy.
	require.True(t, l.Allow(t0, Read).Allowed)
	require.True(t, l.Allow(t0, Read).Allowed)
	require.False(t, l.Allow(t0, Read).Allowed)

	// Heavy counts against heavy and write.
	d := l.Allow(t0, Heavy)
	require.True(t, d.Allowed)
	require.Equal(t, Decision{Allowed: true, Limit: 2, Remaining: 1, Reset: t0/sec + 60}, d, "heavy 1/2 is tighter than write 1/3")
	d = l.Allow(t0, Heavy)
	require.True(t, d.Allowed)
	require.Equal(t, 2, d.Limit)
	require.Zero(t, d.Remaining)
	// Heavy is full; the refused heavy is recorded nowhere.
	d = l.Allow(t0, Heavy)
	require.False(t, d.Allowed)
	require.Equal(t, 2, d.Limit)
	// Write has exactly one slot left (3 - 2 heavy).
	d = l.Allow(t0, Write)
	require.True(t, d.Allowed)
	require.Equal(t, Decision{Allowed: true, Limit: 3, Remaining: 0, Reset: t0/sec + 60}, d)
	require.False(t, l.Allow(t0, Write).Allowed)
}

func TestHeavyRefusedByWrite(t *testing.T) {
	l := New(Limits{Read: 1, Write: 2, Heavy: 5, Window: time.Minute})
	require.True(t, l.Allow(t0, Write).Allowed)
	require.True(t, l.Allow(t0+10*sec, Write).Allowed)
	d := l.Allow(t0+20*sec, Heavy)
	require.False(t, d.Allowed, "write is full, so heavy is refused although heavy has room")
	require.Equal(t, Decision{Allowed: false, Limit: 2, Remaining: 0, Reset: t0/sec + 60, RetryAfter: 40}, d)
	// The refused heavy was not recorded in heavy either.
	d = l.Allow(t0+60*sec, Heavy)
	require.True(t, d.Allowed)
	require.Equal(t, 0, d.Remaining, "write: the t0+10s write and this heavy")
	require.Equal(t, 2, d.Limit)
}

func TestHeavyRefusedByBothReportsLaterSlot(t *testing.T) {
	l := New(Limits{Read: 1, Write: 2, Heavy: 1, Window: time.Minute})
	require.True(t, l.Allow(t0, Write).Allowed)
	require.True(t, l.Allow(t0+30*sec, Heavy).Allowed) // write full at t0, t0+30; heavy full at t0+30
	d := l.Allow(t0+40*sec, Heavy)
	require.False(t, d.Allowed)
	// Write frees a slot at t0+60 but heavy only at t0+90: wait for heavy.
	require.Equal(t, Decision{Allowed: false, Limit: 1, Remaining: 0, Reset: t0/sec + 90, RetryAfter: 50}, d)
}

func TestDecisionHeaders(t *testing.T) {
	ms := int64(time.Millisecond)
	tests := []struct {
		name  string
		prior []int64 // admissions before the probe
		now   int64
		want  Decision
	}{
		{"empty window resets when the probe leaves", nil, t0 + 500*ms,
			Decision{Allowed: true, Limit: 2, Remaining: 1, Reset: t0/sec + 61}},
		{"reset from the oldest, rounded up", []int64{t0 + 100*ms}, t0 + 20*sec,
			Decision{Allowed: true, Limit: 2, Remaining: 0, Reset: t0/sec + 61}},
		{"retry-after whole seconds", []int64{t0, t0 + sec}, t0 + 30*sec,
			Decision{Allowed: false, Limit: 2, Remaining: 0, Reset: t0/sec + 60, RetryAfter: 30}},
		{"retry-after rounds up", []int64{t0, t0 + sec}, t0 + 30*sec + 1,
			Decision{Allowed: false, Limit: 2, Remaining: 0, Reset: t0/sec + 60, RetryAfter: 30}},
		{"retry-after rounds up a fraction", []int64{t0 + 1, t0 + sec}, t0 + 30*sec,
			Decision{Allowed: false, Limit: 2, Remaining: 0, Reset: t0/sec + 61, RetryAfter: 31}},
		{"retry-after at least 1", []int64{t0, t0 + sec}, t0 + 59*sec + 900*ms,
			Decision{Allowed: false, Limit: 2, Remaining: 0, Reset: t0/sec + 60, RetryAfter: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := New(Limits{Read: 2, Write: 2, Heavy: 2, Window: time.Minute})
			for _, at := range tc.prior {
				require.True(t, l.Allow(at, Write).Allowed)
			}
			require.Equal(t, tc.want, l.Allow(tc.now, Write))
		})
	}
}

func TestSubMillisecondRoundsAgainstCaller(t *testing.T) {
	l := New(Limits{Read: 1, Write: 1, Heavy: 1, Window: time.Minute})
	require.True(t, l.Allow(t0+1, Read).Allowed) // stored as t0+1ms
	// Exact arithmetic would admit at t0+1+60s; we admit from t0+1ms+60s.
	require.False(t, l.Allow(t0+1+time.Minute.Nanoseconds(), Read).Allowed)
	require.True(t, l.Allow(t0+time.Millisecond.Nanoseconds()+time.Minute.Nanoseconds(), Read).Allowed)
}

func TestTimeNeverRunsBackwards(t *testing.T) {
	l := New(Limits{Read: 1, Write: 1, Heavy: 1, Window: time.Minute})
	require.True(t, l.Allow(t0+60*sec, Read).Allowed)
	// A now from the past is taken as t0+60s: the slot is still taken,
	// and the answer is the one of t0+60s.
	d := l.Allow(t0, Read)
	require.Equal(t, Decision{Allowed: false, Limit: 1, Remaining: 0, Reset: t0/sec + 120, RetryAfter: 60}, d)
	require.True(t, l.Allow(t0+120*sec, Read).Allowed)
}

func TestUnknownClassIsHeavy(t *testing.T) {
	l := New(Limits{Read: 5, Write: 5, Heavy: 1, Window: time.Minute})
	require.True(t, l.Allow(t0, Class(9)).Allowed)
	require.False(t, l.Allow(t0, Heavy).Allowed)
}

func TestClassFor(t *testing.T) {
	tests := []struct {
		method string
		heavy  bool
		want   Class
	}{
		{"GET", false, Read},
		{"HEAD", false, Read},
		{"POST", false, Write},
		{"PATCH", false, Write},
		{"DELETE", false, Write},
		{"PUT", false, Write},
		{"POST", true, Heavy},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, ClassFor(tc.method, tc.heavy), tc.method)
	}
}

func TestLimitsValidate(t *testing.T) {
	require.NoError(t, DefaultLimits.Validate())
	bad := []Limits{
		{Read: 0, Write: 1, Heavy: 1, Window: time.Minute},
		{Read: 1, Write: -1, Heavy: 1, Window: time.Minute},
		{Read: 1, Write: 1, Heavy: MaxLimit + 1, Window: time.Minute},
		{Read: 1, Write: 1, Heavy: 1, Window: 0},
		{Read: 1, Write: 1, Heavy: 1, Window: time.Minute + 1},
		{Read: 1, Write: 1, Heavy: 1, Window: MaxWindow + time.Millisecond},
	}
	for _, l := range bad {
		require.Error(t, l.Validate(), "%+v", l)
		require.Panics(t, func() { New(l) })
	}
}

func TestAllowZeroAlloc(t *testing.T) {
	l := New(DefaultLimits)
	now := t0
	allocs := testing.AllocsPerRun(1000, func() {
		now += int64(time.Millisecond)
		l.Allow(now, Heavy)
		l.Allow(now, Read)
	})
	require.Zero(t, allocs)
}

func BenchmarkAllow(b *testing.B) {
	for _, c := range []Class{Read, Write, Heavy} {
		b.Run(c.String(), func(b *testing.B) {
			l := New(DefaultLimits)
			now := t0
			b.ReportAllocs()
			for b.Loop() {
				// 50 ms apart: the read class admits about every call, the
				// others are mostly full, so both paths are measured.
				now += 50 * int64(time.Millisecond)
				l.Allow(now, c)
			}
		})
	}
}

func BenchmarkAllowParallel(b *testing.B) {
	// One key hammered from every goroutine: the worst case for its mutex.
	b.Run("shared-key", func(b *testing.B) {
		l := New(DefaultLimits)
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			now := t0
			for pb.Next() {
				now += int64(time.Millisecond)
				l.Allow(now, Read)
			}
		})
	})
	// A key per goroutine: the common case of many keys.
	b.Run("key-per-goroutine", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			l := New(DefaultLimits)
			now := t0
			for pb.Next() {
				now += int64(time.Millisecond)
				l.Allow(now, Read)
			}
		})
	})
}
