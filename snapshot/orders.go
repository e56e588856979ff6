package snapshot

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/fxd-labs/fxd/domain"
)

// Order rows. An order is its own entity: its row is o/<id>, the stored
// answers of requests aimed at it live under a/<order id>/i/ like an
// account's. Three indexes are kept in the same batch as the row:
//
//	ao/<account>/<order id>  the account's orders (GET /fx/orders), by id
//	ol/<order id>            orders not yet terminal, resumed at start
//	ev/<event id>            the order whose row fired a webhook event
var (
	liveOrdersPrefix = []byte("ol/")
	eventsPrefix     = []byte("ev/")
)

func accountOrderKey(acct, id string) []byte { return []byte("ao/" + acct + "/" + id) }
func liveOrderKey(id string) []byte          { return []byte("ol/" + id) }
func eventKey(id string) []byte              { return []byte("ev/" + id) }

// writeOrder writes an order row and its indexes.
func writeOrder(b *pebble.Batch, o *domain.Order) error {
	if err := b.Set(orderKey(o.ID), domain.MarshalOrder(nil, o), nil); err != nil {
		return err
	}
	if err := b.Set(accountOrderKey(o.Account, o.ID), nil, nil); err != nil {
		return err
	}
	if o.EventID != "" {
		if err := b.Set(eventKey(o.EventID), []byte(o.ID), nil); err != nil {
			return err
		}
	}
	if domain.OrderTerminal(o.State) {
		return b.Delete(liveOrderKey(o.ID), nil)
	}
	return b.Set(liveOrderKey(o.ID), nil, nil)
}

// Order reads one order row; nil when there is none.
func (s *Store) Order(id string) (*domain.Order, error) {
	v, err := s.get(orderKey(id))
	if err != nil || v == nil {
		return nil, err
	}
	o, err := domain.UnmarshalOrder(v)
	if err != nil {
		return nil, fmt.Errorf("snapshot: order %s: %w", id, err)
	}
	return o, nil
}

// LoadOrder rebuilds an order entity: its row (if any) and its stored
// answers. ok is false when the store holds nothing for id.
func (s *Store) LoadOrder(id string) (st *domain.OrderState, ok bool, err error) {
	st = domain.NewOrderState()
	if st.Order, err = s.Order(id); err != nil {
		return nil, false, err
	}
	var idem []*domain.IdemRecord
	prefix := accountPrefix(id)
	err = s.scan(prefix, func(k, v []byte) error {
		if !bytes.HasPrefix(k[len(prefix):], []byte("i/")) {
			return fmt.Errorf("snapshot: order %s: unknown row %q", id, k)
		}
		r, err := domain.UnmarshalIdem(v)
		if err != nil {
			return fmt.Errorf("snapshot: order %s row %q: %w", id, k, err)
		}
		idem = append(idem, r)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	st.LoadIdem(idem)
	return st, st.Exists(), nil
}

var errStop = errors.New("stop")

// AccountOrders returns up to limit orders of acct, newest first, older
// than startingAfter when it is set.
func (s *Store) AccountOrders(acct, startingAfter string, limit int) ([]*domain.Order, error) {
	prefix := []byte("ao/" + acct + "/")
	upper := prefixEnd(prefix)
	if startingAfter != "" {
		upper = accountOrderKey(acct, startingAfter)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("snapshot: iterate orders of %s: %w", acct, err)
	}
	var ids []string
	for it.Last(); it.Valid() && len(ids) < limit; it.Prev() {
		ids = append(ids, string(it.Key()[len(prefix):]))
	}
	if err := it.Close(); err != nil {
		return nil, fmt.Errorf("snapshot: iterate orders of %s: %w", acct, err)
	}
	out := make([]*domain.Order, 0, len(ids))
	for _, id := range ids {
		o, err := s.Order(id)
		if err != nil {
			return nil, err
		}
		if o == nil {
			return nil, fmt.Errorf("snapshot: account %s lists order %s, which has no row", acct, id)
		}
		out = append(out, o)
	}
	return out, nil
}

// LiveOrders calls fn for every order that is not terminal, at most max.
func (s *Store) LiveOrders(max int, fn func(*domain.Order) error) error {
	n := 0
	err := s.scan(liveOrdersPrefix, func(k, _ []byte) error {
		if n == max {
			return errStop
		}
		n++
		o, err := s.Order(string(k[len(liveOrdersPrefix):]))
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("snapshot: live order %q has no row", k)
		}
		return fn(o)
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// EventOrder returns the order whose row fired event id, or nil.
func (s *Store) EventOrder(id string) (*domain.Order, error) {
	v, err := s.get(eventKey(id))
	if err != nil || v == nil {
		return nil, err
	}
	return s.Order(string(v))
}

// Events calls fn for every recorded order event (id order, so oldest
// first), at most max: the fx.order.* events waiting for webhook delivery.
func (s *Store) Events(max int, fn func(eventID string, o *domain.Order) error) error {
	n := 0
	err := s.scan(eventsPrefix, func(k, v []byte) error {
		if n == max {
			return errStop
		}
		n++
		o, err := s.Order(string(v))
		if err != nil {
			return err
		}
		if o == nil {
			return fmt.Errorf("snapshot: event %q names order %q, which has no row", k, v)
		}
		return fn(string(k[len(eventsPrefix):]), o)
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}
