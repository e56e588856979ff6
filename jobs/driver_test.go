package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// row is a test record: a host row (ver, keys) plus what jobs learn.
type row struct {
	ver     int      // the row's age: Stale compares it
	keys    []string // Keys
	learned int      // a job's finding, carried by Merge
}

// clock is the injected time: tests move it, nothing sleeps.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); defer c.mu.Unlock(); c.t = t }

var t0 = time.Unix(1_800_000_000, 0)

func config(c *clock, next func(*row, time.Time) Job[row]) Config[string, row] {
	return Config[string, row]{
		Name: "test", MaxLive: 10, MaxJobs: 4, KickQueue: 16,
		Tick: time.Hour, RetryAfter: 2 * time.Second, JobTimeout: time.Minute,
		Clock: c.now, Logger: slog.New(slog.DiscardHandler), Next: next,
		Keys:  func(r *row) []string { return r.keys },
		Merge: func(cur, from *row) { cur.learned = from.learned },
		Stale: func(cur, next *row) bool { return next.ver < cur.ver },
	}
}

// always returns a Next that names job for every record.
func always(job Job[row]) func(*row, time.Time) Job[row] {
	return func(*row, time.Time) Job[row] { return job }
}

// gated is a job that runs fn and then waits for gate to close.
func gated(gate <-chan struct{}, fn func(*row)) Job[row] {
	return func(_ context.Context, r *row) error {
		if fn != nil {
			fn(r)
		}
		<-gate
		return nil
	}
}

func noop(context.Context, *row) error { return nil }

func TestNextSeesTheCurrentRecord(t *testing.T) {
	var seen []row
	var at time.Time
	d := New(config(&clock{t: t0}, func(r *row, now time.Time) Job[row] {
		seen, at = append(seen, *r), now
		return noop
	}))
	require.NoError(t, d.Track("a", row{ver: 1}))
	require.NoError(t, d.Track("a", row{ver: 2}))
	require.Equal(t, 1, d.DriveAll(t0.Add(time.Second)))
	d.Wait()
	require.Equal(t, []row{{ver: 2}}, seen)
	require.Equal(t, t0.Add(time.Second), at)
}

func TestBusyRecordIsNotDrivenTwice(t *testing.T) {
	gate := make(chan struct{})
	var calls atomic.Int32
	d := New(config(&clock{t: t0}, func(*row, time.Time) Job[row] {
		calls.Add(1)
		return gated(gate, nil)
	}))
	require.NoError(t, d.Track("a", row{}))
	require.Equal(t, 1, d.Step(t0), "Track kicks")
	require.Equal(t, 0, d.DriveAll(t0))
	require.NoError(t, d.Track("a", row{ver: 1}), "a newer row while busy")
	require.Equal(t, 0, d.Step(t0))
	require.Equal(t, int32(1), calls.Load(), "Next is not asked about a busy record")
	require.Equal(t, 1, d.Running())
	close(gate)
	d.Wait()
	require.Equal(t, 0, d.Running())
	require.Equal(t, 1, d.Step(t0), "a finished job kicks its record")
	d.Wait()
}

// TestMaxJobsBound: under contention of ticks and submits, never more
// than MaxJobs jobs run at once (run it with -race).
func TestMaxJobsBound(t *testing.T) {
	const maxJobs, records, callers = 4, 100, 8
	var inflight, peak atomic.Int32
	gate := make(chan struct{})
	job := func(_ context.Context, _ *row) error {
		raise(&peak, inflight.Add(1))
		<-gate
		runtime.Gosched()
		inflight.Add(-1)
		return nil
	}
	cfg := config(&clock{t: t0}, always(job))
	cfg.MaxLive, cfg.MaxJobs = records, maxJobs
	d := New(cfg)
	for i := range records {
		require.NoError(t, d.Track(fmt.Sprint(i), row{}))
	}
	hammer := func(rounds int) {
		var wg sync.WaitGroup
		for c := range callers {
			wg.Go(func() {
				for range rounds {
					d.DriveAll(t0)
					d.Step(t0)
					d.Submit(fmt.Sprint(c), job)
				}
			})
		}
		wg.Wait()
	}
	hammer(1) // every job blocks: the pool fills and stays full
	require.Equal(t, maxJobs, d.Running())
	for inflight.Load() < maxJobs {
		runtime.Gosched() // the goroutines started; let them reach the gate
	}
	close(gate) // jobs now finish, kick, and are driven again
	hammer(50)
	d.Wait()
	require.LessOrEqual(t, peak.Load(), int32(maxJobs))
	require.Equal(t, int32(maxJobs), peak.Load(), "the pool was used in full")
	require.Equal(t, 0, d.Running())
}

// raise sets peak to n if n is higher.
func raise(peak *atomic.Int32, n int32) {
	for p := peak.Load(); n > p; p = peak.Load() {
		if peak.CompareAndSwap(p, n) {
			return
		}
	}
}

// TestFailedJobWaitsRetryAfter: after a failure neither a kick nor a tick
// starts the record's next job before RetryAfter.
func TestFailedJobWaitsRetryAfter(t *testing.T) {
	c := &clock{t: t0}
	d := New(config(c, always(func(context.Context, *row) error { return errors.New("chain busy") })))
	require.NoError(t, d.Track("a", row{}))
	require.Equal(t, 1, d.Step(t0))
	d.Wait()
	require.Equal(t, 0, d.Step(t0), "a failure does not kick")
	require.Equal(t, 0, d.DriveAll(t0.Add(2*time.Second-time.Nanosecond)))
	require.NoError(t, d.Track("a", row{ver: 1}))
	require.Equal(t, 0, d.Step(t0.Add(time.Second)), "nor does a new row hurry it")
	require.Equal(t, 1, d.DriveAll(t0.Add(2*time.Second)))
	d.Wait()
}

// TestMergeFoldsWhatTheJobLearned: a row replaced while its job ran gets
// the job's finding, and a later row keeps it.
func TestMergeFoldsWhatTheJobLearned(t *testing.T) {
	gate := make(chan struct{})
	d := New(config(&clock{t: t0}, always(gated(gate, func(r *row) { r.learned = 7 }))))
	require.NoError(t, d.Track("a", row{ver: 1}))
	require.Equal(t, 1, d.Step(t0))
	require.NoError(t, d.Track("a", row{ver: 2}))
	close(gate)
	d.Wait()
	got, ok := d.Get("a")
	require.True(t, ok)
	require.Equal(t, row{ver: 2, learned: 7}, got)
	require.NoError(t, d.Track("a", row{ver: 3}))
	got, _ = d.Get("a")
	require.Equal(t, row{ver: 3, learned: 7}, got)
}

// TestForgetDropsTheMerge: a record forgotten while its job ran does not
// get the job's finding, nor does one tracked anew under its id, which is
// not left busy by the old job either.
func TestForgetDropsTheMerge(t *testing.T) {
	gate := make(chan struct{})
	var due atomic.Bool
	due.Store(true)
	d := New(config(&clock{t: t0}, func(*row, time.Time) Job[row] {
		if !due.Load() {
			return nil
		}
		return gated(gate, func(r *row) { r.learned = 7 })
	}))
	require.NoError(t, d.Track("a", row{ver: 1}))
	require.Equal(t, 1, d.Step(t0))
	due.Store(false)
	d.Forget("a")
	_, ok := d.Get("a")
	require.False(t, ok)
	require.NoError(t, d.Track("a", row{ver: 2}))
	close(gate)
	d.Wait()
	got, ok := d.Get("a")
	require.True(t, ok)
	require.Equal(t, row{ver: 2}, got)
	require.True(t, d.Submit("a", noop), "not busy")
	d.Wait()
}

func TestOlderRowIsIgnored(t *testing.T) {
	d := New(config(&clock{t: t0}, always(nil)))
	require.NoError(t, d.Track("a", row{ver: 2}))
	require.NoError(t, d.Track("a", row{ver: 1}))
	require.NoError(t, d.Track("a", row{ver: 2, learned: 1}), "a row of equal age replaces")
	got, _ := d.Get("a")
	require.Equal(t, 2, got.ver)
	require.Len(t, d.kick, 2, "the older row is not kicked")
}

func TestTrackBeyondMaxLive(t *testing.T) {
	cfg := config(&clock{t: t0}, always(nil))
	cfg.MaxLive = 2
	d := New(cfg)
	require.NoError(t, d.Track("a", row{}))
	require.NoError(t, d.Track("b", row{}))
	require.ErrorIs(t, d.Track("c", row{}), ErrFull)
	require.NoError(t, d.Track("a", row{ver: 1}), "a replacement is not a new record")
	d.Forget("b")
	require.NoError(t, d.Track("c", row{}))
	require.Equal(t, 2, d.Len())
}

func TestKeysFollowTheRecord(t *testing.T) {
	d := New(config(&clock{t: t0}, always(nil)))
	find := func(key string) int {
		r, ok := d.Find(key)
		if !ok {
			return -1
		}
		return r.ver
	}
	require.NoError(t, d.Track("a", row{ver: 1, keys: []string{"x", "y"}}))
	require.Equal(t, 1, find("x"))
	require.NoError(t, d.Track("a", row{ver: 2, keys: []string{"y", "z"}}))
	require.Equal(t, -1, find("x"), "a replaced row's keys leave")
	require.Equal(t, 2, find("z"))
	require.NoError(t, d.Track("b", row{ver: 10, keys: []string{"z"}}))
	require.Equal(t, 10, find("z"), "the record indexed last wins a shared key")
	d.Forget("a")
	require.Equal(t, -1, find("y"))
	require.Equal(t, 10, find("z"), "forgetting a leaves b's key")
	d.Forget("b")
	require.Empty(t, d.index)
}

func TestSubmitRefusedWhenBusyOrFull(t *testing.T) {
	cfg := config(&clock{t: t0}, always(nil))
	cfg.MaxJobs = 1
	d := New(cfg)
	require.NoError(t, d.Track("a", row{}))
	require.NoError(t, d.Track("b", row{}))
	gate := make(chan struct{})
	require.True(t, d.Submit("a", gated(gate, nil)))
	require.False(t, d.Submit("a", noop), "busy")
	require.False(t, d.Submit("b", noop), "no slot free")
	require.False(t, d.Submit("c", noop), "unknown")
	close(gate)
	d.Wait()
	require.True(t, d.Submit("b", noop))
	d.Wait()
}

func TestFullKickQueueDrops(t *testing.T) {
	cfg := config(&clock{t: t0}, always(noop))
	cfg.KickQueue = 2
	d := New(cfg)
	for i := range 5 {
		d.Kick(fmt.Sprint("gone", i)) // never blocks
	}
	require.NoError(t, d.Track("a", row{}), "Track does not block on a full queue")
	require.Len(t, d.kick, 2)
	require.Equal(t, 0, d.Step(t0), "a's kick was dropped")
	require.Equal(t, 1, d.DriveAll(t0), "the tick catches up")
	d.Wait()
}

// TestRun: Run drives a tracked record at once (its kick), and a record
// waiting out a failure on the tick, with no kick.
func TestRun(t *testing.T) {
	ran := make(chan int, 4)
	run := func(t *testing.T, d *Driver[string, row]) (stop func()) {
		quit, done := make(chan struct{}), make(chan struct{})
		go func() { d.Run(quit); close(done) }()
		return func() { close(quit); recv(t, done); d.Wait() }
	}
	t.Run("kick", func(t *testing.T) {
		d := New(config(&clock{t: t0}, func(r *row, _ time.Time) Job[row] {
			if r.learned == r.ver {
				return nil
			}
			return func(_ context.Context, r *row) error { r.learned = r.ver; ran <- r.ver; return nil }
		}))
		stop := run(t, d)
		require.NoError(t, d.Track("a", row{ver: 1}))
		require.Equal(t, 1, recv(t, ran))
		stop()
	})
	t.Run("tick", func(t *testing.T) {
		c := &clock{t: t0}
		cfg := config(c, always(func(_ context.Context, r *row) error { ran <- r.ver; return errors.New("later") }))
		cfg.Tick = time.Millisecond
		d := New(cfg)
		require.NoError(t, d.Track("a", row{ver: 2}))
		stop := run(t, d)
		require.Equal(t, 2, recv(t, ran))
		d.Wait() // the failure is recorded: no job before t0 + RetryAfter
		c.set(t0.Add(cfg.RetryAfter))
		require.Equal(t, 2, recv(t, ran))
		stop()
	})
}

// recv waits for a value; the timeout only keeps a broken driver from
// hanging the test run.
func recv[V any](t *testing.T, ch <-chan V) V {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatal("nothing received in 10 s")
		var zero V
		return zero
	}
}

// BenchmarkDriveAll is one tick over MaxLiveOrders-many idle records.
func BenchmarkDriveAll(b *testing.B) {
	cfg := config(&clock{t: t0}, always(nil))
	cfg.MaxLive = 100_000
	d := New(cfg)
	for i := range cfg.MaxLive {
		if err := d.Track(fmt.Sprint(i), row{keys: []string{fmt.Sprint("k", i)}}); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		d.DriveAll(t0)
	}
}

// A record whose job is due while every slot is taken starts when a slot
// frees, oldest first, without waiting for a tick (the tick is an hour
// here); one forgotten while it waited does not start.
func TestWaitingRecordsTakeFreedSlots(t *testing.T) {
	var mu sync.Mutex
	var asked []string // Next's calls, in order (they run under the driver's lock)
	done := map[string]bool{}
	gate := make(chan struct{})
	d := New(config(&clock{t: t0}, func(r *row, _ time.Time) Job[row] {
		id := r.keys[0]
		mu.Lock()
		defer mu.Unlock()
		if done[id] {
			return nil
		}
		asked = append(asked, id)
		return func(context.Context, *row) error {
			if id < "e" {
				<-gate // the first four hold every slot
			}
			mu.Lock()
			defer mu.Unlock()
			done[id] = true
			return nil
		}
	}))
	ids := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, id := range ids {
		require.NoError(t, d.Track(id, row{keys: []string{id}}))
	}
	require.Equal(t, 4, d.Step(t0), "four slots")
	require.Zero(t, d.Step(t0), "the rest wait for a slot")
	d.Forget("f")
	close(gate)
	d.Wait()
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, append(ids, "e", "g", "h"), asked, "waiting records start oldest first as slots free; f was forgotten")
	require.Equal(t, map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true, "g": true, "h": true}, done)
}

// A job that frees its slot runs the job of a record that waited for it
// on its own goroutine (whose stack has grown already) instead of
// starting a goroutine per job: the records that waited run on the
// goroutines of the four that held the slots (one that finishes early may
// run several of them).
func TestFreedSlotKeepsItsGoroutine(t *testing.T) {
	gate := make(chan struct{})
	d, ran := onGoroutines(t, gate)
	for _, id := range []string{"a", "b", "c", "d", "e", "f", "g", "h"} {
		require.NoError(t, d.Track(id, row{keys: []string{id}}))
	}
	require.Equal(t, 4, d.Step(t0))
	require.Zero(t, d.Step(t0))
	close(gate)
	d.Wait()
	got := ran()
	require.Len(t, got, 8)
	holders := map[uint64]bool{}
	for _, id := range []string{"a", "b", "c", "d"} {
		holders[got[id]] = true
	}
	require.Len(t, holders, 4, "the four slots' jobs ran at once")
	for _, id := range []string{"e", "f", "g", "h"} {
		require.True(t, holders[got[id]], "%s ran on a goroutine that held a slot", id)
	}
}

// A job started while a job goroutine idles (its last job done, less than
// workerIdle ago) runs on that goroutine, not on a new one.
func TestIdleGoroutineTakesTheNextJob(t *testing.T) {
	d, ran := onGoroutines(t, nil)
	require.NoError(t, d.Track("a", row{keys: []string{"a"}}))
	require.Equal(t, 1, d.Step(t0))
	d.Wait()
	require.Eventually(t, func() bool { return d.idleWorkers.Load() == 1 }, 10*time.Second, time.Millisecond,
		"a's goroutine idles for the next job")
	require.NoError(t, d.Track("b", row{keys: []string{"b"}}))
	require.Equal(t, 1, d.Step(t0))
	d.Wait()
	got := ran()
	require.Equal(t, got["a"], got["b"], "b ran on the goroutine a ran on")
}

// onGoroutines is a driver whose jobs run once per record and note the
// goroutine they ran on (ran reads the notes); a record below "e" then
// waits for hold to close, if hold is not nil.
func onGoroutines(t *testing.T, hold <-chan struct{}) (d *Driver[string, row], ran func() map[string]uint64) {
	var mu sync.Mutex
	on := map[string]uint64{}
	d = New(config(&clock{t: t0}, func(r *row, _ time.Time) Job[row] {
		id := r.keys[0]
		mu.Lock()
		defer mu.Unlock()
		if _, ok := on[id]; ok {
			return nil
		}
		return func(context.Context, *row) error {
			mu.Lock()
			on[id] = goroutineID(t)
			mu.Unlock()
			if hold != nil && id < "e" {
				<-hold
			}
			return nil
		}
	}))
	return d, func() map[string]uint64 {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(on)
	}
}

// goroutineID is the running goroutine's number, from its stack header
// ("goroutine 42 [running]:").
func goroutineID(t *testing.T) uint64 {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	var id uint64
	_, err := fmt.Sscanf(string(buf), "goroutine %d ", &id)
	require.NoError(t, err)
	return id
}

// TestOwnedRecordsOnly: a host drives only the records it owns now. One
// not owned is not tracked; one whose partition moves away is forgotten
// when next driven (with its keys), a job running then finishes, and its
// record is dropped at the next drive.
func TestOwnedRecordsOnly(t *testing.T) {
	var mu sync.Mutex
	owned := map[string]bool{"a": true, "b": true}
	own := func(id string, yes bool) { mu.Lock(); defer mu.Unlock(); owned[id] = yes }
	gate := make(chan struct{})
	var ran []string // under d.mu: Next's
	cfg := config(&clock{t: t0}, func(r *row, _ time.Time) Job[row] {
		ran = append(ran, fmt.Sprint(r.ver, r.keys))
		if r.ver == 1 {
			return gated(gate, nil)
		}
		return noop
	})
	cfg.Owned = func(id string) bool { mu.Lock(); defer mu.Unlock(); return owned[id] }
	d := New(cfg)
	require.NoError(t, d.Track("c", row{ver: 3}), "a record owned elsewhere is ignored, not refused")
	require.Zero(t, d.Len())
	require.NoError(t, d.Track("a", row{ver: 1, keys: []string{"ka"}}))
	require.NoError(t, d.Track("b", row{ver: 2, keys: []string{"kb"}}))
	require.Equal(t, 2, d.Step(t0))
	require.Eventually(t, func() bool { return d.Running() == 1 }, 10*time.Second, time.Millisecond, "b's job finishes; a's waits")
	d.Step(t0) // b's finished job kicked it: b is driven (noop) again
	require.Eventually(t, func() bool { return d.Running() == 1 }, 10*time.Second, time.Millisecond)
	d.mu.Lock()
	ran = nil
	d.mu.Unlock()

	own("a", false) // while a's job runs
	own("b", false)
	require.Equal(t, 0, d.DriveAll(t0))
	_, ok := d.Get("b")
	require.False(t, ok, "b is dropped when next driven")
	_, ok = d.Find("kb")
	require.False(t, ok, "and its keys with it")
	_, ok = d.Get("a")
	require.True(t, ok, "a busy record is not dropped under its job")
	close(gate)
	d.Wait()
	require.Equal(t, 0, d.DriveAll(t0), "a's finished job kicked it; it is dropped, not run")
	require.Zero(t, d.Len())
	require.Empty(t, d.index)
	require.Empty(t, ran, "Next is never asked about a record not owned")
}
