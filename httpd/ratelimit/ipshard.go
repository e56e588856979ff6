package ratelimit

import "sync"

// none marks the end of an intrusive list.
const none = int32(-1)

// ipEntry is one tracked address: its window and its place in the shard's
// recency list.
type ipEntry struct {
	key        ipKey
	prev, next int32
	w          window
}

// ipShard is a bounded table of addresses. Invariants, under mu:
//   - index maps each tracked key to its slot in entries; len(index) <= capacity;
//   - every tracked slot is on the recency list lru, least recently
//     admitted at the head; slots not tracked are on the free list;
//   - len(entries) only grows, up to capacity, and slots are reused.
type ipShard struct {
	mu       sync.Mutex
	index    map[ipKey]int32
	entries  []ipEntry
	free     int32 // free list through next
	lruHead  int32
	lruTail  int32
	capacity int
	limit    int
	windowMs int64
	_        [64]byte // keep neighbouring shards' locks off one cache line
}

func (s *ipShard) init(capacity, limit int, windowMs int64) {
	s.index = make(map[ipKey]int32)
	s.free, s.lruHead, s.lruTail = none, none, none
	s.capacity, s.limit, s.windowMs = capacity, limit, windowMs
}

func (s *ipShard) allow(now int64, k ipKey) Decision {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, ok := s.index[k]
	if !ok {
		if i, ok = s.take(now); !ok {
			return s.refuseFull(now)
		}
		s.entries[i].key = k
		s.index[k] = i
		s.pushBack(i)
	}
	e := &s.entries[i]
	now = e.w.advance(now)
	admit := !e.w.full()
	if admit {
		e.w.push(now)
		// Recency is by admission, so the head is the entry whose newest
		// admission is oldest: the first to become idle.
		s.unlink(i)
		s.pushBack(i)
	}
	d, _ := e.w.decide(admit, now)
	return d
}

// take returns a slot for a new address: a free one, a new one while below
// capacity, or the least recently admitted one if it is idle at now.
func (s *ipShard) take(now int64) (int32, bool) {
	if s.free != none {
		i := s.free
		s.free = s.entries[i].next
		return i, true
	}
	if len(s.entries) < s.capacity {
		s.entries = append(s.entries, ipEntry{})
		i := int32(len(s.entries) - 1)
		s.entries[i].w.init(s.limit, s.windowMs)
		return i, true
	}
	h := s.lruHead
	if h == none || s.entries[h].w.newestNs() > now-s.windowMs*nsPerMs {
		return none, false
	}
	s.unlink(h)
	delete(s.index, s.entries[h].key)
	e := &s.entries[h]
	e.w.init(s.limit, s.windowMs)
	return h, true
}

// refuseFull answers a new address when the shard is full of active ones:
// retry when the least recently admitted entry turns idle.
func (s *ipShard) refuseFull(now int64) Decision {
	free := s.entries[s.lruHead].w.newestNs() + s.windowMs*nsPerMs
	return Decision{Limit: s.limit, Reset: ceilDiv(free, nsPerSec), RetryAfter: retryAfter(free, now)}
}

func (s *ipShard) unlink(i int32) {
	e := &s.entries[i]
	if e.prev != none {
		s.entries[e.prev].next = e.next
	} else {
		s.lruHead = e.next
	}
	if e.next != none {
		s.entries[e.next].prev = e.prev
	} else {
		s.lruTail = e.prev
	}
	e.prev, e.next = none, none
}

func (s *ipShard) pushBack(i int32) {
	e := &s.entries[i]
	e.prev, e.next = s.lruTail, none
	if s.lruTail != none {
		s.entries[s.lruTail].next = i
	} else {
		s.lruHead = i
	}
	s.lruTail = i
}
