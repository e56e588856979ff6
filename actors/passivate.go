package actors

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Passivation: an entity actor idle for Config.PassivateAfter stops; its
// state is in the store, and the next message for it activates it again.
// One sweeper per engine finds the idle actors, instead of a timer per
// actor: protoactor's receive timeout writes the actor's context from its
// timer goroutine while the mailbox reads it (a data race the race
// detector reports, in the library), and a timer per actor is memory an
// idle actor need not hold.
//
// Idleness is counted in sweeper ticks: the engine's epoch advances once a
// tick, and an actor stamps the epoch into its entry with every message.

// passivateMsg asks an actor the sweeper found idle to stop if it still
// is. It is not counted in the entry's inflight.
type passivateMsg struct{}

// sweepTick is the sweeper's period for a PassivateAfter of d: an actor
// passivates after d to d + d/8 of idleness, at most a second late.
func sweepTick(d time.Duration) time.Duration {
	return min(max(d/8, time.Millisecond), time.Second)
}

// startSweeper starts the engine's sweeper goroutine; it ends with the
// engine.
func (e *Engine) startSweeper() {
	tick := sweepTick(e.cfg.PassivateAfter)
	idleTicks := int64((e.cfg.PassivateAfter + tick - 1) / tick)
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-e.stop:
				return
			case <-t.C:
			}
			e.sweep(e.epoch.Add(1), idleTicks)
		}
	}()
}

// sweep asks every actor whose last message is idleTicks or more before
// epoch now to passivate, and stamps it, so that one still busy (a
// message on its way, a write not yet applied) is asked again only after
// another full period. It holds one shard's lock at a time, and sends
// after letting go of it: the entity dispatcher may run the actor on the
// sender's goroutine, and passivating takes the shard's lock.
func (e *Engine) sweep(now, idleTicks int64) {
	var idle []*actor.PID
	for i := range e.reg.shards {
		sh := &e.reg.shards[i]
		idle = idle[:0]
		sh.mu.Lock()
		for _, en := range sh.m {
			if now-en.touched.Load() >= idleTicks {
				en.touched.Store(now)
				idle = append(idle, en.pid)
			}
		}
		sh.mu.Unlock()
		for _, pid := range idle {
			e.system.Root.Send(pid, passivateMsg{})
		}
	}
}

// touch stamps en with the engine's epoch: the actor had a message now.
func (e *Engine) touch(en *entry) { en.touched.Store(e.epoch.Load()) }

// maybePassivate stops an idle actor once the snapshot store holds all of
// its writes and no message is on its way to it; otherwise the sweeper
// asks again a period later.
func (e *Engine) maybePassivate(ctx actor.Context, id string, en *entry, q *replyQueue) {
	if q.idle(e) && e.unregister(id, en) {
		ctx.Stop(ctx.Self())
	}
}
