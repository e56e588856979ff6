package actors

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/internal/histogram"
	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/wal"
)

// part is one log and the applier's progress through it. A single node has
// one part, the local write-ahead log, holding the records of every
// partition; an engine on a cluster's streams has one part per stream
// (Config.Partitions), and an entity's records go to the part of its id's
// partition (ids carry it), so parts touch disjoint rows and are applied
// independently, each by its own goroutine. Service facts (PutMeta) and
// backups use part 0.
type part struct {
	e  *Engine
	n  int                    // index in Engine.parts
	lg atomic.Pointer[logBox] // the open log: replaced only by Own (handover.go)
	// local is the log when it is the local write-ahead log, else nil: its
	// read cache, statistics and the backup's copy exist only there.
	local    *wal.Log
	opts     partlog.Options // what the log was opened with, to open it again
	owned    atomic.Bool     // entities of this part may run here (handover.go)
	opened   atomic.Uint64   // how many times the log was opened: which log a failure is of
	handover sync.Mutex      // one Own or Disown at a time
	closed   bool            // the engine is closing: no more handovers (under handover)
	// unopened: the last reopen failed, the log is closed; refollowing: a
	// goroutine reopens it to follow (handover.go refollow). Both change
	// under handover.
	unopened, refollowing bool

	applier applierRun    // the running applier goroutine, if any
	applied atomic.Uint64 // last log index whose rows are in the store
	// feed hands durable records to the applier; fedScratch is the
	// applier's reusable view of them (applier goroutine only).
	feed       *feed
	fedScratch [][]byte
	readBack   bool // the applier read the log back since it last caught up (applier goroutine only)
}

// logBox holds a part's log behind an atomic pointer, with the batch
// sizes of the logs it replaced (reopen), so that the part's counts only
// grow: both change in one swap.
type logBox struct {
	partlog.PartitionLog
	retired histogram.Snapshot
}

// batchSizes is the histogram of entries per durable batch of every log
// the part has had since start.
func (b *logBox) batchSizes() histogram.Snapshot { return b.retired.Add(b.BatchSizes()) }

// log is the part's open log.
func (p *part) log() partlog.PartitionLog { return p.lg.Load().PartitionLog }

// partOf is the part that holds entity id's records.
func (e *Engine) partOf(id string) *part {
	if len(e.parts) == 1 {
		return e.parts[0]
	}
	return e.parts[ids.PartitionOf(id)%len(e.parts)]
}

// metaPart holds the records of no entity: service facts, backups.
func (e *Engine) metaPart() *part { return e.parts[0] }

// openConcurrency is how many logs openParts opens at once. Opening a
// partition stream is a few round trips to JetStream (and its creation
// a proposal to the meta leader): one after another, a new cluster
// node's 64 took 12 s.
const openConcurrency = 8

// openParts opens the engine's logs: cfg.OpenLog's, one per part, up to
// openConcurrency at a time, or the one local log (repairing a torn
// tail). On an error it closes what it opened.
func openParts(e *Engine, cfg Config, fx *fatalExit) error {
	n := max(cfg.Partitions, 1)
	if n > ids.Partitions || n > 1 && cfg.OpenLog == nil {
		return fmt.Errorf("actors: %d partition logs: want 1 (the local log) or up to %d streams", n, ids.Partitions)
	}
	if cfg.Handover && cfg.OpenLog == nil {
		return fmt.Errorf("actors: handing partitions over needs their streams (Config.OpenLog)")
	}
	parts := make([]*part, n)
	for i := range parts {
		parts[i] = newPart(e, cfg, fx, i)
	}
	errs := make([]error, n)
	slots := make(chan struct{}, openConcurrency)
	var wg sync.WaitGroup
	var failed atomic.Bool
	for i, p := range parts {
		slots <- struct{}{}
		if failed.Load() {
			// Open fails anyway: no more waits (a node's start retries
			// each stream for up to 2 minutes).
			<-slots
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			log, local, err := openLog(cfg, i, p.openOptions(!cfg.Handover))
			if err != nil {
				errs[i] = err
				failed.Store(true)
				return
			}
			p.lg.Store(&logBox{PartitionLog: log})
			p.local = local
		}()
	}
	wg.Wait()
	if err := firstOf(errs); err != nil {
		_ = closeParts(slices.DeleteFunc(parts, func(p *part) bool { return p.lg.Load() == nil }))
		return err
	}
	e.parts = parts
	return nil
}

// firstOf is the first error of errs, saying how many there are.
func firstOf(errs []error) error {
	failed, first := 0, error(nil)
	for _, err := range errs {
		if err != nil {
			if failed++; first == nil {
				first = err
			}
		}
	}
	if failed > 1 {
		return fmt.Errorf("%w (and %d more logs did not open)", first, failed-1)
	}
	return first
}

// newPart is part i of e before its log is opened.
func newPart(e *Engine, cfg Config, fx *fatalExit, i int) *part {
	p := &part{e: e, n: i, feed: newFeed(cfg.feedSize)}
	p.owned.Store(!cfg.Handover)
	// The engine's applier is the log's one tailing reader; a failed
	// log ends the process with the one line, then exit 3 (fatal.go).
	opts := partlog.Options{OnDurable: p.feed.push, OnFatal: cfg.WAL.OnFatal, Logf: cfg.WAL.Logf}
	if opts.OnFatal == nil {
		opts.OnFatal = fx.fail
	}
	if opts.Logf == nil {
		opts.Logf = walLogf(cfg.Logger)
	}
	p.opts = opts
	return p
}

// closeParts closes the logs of parts, returning the first error.
func closeParts(parts []*part) error {
	var first error
	for _, p := range parts {
		if err := p.log().Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// dropReadCache frees what the local log cached for reading back.
func (p *part) dropReadCache() {
	if p.local != nil {
		p.local.DropReadCache()
	}
}
