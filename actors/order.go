package actors

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fxd-labs/fxd/domain"
)

// ErrNoOrder is returned for an order id the store holds nothing for.
var ErrNoOrder = errors.New("actors: no such order")

// orderExecMsg asks an order actor to run a command.
type orderExecMsg struct {
	req  domain.OrderRequest
	done chan<- domain.Outcome
}

// orderGetMsg asks an order actor for its committed row.
type orderGetMsg struct{ done chan<- *domain.Order }

// orderActor hosts one FX order's state machine (DESIGN.md: one actor per
// order). After each durable transition it hands the committed row to the
// engine's OnOrder hook, which drives the chain side (relay, watch, settle,
// refund, expire) outside the actor.
type orderActor struct {
	e         *Engine
	id        string
	entry     *entry
	spec      *domain.OrderState
	committed *domain.OrderState
	replies   replyQueue
}

func (a *orderActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.replies.entity = a.id
		ctx.SetReceiveTimeout(a.e.cfg.PassivateAfter)
	case orderExecMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		a.exec(ctx, m)
	case orderGetMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		m.done <- a.committed.Order
	case durableMsg:
		a.replies.durable(m.index, a.commit)
	case *actor.ReceiveTimeout:
		a.e.maybePassivate(ctx, a.id, a.entry, &a.replies)
	}
}

func (a *orderActor) exec(ctx actor.Context, m orderExecMsg) {
	env := a.e.env()
	inFlight := m.req.Idem != nil && domain.InFlightOrder(a.spec, a.committed, m.req.Idem.Scope, env)
	a.replies.run(ctx, a.e, inFlight, func() domain.Outcome { return a.spec.Handle(m.req, env) }, a.spec.ApplyEvent, m.done)
}

func (a *orderActor) commit(events []domain.Event) {
	before := a.committed.Order
	for i := range events {
		a.committed.ApplyEvent(&events[i])
	}
	if o := a.committed.Order; o != before && a.e.cfg.OnOrder != nil {
		a.e.cfg.OnOrder(o)
	}
}

// activateOrder loads an order entity. Without create, an id the store
// holds nothing for is ErrNoOrder and no actor is spawned, so probing
// random ids costs no memory.
func (e *Engine) activateOrder(id string, create bool) (*entry, error) {
	st, ok, err := e.store.LoadOrder(id)
	if err != nil {
		e.fatal(err)
	}
	if !ok && !create {
		return nil, ErrNoOrder
	}
	en := &entry{}
	a := &orderActor{e: e, id: id, entry: en, spec: st, committed: st.Clone()}
	en.pid = e.system.Root.Spawn(entityProps(a))
	return en, nil
}

// OrderExec runs a command on order id and waits for its durable reply.
// create lets it reach an order that does not exist yet (accept).
func (e *Engine) OrderExec(ctx context.Context, id string, req domain.OrderRequest, create bool) (domain.Outcome, error) {
	done := make(chan domain.Outcome, 1)
	if err := e.sendTo(id, orderExecMsg{req: req, done: done}, func() (*entry, error) { return e.activateOrder(id, create) }); err != nil {
		return domain.Outcome{}, err
	}
	return await(ctx, id, done)
}

// Order returns the committed row of order id, or ErrNoOrder.
func (e *Engine) Order(ctx context.Context, id string) (*domain.Order, error) {
	done := make(chan *domain.Order, 1)
	if err := e.sendTo(id, orderGetMsg{done: done}, func() (*entry, error) { return e.activateOrder(id, false) }); err != nil {
		return nil, err
	}
	o, err := await(ctx, id, done)
	if err == nil && o == nil {
		err = ErrNoOrder // an entity holding only stored answers
	}
	return o, err
}

// AccountOrders lists an account's orders, newest first, once the store
// holds every write acknowledged so far (read-your-writes for lists).
func (e *Engine) AccountOrders(ctx context.Context, acct, startingAfter string, limit int) ([]*domain.Order, error) {
	if err := e.waitApplied(ctx, e.log.LastIndex()); err != nil {
		return nil, err
	}
	return e.store.AccountOrders(acct, startingAfter, limit)
}

// LiveOrders calls fn for every order not yet terminal (at start: the
// orders whose chain side must be resumed), at most max.
func (e *Engine) LiveOrders(max int, fn func(*domain.Order) error) error {
	return e.store.LiveOrders(max, fn)
}

// waitApplied waits until the snapshot store holds index.
func (e *Engine) waitApplied(ctx context.Context, index uint64) error {
	for e.applied.Load() < index {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Microsecond):
		}
	}
	return nil
}
