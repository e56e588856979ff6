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
// grouped by delivery, not interleaved by time: newest delivery first,
// its attempts newest first. A page holds at most p.Limit rows. When it
// ends on a delivery's edge, next_cursor is the last row's id, a delivery
// id, as it always was, so a client that pages by delivery id keeps
// working; when it must cut inside a delivery, next_cursor is
// "<delivery id>:<attempt>" of the last row, and the next page goes on
// with that delivery's attempts numbered below it (see deliveryCursor).
func (d *Desk) ListDeliveries(ctx context.Context, acct, id string, p domain.Page) (domain.ListView[domain.AttemptView], error) {
	var page domain.ListView[domain.AttemptView]
	if _, err := d.Endpoint(ctx, acct, id); err != nil {
		return page, err
	}
	if p.Limit < 1 { // a zero Page (not from ParsePage) would index page.Data[-1]
		p.Limit = domain.DefaultPageLimit
	}
	page.Data = []domain.AttemptView{}
	c := parseDeliveryCursor(p.StartingAfter)
	full := errors.New("page full")
	var next string
	err := d.e.Deliveries(ctx, id, c.before, 1<<30, func(ref snapshot.DeliveryRef) error {
		r, err := d.e.Row(ctx, domain.KindEvent, ref.Event, "")
		if err != nil {
			return err
		}
		dl := r.(*domain.WebhookEvent).Delivery(ref.Delivery)
		if dl == nil {
			return nil
		}
		rows := c.follow(ref.Event, dl)
		if len(rows) == 0 {
			return nil // not attempted yet, or listed whole before the cursor: no row
		}
		room := p.Limit - len(page.Data)
		if room == 0 { // the page ends on the previous delivery's edge
			page.HasMore, next = true, page.Data[len(page.Data)-1].ID
			return full
		}
		if len(rows) > room { // cut inside this delivery
			page.Data = append(page.Data, rows[:room]...)
			last := rows[room-1]
			page.HasMore, next = true, domain.AttemptCursor(last.ID, last.Attempt)
			return full
		}
		page.Data = append(page.Data, rows...)
		return nil
	})
	if err != nil && !errors.Is(err, full) {
		return page, err
	}
	if page.HasMore {
		page.NextCursor = &next
	}
	return page, nil
}

// deliveryCursor is a parsed starting_after of GET /webhooks/{id}/deliveries.
// A plain id continues after that delivery, compared by id, not looked up
// (an unknown id lists the deliveries older than it, as on every list).
// "<dlv>:<n>", which a page cut inside a delivery hands out, continues
// with dlv's attempts numbered below n, then the deliveries older than
// dlv; attempts added to dlv after the cut are numbered above n and stay
// out, as anything newer than a cursor does. An unknown dlv is thus
// handled as the plain id dlv is.
type deliveryCursor struct {
	before string // the store's exclusive upper bound on delivery ids
	dlv    string // the delivery cut inside; "" for a plain cursor
	below  int    // dlv's attempts numbered below this follow
}

// parseDeliveryCursor reads starting_after. The API refuses a cursor
// that is not a delivery id or its colon form before it gets here
// (httpd's cursor check, 400); any other string is still read safely: a
// colon form whose attempt is not a canonical number from 1 stays an
// opaque id, compared as any unknown id is (ids never hold a colon).
func parseDeliveryCursor(s string) deliveryCursor {
	dlv, n, ok := domain.SplitAttemptCursor(s)
	if !ok {
		return deliveryCursor{before: s}
	}
	// dlv+"\x00" is the smallest key above dlv: the store's exclusive
	// bound then lets dlv itself through, and nothing newer.
	return deliveryCursor{before: dlv + "\x00", dlv: dlv, below: n}
}

// follow is the rows of delivery dl (of event evt) that come after the
// cursor, newest first: all of them, but for the delivery cut inside.
func (c deliveryCursor) follow(evt string, dl *domain.Delivery) []domain.AttemptView {
	rows := domain.ViewAttempts(evt, dl)
	if dl.ID != c.dlv {
		return rows
	}
	i := 0
	for i < len(rows) && rows[i].Attempt >= c.below {
		i++
	}
	return rows[i:]
}
