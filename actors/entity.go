package actors

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fxd-labs/fxd/domain"
)

// ErrNoAccount is returned for an account id that does not exist.
var ErrNoAccount = errors.New("actors: no such account")

// ErrNoEntity is returned for an entity (order, transfer, payment link) the
// store holds nothing for.
var ErrNoEntity = errors.New("actors: no such entity")

// ErrNoOrder is ErrNoEntity under the name FX callers know.
var ErrNoOrder = ErrNoEntity

// execMsg asks an entity to run a command; the result goes to done.
type execMsg struct {
	req  domain.Request
	done chan<- domain.Outcome
}

// readMsg asks an entity to answer fn from its committed state, on its own
// goroutine. fn must return something immutable (a row, a reply).
type readMsg struct {
	fn   func(domain.Entity) any
	done chan<- any
}

// entityActor hosts one entity's state machine, of any kind (DESIGN.md: one
// actor per account, order, transfer, payment link). It decides on its
// speculative state, hands the events to the log, and applies them to its
// committed state once durable; only then does the reply leave, and only
// then does the kind's commit work run (the key directory, the published
// account view, the chain side's hook).
type entityActor struct {
	e         *Engine
	kind      domain.Kind
	id        string
	entry     *entry
	spec      domain.Entity // everything handed to the log
	committed domain.Entity // only what is durable
	replies   replyQueue
	newID     func(prefix string) string // ids with the entity's partition
}

// Receive is the actor's mailbox loop body.
func (a *entityActor) Receive(ctx actor.Context) {
	a.e.touch(a.entry)
	switch m := ctx.Message().(type) {
	case execMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		a.exec(ctx, m)
	case readMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		m.done <- m.fn(a.committed)
	case durableMsg:
		a.replies.durable(m.index, a.commit)
	case askMsg, accountInfoMsg:
		atomic.AddInt64(&a.entry.inflight, -1)
		a.receiveAccount(m)
	case probeMsg: // sent by tests straight to the pid, not counted
		a.receiveAccount(m)
	case passivateMsg:
		a.e.maybePassivate(ctx, a.id, a.entry, &a.replies)
	}
}

func (a *entityActor) exec(ctx actor.Context, m execMsg) {
	env := a.e.env(a.newID)
	inFlight := m.req.Idem != nil && a.spec.InFlight(a.committed, m.req.Idem.Scope, env.Now)
	a.replies.run(ctx, a.e, inFlight, func() domain.Outcome { return domain.HandleRequest(a.spec, m.req, env) }, a.spec.Apply, m.done)
}

// commit applies durable events to the committed state, then runs the
// kind's commit work and the hook set for the kind.
func (a *entityActor) commit(events []domain.Event) {
	for i := range events {
		a.committed.Apply(&events[i])
	}
	if a.kind == domain.KindAccount {
		a.commitAccount(events)
	}
	for _, hook := range a.e.hooks[a.kind] {
		hook(a.id, events)
	}
}

// AddHook adds a function called with every durable record of an entity
// of kind k, on that entity's actor after its committed state has it (the
// FX and payments desks drive their chain side from it, the webhook desk
// fans out the events records carry). Hooks run in the order added. A
// hook must not block, and must not post to an entity while holding a
// lock that entity's commit takes. Call it before Recover: no actor runs
// before then.
func (e *Engine) AddHook(k domain.Kind, fn func(id string, events []domain.Event)) {
	if e.ready.Load() {
		panic("actors: AddHook after Recover")
	}
	e.hooks[k] = append(e.hooks[k], fn)
}

// Exec runs a command on the existing entity id, of the command's kind,
// and waits for its durable reply. An id the store holds nothing for is
// ErrNoAccount or ErrNoEntity, and no actor is spawned, so probing random
// ids costs no memory. If ctx ends first the command may still complete
// (its reply is dropped); the caller answers 503 and an idempotent retry
// finds the outcome.
func (e *Engine) Exec(ctx context.Context, id string, req domain.Request) (domain.Outcome, error) {
	return e.exec(ctx, id, req, mustExist)
}

// Create is Exec for a command that may create entity id (accept, create
// transfer, create link).
func (e *Engine) Create(ctx context.Context, id string, req domain.Request) (domain.Outcome, error) {
	return e.exec(ctx, id, req, mayCreate)
}

// activation is how an entity not active yet is brought up.
type activation int

const (
	mustExist activation = iota // from the store; an id it holds nothing for is refused
	mayCreate                   // from the store; nothing there is a new, empty entity
	fresh                       // new and empty, the store not read (Reserved.Fresh)
)

func (e *Engine) exec(ctx context.Context, id string, req domain.Request, how activation) (domain.Outcome, error) {
	kind := req.Cmd.Target()
	if k, ok := domain.KindOf(id); !ok || k != kind {
		panic(fmt.Sprintf("actors: %T is for a %s, not for %q", req.Cmd, kind, id))
	}
	done := make(chan domain.Outcome, 1)
	if err := e.sendTo(id, execMsg{req: req, done: done}, func() (*entry, error) { return e.activate(kind, id, how) }); err != nil {
		return domain.Outcome{}, err
	}
	return await(ctx, id, done)
}

// Read answers fn from the committed state of entity id, on its actor.
func (e *Engine) Read(ctx context.Context, id string, fn func(domain.Entity) any) (any, error) {
	kind, ok := domain.KindOf(id)
	if !ok {
		return nil, e.missing(domain.KindOrder)
	}
	done := make(chan any, 1)
	if err := e.sendTo(id, readMsg{fn: fn, done: done}, func() (*entry, error) { return e.activate(kind, id, mustExist) }); err != nil {
		return nil, err
	}
	return await(ctx, id, done)
}

// Answered looks idem up in the committed idempotency store of entity id
// without running anything (domain.IdemStore.Lookup): a replay of the
// stored answer, 422 for another body, 401 for a guard; ok is false when
// no live record holds it. A host asks first when running costs what a
// replay must not repeat (POST /fx/quotes asks the makers). An answer
// still in flight is not seen here: the command sent next meets it (409).
func (e *Engine) Answered(ctx context.Context, id string, idem *domain.IdemRequest) (domain.Outcome, bool, error) {
	v, err := e.Read(ctx, id, func(s domain.Entity) any {
		if st := domain.IdemOf(s); st != nil {
			if out, ok := st.Lookup(idem, e.cfg.Clock()); ok {
				return out
			}
		}
		return nil
	})
	if err != nil {
		return domain.Outcome{}, false, err
	}
	out, ok := v.(domain.Outcome)
	return out, ok, nil
}

// Row returns the committed row of entity id of kind k, read on its
// actor; ErrNoEntity when there is none, or when acct is set and the row
// belongs to another account (never say which).
func (e *Engine) Row(ctx context.Context, k domain.Kind, id, acct string) (domain.Row, error) {
	if kind, ok := domain.KindOf(id); !ok || kind != k {
		return nil, ErrNoEntity
	}
	v, err := e.Read(ctx, id, func(s domain.Entity) any { return domain.MainRow(s) })
	if err != nil {
		return nil, err
	}
	r, _ := v.(domain.Row)
	if r == nil || acct != "" && r.RowAccount() != acct {
		return nil, ErrNoEntity
	}
	return r, nil
}

// Order returns the committed row of order id, or ErrNoOrder.
func (e *Engine) Order(ctx context.Context, id string) (*domain.Order, error) {
	r, err := e.Row(ctx, domain.KindOrder, id, "")
	if err != nil {
		return nil, err
	}
	return r.(*domain.Order), nil
}

// activate loads an entity from the store (a fresh one starts empty) and
// spawns its actor. With mustExist, an id the store holds nothing for is
// refused.
func (e *Engine) activate(kind domain.Kind, id string, how activation) (*entry, error) {
	var st domain.Entity
	if how == fresh {
		st = domain.LoadEntity(kind, nil, nil, domain.Env{Now: e.cfg.Clock()})
	} else {
		var ok bool
		var err error
		if st, ok, err = e.store.Load(kind, id, e.cfg.Clock()); err != nil {
			e.fatal(err)
		}
		if !ok && how == mustExist {
			return nil, e.missing(kind)
		}
		if ok && how == mayCreate && kind == domain.KindAccount {
			panic("actors: fresh account id " + id + " already exists")
		}
	}
	en := &entry{}
	e.touch(en)
	a := &entityActor{e: e, kind: kind, id: id, entry: en, spec: st, committed: st.Clone(), newID: e.idSource(id),
		replies: replyQueue{entity: id, part: e.partOf(id)}}
	en.pid = e.system.Root.Spawn(entityProps(a))
	return en, nil
}

func (e *Engine) missing(kind domain.Kind) error {
	if kind == domain.KindAccount {
		return ErrNoAccount
	}
	return ErrNoEntity
}

// waitApplied waits until the snapshot store holds p's index.
func (p *part) waitApplied(ctx context.Context, index uint64) error {
	for p.applied.Load() < index {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Microsecond):
		}
	}
	return nil
}
