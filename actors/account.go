package actors

import (
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

// accountActor hosts one account's state machine.
type accountActor struct {
	e         *Engine
	id        string
	entry     *entry
	spec      *domain.AccountState // everything handed to the log
	committed *domain.AccountState // only what is durable
	replies   replyQueue
}

// Receive is the actor's mailbox loop body.
func (a *accountActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.replies.entity = a.id
		ctx.SetReceiveTimeout(a.e.cfg.PassivateAfter)
	case execMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		a.exec(ctx, m)
	case askMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		if _, ok := m.q.(domain.GetAccount); ok {
			if a.entry.info.Load() == nil {
				a.publishInfo() // later reads of GET /account skip the mailbox
			}
			m.done <- a.entry.info.Load().View
			break
		}
		m.done <- a.committed.Ask(m.q)
	case durableMsg:
		a.replies.durable(m.index, a.commit)
	case accountInfoMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		if a.entry.info.Load() == nil {
			a.publishInfo()
		}
		m.done <- *a.entry.info.Load()
	case probeMsg:
		m.done <- a.committed.Clone()
	case *actor.ReceiveTimeout:
		a.e.maybePassivate(ctx, a.id, a.entry, &a.replies)
	}
}

func (a *accountActor) exec(ctx actor.Context, m execMsg) {
	env := a.e.env()
	inFlight := m.req.Idem != nil && domain.InFlight(a.spec, a.committed, m.req.Idem.Scope, env.Now)
	a.replies.run(ctx, a.e, inFlight, func() domain.Outcome { return a.spec.Handle(m.req, env) }, a.spec.Apply, m.done)
}

// commit applies durable events to the committed state, publishes new
// key rows to the directory and, once someone asked for it, a new
// AccountInfo view when the profile or a wallet changed.
func (a *accountActor) commit(events []domain.Event) {
	publish := false
	for i := range events {
		a.committed.Apply(&events[i])
		if k := events[i].Key; k != nil {
			a.e.dir.put(k)
		}
		switch events[i].Kind {
		case domain.EvAccountPut, domain.EvWalletPut, domain.EvWalletDeleted:
			publish = true
		}
	}
	if publish && a.entry.info.Load() != nil {
		a.publishInfo()
	}
}

// maybePassivate stops an idle actor once the snapshot store holds all of
// its writes and no message is on its way to it. Otherwise it arms the
// idle timer again: protoactor's receive timeout fires once and is then
// cancelled, so without this an actor busy at that moment would stay in
// memory for good.
func (e *Engine) maybePassivate(ctx actor.Context, id string, en *entry, q *replyQueue) {
	if q.idle(e) && e.unregister(id, en) {
		ctx.Stop(ctx.Self())
		return
	}
	ctx.SetReceiveTimeout(e.cfg.PassivateAfter)
}

// probeMsg hands a copy of the committed state to tests.
type probeMsg struct{ done chan<- *domain.AccountState }
