package actors

import (
	"errors"
	"fmt"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
)

// applyBatch bounds how many records go into one Pebble batch.
const applyBatch = 4096

// applyEvery is the least time between two applier batches.
const applyEvery = 2 * time.Millisecond

// sweepBatch bounds how many expired idempotency rows one sweep deletes.
const sweepBatch = 10_000

var errBatchFull = errors.New("batch full")

// catchUp applies every committed record of p after its applied index to
// the store and returns how many it applied.
func (p *part) catchUp() (int, error) {
	total := 0
	for {
		n, err := p.applyOnce()
		if err != nil {
			return total, err
		}
		total += n
		if n == 0 {
			return total, nil
		}
	}
}

// applyOnce applies at most applyBatch committed records: from the feed
// when it holds the next one (the steady state), else read back from the
// log (recovery, or after the feed overflowed).
func (p *part) applyOnce() (int, error) {
	from := p.applied.Load()
	last := p.log().LastIndex()
	if last <= from {
		return 0, nil
	}
	recs := make([]snapshot.Applied, 0, min(applyBatch, int(last-from)))
	fed, ok := p.feed.from(from+1, applyBatch, p.fedScratch[:0])
	p.fedScratch = fed
	defer clear(fed) // drop payload references until the next call
	var err error
	if ok {
		if p.readBack {
			// Caught up: the segments the log cached for reading back are
			// not needed again (up to two whole segments of heap).
			p.dropReadCache()
			p.readBack = false
		}
		for i, payload := range fed {
			if recs, err = appendDecoded(recs, from+1+uint64(i), payload); err != nil {
				return 0, logReadError{err}
			}
		}
	} else {
		p.readBack = true
		err = p.log().Scan(from+1, func(index uint64, payload []byte) error {
			if len(recs) == applyBatch {
				return errBatchFull
			}
			recs, err = appendDecoded(recs, index, payload)
			return err
		})
		if err != nil && !errors.Is(err, errBatchFull) {
			return 0, logReadError{err}
		}
	}
	if err := p.e.store.ApplyPart(p.n, from, recs); err != nil {
		return 0, err
	}
	p.followKeys(recs)
	if len(recs) > 0 {
		upTo := recs[len(recs)-1].Index
		p.applied.Store(upTo)
		p.feed.release(upTo + 1)
	}
	return len(recs), nil
}

// followKeys puts the key rows of records applied to a part this engine
// does not own (Config.Handover: another node writes it) in the directory,
// in log order, so the directory holds every partition's keys as of what
// the store holds and a later Own need not read them from the store (a
// scan of every key row: about a second per million keys, for each of the
// partitions a failover takes up, one after another). An owned part's key
// rows are put by its account actors as they commit, before the applier
// sees them; putting them again here, behind the actors, could show a
// revoked key as live until the applier reached the revocation.
func (p *part) followKeys(recs []snapshot.Applied) {
	if !p.e.cfg.Handover || p.owned.Load() {
		return
	}
	for _, r := range recs {
		for i := range r.Record.Events {
			if k := r.Record.Events[i].Key; k != nil {
				p.e.dir.put(k)
			}
		}
	}
}

// appendDecoded decodes the record at index and appends it to recs.
func appendDecoded(recs []snapshot.Applied, index uint64, payload []byte) ([]snapshot.Applied, error) {
	r, err := domain.UnmarshalRecord(payload)
	if err != nil {
		return recs, fmt.Errorf("actors: log index %d: %w", index, err)
	}
	return append(recs, snapshot.Applied{Index: index, Record: &r}), nil
}

// applierRun is a part's applier goroutine: closing stop ends it (after a
// last catch-up), and done is closed once it has.
type applierRun struct {
	stop, done chan struct{}
}

// startApplier starts p's applier goroutine.
func (p *part) startApplier() {
	p.applier = applierRun{stop: make(chan struct{}), done: make(chan struct{})}
	p.e.wg.Add(1)
	go p.runApplier(p.applier)
}

// stopApplier ends p's applier goroutine, if one runs, and waits for it.
func (p *part) stopApplier() {
	if p.applier.stop == nil {
		return
	}
	close(p.applier.stop)
	<-p.applier.done
	p.applier = applierRun{}
}

// runApplier tails p's log into the store until the engine closes or run
// is stopped. Every SyncEvery it syncs the store and truncates the log in
// front of what the store now holds durably; part 0 also sweeps expired
// idempotency rows. Any storage error ends the process.
func (p *part) runApplier(run applierRun) {
	e := p.e
	defer e.wg.Done()
	defer close(run.done)
	tick := time.NewTicker(e.cfg.SyncEvery)
	defer tick.Stop()
	var last time.Time
	for {
		select {
		case <-e.stop:
			p.catchUpOrFail()
			return
		case <-run.stop:
			p.catchUpOrFail()
			return
		case <-p.log().Committed():
			// Coalesce: one Pebble batch per applyEvery at most, not one
			// per group commit; under load that is a few large batches
			// instead of many small ones.
			if wait := applyEvery - time.Since(last); wait > 0 {
				time.Sleep(wait)
			}
			last = time.Now()
			p.catchUpOrFail()
		case <-tick.C:
			if err := p.compact(); err != nil {
				e.fatal(err)
			}
			if e.cfg.Handover {
				p.catchUpOrFail() // again after a stream read that failed
			}
		}
	}
}

// logReadError is a failure to read or decode the log, as opposed to the
// store's failure to apply.
type logReadError struct{ err error }

func (e logReadError) Error() string { return e.err.Error() }
func (e logReadError) Unwrap() error { return e.err }

// catchUpOrFail catches p up. A failure ends the process (storage), except
// a failure to read a partition stream under Config.Handover: a stream
// being read while its leadership moves can answer "missing" for a moment,
// and one node's process is no remedy for a stream's damage. It is logged
// and tried again at the next commit signal or tick (and Own tries at
// once); the part's store stays where it is meanwhile.
func (p *part) catchUpOrFail() {
	_, err := p.catchUp()
	var lre logReadError
	switch {
	case err == nil:
	case p.e.cfg.Handover && errors.As(err, &lre):
		p.e.cfg.Logger.Warn("partition log not applied; trying again", "part", p.n, "applied", p.applied.Load(), "err", err.Error())
	default:
		p.e.fatal(err)
	}
}

// compact makes the store durable up to p's applied index and drops log
// segments wholly in front of it.
func (p *part) compact() error {
	e := p.e
	applied := p.applied.Load()
	if err := e.store.Sync(); err != nil {
		return err
	}
	// A cluster stream is the other replicas' source too (a node catching
	// up, a new owner with an older store): one engine's store is no
	// reason to drop it. Its retention is the cluster's (DECISIONS.md).
	if p.local != nil {
		// A running backup may still need records after its checkpoint (backup.go).
		before := e.backup.truncateBefore(applied)
		if err := p.log().TruncateFront(before); err != nil {
			return fmt.Errorf("actors: truncate log before %d: %w", before, err)
		}
	}
	if p.n != 0 {
		return nil // one sweeper is enough: the rows are the store's
	}
	if _, err := e.store.SweepIdem(e.cfg.Clock(), sweepBatch); err != nil {
		return err
	}
	return nil
}

// Backup writes a checkpoint of the store under <dataDir>/snapshots.
func (e *Engine) Backup(now time.Time) (snapshot.Backup, error) {
	return e.store.Backup(e.cfg.DataDir, now)
}
