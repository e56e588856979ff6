package replay

import "sync"

// empty marks a free slot, the end of a bucket list or of the free list.
const empty = int32(-1)

// entry is one remembered signature.
type entry struct {
	sig  [SigSize]byte
	home uint32 // its hash & mask: where its probe sequence starts
	next int32  // next entry of the same expiry bucket, or of the free list
}

// shard is a bounded set of signatures with per-second expiry.
//
// Invariants, under mu:
//   - slots is an open-addressing table with linear probing, len a power
//     of two >= 2*capacity (load <= 1/2, so a probe always meets an empty
//     slot); every live entry is in exactly one slot, on the probe path from
//     its home with no empty slot in between;
//   - entries only grows, to at most capacity; each entry is either live
//     (in slots and in exactly one bucket list) or on the free list;
//   - a live entry expiring at unix second t is in buckets[t % len(buckets)],
//     and swept < t < swept+len(buckets), so each bucket holds one second;
//   - live <= capacity.
type shard struct {
	mu       sync.Mutex
	slots    []int32
	mask     uint32
	entries  []entry
	free     int32
	buckets  []int32
	live     int
	capacity int
	swept    int64    // every entry expiring at or before swept is gone
	_        [64]byte // keep neighbouring shards' locks off one cache line
}

func (s *shard) init(capacity, ring int) {
	size := 2
	for size < 2*capacity {
		size *= 2
	}
	s.slots = make([]int32, size)
	for i := range s.slots {
		s.slots[i] = empty
	}
	s.mask = uint32(size - 1)
	s.buckets = make([]int32, ring)
	for i := range s.buckets {
		s.buckets[i] = empty
	}
	s.free = empty
	s.capacity = capacity
}

func (s *shard) remember(sig *[SigSize]byte, hash uint32, ts, now, windowSec int64) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now < s.swept {
		now = s.swept
	} else {
		s.sweep(now)
	}
	if ts <= now-windowSec || ts > now+windowSec {
		return false, ErrOutOfWindow
	}
	pos, found := s.find(sig, hash&s.mask)
	if found {
		return false, nil
	}
	if s.live == s.capacity {
		return false, ErrFull
	}
	i := s.alloc()
	e := &s.entries[i]
	e.sig = *sig
	e.home = hash & s.mask
	s.slots[pos] = i
	b := (ts + windowSec) % int64(len(s.buckets))
	e.next = s.buckets[b]
	s.buckets[b] = i
	s.live++
	return true, nil
}

// find returns the slot holding sig, or the empty slot where it belongs.
func (s *shard) find(sig *[SigSize]byte, home uint32) (uint32, bool) {
	for pos := home; ; pos = (pos + 1) & s.mask {
		i := s.slots[pos]
		if i == empty {
			return pos, false
		}
		if s.entries[i].sig == *sig {
			return pos, true
		}
	}
}

func (s *shard) alloc() int32 {
	if s.free != empty {
		i := s.free
		s.free = s.entries[i].next
		return i
	}
	s.entries = append(s.entries, entry{})
	return int32(len(s.entries) - 1)
}

// sweep drops every entry expiring at or before now: the buckets of the
// seconds swept+1..now, or all of them after a gap of a full ring.
func (s *shard) sweep(now int64) {
	if now <= s.swept {
		return
	}
	ring := int64(len(s.buckets))
	if now-s.swept >= ring {
		for b := range s.buckets {
			s.expire(b)
		}
	} else {
		for t := s.swept + 1; t <= now; t++ {
			s.expire(int(t % ring))
		}
	}
	s.swept = now
}

// expire removes every entry of bucket b.
func (s *shard) expire(b int) {
	for i := s.buckets[b]; i != empty; {
		next := s.entries[i].next
		s.remove(i)
		s.entries[i].next = s.free
		s.free = i
		s.live--
		i = next
	}
	s.buckets[b] = empty
}

// remove takes entry i out of slots by backward-shift deletion: later
// entries of the probe cluster move into the hole when the hole lies on
// their probe path, so no tombstones accumulate.
func (s *shard) remove(i int32) {
	hole := s.entries[i].home
	for s.slots[hole] != i {
		hole = (hole + 1) & s.mask
	}
	for j := hole; ; {
		j = (j + 1) & s.mask
		k := s.slots[j]
		if k == empty {
			s.slots[hole] = empty
			return
		}
		home := s.entries[k].home
		// k may fill the hole iff the hole is strictly nearer its home
		// than j is (cyclically), i.e. on its probe path.
		if (hole-home)&s.mask < (j-home)&s.mask {
			s.slots[hole] = k
			hole = j
		}
	}
}
