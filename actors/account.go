package actors

import (
	"fmt"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fxd-labs/fxd/domain"
)

// execMsg asks the actor to run a command; the result goes to done.
type execMsg struct {
	req  domain.Request
	done chan<- domain.Outcome
}

// askMsg asks the actor a read-only question answered from committed state.
type askMsg struct {
	q    domain.Query
	done chan<- domain.Reply
}

// durableMsg says the log made the record with this index durable. The log
// signals in index order and the actor enqueued in that order, so it always
// completes the oldest pending write.
type durableMsg struct{ index uint64 }

// pending is a reply waiting for durability: its own record (index > 0
// once enqueued) or, for a reply without events, the writes before it.
type pending struct {
	events  []domain.Event
	outcome domain.Outcome
	done    chan<- domain.Outcome
	write   bool
}

// accountActor hosts one account's state machine.
type accountActor struct {
	e         *Engine
	id        string
	entry     *entry
	spec      *domain.AccountState // everything handed to the log
	committed *domain.AccountState // only what is durable
	queue     []pending            // replies in arrival order
	lastIndex uint64               // last durable index of this account
}

// Receive is the actor's mailbox loop body.
func (a *accountActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		ctx.SetReceiveTimeout(a.e.cfg.PassivateAfter)
	case execMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		a.exec(ctx, m)
	case askMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		m.done <- a.committed.Ask(m.q)
	case durableMsg:
		a.durable(m.index)
	case probeMsg:
		m.done <- a.committed.Clone()
	case *actor.ReceiveTimeout:
		a.maybePassivate(ctx)
	}
}

func (a *accountActor) exec(ctx actor.Context, m execMsg) {
	env := a.e.env()
	if m.req.Idem != nil && domain.InFlight(a.spec, a.committed, m.req.Idem.Scope, env.Now) {
		a.reply(pending{outcome: domain.Outcome{Reply: domain.ErrInProgress().Reply()}, done: m.done})
		return
	}
	out := a.spec.Handle(m.req, env)
	if len(out.Events) == 0 {
		a.reply(pending{outcome: out, done: m.done})
		return
	}
	rec := &domain.Record{Entity: a.id, Events: out.Events}
	payload := domain.MarshalRecord(nil, rec)
	self := ctx.Self()
	root := ctx.ActorSystem().Root
	err := a.e.log.Enqueue(payload, func(index uint64) { root.Send(self, durableMsg{index}) })
	if err != nil {
		// Nothing was written and nothing applied: a clean refusal.
		a.reply(pending{outcome: domain.Outcome{Reply: domain.ErrUnavailable("log is busy: %v", err).Reply()}, done: m.done})
		return
	}
	for i := range out.Events {
		a.spec.Apply(&out.Events[i])
	}
	a.queue = append(a.queue, pending{events: out.Events, outcome: out, done: m.done, write: true})
}

// reply answers now if nothing is waiting for durability, else queues the
// answer behind the writes it may depend on.
func (a *accountActor) reply(p pending) {
	if len(a.queue) == 0 {
		p.done <- p.outcome
		return
	}
	a.queue = append(a.queue, p)
}

func (a *accountActor) durable(index uint64) {
	if len(a.queue) == 0 || !a.queue[0].write {
		panic(fmt.Sprintf("actors: account %s: durable index %d with no pending write", a.id, index))
	}
	if index <= a.lastIndex {
		panic(fmt.Sprintf("actors: account %s: durable index %d after %d", a.id, index, a.lastIndex))
	}
	p := a.queue[0]
	for i := range p.events {
		a.committed.Apply(&p.events[i])
		if k := p.events[i].Key; k != nil {
			a.e.dir.put(k)
		}
	}
	a.lastIndex = index
	p.done <- p.outcome
	n := 1
	for n < len(a.queue) && !a.queue[n].write {
		a.queue[n].done <- a.queue[n].outcome
		n++
	}
	clear(a.queue[:n])
	a.queue = a.queue[n:]
}

// maybePassivate stops an idle actor once the snapshot store holds all of
// its writes, so that loading it again from the store loses nothing.
func (a *accountActor) maybePassivate(ctx actor.Context) {
	if len(a.queue) > 0 || a.lastIndex > a.e.applied.Load() {
		return
	}
	if a.e.unregister(a.id, a.entry) {
		ctx.Stop(ctx.Self())
	}
}

// probeMsg hands a copy of the committed state to tests.
type probeMsg struct{ done chan<- *domain.AccountState }
