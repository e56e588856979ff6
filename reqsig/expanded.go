package reqsig

import (
	"sync"

	voied "github.com/oasisprotocol/curve25519-voi/primitives/ed25519"
)

// Every signed request verifies under one of a few thousand registered
// keys, and most of a key's cost is the same each time: decompressing
// the public key's point and building its lookup table. curve25519-voi
// does that once in an ExpandedPublicKey: verifying with it took 37-44 µs
// against 46-54 µs from the 32 bytes, in alternating runs (AMD EPYC,
// 2026-11-29), and building one takes 9 µs. expanded memoizes them by
// key bytes: a pure function of the bytes, so nothing needs invalidating
// when a key is revoked (the directory still decides which key a request
// may use).
//
// MaxExpandedKeys bounds the memo; an expanded key is about 1.5 KiB, so
// it holds at most 12 MiB. A shard at its bound drops one entry (Go's map
// order: an arbitrary one) for each new key.
const (
	MaxExpandedKeys = 8192
	expandedShards  = 16
	shardKeys       = MaxExpandedKeys / expandedShards
)

type expandedShard struct {
	mu   sync.Mutex
	keys map[[32]byte]*voied.ExpandedPublicKey // at most shardKeys
}

var expanded [expandedShards]expandedShard

// expandedKey returns pub's expanded form, nil when pub is not the
// encoding of a curve point (no signature verifies under it).
func expandedKey(pub []byte) *voied.ExpandedPublicKey {
	var k [32]byte
	if len(pub) != len(k) {
		return nil
	}
	copy(k[:], pub)
	sh := &expanded[k[0]%expandedShards]
	sh.mu.Lock()
	x := sh.keys[k]
	sh.mu.Unlock()
	if x != nil {
		return x
	}
	x, err := voied.NewExpandedPublicKey(voied.PublicKey(pub))
	if err != nil {
		return nil
	}
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if sh.keys == nil {
		sh.keys = make(map[[32]byte]*voied.ExpandedPublicKey, shardKeys)
	}
	if had := sh.keys[k]; had != nil {
		return had // expanded meanwhile by another request: nothing to drop
	}
	if len(sh.keys) >= shardKeys {
		for old := range sh.keys {
			delete(sh.keys, old)
			break
		}
	}
	sh.keys[k] = x
	return x
}

// expandedCount is the number of keys the memo holds (tests).
func expandedCount() int {
	n := 0
	for i := range expanded {
		sh := &expanded[i]
		sh.mu.Lock()
		n += len(sh.keys)
		sh.mu.Unlock()
	}
	return n
}
