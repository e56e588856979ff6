package ratelimit

import (
	"fmt"
	"hash/maphash"
	"sync"

	"github.com/fxd-labs/fxd/internal/mapshrink"
)

// keyShards is the number of lock shards of PerKey.
const keyShards = 16

// PerKey holds one Limiter per API key, created on first use and dropped
// once idle.
//
// Its size is the number of keys that made an authenticated request in
// the last window or so, which the operator bounds by creating keys; so
// Allow must only be called after the key is known and the signature
// verified, never with a key id taken from an unauthenticated request.
//
// Sweep (which the server calls once a window) drops the limiters that
// hold no admission. A dropped limiter decides exactly as a new one would,
// so a key that comes back is limited as if it never left, and a key that
// stopped calling costs nothing here a window or two later.
type PerKey struct {
	limits Limits
	seed   maphash.Seed
	shards [keyShards]keyShard
}

type keyShard struct {
	mu   sync.RWMutex
	m    map[string]*Limiter
	peak mapshrink.Peak
	_    [64]byte
}

// NewPerKey returns an empty PerKey. It panics if l is invalid.
func NewPerKey(l Limits) *PerKey {
	if err := l.Validate(); err != nil {
		panic(fmt.Sprintf("ratelimit.NewPerKey: %v", err))
	}
	p := &PerKey{limits: l, seed: maphash.MakeSeed()}
	for i := range p.shards {
		p.shards[i].m = make(map[string]*Limiter)
	}
	return p
}

func (p *PerKey) shard(keyID []byte) *keyShard {
	return &p.shards[maphash.Bytes(p.seed, keyID)%keyShards]
}

// Allow decides a request of class c by key keyID at now (unix
// nanoseconds), as Limiter.Allow does for the key's limiter. The lookup of
// a known key does not allocate. The shard's read lock is held across the
// decision, so a sweep (which takes the write lock) never drops a limiter
// a decision is being recorded in.
func (p *PerKey) Allow(keyID []byte, now int64, c Class) Decision {
	s := p.shard(keyID)
	s.mu.RLock()
	if l := s.m[string(keyID)]; l != nil {
		d := l.Allow(now, c)
		s.mu.RUnlock()
		return d
	}
	s.mu.RUnlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.m[string(keyID)]
	if l == nil {
		l = New(p.limits)
		s.m[string(keyID)] = l
		s.peak.Saw(len(s.m))
	}
	return l.Allow(now, c)
}

// Sweep drops the limiters that hold no admission at now (unix
// nanoseconds) and returns how many it dropped. Each shard is locked in
// turn, for one pass over its limiters.
func (p *PerKey) Sweep(now int64) int {
	n := 0
	for i := range p.shards {
		n += p.shards[i].sweep(now)
	}
	return n
}

// sweep drops the shard's idle limiters, and gives back the map's memory
// once it holds under a quarter of its peak (mapshrink).
func (s *keyShard) sweep(now int64) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k, l := range s.m {
		if l.idle(now) {
			delete(s.m, k)
			n++
		}
	}
	s.m = mapshrink.Shrink(s.m, &s.peak)
	return n
}

// Len returns the number of keys held.
func (p *PerKey) Len() int {
	n := 0
	for i := range p.shards {
		s := &p.shards[i]
		s.mu.RLock()
		n += len(s.m)
		s.mu.RUnlock()
	}
	return n
}
