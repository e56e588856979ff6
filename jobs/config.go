package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// ErrFull is Track's refusal of a new record beyond Config.MaxLive.
var ErrFull = errors.New("jobs: too many live records")

// Job is one piece of work for a record. It runs on a job goroutine (one
// that freed a slot may go on to the job of a record that waited for it)
// on a copy of the record, which it may edit to report what it learned
// (see Config.Merge). An error spaces the record's next job by
// Config.RetryAfter.
type Job[T any] func(ctx context.Context, rec *T) error

// Config sets up a Driver. The bounds (MaxLive, MaxJobs, KickQueue) and
// the durations have no defaults: New panics without them, since a driver
// without stated bounds is the growth the package exists to prevent.
type Config[K comparable, T any] struct {
	// Name labels the driver's log lines ("fx orders").
	Name string
	// MaxLive bounds the records tracked at once: Track refuses a new one
	// beyond it with ErrFull. The key index holds at most MaxLive times
	// len(Keys(rec)) entries.
	MaxLive int
	// MaxJobs bounds the job goroutines running at once, ticked and
	// submitted alike. A record whose job finds every slot taken waits for
	// the next tick or kick; Submit then reports false.
	MaxJobs int
	// KickQueue bounds the ids waiting to be driven at once; a kick that
	// finds it full is dropped and the next tick drives the record.
	KickQueue int
	// Tick is how often Run looks at every live record.
	Tick time.Duration
	// RetryAfter spaces a record's next job after one failed.
	RetryAfter time.Duration
	// JobTimeout bounds one job: its context's deadline.
	JobTimeout time.Duration
	// Clock is the time Run drives at and failures are spaced from;
	// time.Now when nil.
	Clock func() time.Time
	// Logger gets failed jobs; slog.Default() when nil.
	Logger *slog.Logger

	// Next names the job rec needs at now, nil for none. It is called
	// with the driver's lock held, on the live record: it must only look
	// (no I/O, no call into the driver) and must not keep rec.
	Next func(rec *T, now time.Time) Job[T]
	// Keys lists the secondary keys Find matches rec by (an order hash,
	// an escrow execution id). The driver keeps the slice and indexes it
	// on Track and after every Merge; nil Keys: no index. A key claimed by
	// two records finds the one indexed last. Called with the lock held.
	Keys func(rec *T) []K
	// Merge folds into cur what from learned that cur's source does not
	// hold: when a job finishes (from: the job's copy; cur: the live
	// record, which a newer row may have replaced meanwhile) and when
	// Track replaces a record (from: the replaced record; cur: the new
	// row). nil: nothing is carried. Called with the lock held. One job at
	// most runs per record, so from's scratch is the latest there is.
	Merge func(cur, from *T)
	// Owned reports whether this host drives record id now: on a cluster,
	// only the owner of the record's partition acts for it (another node
	// took it over, and does). A record not owned is not tracked, and one
	// tracked is forgotten when it is next driven, not run (a job running
	// then finishes: it was started while owned). nil: every record is
	// this host's (a single node). Called with the lock held: it must only
	// look.
	Owned func(id string) bool
	// Stale reports that next is older than cur (the start-up scan racing
	// a commit), so Track keeps cur. Rows of equal age replace: one commit
	// may write two. nil: every Track replaces. Called with the lock held.
	Stale func(cur, next *T) bool
}

// check panics on a config without a bound or without Next, and fills
// the optional fields.
func (c *Config[K, T]) check() {
	switch {
	case c.MaxLive <= 0, c.MaxJobs <= 0, c.KickQueue <= 0:
		panic(fmt.Sprintf("jobs %q: MaxLive, MaxJobs and KickQueue must be positive (%d, %d, %d)", c.Name, c.MaxLive, c.MaxJobs, c.KickQueue))
	case c.Tick <= 0, c.RetryAfter <= 0, c.JobTimeout <= 0:
		panic(fmt.Sprintf("jobs %q: Tick, RetryAfter and JobTimeout must be positive (%s, %s, %s)", c.Name, c.Tick, c.RetryAfter, c.JobTimeout))
	case c.Next == nil:
		panic(fmt.Sprintf("jobs %q: Next is required", c.Name))
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}
