package ratelimit

import (
	"fmt"
	"sync"
)

// Limiter holds the sliding windows of one API key. It is safe for
// concurrent use. Its rings are sized on use (window.go): a decision
// allocates only when a class admits more than it ever held before.
type Limiter struct {
	mu    sync.Mutex
	read  window
	write window
	heavy window
}

// New returns a Limiter for one key. It panics if l is invalid (see
// Limits.Validate): limits are configuration, checked at start-up.
func New(l Limits) *Limiter {
	if err := l.Validate(); err != nil {
		panic(fmt.Sprintf("ratelimit.New: %v", err))
	}
	ms := int64(l.Window) / nsPerMs
	lim := &Limiter{}
	lim.read.init(l.Read, ms)
	lim.write.init(l.Write, ms)
	lim.heavy.init(l.Heavy, ms)
	return lim
}

// idle reports whether no class holds an admission at now: the limiter
// then decides exactly as a new one would, so it may be dropped.
func (l *Limiter) idle(now int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, w := range [...]*window{&l.read, &l.write, &l.heavy} {
		if w.advance(now); !w.idle() {
			return false
		}
	}
	return true
}

// Allow decides whether a request of class c arriving at now (unix
// nanoseconds) is admitted, records it if so, and reports the tightest
// class. A Heavy request is admitted only if both heavy and write admit it,
// and is then recorded in both. An unknown class is treated as Heavy, the
// strictest.
func (l *Limiter) Allow(now int64, c Class) Decision {
	l.mu.Lock()
	var d Decision
	switch c {
	case Read:
		d = allowOne(&l.read, now)
	case Write:
		d = allowOne(&l.write, now)
	default:
		d = allowBoth(&l.heavy, &l.write, now)
	}
	l.mu.Unlock()
	return d
}

func allowOne(w *window, now int64) Decision {
	now = w.advance(now)
	ok := !w.full()
	if ok {
		w.push(now)
	}
	d, _ := w.decide(ok, now)
	return d
}

// allowBoth admits iff both windows admit, recording in both, and reports
// the tighter: fewer remaining, then the later free slot (on refusal that
// is the class the client really has to wait for), then a.
func allowBoth(a, b *window, now int64) Decision {
	na, nb := a.advance(now), b.advance(now)
	ok := !a.full() && !b.full()
	if ok {
		a.push(na)
		b.push(nb)
	}
	da, freeA := a.decide(ok, na)
	db, freeB := b.decide(ok, nb)
	if db.Remaining < da.Remaining || (db.Remaining == da.Remaining && freeB > freeA) {
		return db
	}
	return da
}
