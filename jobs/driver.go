package jobs

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Driver holds the live records of one kind and runs their jobs. Create it
// with New; Run drives it. Every method is safe for concurrent use and
// none blocks on a job.
type Driver[K comparable, T any] struct {
	cfg Config[K, T]
	// kick holds ids to drive now; at most cfg.KickQueue.
	kick chan string

	mu      sync.Mutex
	idle    sync.Cond               // on mu: broadcast when running drops to zero (Wait)
	live    map[string]*entry[K, T] // at most cfg.MaxLive
	index   map[K]string            // secondary key → id; see Config.MaxLive
	running int                     // jobs in flight; at most cfg.MaxJobs
	// waiting holds, oldest first, the ids whose job was due when every
	// slot was taken: a finishing job starts the first of them, so a
	// backlog moves at the speed of its jobs, not of the tick. At most
	// maxWaiting; beyond it the tick finds them.
	waiting []string
	// handoff passes a claimed job to a job goroutine idling in run
	// (unbuffered: start never waits; with no goroutine idle, it starts
	// one). idleWorkers counts the goroutines idling there. A goroutine
	// is started only for a slot and only when none idles, and an idle
	// one ends after workerIdle, so they number about MaxJobs (briefly
	// more: one that just finished a job is not yet idling).
	handoff     chan task[K, T]
	idleWorkers atomic.Int32
}

// entry is one live record and the driver's state about it.
type entry[K comparable, T any] struct {
	rec     T
	keys    []K       // what rec is indexed by, so exactly those leave the index
	busy    bool      // a job runs on a copy of rec
	waiting bool      // its id is in Driver.waiting
	nextTry time.Time // no ticked or kicked job before then (a job failed)
	fails   int       // jobs failed in a row (logged at 1, 2, 4, 8, …)
}

// maxWaiting bounds Driver.waiting: every live record once, and the ids
// of records forgotten while they waited, which leave as slots free.
func (d *Driver[K, T]) maxWaiting() int { return d.cfg.MaxLive + d.cfg.KickQueue }

// New builds a driver; it panics on a config without its bounds or Next.
func New[K comparable, T any](cfg Config[K, T]) *Driver[K, T] {
	cfg.check()
	d := &Driver[K, T]{
		cfg:     cfg,
		kick:    make(chan string, cfg.KickQueue),
		live:    map[string]*entry[K, T]{},
		index:   map[K]string{},
		handoff: make(chan task[K, T]),
	}
	d.idle.L = &d.mu
	return d
}

// Track inserts or replaces the record id and kicks it. A new record beyond
// MaxLive is refused with ErrFull; a row older than the tracked one (Stale)
// is ignored. A replaced record keeps what its jobs learned (Merge).
func (d *Driver[K, T]) Track(id string, rec T) error {
	d.mu.Lock()
	e := d.live[id]
	switch {
	case !d.owned(id):
		d.mu.Unlock()
		return nil
	case e == nil && len(d.live) >= d.cfg.MaxLive:
		d.mu.Unlock()
		return fmt.Errorf("%w: %s: %d live (the bound)", ErrFull, d.cfg.Name, d.cfg.MaxLive)
	case e == nil:
		e = &entry[K, T]{}
		d.live[id] = e
	case d.cfg.Stale != nil && d.cfg.Stale(&e.rec, &rec):
		d.mu.Unlock()
		return nil
	case d.cfg.Merge != nil:
		d.cfg.Merge(&rec, &e.rec)
	}
	e.rec = rec
	d.reindex(id, e)
	d.mu.Unlock()
	d.Kick(id)
	return nil
}

// owned is Config.Owned, true when unset. Called with d.mu held.
func (d *Driver[K, T]) owned(id string) bool { return d.cfg.Owned == nil || d.cfg.Owned(id) }

// dropUnowned forgets e, tracked as id, unless this host still owns it;
// it reports whether it did. Called with d.mu held and e not busy.
func (d *Driver[K, T]) dropUnowned(id string, e *entry[K, T]) bool {
	if d.owned(id) {
		return false
	}
	d.unindex(id, e)
	delete(d.live, id)
	return true
}

// Forget drops the record id and its keys. A job running for it finishes
// on its own and what it learned is dropped: the host is done with the
// record (a record tracked again under id is a new one).
func (d *Driver[K, T]) Forget(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.live[id]; e != nil {
		d.unindex(id, e)
		delete(d.live, id)
	}
}

// Kick asks for id to be driven now. It never blocks: when KickQueue ids
// already wait, the kick is dropped and the next tick drives the record.
func (d *Driver[K, T]) Kick(id string) {
	select {
	case d.kick <- id:
	default:
	}
}

// Get returns a copy of the record id.
func (d *Driver[K, T]) Get(id string) (T, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.live[id]; e != nil {
		return e.rec, true
	}
	var zero T
	return zero, false
}

// Find returns a copy of the record indexed by key (Config.Keys).
func (d *Driver[K, T]) Find(key K) (T, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id, ok := d.index[key]
	if e := d.live[id]; ok && e != nil {
		return e.rec, true
	}
	var zero T
	return zero, false
}

// Len is the number of live records.
func (d *Driver[K, T]) Len() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.live)
}

// Running is the number of jobs in flight.
func (d *Driver[K, T]) Running() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.running
}

// Wait returns once no job is in flight (tests; a shutdown that wants
// jobs done). Jobs started meanwhile are waited for too.
func (d *Driver[K, T]) Wait() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.running > 0 {
		d.idle.Wait()
	}
}

// reindex points e's keys at id, after its record changed. Called with
// d.mu held.
func (d *Driver[K, T]) reindex(id string, e *entry[K, T]) {
	if d.cfg.Keys == nil {
		return
	}
	d.unindex(id, e)
	e.keys = d.cfg.Keys(&e.rec)
	for _, k := range e.keys {
		d.index[k] = id
	}
}

// unindex removes e's keys, unless another record claimed one since.
// Called with d.mu held.
func (d *Driver[K, T]) unindex(id string, e *entry[K, T]) {
	for _, k := range e.keys {
		if d.index[k] == id {
			delete(d.index, k)
		}
	}
	e.keys = nil
}
