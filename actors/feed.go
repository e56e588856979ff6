package actors

import (
	"fmt"
	"sync"
)

// maxFeed bounds the records the feed holds for the applier (~24 bytes of
// slice header each plus the payloads it keeps alive).
const maxFeed = 1 << 16

// feed carries durable log records from the log writer to the snapshot
// applier (wal.Options.OnDurable), so that in steady state the applier
// never reads the log back: those reads took tidwall's lock in front of
// the writer's next batch, and under load the writer waited on them.
//
// The feed is an optimisation, never the source of truth. It holds a
// contiguous run of records; when a batch would overflow it, the feed
// drops everything it holds, and the applier reads whatever it lacks from
// the log (Engine.applyOnce), exactly as it does during recovery.
type feed struct {
	mu    sync.Mutex
	size  int      // capacity: maxFeed, less in tests
	ring  [][]byte // of length size, allocated on the first push
	head  int      // ring position of the record with index first
	n     int      // records held
	first uint64   // index of the oldest record held (n > 0)
	drops uint64   // batches dropped because the feed was full
}

// newFeed is a feed of size records (0: maxFeed).
func newFeed(size int) *feed {
	if size == 0 {
		size = maxFeed
	}
	return &feed{size: size}
}

// push appends a durable batch; it runs on the log writer's goroutine and
// never blocks on anything but the feed's own lock.
func (f *feed) push(first uint64, payloads [][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ring == nil {
		f.ring = make([][]byte, f.size)
	}
	if f.n > 0 && f.first+uint64(f.n) != first {
		panic(fmt.Sprintf("actors: feed holds %d..%d and got a batch at %d", f.first, f.first+uint64(f.n)-1, first))
	}
	if f.n+len(payloads) > len(f.ring) {
		f.releaseLocked(f.first + uint64(f.n)) // the applier reads them back from the log
		f.drops++
		return
	}
	if f.n == 0 {
		f.first = first
	}
	for _, p := range payloads {
		f.ring[(f.head+f.n)%len(f.ring)] = p
		f.n++
	}
}

// from appends to dst the payloads of index, index+1, ... that the feed
// holds, at most max, and reports whether it held index at all (false
// means the caller must read index from the log).
func (f *feed) from(index uint64, max int, dst [][]byte) ([][]byte, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 || index < f.first || index >= f.first+uint64(f.n) {
		return dst, false
	}
	off := int(index - f.first)
	for i := off; i < f.n && i-off < max; i++ {
		dst = append(dst, f.ring[(f.head+i)%len(f.ring)])
	}
	return dst, true
}

// release forgets every record with an index below upTo (the applier has
// them in the store).
func (f *feed) release(upTo uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.releaseLocked(upTo)
}

func (f *feed) releaseLocked(upTo uint64) {
	for f.n > 0 && f.first < upTo {
		f.ring[f.head] = nil
		f.head = (f.head + 1) % len(f.ring)
		f.first++
		f.n--
	}
}

// reset forgets every record: the log they came from is replaced (a part
// handed over), and the next one's indexes need not follow them.
func (f *feed) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.releaseLocked(f.first + uint64(f.n))
}

// dropped is the number of batches the feed could not hold.
func (f *feed) dropped() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.drops
}
