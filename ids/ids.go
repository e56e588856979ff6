// Package ids makes the service's record identifiers: a type prefix, then 32
// characters of Crockford base32 holding 160 bits:
//
//	48 bits  milliseconds since the Unix epoch
//	16 bits  a sequence within the millisecond (this process's ids sort in
//	         the order they were made, however many share a millisecond)
//	 8 bits  the partition of the account the record belongs to (< Partitions)
//	88 bits  random, fresh for every id
//
// They sort by creation time, which is what "newest first" lists rely on.
// They cannot be guessed from a neighbour: two ids made in the same
// millisecond differ in 88 fresh random bits, never by a counter step
// (CONTRACT.md: `pl_` ids are public). And every id carries its account's
// partition, so a request can be routed to the node that owns the account
// without a lookup (DESIGN.md, "Beyond one machine").
package ids

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"hash/fnv"
	"strings"
	"sync"
	"time"
)

// Partitions is P of DESIGN.md: accounts are spread over this many
// partitions; an account's partition is a hash of its id.
const Partitions = 64

// Len is the number of characters after an id's prefix.
const Len = 32

const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// maxSeq is the largest sequence number within one millisecond; the
// 65,537th id of a millisecond borrows the next millisecond (ids stay
// ordered).
const maxSeq = 1<<16 - 1

// partByte is where the partition sits in the raw id.
const partByte = 8

// Generator is monotonic: ids made by one generator sort in the order they
// were made, even when the clock steps back. It is safe for concurrent use.
type Generator struct {
	mu     sync.Mutex
	lastMs uint64
	seq    uint64
}

// New returns a fresh id with the prefix for a record of the account whose
// partition is partition (see Partition), e.g. New("ct_", now, p).
func (g *Generator) New(prefix string, now time.Time, partition int) string {
	if partition < 0 || partition >= Partitions {
		panic("ids: partition out of range")
	}
	raw := g.next(now)
	raw[partByte] = byte(partition)
	return prefix + encode(&raw)
}

// NewAccount returns a fresh account id. Its partition is a hash of its
// time and random bits, written into its own partition field, so the
// account id is routed like every id of its records.
func (g *Generator) NewAccount(prefix string, now time.Time) string {
	raw := g.next(now)
	h := fnv.New32a()
	_, _ = h.Write(raw[:]) // the partition byte is still zero here
	raw[partByte] = byte(h.Sum32() % Partitions)
	return prefix + encode(&raw)
}

// next fills the time, sequence and random parts.
func (g *Generator) next(now time.Time) [20]byte {
	ms := uint64(now.UnixMilli())
	g.mu.Lock()
	switch {
	case ms > g.lastMs:
		g.lastMs, g.seq = ms, 0
	case g.seq < maxSeq:
		g.seq++ // same millisecond, or the clock went back: stay ordered
	default:
		g.lastMs, g.seq = g.lastMs+1, 0
	}
	ms, seq := g.lastMs, g.seq
	g.mu.Unlock()
	var raw [20]byte
	if _, err := rand.Read(raw[partByte+1:]); err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	binary.BigEndian.PutUint16(raw[0:2], uint16(ms>>32))
	binary.BigEndian.PutUint32(raw[2:6], uint32(ms))
	binary.BigEndian.PutUint16(raw[6:8], uint16(seq))
	return raw
}

// Derive returns the id of prefix that the record from (an id of
// fromPrefix) becomes, the same for every call: from's time, sequence and
// partition, then 88 bits of a SHA-256 of prefix and from's bits. It is how
// one record names the one record it turns into (a quote its order), so
// that every attempt reaches the same entity without a lookup table, while
// the new id shares no random bit with the old: its random part is as
// fresh as New's to anyone without from, and from's is not derivable from
// it. False when from is not fromPrefix followed by an id New made.
func Derive(prefix, fromPrefix, from string) (string, bool) {
	raw, ok := Parse(fromPrefix, from)
	if !ok || int(raw[partByte]) >= Partitions {
		return "", false
	}
	h := sha256.New()
	h.Write([]byte("fxd/ids.Derive\x00" + prefix + "\x00"))
	h.Write(raw[:])
	copy(raw[partByte+1:], h.Sum(nil))
	return raw.Format(prefix), true
}

// Partition returns the partition an id carries; ok is false for a string
// that is not an id of this format (e.g. made by an older version).
func Partition(id string) (p int, ok bool) {
	body := id[strings.LastIndexByte(id, '_')+1:] // the alphabet has no '_'
	if len(body) != Len {
		return 0, false
	}
	raw, ok := decode(body)
	if !ok || int(raw[partByte]) >= Partitions {
		return 0, false
	}
	return int(raw[partByte]), true
}

// Raw is the 160 bits of an id, without its prefix: a fixed-size value
// for tables that hold very many ids (the key directory).
type Raw [20]byte

// Parse returns the bits of id when it is prefix followed by Len
// characters of the alphabet (as every id New makes is).
func Parse(prefix, id string) (Raw, bool) {
	body, ok := strings.CutPrefix(id, prefix)
	if !ok || len(body) != Len {
		return Raw{}, false
	}
	raw, ok := decode(body)
	return Raw(raw), ok
}

// Time is the instant r was made at, to the millisecond (its time part).
func (r Raw) Time() time.Time {
	ms := uint64(binary.BigEndian.Uint16(r[0:2]))<<32 | uint64(binary.BigEndian.Uint32(r[2:6]))
	return time.UnixMilli(int64(ms)).UTC()
}

// Format is the id prefix followed by r's characters: Parse's inverse.
func (r Raw) Format(prefix string) string {
	raw := [20]byte(r)
	return prefix + encode(&raw)
}

// encode writes 160 bits as 32 base32 characters, most significant first.
func encode(raw *[20]byte) string {
	var out [Len]byte
	// 160 = 32 × 5: take the bits five at a time from the left.
	for i := 0; i < Len; i++ {
		bit := i * 5
		v := (uint16(raw[bit/8])<<8 | uint16(at(raw, bit/8+1))) >> (11 - bit%8) & 31
		out[i] = alphabet[v]
	}
	return string(out[:])
}

func at(raw *[20]byte, i int) byte {
	if i < len(raw) {
		return raw[i]
	}
	return 0
}

// decode undoes encode; false for a character outside the alphabet.
func decode(s string) ([20]byte, bool) {
	var raw [20]byte
	for i := 0; i < Len; i++ {
		v := strings.IndexByte(alphabet, s[i])
		if v < 0 {
			return raw, false
		}
		bit := i * 5
		w := uint16(v) << (11 - bit%8)
		raw[bit/8] |= byte(w >> 8)
		if bit/8+1 < len(raw) {
			raw[bit/8+1] |= byte(w)
		}
	}
	return raw, true
}

// PartitionOf is the partition of the account that id belongs to: the one
// it carries, or, for a string made before ids carried one, a hash of it.
func PartitionOf(id string) int {
	if p, ok := Partition(id); ok {
		return p
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(id))
	return int(h.Sum32() % Partitions)
}
