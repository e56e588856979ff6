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

// checkDeliveries checks every event against every endpoint of its
// account. It is owed to the endpoints that match it (hookTargets): good
// and slow receivers must have it; a reset or late receiver must have it
// unless the service disabled the endpoint (then the event is in GET
// /events, where it was read). Every copy any receiver got, owed or not,
// must be the event's body with valid signatures (checkRotation's too),
// and none may reach an endpoint it is forbidden to. It returns how many
// owed deliveries are missing; with report set it records them as
// failures and counts the checks.
func (h *harness) checkDeliveries(events []apiEvent, report bool) int {
	missing := 0
	for _, e := range events {
		for _, t := range h.hookTargets(e) {
			ep := t.ep
			seen := ep.recv.seen(ep.path, e.id)
			disabled := ep.state() == "disabled"
			switch {
			case seen == nil && t.forbidden != "":
				if report {
					h.countCheck(func(c *checkStats) { c.Forbidden++ })
				}
			case seen == nil && !t.owed:
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
				h.checkCopy(e, ep, seen, t.forbidden)
			}
		}
	}
	return missing
}

// checkCopy checks what a receiver got of event e at endpoint ep.
func (h *harness) checkCopy(e apiEvent, ep *endpointRec, seen *hookEvent, forbidden string) {
	h.countCheck(func(c *checkStats) { c.Deliveries++; c.Duplicates += seen.count - 1 })
	if forbidden != "" {
		h.fail("event %s (%s) reached endpoint %s, %s", e.id, e.typ, ep.id, forbidden)
	}
	if seen.hash != e.hash || seen.differs {
		h.fail("event %s reached endpoint %s with a body other than GET /events' (or bodies differing)", e.id, ep.id)
	}
	if seen.badSig > 0 {
		h.fail("event %s reached endpoint %s with %d bad signatures", e.id, ep.id, seen.badSig)
	}
	if seen.noNew > 0 {
		h.fail("event %s reached endpoint %s %d times signed more than %s after a rotation was acknowledged, without the new secret's signature",
			e.id, ep.id, seen.noNew, rotateGrace)
	}
	if seen.noOld > 0 {
		h.fail("event %s reached endpoint %s %d times signed after a rotation, without the previous secret's signature (it signs for 24 h)",
			e.id, ep.id, seen.noOld)
	}
}

// hookTarget is one endpoint of an event's account and what the event is
// to it.
type hookTarget struct {
	ep *endpointRec
	// owed: the endpoint was acknowledged fanOutMargin before the event
	// was born, every filter it may have held since takes the event's
	// type, and no delete of it was ever sent (a delete abandons what is
	// pending, DECISIONS.md "Webhooks", so nothing is owed to it then).
	// A webhook.test event is owed to its endpoint only.
	owed bool
	// forbidden says why the event must not reach it ("" it may): another
	// endpoint's test, a type no filter of it ever took, or born after its
	// delete was acknowledged.
	forbidden string
}

// hookTargets are every endpoint of e's account with an id.
func (h *harness) hookTargets(e apiEvent) []hookTarget {
	a := e.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []hookTarget
	for _, ep := range a.endpoints {
		var t hookTarget
		ep.locked(func() { t = ep.targetFor(e) })
		if t.ep != nil {
			out = append(out, t)
		}
	}
	return out
}

// targetFor is what e is to the endpoint (ep nil: it has no id); under
// its lock.
func (ep *endpointRec) targetFor(e apiEvent) hookTarget {
	if ep.id == "" {
		return hookTarget{}
	}
	t := hookTarget{ep: ep}
	gone := ep.deleting || ep.deleted
	switch {
	case e.typ == "webhook.test" && ep.id == e.objectID:
		t.owed = !gone
	case e.typ == "webhook.test":
		t.forbidden = "a test of another endpoint"
	case ep.deleted && ep.deletedAt.Add(fanOutMargin).Before(e.createdAt):
		t.forbidden = "born after its delete was acknowledged"
	case !anyFilterWants(ep.filters, e.typ):
		t.forbidden = "whose filters never took the type"
	default:
		t.owed = !gone && ep.ackedAt.Add(fanOutMargin).Before(e.createdAt) && owedFilter(ep.filters, e.typ, e.createdAt)
	}
	return t
}
