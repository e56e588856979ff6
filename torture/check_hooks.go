package torture

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"time"
)

// Delivery waits (deadlines, never expectations).
const (
	deliveryWait = 2 * time.Minute
	// fanOutMargin: an endpoint acknowledged this long before an event
	// was born must be among its deliveries (created_at has whole
	// seconds; our clock and the server's are the same machine's).
	fanOutMargin = 2 * time.Second
)

// apiEvent is one event as GET /events lists it.
type apiEvent struct {
	acct        *account
	id, typ     string
	createdAt   time.Time
	objectID    string
	objectState string
	hash        [sha256.Size]byte
}

// listEvents reads every event of account a.
func (h *harness) listEvents(ctx context.Context, a *account) ([]apiEvent, error) {
	items, err := h.listAll(ctx, a.checker, "/events")
	if err != nil {
		return nil, err
	}
	out := make([]apiEvent, 0, len(items))
	for _, it := range items {
		var e struct {
			ID        string `json:"id"`
			Type      string `json:"type"`
			CreatedAt string `json:"created_at"`
			Data      struct {
				Object struct {
					State string `json:"state"`
				} `json:"object"`
			} `json:"data"`
		}
		if err := json.Unmarshal(it, &e); err != nil {
			return nil, fmt.Errorf("GET /events: %w", err)
		}
		at, err := time.Parse(time.RFC3339, e.CreatedAt)
		if err != nil {
			return nil, fmt.Errorf("event %s: created_at %q: %w", e.ID, e.CreatedAt, err)
		}
		_, obj := eventHead(it)
		out = append(out, apiEvent{acct: a, id: e.ID, typ: e.Type, createdAt: at, objectID: obj,
			objectState: e.Data.Object.State, hash: compactHash(it)})
	}
	return out, nil
}

// eventFor is the event a record's state fires ("" none): CONTRACT.md
// "Webhooks" and SPEC.md "Events".
func eventFor(kind, state string) string {
	switch kind + "/" + state {
	case kindOrder + "/settled", kindOrder + "/failed", kindOrder + "/refunded":
		return "fx.order." + state
	case kindTransfer + "/confirmed", kindTransfer + "/failed":
		return "transfer." + state
	case kindLink + "/paid":
		return "payment_link.paid"
	}
	return ""
}

// checkHooks checks the events against the records, then waits for the
// deliveries and checks them.
func (h *harness) checkHooks(ctx context.Context) {
	var events []apiEvent
	for _, a := range h.accounts {
		evs, err := h.listEvents(ctx, a)
		if err != nil {
			h.fail("account %d: %v", a.idx, err)
			return
		}
		events = append(events, evs...)
	}
	h.checkEventRecords(events)
	give := time.Now().Add(deliveryWait)
	for time.Now().Before(give) && ctx.Err() == nil && h.checkDeliveries(events, false) > 0 {
		sleep(ctx, settlePoll)
		h.refreshLists(ctx, "/webhooks")
	}
	h.checkDeliveries(events, true)
}

// checkEventRecords: every finished record that fires an event has
// exactly one, of its type, whose object is in the record's state; no
// other record has one; every event is about a record of ours.
func (h *harness) checkEventRecords(events []apiEvent) {
	byObj := map[string][]apiEvent{}
	for _, e := range events {
		if e.typ != "webhook.test" {
			byObj[e.objectID] = append(byObj[e.objectID], e)
		}
	}
	snap := h.reg.snapshot()
	check := func(kind, id, state string) {
		if id == "" {
			return
		}
		want, evs := eventFor(kind, state), byObj[id]
		delete(byObj, id)
		h.countCheck(func(c *checkStats) { c.Events += len(evs) })
		switch {
		case want == "" && len(evs) > 0:
			h.fail("%s %s is %s, yet has event %s (%s)", kind, id, state, evs[0].id, evs[0].typ)
		case want != "" && len(evs) != 1:
			h.fail("%s %s is %s: want one %s event, have %d", kind, id, state, want, len(evs))
		case want != "" && (evs[0].typ != want || evs[0].objectState != state):
			h.fail("%s %s is %s: its event %s is %s with the object %s", kind, id, state, evs[0].id, evs[0].typ, evs[0].objectState)
		}
	}
	for _, o := range snap.orders {
		check(kindOrder, o.id, o.state())
	}
	for _, t := range snap.transfers {
		check(kindTransfer, t.id, t.state())
	}
	for _, l := range snap.links {
		check(kindLink, l.id, l.state())
	}
	for id, evs := range byObj {
		h.fail("event %s (%s) is about %s, which no request of ours made", evs[0].id, evs[0].typ, id)
	}
}

// checkDeliveries checks that every event reached each endpoint that
// matches it: the endpoint's account's, wanting the type, acknowledged
// before the event was born (a webhook.test event: its endpoint only).
// Good and slow receivers must have it, every copy the event's body with
// a valid signature; a reset or late receiver must have it unless the
// service disabled the endpoint (then the event is in GET /events, where
// it was read). It returns how many are missing; with report set it
// records them as failures and counts the checks.
func (h *harness) checkDeliveries(events []apiEvent, report bool) int {
	missing := 0
	for _, e := range events {
		for _, ep := range h.targets(e) {
			seen := ep.recv.seen(ep.path, e.id)
			disabled := ep.state() == "disabled"
			switch {
			case seen == nil && ep.recv.kind != recvGood && ep.recv.kind != recvSlow && disabled:
				if report {
					h.countCheck(func(c *checkStats) { c.DisabledChecks++ })
				}
			case seen == nil:
				missing++
				if report {
					h.fail("event %s (%s of %s) never reached the %s endpoint %s (%s)", e.id, e.typ, e.objectID, ep.recv.kind, ep.id, ep.state())
				}
			case report:
				h.countCheck(func(c *checkStats) { c.Deliveries++; c.Duplicates += seen.count - 1 })
				if seen.hash != e.hash || seen.differs {
					h.fail("event %s reached endpoint %s with a body other than GET /events' (or bodies differing)", e.id, ep.id)
				}
				if seen.badSig > 0 {
					h.fail("event %s reached endpoint %s with %d bad signatures", e.id, ep.id, seen.badSig)
				}
			}
		}
	}
	return missing
}

// targets are the endpoints an event must reach.
func (h *harness) targets(e apiEvent) []*endpointRec {
	a := e.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []*endpointRec
	for _, ep := range a.endpoints {
		var id string
		var acked time.Time
		ep.locked(func() { id, acked = ep.id, ep.ackedAt })
		switch {
		case id == "":
		case e.typ == "webhook.test":
			if id == e.objectID {
				out = append(out, ep)
			}
		case ep.wants(e.typ) && acked.Add(fanOutMargin).Before(e.createdAt):
			out = append(out, ep)
		}
	}
	return out
}
