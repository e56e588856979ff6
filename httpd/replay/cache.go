package replay

import (
	"errors"
	"fmt"
	"hash/maphash"
	"time"
)

// Errors returned by Remember. They are sentinels, not wrapped, so that a
// flood of refusals allocates nothing; callers add context.
var (
	// ErrFull means the cache holds its maximum of live signatures; the
	// request must be refused (it cannot be proven single-use).
	ErrFull = errors.New("replay: cache full")
	// ErrOutOfWindow means ts is not within the window of now, so the
	// signature could not be remembered for as long as it is usable. The
	// server's freshness check (±30 s) should have refused it first.
	ErrOutOfWindow = errors.New("replay: timestamp outside the window")
)

// Explicit bounds on a configuration.
const (
	// MaxWindow bounds the window (it sizes each shard's bucket ring).
	MaxWindow = time.Hour
	// MaxEntries bounds maxEntries (about 80 bytes each).
	MaxEntries = 1 << 26
)

// Sharding: up to maxShards lock shards, each holding at least
// minPerShard entries, so a small cache is one exact shard.
const (
	maxShards   = 64
	minPerShard = 1024
)

// SigSize is the size of an Ed25519 signature.
const SigSize = 64

// Cache remembers accepted signatures until their timestamp plus the
// window. It is safe for concurrent use.
type Cache struct {
	windowSec int64
	seed      maphash.Seed
	shards    []shard
}

// New returns a Cache that remembers each signature for window after its
// signed timestamp (rounded up to whole seconds) and holds at most
// maxEntries at once. It panics if window is outside 1s..MaxWindow or
// maxEntries outside 1..MaxEntries: both are configuration.
//
// With the ±30 s freshness check, window must be at least 30 s, so a
// signature is remembered for as long as its timestamp is fresh; 60 s
// leaves 30 s of margin. maxEntries should cover the accepted request rate
// over 2×window (future-dated timestamps live longest); when it is reached,
// Remember returns ErrFull.
//
// Large caches are split into shards of equal capacity, so ErrFull can come
// when one shard is full while the whole holds a little less than
// maxEntries; the keyed hash spreads signatures evenly and unpredictably,
// so this matters only within a few percent of the bound.
func New(window time.Duration, maxEntries int) *Cache {
	if window < time.Second || window > MaxWindow {
		panic(fmt.Sprintf("replay.New: window %v outside 1s..%v", window, MaxWindow))
	}
	if maxEntries < 1 || maxEntries > MaxEntries {
		panic(fmt.Sprintf("replay.New: maxEntries %d outside 1..%d", maxEntries, MaxEntries))
	}
	windowSec := int64((window + time.Second - 1) / time.Second)
	n := maxShards
	for n > 1 && maxEntries/n < minPerShard {
		n /= 2
	}
	c := &Cache{windowSec: windowSec, seed: maphash.MakeSeed(), shards: make([]shard, n)}
	for i := range c.shards {
		// Expiries of live entries span (now, now+2*window]: a ring of
		// 2*window+1 one-second buckets holds each in its own bucket.
		c.shards[i].init(maxEntries/n, int(2*windowSec+1))
	}
	return c
}

// Remember records sig as accepted and reports whether it is fresh (not
// seen before). ts is the request's signed timestamp and now the current
// time, both in unix seconds.
//
// It returns (false, nil) for a signature already remembered, (false,
// ErrOutOfWindow) when ts is not within (now-window, now+window], and
// (false, ErrFull) when the cache is full; only (true, nil) means the
// request may proceed. Within a shard time never runs backwards: a now
// earlier than one already seen is taken as that one.
func (c *Cache) Remember(sig *[SigSize]byte, ts int64, now int64) (fresh bool, err error) {
	h := maphash.Bytes(c.seed, sig[:])
	// High bits choose the shard, low bits the slot within it.
	s := &c.shards[(h>>32)&uint64(len(c.shards)-1)]
	return s.remember(sig, uint32(h), ts, now, c.windowSec)
}

// Len returns the number of signatures remembered (including any that
// expired but whose shard has not been touched since).
func (c *Cache) Len() int {
	n := 0
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		n += s.live
		s.mu.Unlock()
	}
	return n
}

// Cap returns the number of signatures the cache can hold.
func (c *Cache) Cap() int {
	return len(c.shards) * c.shards[0].capacity
}
