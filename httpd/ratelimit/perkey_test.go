package ratelimit

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPerKeyAllowKeepsEachKeysWindow(t *testing.T) {
	l := Limits{Read: 3, Write: 2, Heavy: 1, Window: time.Minute}
	p := NewPerKey(l)
	now := 1000 * sec
	for i := range 3 {
		require.True(t, p.Allow([]byte("svc_test_a"), now, Read).Allowed, "read %d", i)
	}
	d := p.Allow([]byte("svc_test_a"), now, Read)
	require.False(t, d.Allowed, "a's fourth read in the window")
	require.Equal(t, 60, d.RetryAfter)
	require.True(t, p.Allow([]byte("svc_test_b"), now, Read).Allowed, "b has its own window")
	require.Equal(t, 2, p.Len())

	key := []byte("svc_test_b")
	require.Zero(t, testing.AllocsPerRun(100, func() { p.Allow(key, now, Heavy) }),
		"a known key's lookup and a refused decision allocate nothing")
}

// TestPerKeySweep: a limiter is dropped only once it holds no admission,
// and a key that comes back afterwards is limited exactly as if its
// limiter had stayed.
func TestPerKeySweep(t *testing.T) {
	l := Limits{Read: 2, Write: 2, Heavy: 1, Window: time.Minute}
	cases := []struct {
		name      string
		lastAt    int64 // the key's last admission, seconds
		sweepAt   int64 // seconds
		wantKept  bool
		wantAfter bool // the key's next read at sweepAt is admitted
	}{
		{"admission inside the window is kept", 100, 150, true, false},
		{"admission exactly a window old is out, dropped", 100, 160, false, true},
		{"long idle, dropped", 100, 10_000, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := NewPerKey(l)
			a := []byte("svc_test_a")
			require.True(t, p.Allow(a, c.lastAt*sec, Read).Allowed)
			require.True(t, p.Allow(a, c.lastAt*sec, Read).Allowed)
			require.False(t, p.Allow(a, c.lastAt*sec, Read).Allowed, "limit 2")
			dropped := p.Sweep(c.sweepAt * sec)
			require.Equal(t, c.wantKept, dropped == 0)
			require.Equal(t, map[bool]int{true: 1, false: 0}[c.wantKept], p.Len())
			require.Equal(t, c.wantAfter, p.Allow(a, c.sweepAt*sec, Read).Allowed)
		})
	}
}

// TestPerKeySweepShrinks: after a burst of keys goes idle, the shards'
// maps are rebuilt small.
func TestPerKeySweepShrinks(t *testing.T) {
	p := NewPerKey(Limits{Read: 2, Write: 2, Heavy: 1, Window: time.Minute})
	for i := range 10_000 {
		p.Allow(fmt.Appendf(nil, "svc_test_%d", i), 100*sec, Write)
	}
	require.Equal(t, 10_000, p.Len())
	p.Allow([]byte("svc_test_late"), 150*sec, Write)
	require.Equal(t, 10_000, p.Sweep(170*sec))
	require.Equal(t, 1, p.Len())
	for i := range p.shards {
		require.Less(t, p.shards[i].peak.Max(), 10_000/keyShards/4, "shard %d rebuilt", i)
	}
}
