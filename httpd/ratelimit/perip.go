package ratelimit

import (
	"fmt"
	"hash/maphash"
	"net/netip"
	"time"
)

// PerIPLimits configures a PerIP limiter.
type PerIPLimits struct {
	Limit  int           // requests admitted per Window per address, 1..MaxLimit
	Window time.Duration // as in Limits
	MaxIPs int           // addresses tracked at once, 1..MaxTrackedIPs
}

// DefaultPerIPLimits are CONTRACT.md's limits for unauthenticated routes.
var DefaultPerIPLimits = PerIPLimits{Limit: 60, Window: time.Minute, MaxIPs: 100_000}

// MaxTrackedIPs bounds PerIPLimits.MaxIPs (at 60/min an entry is ~400 bytes,
// so this is ~400 MB, far above any sane setting).
const MaxTrackedIPs = 1 << 20

// Validate reports whether l is usable.
func (l PerIPLimits) Validate() error {
	if l.Limit < 1 || l.Limit > MaxLimit {
		return fmt.Errorf("ratelimit: per-IP limit %d outside 1..%d", l.Limit, MaxLimit)
	}
	if l.MaxIPs < 1 || l.MaxIPs > MaxTrackedIPs {
		return fmt.Errorf("ratelimit: MaxIPs %d outside 1..%d", l.MaxIPs, MaxTrackedIPs)
	}
	return validateWindow(l.Window)
}

// Sharding: up to maxIPShards lock shards, each holding at least
// minIPsPerShard addresses, so a small table is one exact shard and a large
// one loses fewer than maxIPShards entries of MaxIPs to rounding.
const (
	maxIPShards    = 64
	minIPsPerShard = 1024
)

// PerIP limits unauthenticated requests per client address.
//
// Addresses are grouped the way clients hold them: an IPv4 address (also in
// IPv4-mapped IPv6 form) is one client, an IPv6 address counts by its /64,
// because a single host is routinely given a whole /64 and could otherwise
// rotate through 2^64 addresses to escape the limit and flood the table.
//
// Memory is bounded: at most MaxIPs addresses are tracked (split evenly
// over the shards, so a shard may fill before the table does). A new
// address takes a free entry, or evicts the least recently admitted entry
// if that one is idle (its newest admission has left the window, so
// forgetting it changes no decision); if even that entry is still active,
// the new address is refused rather than the table grown. Entries are
// reused, so a steady state allocates nothing.
type PerIP struct {
	limits PerIPLimits
	seed   maphash.Seed
	shards []ipShard
}

// NewPerIP returns a PerIP limiter. It panics if l is invalid.
func NewPerIP(l PerIPLimits) *PerIP {
	if err := l.Validate(); err != nil {
		panic(fmt.Sprintf("ratelimit.NewPerIP: %v", err))
	}
	n := maxIPShards
	for n > 1 && l.MaxIPs/n < minIPsPerShard {
		n /= 2
	}
	p := &PerIP{limits: l, seed: maphash.MakeSeed(), shards: make([]ipShard, n)}
	for i := range p.shards {
		p.shards[i].init(l.MaxIPs/n, l.Limit, int64(l.Window)/nsPerMs)
	}
	return p
}

// ipKey is an address reduced to the client it identifies.
type ipKey [16]byte

func keyOf(ip netip.Addr) ipKey {
	ip = ip.Unmap()
	k := ipKey(ip.As16()) // the zero Addr gives the zero key: one "unknown" client
	if ip.Is6() {
		clear(k[8:])
	}
	return k
}

// Allow decides whether a request from ip at now (unix nanoseconds) is
// admitted and records it if so.
func (p *PerIP) Allow(now int64, ip netip.Addr) Decision {
	k := keyOf(ip)
	s := &p.shards[maphash.Comparable(p.seed, k)%uint64(len(p.shards))]
	return s.allow(now, k)
}

// Len returns the number of addresses tracked.
func (p *PerIP) Len() int {
	n := 0
	for i := range p.shards {
		s := &p.shards[i]
		s.mu.Lock()
		n += len(s.index)
		s.mu.Unlock()
	}
	return n
}
