package ratelimit

import (
	"fmt"
	"hash/maphash"
	"sync"
)

// keyShards is the number of lock shards of PerKey.
const keyShards = 16

// PerKey holds one Limiter per API key, created on first use.
//
// Its size is the number of keys that have made an authenticated request,
// which the operator bounds by creating keys; so Get must only be called
// after the key is known and the signature verified, never with a key id
// taken from an unauthenticated request. Forget drops a revoked key.
type PerKey struct {
	limits Limits
	seed   maphash.Seed
	shards [keyShards]keyShard
}

type keyShard struct {
	mu sync.RWMutex
	m  map[string]*Limiter
	_  [64]byte
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

// Get returns the key's Limiter, creating it on first use. Looking up an
// existing key does not allocate.
func (p *PerKey) Get(keyID []byte) *Limiter {
	s := p.shard(keyID)
	s.mu.RLock()
	l := s.m[string(keyID)]
	s.mu.RUnlock()
	if l != nil {
		return l
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if l = s.m[string(keyID)]; l == nil {
		l = New(p.limits)
		s.m[string(keyID)] = l
	}
	return l
}

// Forget drops a key's Limiter (on revocation).
func (p *PerKey) Forget(keyID string) {
	s := p.shard([]byte(keyID))
	s.mu.Lock()
	delete(s.m, keyID)
	s.mu.Unlock()
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
