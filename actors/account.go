package actors

import (
	"context"

	"github.com/fxd-labs/fxd/domain"
)

// The account kind's extras on the one entity actor: queries answered from
// committed state, the published view the quote path reads without a
// message, and the key directory authentication reads.

// askMsg asks an account a read-only question answered from committed state.
type askMsg struct {
	q    domain.Query
	done chan<- domain.Reply
}

type accountInfoMsg struct{ done chan<- AccountInfo }

// probeMsg hands a copy of the committed state to tests.
type probeMsg struct{ done chan<- *domain.AccountState }

// receiveAccount answers the account-only messages.
func (a *entityActor) receiveAccount(msg any) {
	st := a.committed.(*domain.AccountState)
	switch m := msg.(type) {
	case askMsg:
		if _, ok := m.q.(domain.GetAccount); ok {
			if a.entry.info.Load() == nil {
				a.publishInfo() // later reads of GET /account skip the mailbox
			}
			m.done <- a.entry.info.Load().View
			return
		}
		m.done <- st.Ask(m.q)
	case accountInfoMsg:
		if a.entry.info.Load() == nil {
			a.publishInfo()
		}
		m.done <- *a.entry.info.Load()
	case probeMsg:
		m.done <- st.CloneAccount()
	}
}

// commitAccount publishes new key rows to the directory and, once someone
// asked for it, a new AccountInfo view when the profile or a wallet changed.
func (a *entityActor) commitAccount(events []domain.Event) {
	publish := false
	for i := range events {
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

// Ask answers a query from an account's committed state. GET /account is
// answered from the view the actor publishes, once it has one.
func (e *Engine) Ask(ctx context.Context, acct string, q domain.Query) (domain.Reply, error) {
	if _, ok := q.(domain.GetAccount); ok {
		if info := e.published(acct); info != nil {
			return info.View, nil
		}
	}
	done := make(chan domain.Reply, 1)
	return request(ctx, e, acct, done, askMsg{q: q, done: done})
}

// CreateAccount creates a new account with a fresh id.
func (e *Engine) CreateAccount(ctx context.Context, c domain.CreateAccount) (domain.Outcome, error) {
	c.ID, c.Env = e.newAccountID(), e.cfg.Env
	return e.Create(ctx, c.ID, domain.Request{Cmd: c})
}

// placementTries bounds the fresh ids newAccountID draws looking for a
// partition this engine owns: a node owning a third of them misses 256
// times with a probability near 1e-45.
const placementTries = 256

// newAccountID is a fresh account id. Under Config.Handover it falls in a
// partition this engine owns, so an account is created where it will be
// served (the admin listener is a node's own); when the engine owns none,
// the id it returns is refused ErrNotOwner.
func (e *Engine) newAccountID() string {
	id := e.ids.NewAccount("acct_", e.cfg.Clock())
	for i := 1; i < placementTries && !e.partOf(id).owned.Load(); i++ {
		id = e.ids.NewAccount("acct_", e.cfg.Clock())
	}
	return id
}

// request sends msg, which carries done (one slot), to an existing account
// and waits for the reply or the end of ctx.
func request[T any](ctx context.Context, e *Engine, acct string, done <-chan T, msg any) (T, error) {
	var zero T
	if err := e.sendTo(acct, msg, func() (*entry, error) { return e.activate(domain.KindAccount, acct, mustExist) }); err != nil {
		return zero, err
	}
	return await(ctx, acct, done)
}
