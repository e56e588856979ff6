package actors

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/partlog"
)

// ErrNotOwner is returned for an entity of a part this engine does not own
// (Config.Handover: a cluster node that does not lead the partition). The
// caller answers 503 unavailable; routing sends requests to the owner.
var ErrNotOwner = errors.New("actors: partition not owned by this node")

// errHandoverClosed refuses Own on an engine that is closing.
var errHandoverClosed = errors.New("actors: the engine is closing")

// Own makes this engine the writer of part n (a cluster node became the
// leader of its stream): it opens the log again, so the fence starts from
// the stream's true last message rather than from what this engine last
// wrote, catches the store up with every record other owners wrote since
// (and the key directory with their keys: followKeys), and only then lets
// the part's entities run.
// Owning an owned part does nothing. On an error the part stays unowned
// and Own may be called again.
func (e *Engine) Own(n int) error {
	if !e.ready.Load() {
		return ErrNotReady
	}
	p := e.parts[n]
	p.handover.Lock()
	defer p.handover.Unlock()
	if p.closed {
		return errHandoverClosed
	}
	if p.owned.Load() {
		return nil
	}
	start := time.Now()
	// The catch-up puts the keys other owners made or changed in the
	// directory as it applies them (followKeys).
	from, replayed, err := p.reopen(true)
	if err != nil {
		return fmt.Errorf("actors: own part %d: %w", n, err)
	}
	// Told before the entities run: a desk's index of the part (the
	// webhook endpoints an event fans out to) is whole by their first
	// commit.
	e.tellOwnership(n, true)
	p.owned.Store(true)
	e.taken.Add(1)
	e.cfg.Logger.Info("partition owned", "part", n, "from_index", from, "replayed", replayed, "last_index", p.log().LastIndex(),
		"took_ms", time.Since(start).Milliseconds())
	return nil
}

// Disown stops part n's entities here (another node leads its stream):
// their actors stop, what waits on them gets its deadline (a write whose
// append was under way may still be durable; the client's retry with its
// Idempotency-Key finds it at the new owner), and new commands get
// ErrNotOwner. The log is opened again to follow the new owner's appends,
// so the store stays warm for the next Own.
func (e *Engine) Disown(n int) { e.disown(n, 0) }

// disown is Disown; with gen set, only while the part's log is still the
// one opened gen-th (a failure of an older log changes nothing).
func (e *Engine) disown(n int, gen uint64) {
	p := e.parts[n]
	p.handover.Lock()
	defer p.handover.Unlock()
	if p.closed || gen != 0 && p.opened.Load() != gen || !p.owned.Swap(false) {
		return
	}
	stopped := e.stopPart(p)
	e.given.Add(1)
	e.cfg.Logger.Info("partition given up", "part", n, "stopped_actors", stopped)
	e.tellOwnership(n, false)
	if gen != 0 && e.cfg.GivenUp != nil {
		// Under the lock: an Own the owner calls on hearing this waits
		// until the part is unowned, so it is not a no-op.
		e.cfg.GivenUp(n)
	}
	if _, _, err := p.reopen(false); err != nil {
		// refollow tries again; until then the store stays where it is.
		e.cfg.Logger.Warn("partition log: cannot follow", "part", n, "err", err)
	}
}

// reopen replaces p's log with a new one, as its writer (owner) or
// following the writer (Options.Follow), and catches the store up with it.
// It returns where the store was and how many records it applied. The
// applier is stopped meanwhile; on an error it runs on what p has (a
// closed log applies nothing), until the next reopen.
func (p *part) reopen(owner bool) (uint64, int, error) {
	t := newHandoverTimes()
	defer t.logIfSlow(p, owner)
	p.stopApplier()
	defer p.startApplier()
	t.mark(&t.stopApplier)
	if err := p.log().Close(); err != nil {
		p.e.cfg.Logger.Info("partition log closed with an error", "part", p.n, "err", err)
	}
	t.mark(&t.close)
	log, _, err := openLog(p.e.cfg, p.n, p.openOptions(owner))
	t.mark(&t.open)
	if err != nil {
		p.unopened = true
		p.refollow()
		return 0, 0, err
	}
	p.unopened = false
	p.lg.Store(&logBox{PartitionLog: log, retired: p.lg.Load().batchSizes()})
	// What the feed holds came from the old log (the last catch-up may
	// have failed to apply it); the applier reads whatever it lacks back.
	p.feed.reset()
	defer t.mark(&t.catchUp)
	return p.recover()
}

// slowHandover is how long a reopen may take before it is logged with the
// time of each of its steps. The handovers of all partitions run one after
// another on the Router's goroutine, so one slow step holds up every other
// partition's take-up; the log says which step it was.
const slowHandover = time.Second

// handoverTimes are the steps of one reopen.
type handoverTimes struct {
	start, last                       time.Time
	stopApplier, close, open, catchUp time.Duration
}

func newHandoverTimes() *handoverTimes {
	now := time.Now()
	return &handoverTimes{start: now, last: now}
}

// mark sets *step to the time since the previous mark.
func (t *handoverTimes) mark(step *time.Duration) {
	now := time.Now()
	*step, t.last = now.Sub(t.last), now
}

func (t *handoverTimes) logIfSlow(p *part, owner bool) {
	if took := time.Since(t.start); took >= slowHandover {
		p.e.cfg.Logger.Warn("partition handover slow", "part", p.n, "owner", owner, "took_ms", took.Milliseconds(),
			"stop_applier_ms", t.stopApplier.Milliseconds(), "close_ms", t.close.Milliseconds(),
			"open_ms", t.open.Milliseconds(), "catch_up_ms", t.catchUp.Milliseconds())
	}
}

// refollowEvery is how often a part whose log could not be opened again
// tries to open it to follow its stream. Not sooner: after a failed Own
// the node's next leadership poll tries to own the part again, and a
// follower's open meanwhile would only hold the handover lock.
const refollowEvery = 5 * time.Second

// refollow starts, unless one runs, the goroutine that opens p's log again
// to follow its stream until it is open. A handover opens a log once
// (Config.OpenLog may give up fast, so that one stream that cannot be
// read yet does not hold up the handovers of the others), and a part left
// with its log closed would not follow its stream: its store would fall
// behind, and a Disown does not come for a part that was never taken up.
// It stops when the log is open (a later Own or Disown opened it), the
// part is owned, or the engine closes. Called under p.handover.
func (p *part) refollow() {
	if p.refollowing || !p.e.cfg.Handover {
		return
	}
	p.refollowing = true
	go func() {
		for attempts := 1; ; attempts++ {
			time.Sleep(refollowEvery)
			p.handover.Lock()
			if p.closed || !p.unopened || p.owned.Load() {
				p.refollowing = false
				p.handover.Unlock()
				return
			}
			_, _, err := p.reopen(false) // its failure calls refollow: a no-op while this runs
			if err == nil {
				p.refollowing = false
			}
			p.handover.Unlock()
			if err == nil {
				p.e.cfg.Logger.Info("partition log open again, following", "part", p.n, "attempts", attempts)
				return
			}
			if attempts%10 == 0 {
				p.e.cfg.Logger.Warn("partition log: still cannot follow", "part", p.n, "attempts", attempts, "err", err)
			}
		}
	}()
}

// openOptions are the options of the part's next log. Under
// Config.Handover an owner's log failing gives the part up (lost), for
// that log only, and a part not owned follows its stream.
func (p *part) openOptions(owner bool) partlog.Options {
	opts := p.opts
	if p.e.cfg.Handover {
		gen := p.opened.Add(1)
		opts.OnFatal = func(err error) { p.lost(gen, err) }
		opts.Follow = !owner
	}
	return opts
}

// lost is the OnFatal of a part's log under Config.Handover: its append
// was fenced (a new owner wrote) or its outcome is unknown. Being fenced
// is no disk failure: the part is given up, not the process. A failure of
// a log Own has since replaced changes nothing. It runs on the log's
// writer goroutine, which must not wait on the actors it stops.
func (p *part) lost(gen uint64, err error) {
	p.e.cfg.Logger.Warn("partition log failed; an owned partition is given up", "part", p.n, "err", err)
	go p.e.disown(p.n, gen)
}

// AddOwnership adds a function called when this engine takes part n up
// (owned: the part's store has caught up with its log, and its entities
// run right after the call returns) or gives it up (not owned: its
// entities have stopped). The desks use it to load their index of the
// part and resume, or let go of, the records they drive (a single node's
// one part is owned from Open on and is never reported). Calls for one
// part come in order, under its handover lock: a function may read the
// store but must not wait on an entity, nor call Own or Disown. Call it
// before Recover.
func (e *Engine) AddOwnership(fn func(part int, owned bool)) {
	if e.ready.Load() {
		panic("actors: AddOwnership after Recover")
	}
	e.ownership = append(e.ownership, fn)
}

func (e *Engine) tellOwnership(n int, owned bool) {
	for _, fn := range e.ownership {
		fn(n, owned)
	}
}

// Owns reports whether this engine runs the entity id's part now (always
// on a single node). A desk asks it before driving a record, so that only
// the partition's owner acts for it.
func (e *Engine) Owns(id string) bool { return e.partOf(id).owned.Load() }

// OwnsPart reports whether this engine runs part n's entities now.
func (e *Engine) OwnsPart(n int) bool { return e.parts[n].owned.Load() }

// PartOf is the index of the part holding entity id's records (0 on a
// single node).
func (e *Engine) PartOf(id string) int { return e.partOf(id).n }

// closeHandovers ends handing parts over: an Own or Disown under way
// finishes first, and none starts after (Close then stops the appliers
// and closes the logs without one being reopened meanwhile).
func (e *Engine) closeHandovers() {
	for _, p := range e.parts {
		p.handover.Lock()
		p.closed = true
		p.handover.Unlock()
	}
}

// stopPart removes every active entity of p from the registry and stops
// its actor; it returns how many. sendTo reads the owned flag under the
// same shard lock, so no entity of p is activated after its shard is swept.
func (e *Engine) stopPart(p *part) int {
	stopped := 0
	for i := range e.reg.shards {
		sh := &e.reg.shards[i]
		sh.mu.Lock()
		for id, en := range sh.m {
			if e.partOf(id) != p {
				continue
			}
			delete(sh.m, id)
			e.reg.add(-1)
			atomic.StoreInt64(&en.inflight, 0)
			e.system.Root.Stop(en.pid)
			stopped++
		}
		sh.mu.Unlock()
	}
	return stopped
}

// PartStatus is one part as this engine sees it: whether it runs the
// part's entities, and how far its store is behind the part's log.
type PartStatus struct {
	Part    int    `json:"partition"`
	Owned   bool   `json:"owned"`
	Applied uint64 `json:"applied_index"`
	Last    uint64 `json:"last_index"`
}

// Parts reports every part (one on a single node).
func (e *Engine) Parts() []PartStatus {
	out := make([]PartStatus, len(e.parts))
	for i, p := range e.parts {
		out[i] = PartStatus{Part: i, Owned: p.owned.Load(), Applied: p.applied.Load(), Last: p.log().LastIndex()}
	}
	return out
}

// OwnedParts is how many parts this engine runs entities of (1 on a
// single node).
func (e *Engine) OwnedParts() int {
	n := 0
	for _, p := range e.parts {
		if p.owned.Load() {
			n++
		}
	}
	return n
}

// Handovers counts the parts this engine took up (Own) and gave up
// (Disown, a fenced log) since it opened.
func (e *Engine) Handovers() (taken, given uint64) {
	return e.taken.Load(), e.given.Load()
}
