// Package ids makes the service's record identifiers: a type prefix, then 26
// characters of Crockford base32 holding 48 bits of milliseconds and 80 random
// bits (the ULID layout). They sort by creation time, which is what "newest
// first" lists rely on, and cannot be guessed, which is what "an id of another
// account is simply not_found" relies on.
package ids

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// Generator is monotonic: within one millisecond it increments the random
// part, so ids made by one process always sort in the order they were made.
// It is safe for concurrent use.
type Generator struct {
	mu     sync.Mutex
	lastMs uint64
	last   [10]byte // the 80 random bits of the last id
}

// New returns a fresh id with the prefix, e.g. New("ct_", now).
func (g *Generator) New(prefix string, now time.Time) string {
	ms := uint64(now.UnixMilli())
	g.mu.Lock()
	if ms <= g.lastMs {
		ms = g.lastMs // clock went back or same millisecond: stay monotonic
		increment(&g.last)
	} else {
		if _, err := rand.Read(g.last[:]); err != nil {
			panic("ids: crypto/rand failed: " + err.Error())
		}
		g.lastMs = ms
	}
	var raw [16]byte
	binary.BigEndian.PutUint16(raw[0:2], uint16(ms>>32))
	binary.BigEndian.PutUint32(raw[2:6], uint32(ms))
	copy(raw[6:], g.last[:])
	g.mu.Unlock()
	return prefix + encode(&raw)
}

func increment(b *[10]byte) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i]++
		if b[i] != 0 {
			return
		}
	}
}

// encode writes 128 bits as 26 base32 characters, most significant first.
func encode(raw *[16]byte) string {
	hi := binary.BigEndian.Uint64(raw[0:8])
	lo := binary.BigEndian.Uint64(raw[8:16])
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = alphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}
