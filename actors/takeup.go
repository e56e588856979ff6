package actors

import (
	"log/slog"
	"sync"
	"time"
)

// takeUpRetry is how often a TakeUps loop looks again at parts gained but
// not yet running (Own tells its ownership hooks just before the part's
// entities run) or whose resume failed.
const takeUpRetry = 200 * time.Millisecond

// TakeUp is what a desk does as its node takes parts up and gives them up
// (a cluster; a single node's one part is owned from the start, and the
// desk's Start resumes everything).
type TakeUp struct {
	// Name labels the log lines ("fx desk").
	Name string
	// Index, when set, runs as part is taken up, before its entities run:
	// it loads what the desk must know of the part before the part's
	// first commit (the webhook endpoints an event fans out to). It runs
	// under the part's handover lock: it may read the store, nothing more.
	Index func(part int)
	// LetGo, when set, runs as part is given up (its entities stopped).
	// The drivers let go of the part's records themselves (jobs.Config
	// Owned); LetGo drops what else the desk holds of it.
	LetGo func(part int)
	// Resume resumes the records of parts once they run: the live rows the
	// store holds for them. An error keeps them for the next round.
	Resume func(parts map[int]bool) error
	Logger *slog.Logger
}

// TakeUps follows this engine's ownership for one desk: it is the desk's
// ownership hook, and Run resumes the parts taken up, off the handover
// lock, in batches (a node starting takes a third of the partitions up at
// once: one scan of the store resumes them all).
type TakeUps struct {
	e    *Engine
	t    TakeUp
	wake chan struct{}

	mu     sync.Mutex
	gained map[int]bool
}

// FollowOwnership adds t's ownership hook to the engine (before Recover)
// and returns the loop that resumes the parts taken up; run it with Run.
func (e *Engine) FollowOwnership(t TakeUp) *TakeUps {
	if t.Logger == nil {
		t.Logger = e.cfg.Logger
	}
	f := &TakeUps{e: e, t: t, wake: make(chan struct{}, 1), gained: map[int]bool{}}
	e.AddOwnership(f.ownership)
	return f
}

func (f *TakeUps) ownership(part int, owned bool) {
	if !owned {
		f.mu.Lock()
		delete(f.gained, part)
		f.mu.Unlock()
		if f.t.LetGo != nil {
			f.t.LetGo(part)
		}
		return
	}
	if f.t.Index != nil {
		f.t.Index(part)
	}
	f.mu.Lock()
	f.gained[part] = true
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// Run resumes the parts taken up until stop is closed. On a single node
// (no handovers: its one part is owned from the start) it only waits.
func (f *TakeUps) Run(stop <-chan struct{}) {
	if !f.e.cfg.Handover {
		<-stop
		return
	}
	t := time.NewTicker(takeUpRetry)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-f.wake:
		case <-t.C:
		}
		parts := f.running()
		if len(parts) == 0 {
			continue
		}
		if err := f.t.Resume(parts); err != nil {
			f.t.Logger.Error(f.t.Name+": records of partitions taken up not resumed; retrying", "parts", len(parts), "err", err.Error())
			f.mu.Lock()
			for p := range parts {
				if f.e.OwnsPart(p) {
					f.gained[p] = true
				}
			}
			f.mu.Unlock()
			continue
		}
		f.t.Logger.Info(f.t.Name+": records of partitions taken up resumed", "parts", len(parts))
	}
}

// running takes out of gained the parts that run now.
func (f *TakeUps) running() map[int]bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	parts := map[int]bool{}
	for p := range f.gained {
		if f.e.OwnsPart(p) {
			parts[p] = true
			delete(f.gained, p)
		}
	}
	return parts
}

// In reports whether id's part is one of parts and this engine runs it:
// the filter of a Resume's scan of the store.
func (f *TakeUps) In(parts map[int]bool, id string) bool {
	return parts[f.e.PartOf(id)] && f.e.Owns(id)
}
