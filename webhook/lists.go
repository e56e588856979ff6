package webhook

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
)

// listChunk is how many rows a filtered list reads from the store at a
// time: deleted endpoints, events of other types or past retention are
// skipped, so a page may take more than one read.
const listChunk = 200

// ListEndpoints is GET /webhooks: the account's endpoints, newest first,
// deleted ones left out.
func (d *Desk) ListEndpoints(ctx context.Context, acct string, p domain.Page) (domain.ListView[domain.EndpointView], error) {
	rows, err := d.filtered(ctx, acct, domain.KindEndpoint, p, func(r domain.Row) bool {
		return r.(*domain.Endpoint).State != domain.EndpointDeleted
	})
	if err != nil {
		return domain.ListView[domain.EndpointView]{}, err
	}
	return domain.Paginate(rows, domain.Row.RowID, func(r domain.Row) domain.EndpointView { return domain.ViewEndpoint(r.(*domain.Endpoint)) }, domain.Page{Limit: p.Limit}), nil
}

// ListEvents is GET /events: the account's events of the last 30 days,
// newest first, of type typ if set, each exactly the payload delivered.
func (d *Desk) ListEvents(ctx context.Context, acct, typ string, p domain.Page) (domain.ListView[json.RawMessage], error) {
	cut := d.cfg.Clock().Add(-domain.EventRetention)
	rows, err := d.filtered(ctx, acct, domain.KindEvent, p, func(r domain.Row) bool {
		w := r.(*domain.WebhookEvent)
		return (typ == "" || w.Type == typ) && w.CreatedAt.After(cut)
	})
	if err != nil {
		return domain.ListView[json.RawMessage]{}, err
	}
	return domain.Paginate(rows, domain.Row.RowID, func(r domain.Row) json.RawMessage { return r.(*domain.WebhookEvent).Body }, domain.Page{Limit: p.Limit}), nil
}

// Event is GET /events/{id}: the payload, byte for byte; ErrNoEntity for
// an unknown id, another account's, or one past retention.
func (d *Desk) Event(ctx context.Context, acct, id string) ([]byte, error) {
	r, err := d.e.Row(ctx, domain.KindEvent, id, acct)
	if err != nil {
		return nil, err
	}
	w := r.(*domain.WebhookEvent)
	if !w.CreatedAt.After(d.cfg.Clock().Add(-domain.EventRetention)) {
		return nil, actors.ErrNoEntity
	}
	return w.Body, nil
}

// filtered reads up to p.Limit+1 rows of kind k that keep admits, newest
// first, below p.StartingAfter: one more than the page says if there is
// a next one.
func (d *Desk) filtered(ctx context.Context, acct string, k domain.Kind, p domain.Page, keep func(domain.Row) bool) ([]domain.Row, error) {
	var out []domain.Row
	after := p.StartingAfter
	for len(out) <= p.Limit {
		rows, err := d.e.AccountRows(ctx, acct, k, after, listChunk)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if keep(r) && len(out) <= p.Limit {
				out = append(out, r)
			}
		}
		if len(rows) < listChunk {
			break
		}
		after = rows[len(rows)-1].RowID()
	}
	return out, nil
}

// ListDeliveries is GET /webhooks/{id}/deliveries: one row per attempt,
// newest delivery first, its attempts newest first. A page ends on a
// delivery's edge, so next_cursor (the last row's id, a delivery id)
// continues after it; a delivery with more attempts than the page's limit
// fills its page alone, whole.
func (d *Desk) ListDeliveries(ctx context.Context, acct, id string, p domain.Page) (domain.ListView[domain.AttemptView], error) {
	var page domain.ListView[domain.AttemptView]
	if _, err := d.Endpoint(ctx, acct, id); err != nil {
		return page, err
	}
	page.Data = []domain.AttemptView{}
	full := errors.New("page full")
	err := d.e.Deliveries(ctx, id, p.StartingAfter, 1<<30, func(ref snapshot.DeliveryRef) error {
		r, err := d.e.Row(ctx, domain.KindEvent, ref.Event, "")
		if err != nil {
			return err
		}
		dl := r.(*domain.WebhookEvent).Delivery(ref.Delivery)
		if dl == nil || len(dl.Attempts) == 0 {
			return nil // not attempted yet: no row
		}
		if n := len(page.Data); n >= p.Limit || n > 0 && n+len(dl.Attempts) > p.Limit {
			page.HasMore = true // an attempted delivery follows the page
			return full
		}
		page.Data = append(page.Data, domain.ViewAttempts(ref.Event, dl)...)
		return nil
	})
	if err != nil && !errors.Is(err, full) {
		return page, err
	}
	if page.HasMore {
		last := page.Data[len(page.Data)-1].ID
		page.NextCursor = &last
	}
	return page, nil
}
