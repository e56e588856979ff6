package actors

import (
	"context"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
)

// AccountRows lists an account's records of kind k (orders, transfers,
// payment links), newest first, once the store holds every write
// acknowledged so far (read-your-writes for lists).
func (e *Engine) AccountRows(ctx context.Context, acct string, k domain.Kind, startingAfter string, limit int) ([]domain.Row, error) {
	if err := e.waitAcknowledged(ctx, acct); err != nil {
		return nil, err
	}
	return e.store.AccountRows(acct, k, startingAfter, limit)
}

// LiveRows calls fn for every record of kind k not in an end state (at
// start: the records whose chain side must be resumed) whose id want takes
// (nil: every one), at most max; a record want refuses is not read.
func (e *Engine) LiveRows(k domain.Kind, want func(id string) bool, max int, fn func(domain.Row) error) error {
	return e.store.LiveRows(k, want, max, fn)
}

// Ledger calls fn with the account's ledger entries f selects, newest
// first, below startingAfter, until fn returns false, once the store holds
// every write acknowledged so far.
func (e *Engine) Ledger(ctx context.Context, acct, startingAfter string, f domain.LedgerFilter, fn func(*domain.LedgerEntry) bool) error {
	if err := e.waitAcknowledged(ctx, acct); err != nil {
		return err
	}
	return e.store.Ledger(acct, startingAfter, f, fn)
}

// RowByKey returns the row a lookup key names (domain.AddressKey), nil if
// none, as the store holds it now: a caller that needs every write
// acknowledged so far calls CatchUp first.
func (e *Engine) RowByKey(key string) (domain.Row, error) { return e.store.RowByKey(key) }

// CatchUp waits until the store holds every write acknowledged so far.
func (e *Engine) CatchUp(ctx context.Context) error { return e.waitAcknowledged(ctx, "") }

// waitAcknowledged waits until the store holds every record acknowledged
// so far in the log of owner's records (owner: an account or any id of its
// records), or in every log when owner is "".
func (e *Engine) waitAcknowledged(ctx context.Context, owner string) error {
	if owner != "" {
		p := e.partOf(owner)
		return p.waitApplied(ctx, p.log().LastIndex())
	}
	for _, p := range e.parts {
		if err := p.waitApplied(ctx, p.log().LastIndex()); err != nil {
			return err
		}
	}
	return nil
}

// LedgerRows is Ledger reading each entry in place (see
// snapshot.Store.LedgerRows): the export's path.
func (e *Engine) LedgerRows(ctx context.Context, acct, startingAfter string, f domain.LedgerFilter, fn func(*domain.LedgerRow) bool) error {
	if err := e.waitAcknowledged(ctx, acct); err != nil {
		return err
	}
	return e.store.LedgerRows(acct, startingAfter, f, fn)
}

// Deliveries calls fn for the webhook deliveries to endpoint ep, newest
// first, older than before, at most max, once the store holds every
// write acknowledged so far.
func (e *Engine) Deliveries(ctx context.Context, ep, before string, max int, fn func(snapshot.DeliveryRef) error) error {
	if err := e.waitAcknowledged(ctx, ep); err != nil {
		return err
	}
	return e.store.Deliveries(ep, before, max, fn)
}

// PendingDeliveries calls fn for the pending webhook deliveries of
// endpoint ep ("": every endpoint), oldest first, after the delivery id
// after, at most max, once the store holds every acknowledged write.
func (e *Engine) PendingDeliveries(ctx context.Context, ep, after string, max int, fn func(snapshot.DeliveryRef) error) error {
	if err := e.waitAcknowledged(ctx, ep); err != nil {
		return err
	}
	return e.store.PendingDeliveries(ep, after, max, fn)
}
