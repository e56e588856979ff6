package snapshot

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/fxd-labs/fxd/domain"
)

// Webhook deliveries live in their event's row; the store indexes them by
// endpoint, in the event row's batch: dl/ lists every delivery to an
// endpoint (GET /webhooks/{id}/deliveries), pd/ the pending ones, oldest
// first, so an endpoint's backlog beyond what memory holds is read back
// from here in order, and a start resumes every pending delivery.

// writeDeliveries indexes an event row's deliveries. Events are state
// transfers: a delivery no longer pending leaves pd/.
func writeDeliveries(b *pebble.Batch, w *domain.WebhookEvent) error {
	for i := range w.Deliveries {
		d := &w.Deliveries[i]
		if err := b.Set(deliveryKey(d.Endpoint, d.ID), []byte(w.ID), nil); err != nil {
			return err
		}
		var err error
		if d.State == domain.DeliveryPending {
			err = b.Set(pendingKey(d.Endpoint, d.ID), []byte(w.ID), nil)
		} else {
			err = b.Delete(pendingKey(d.Endpoint, d.ID), nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// DeliveryRef names one delivery and the event that holds it.
type DeliveryRef struct {
	Endpoint, Delivery, Event string
}

// PendingDeliveries calls fn for the pending deliveries of endpoint ep ("":
// of every endpoint), oldest first per endpoint, after the delivery id
// after ("" from the start), at most max.
func (s *Store) PendingDeliveries(ep, after string, max int, fn func(DeliveryRef) error) error {
	return s.deliveryRefs("pd/", ep, after, max, false, fn)
}

// Deliveries calls fn for the deliveries of endpoint ep, newest first,
// older than the delivery id before ("" from the newest), at most max.
func (s *Store) Deliveries(ep, before string, max int, fn func(DeliveryRef) error) error {
	return s.deliveryRefs("dl/", ep, before, max, true, fn)
}

func (s *Store) deliveryRefs(space, ep, from string, max int, reverse bool, fn func(DeliveryRef) error) error {
	prefix := []byte(space)
	if ep != "" {
		prefix = []byte(space + ep + "/")
	}
	opts := &pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)}
	if from != "" && ep != "" {
		if reverse {
			opts.UpperBound = []byte(space + ep + "/" + from)
		} else {
			opts.LowerBound = append([]byte(space+ep+"/"+from), 0)
		}
	}
	it, err := s.db.NewIter(opts)
	if err != nil {
		return fmt.Errorf("snapshot: iterate %s%s: %w", space, ep, err)
	}
	n := 0
	valid := it.First()
	if reverse {
		valid = it.Last()
	}
	for ; valid && n < max; n++ {
		ref, ok := parseDeliveryKey(it.Key()[len(space):], it.Value())
		if !ok {
			err = fmt.Errorf("snapshot: bad delivery key %q", it.Key())
			break
		}
		if err = fn(ref); err != nil {
			break
		}
		if reverse {
			valid = it.Prev()
		} else {
			valid = it.Next()
		}
	}
	if cerr := it.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("snapshot: iterate %s%s: %w", space, ep, cerr)
	}
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// parseDeliveryKey splits "<endpoint>/<dlv id>" and its value, the event.
func parseDeliveryKey(k, v []byte) (DeliveryRef, bool) {
	for i, c := range k {
		if c == '/' {
			return DeliveryRef{Endpoint: string(k[:i]), Delivery: string(k[i+1:]), Event: string(v)}, i > 0 && i < len(k)-1 && len(v) > 0
		}
	}
	return DeliveryRef{}, false
}
