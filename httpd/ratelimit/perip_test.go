package ratelimit

import (
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestPerIPLimit(t *testing.T) {
	p := NewPerIP(DefaultPerIPLimits)
	a := netip.MustParseAddr("192.0.2.1")
	for i := 0; i < 60; i++ {
		d := p.Allow(t0+int64(i)*sec/2, a)
		require.True(t, d.Allowed, "request %d", i)
		require.Equal(t, 60, d.Limit)
		require.Equal(t, 59-i, d.Remaining)
	}
	d := p.Allow(t0+30*sec, a)
	require.Equal(t, Decision{Allowed: false, Limit: 60, Remaining: 0, Reset: t0/sec + 60, RetryAfter: 30}, d)
	require.True(t, p.Allow(t0+30*sec, netip.MustParseAddr("192.0.2.2")).Allowed, "other addresses are separate")
	require.True(t, p.Allow(t0+60*sec, a).Allowed, "the first slides out at exactly t0+60s")
}

func TestPerIPGrouping(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"ipv4 and its mapped form", "192.0.2.1", "::ffff:192.0.2.1", true},
		{"ipv6 same /64", "2001:db8:1:2::1", "2001:db8:1:2:ffff::9", true},
		{"ipv6 zone ignored", "fe80::1%eth0", "fe80::2%eth1", true},
		{"ipv6 other /64", "2001:db8:1:2::1", "2001:db8:1:3::1", false},
		{"ipv4 neighbours", "192.0.2.1", "192.0.2.2", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPerIP(PerIPLimits{Limit: 1, Window: time.Minute, MaxIPs: 10})
			require.True(t, p.Allow(t0, netip.MustParseAddr(tc.a)).Allowed)
			require.Equal(t, !tc.same, p.Allow(t0, netip.MustParseAddr(tc.b)).Allowed)
		})
	}
}

func TestPerIPBoundAndEviction(t *testing.T) {
	p := NewPerIP(PerIPLimits{Limit: 2, Window: time.Minute, MaxIPs: 2})
	a, b, c := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2"), netip.MustParseAddr("192.0.2.3")

	require.True(t, p.Allow(t0, a).Allowed)
	require.True(t, p.Allow(t0+5*sec, b).Allowed)
	require.True(t, p.Allow(t0+10*sec, a).Allowed) // a is now the most recently admitted
	require.Equal(t, 2, p.Len())

	// Full, nobody idle: refuse c, do not grow. b (newest admission t0+5s)
	// turns idle first, at t0+65s.
	d := p.Allow(t0+20*sec, c)
	require.Equal(t, Decision{Allowed: false, Limit: 2, Remaining: 0, Reset: t0/sec + 65, RetryAfter: 45}, d)
	require.Equal(t, 2, p.Len())
	require.False(t, p.Allow(t0+65*sec-1, c).Allowed)

	// At t0+65s b is idle (its only admission left the window): evicted.
	d = p.Allow(t0+65*sec, c)
	require.True(t, d.Allowed)
	require.Equal(t, 1, d.Remaining, "c starts with a fresh window")
	require.Equal(t, 2, p.Len())

	// a is still active (t0+10s), c too: b, returning, is refused.
	require.False(t, p.Allow(t0+66*sec, b).Allowed)
	// a's history survived: one of its two admissions is still in window
	// at t0+66s.
	d = p.Allow(t0+66*sec, a)
	require.True(t, d.Allowed)
	require.Zero(t, d.Remaining)
}

func TestPerIPRefusedDoesNotRefreshRecency(t *testing.T) {
	p := NewPerIP(PerIPLimits{Limit: 1, Window: time.Minute, MaxIPs: 1})
	a, b := netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2")
	require.True(t, p.Allow(t0, a).Allowed)
	// a keeps knocking while over its limit: that is not activity.
	require.False(t, p.Allow(t0+59*sec, a).Allowed)
	require.True(t, p.Allow(t0+60*sec, b).Allowed, "a is idle at t0+60s and gives way")
}

func TestPerIPShardingKeepsBound(t *testing.T) {
	p := NewPerIP(PerIPLimits{Limit: 1, Window: time.Minute, MaxIPs: 100_000})
	require.Len(t, p.shards, 64)
	total := 0
	for i := range p.shards {
		total += p.shards[i].capacity
	}
	require.LessOrEqual(t, total, 100_000)
	require.Greater(t, total, 100_000-64)

	small := NewPerIP(PerIPLimits{Limit: 1, Window: time.Minute, MaxIPs: 1500})
	require.Len(t, small.shards, 1)
	require.Equal(t, 1500, small.shards[0].capacity)
}

func TestPerIPFloodStaysBounded(t *testing.T) {
	p := NewPerIP(PerIPLimits{Limit: 60, Window: time.Minute, MaxIPs: 3000})
	now := t0
	for i := 0; i < 50_000; i++ {
		now += int64(time.Millisecond)
		var b [4]byte
		b[0], b[1], b[2], b[3] = 10, byte(i>>16), byte(i>>8), byte(i)
		p.Allow(now, netip.AddrFrom4(b))
		require.LessOrEqual(t, p.Len(), 3000)
	}
}

func TestPerIPZeroAllocSteadyState(t *testing.T) {
	p := NewPerIP(PerIPLimits{Limit: 60, Window: time.Minute, MaxIPs: 4})
	addrs := []netip.Addr{
		netip.MustParseAddr("192.0.2.1"), netip.MustParseAddr("192.0.2.2"),
		netip.MustParseAddr("2001:db8::1"), netip.MustParseAddr("192.0.2.9"),
	}
	now := t0
	for _, a := range addrs {
		p.Allow(now, a)
	}
	allocs := testing.AllocsPerRun(1000, func() {
		now += int64(time.Millisecond)
		for _, a := range addrs {
			p.Allow(now, a)
		}
	})
	require.Zero(t, allocs)
}

func TestPerIPValidate(t *testing.T) {
	require.NoError(t, DefaultPerIPLimits.Validate())
	for _, l := range []PerIPLimits{
		{Limit: 0, Window: time.Minute, MaxIPs: 1},
		{Limit: 1, Window: time.Minute, MaxIPs: 0},
		{Limit: 1, Window: time.Minute, MaxIPs: MaxTrackedIPs + 1},
		{Limit: 1, Window: time.Nanosecond, MaxIPs: 1},
	} {
		require.Error(t, l.Validate(), "%+v", l)
		require.Panics(t, func() { NewPerIP(l) })
	}
}

func BenchmarkPerIP(b *testing.B) {
	p := NewPerIP(DefaultPerIPLimits)
	addrs := make([]netip.Addr, 1024)
	for i := range addrs {
		addrs[i] = netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)})
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		now, i := t0, 0
		for pb.Next() {
			now += int64(time.Millisecond)
			i++
			p.Allow(now, addrs[i%len(addrs)])
		}
	})
}
