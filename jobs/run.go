package jobs

import (
	"context"
	"log/slog"
	"time"
)

// Run drives kicked records at once and every live record each Tick, at
// Config.Clock's time, until stop is closed. Jobs in flight then finish on
// their own (Wait waits for them).
func (d *Driver[K, T]) Run(stop <-chan struct{}) {
	tick := time.NewTicker(d.cfg.Tick)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case id := <-d.kick:
			d.drive(id, d.cfg.Clock())
		case <-tick.C:
			d.DriveAll(d.cfg.Clock())
		}
	}
}

// Step drives, at now, the ids kicked so far, and returns the number of
// jobs it started. It is Run's kick path for tests; kicks that finished
// jobs queue meanwhile wait for the next Step.
func (d *Driver[K, T]) Step(now time.Time) int {
	started := 0
	for n := len(d.kick); n > 0; n-- {
		select {
		case id := <-d.kick:
			if d.drive(id, now) {
				started++
			}
		default:
			return started
		}
	}
	return started
}

// DriveAll drives every live record at now and returns the number of jobs
// it started: Run's tick. The lock is taken per record, not across the
// scan, so Track, Find and Submit are not held up by a scan of MaxLive
// records.
func (d *Driver[K, T]) DriveAll(now time.Time) int {
	d.mu.Lock()
	ids := make([]string, 0, len(d.live))
	for id := range d.live {
		ids = append(ids, id)
	}
	d.mu.Unlock()
	started := 0
	for _, id := range ids {
		if d.drive(id, now) {
			started++
		}
	}
	return started
}

// Submit runs job for the tracked record id (a chain log about it) in the
// same bounded slots and under the same busy flag as its ticked jobs. It
// reports false, and runs nothing, when id is unknown or busy or every
// slot is taken: the caller then relies on the record's level-triggered
// jobs, which must be able to find the same fact. It never blocks.
func (d *Driver[K, T]) Submit(id string, job Job[T]) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.live[id]
	if e == nil || e.busy || d.running >= d.cfg.MaxJobs {
		return false
	}
	d.start(id, e, job)
	return true
}

// drive starts the job the record id needs at now, if it is not busy, not
// waiting out a failure, and a slot is free; it reports whether it did. A
// job due while every slot is taken waits for the next slot to free.
func (d *Driver[K, T]) drive(id string, now time.Time) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.live[id]
	if e == nil || e.busy || d.dropUnowned(id, e) || now.Before(e.nextTry) {
		return false
	}
	job := d.cfg.Next(&e.rec, now)
	switch {
	case job == nil:
		return false
	case d.running >= d.cfg.MaxJobs:
		if !e.waiting && len(d.waiting) < d.maxWaiting() {
			e.waiting = true
			d.waiting = append(d.waiting, id)
		}
		return false
	}
	d.start(id, e, job)
	return true
}

// startWaiting gives free slots to the records that waited for one, oldest
// first, at now. Called with d.mu held, by a job that just finished: the
// first job it claims is returned for that job's goroutine to run (see
// run); the others get goroutines of their own.
func (d *Driver[K, T]) startWaiting(now time.Time) (first task[K, T]) {
	for len(d.waiting) > 0 && d.running < d.cfg.MaxJobs {
		id := d.waiting[0]
		d.waiting[0] = ""
		d.waiting = d.waiting[1:]
		e := d.live[id]
		if e == nil || !e.waiting {
			continue // forgotten while it waited
		}
		e.waiting = false
		if e.busy || d.dropUnowned(id, e) || now.Before(e.nextTry) {
			continue
		}
		job := d.cfg.Next(&e.rec, now)
		switch {
		case job == nil:
		case first.job == nil:
			first = d.claim(id, e, job)
		default:
			d.start(id, e, job)
		}
	}
	if len(d.waiting) == 0 {
		d.waiting = nil // let the drained backing array go
	}
	return first
}

// task is one job claimed for a record, with the copy of the record it
// runs on.
type task[K comparable, T any] struct {
	id  string
	e   *entry[K, T]
	job Job[T]
	rec T
}

// claim takes a slot for job on e. Called with d.mu held, a slot free and
// e not busy.
func (d *Driver[K, T]) claim(id string, e *entry[K, T], job Job[T]) task[K, T] {
	e.busy = true
	d.running++
	return task[K, T]{id: id, e: e, job: job, rec: e.rec}
}

// start claims a slot and runs job on an idle job goroutine, or on a new
// one when none idles. Called with d.mu held, a slot free and e not busy.
func (d *Driver[K, T]) start(id string, e *entry[K, T], job Job[T]) {
	t := d.claim(id, e, job)
	select {
	case d.handoff <- t:
	default:
		go d.run(t)
	}
}

// workerIdle is how long a job goroutine with nothing to do waits for the
// next job before it ends: a driver with steady work keeps at most
// MaxJobs goroutines (and the stacks they have grown) instead of
// starting one per job; an idle driver holds none. In the webhook phase
// of make bench, growing fresh goroutines' stacks through net/http and an
// entity's decide (runtime.newstack) took 6 % of fxd's CPU.
const workerIdle = time.Second

// run is a job goroutine: it runs t, then the job of a record that waited
// for a slot, if finishing t gave it one, then jobs handed over by start,
// until none comes for workerIdle.
func (d *Driver[K, T]) run(t task[K, T]) {
	var idle *time.Timer
	for {
		for t.job != nil {
			ctx, cancel := context.WithTimeout(context.Background(), d.cfg.JobTimeout)
			err := t.job(ctx, &t.rec)
			cancel()
			t = d.finish(t.id, t.e, &t.rec, err)
		}
		if idle == nil {
			idle = time.NewTimer(workerIdle)
		} else {
			idle.Reset(workerIdle)
		}
		d.idleWorkers.Add(1)
		select {
		case t = <-d.handoff:
			d.idleWorkers.Add(-1)
			idle.Stop()
		case <-idle.C:
			d.idleWorkers.Add(-1)
			return
		}
	}
}

// finish frees the job's slot and folds what it learned into the record,
// unless the record was forgotten meanwhile (then e is no longer the
// live entry). A failure spaces the next job; a success kicks the record,
// since its next step may be due at once. It returns the job of a record
// that waited for the freed slot, claimed for the caller to run, if any.
func (d *Driver[K, T]) finish(id string, e *entry[K, T], ran *T, err error) (next task[K, T]) {
	now := d.cfg.Clock()
	d.mu.Lock()
	d.running--
	live := d.live[id] == e
	fails := 0
	if live {
		e.busy = false
		if d.cfg.Merge != nil {
			d.cfg.Merge(&e.rec, ran)
			d.reindex(id, e)
		}
		fails = e.fails
		e.fails = 0
		if err != nil {
			e.nextTry = now.Add(d.cfg.RetryAfter)
			e.fails = fails + 1
		}
	}
	next = d.startWaiting(now)
	if d.running == 0 {
		d.idle.Broadcast()
	}
	d.mu.Unlock()
	switch {
	case err != nil && live:
		d.logFailure(id, fails+1, err)
	case err != nil:
		d.cfg.Logger.Info("job failed after its record was forgotten", "driver", d.cfg.Name, "id", id, "err", err.Error())
	case live:
		if fails > 0 {
			d.cfg.Logger.Info("job succeeded after failures", "driver", d.cfg.Name, "id", id, "failures", fails)
		}
		d.Kick(id)
	}
	return next
}

// logFailure logs the n-th failure in a row of a record's jobs as a warning
// when n is a power of two, else at debug level: while the chain is away
// every live record fails every RetryAfter, and the log should say so,
// not repeat it for each record every few seconds.
func (d *Driver[K, T]) logFailure(id string, n int, err error) {
	level := slog.LevelDebug
	if n&(n-1) == 0 {
		level = slog.LevelWarn
	}
	d.cfg.Logger.Log(context.Background(), level, "job failed; will retry", "driver", d.cfg.Name, "id", id,
		"retry_after", d.cfg.RetryAfter.String(), "failures", n, "err", err.Error())
}
