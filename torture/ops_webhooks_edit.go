package torture

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/client"
)

// filterChoices are the event filters a PATCH picks from for endpoints
// the workload made (the setup's keep taking every type they took).
var filterChoices = [][]string{
	{"*"},
	allEventTypes,
	{"transfer.confirmed", "fx.order.settled", "payment_link.paid"},
	{"transfer.confirmed", "payment_link.paid"},
	{"fx.order.settled", "fx.order.refunded", "webhook.test"},
}

// pickFilter picks a new filter for e: a setup endpoint gets every type
// or its own filter again; another, any of filterChoices.
func (w *worker) pickFilter(e *endpointRec) []string {
	if !e.pinned {
		return filterChoices[w.rng.IntN(len(filterChoices))]
	}
	var first []string
	e.locked(func() { first = e.filters[0].events })
	if len(first) == 0 || w.rng.IntN(2) == 0 {
		return allEventTypes
	}
	return first
}

// updateEndpoint: PATCH /webhooks/{id} with a new description (sometimes
// "" to clear it), a new events filter, or both. The answer must show
// them; the lists must hold them (checkEndpointFields).
func (w *worker) updateEndpoint(ctx context.Context) error {
	e := w.endpoint("")
	if e == nil {
		return nil
	}
	body := map[string]any{}
	what := w.rng.IntN(3)
	desc, events := "", []string(nil)
	if what != 1 {
		if w.rng.IntN(5) > 0 {
			desc = w.name("desc")
		}
		body["description"] = desc
	}
	if what != 0 {
		events = w.pickFilter(e)
		body["events"] = events
	}
	e.flight.Lock()
	defer e.flight.Unlock()
	unsure := false
	e.locked(func() { unsure = e.deleting || e.deleted || e.descUnsure || e.filters[len(e.filters)-1].pending })
	if unsure {
		return nil
	}
	a := w.acct
	defer a.beginEdit(&a.endpointEdits)()
	ver := -1
	if events != nil { // in flight: it may apply at any moment from now
		e.locked(func() {
			e.filters, ver = append(e.filters, filterVersion{events: events, pending: true}), len(e.filters)
		})
	}
	req, resp, err := w.write(ctx, "webhooks.update", http.MethodPatch, "/webhooks/"+e.id, body, true)
	if err != nil {
		e.locked(func() { e.descUnsure = what != 1 })
		if req != nil {
			req.apply = func(status int, _ []byte, _ bool) { e.settleUpdate(status == http.StatusOK, what != 1, desc, ver) }
		}
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("webhooks.update", resp)
	}
	e.settleUpdate(true, what != 1, desc, ver)
	var v client.Webhook
	if err := decode(resp, &v); err != nil {
		return err
	}
	if err := e.sameFields(v); err != nil {
		w.h.fail("webhooks.update %s: the answer %v", e.id, err)
	}
	w.h.observeAnswer(e, resp)
	return nil
}

// settleUpdate records the outcome of a PATCH: applied (ok) or refused.
func (e *endpointRec) settleUpdate(ok, setDesc bool, desc string, ver int) {
	e.locked(func() {
		if setDesc {
			e.descUnsure = false
			if ok {
				e.desc = desc
			}
		}
		switch {
		case ver < 0:
		case ok:
			e.filters[ver].pending, e.filters[ver].ackAt = false, time.Now()
		default:
			e.filters = slices.Delete(e.filters, ver, ver+1)
		}
	})
}

// sameFields compares an endpoint as the service shows it with its last
// acknowledged description and filter.
func (e *endpointRec) sameFields(v client.Webhook) error {
	var desc string
	var filter []string
	e.locked(func() { desc, filter = e.desc, normalFilter(e.filters[len(e.filters)-1].events) })
	got := ""
	if v.Description != nil {
		got = *v.Description
	}
	switch {
	case v.ID != e.id:
		return fmt.Errorf("is endpoint %s", v.ID)
	case got != desc:
		return fmt.Errorf("has description %q, last acknowledged %q", got, desc)
	case !slices.Equal(v.Events, filter):
		return fmt.Errorf("has events %v, last acknowledged %v", v.Events, filter)
	}
	return nil
}

// rotateEndpoint: POST /webhooks/{id}/rotate-secret. The receiver learns
// the new secret from the answer and holds every later delivery to both
// (checkRotation). Never twice within rotateGap, never after one that got
// no answer.
func (w *worker) rotateEndpoint(ctx context.Context) error {
	e := w.endpoint("")
	if e == nil {
		return nil
	}
	e.flight.Lock()
	defer e.flight.Unlock()
	skip := false
	e.locked(func() { skip = e.deleting || e.deleted || e.rotating || time.Since(e.rotatedAt) < rotateGap })
	if skip {
		return nil
	}
	era := e.recv.beginRotate(e.path)
	req, resp, err := w.write(ctx, "webhooks.rotate", http.MethodPost, "/webhooks/"+e.id+"/rotate-secret", nil, true)
	if err != nil {
		e.locked(func() { e.rotating = true })
		if req != nil {
			req.apply = func(status int, body []byte, _ bool) {
				var v client.WebhookSecret
				ok := status == http.StatusOK && json.Unmarshal(body, &v) == nil
				e.recv.endRotate(e.path, era, v.Secret, !ok)
				e.locked(func() { e.rotating = false })
			}
		} else {
			e.recv.endRotate(e.path, era, "", true) // never sent
		}
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("webhooks.rotate", resp)
	}
	var v client.WebhookSecret
	if err := decode(resp, &v); err != nil {
		return err
	}
	if v.ID != e.id || !strings.HasPrefix(v.Secret, "whsec_") {
		w.h.fail("webhooks.rotate %s: answered %.200s", e.id, resp.Body)
	}
	e.recv.endRotate(e.path, era, v.Secret, false)
	e.locked(func() { e.rotatedAt = time.Now() })
	return nil
}

// deleteEndpoint: DELETE /webhooks/{id} of an endpoint the workload made
// (never the setup's). After the answer it must be 404 and out of the
// lists, and no event born after it may reach it (checkDeliveries).
func (w *worker) deleteEndpoint(ctx context.Context) error {
	e := w.pickEndpoint(func(e *endpointRec) bool { return !e.pinned })
	if e == nil {
		return nil
	}
	e.flight.Lock()
	defer e.flight.Unlock()
	if e.gone() {
		return nil
	}
	e.locked(func() { e.deleting = true })
	req, resp, err := w.write(ctx, "webhooks.delete", http.MethodDelete, "/webhooks/"+e.id, nil, true)
	if err != nil {
		if req != nil {
			req.apply = func(status int, _ []byte, _ bool) {
				if status == http.StatusOK {
					e.settleDelete()
				}
			}
		}
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("webhooks.delete", resp)
	}
	if err := deletedAnswer(resp, e.id); err != nil {
		w.h.fail("webhooks.delete %s: %v", e.id, err)
	}
	e.settleDelete()
	got, err := w.h.get(ctx, w.c, "/webhooks/"+e.id)
	if err == nil && got.Status != http.StatusNotFound {
		w.h.fail("GET /webhooks/%s after its delete was acknowledged: %d %.200s", e.id, got.Status, got.Body)
	}
	return nil
}

// settleDelete records an acknowledged delete.
func (e *endpointRec) settleDelete() {
	e.locked(func() { e.deleted, e.deletedAt = true, time.Now() })
	e.observe("deleted")
}

// deletedAnswer checks a delete's answer: {"id":…,"deleted":true}.
func deletedAnswer(resp *client.Response, id string) error {
	var d struct {
		ID      string `json:"id"`
		Deleted bool   `json:"deleted"`
	}
	if err := decode(resp, &d); err != nil {
		return err
	}
	if !strings.EqualFold(d.ID, id) || !d.Deleted {
		return fmt.Errorf("answered %.200s, want {\"id\":%q,\"deleted\":true}", resp.Body, id)
	}
	return nil
}
