package torture

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/fxd-labs/fxd/client"
)

// createEndpoint registers an endpoint at a receiver of a random kind
// (mostly good ones) for every event type or a few.
func (w *worker) createEndpoint(ctx context.Context) error {
	kind := recvGood
	switch n := w.rng.IntN(100); {
	case n < 15:
		kind = recvSlow
	case n < 30:
		kind = recvReset
	case n < 40:
		kind = recvLate
	}
	var events []string
	if w.rng.IntN(100) < 20 {
		events = []string{"transfer.confirmed", "fx.order.settled", "payment_link.paid"}
	}
	_, err := w.addEndpoint(ctx, kind, events)
	if err == errNoRoom {
		return nil
	}
	return err
}

// addEndpoint registers an endpoint of kind; nil when refused, never
// answered or the account is at its cap.
func (w *worker) addEndpoint(ctx context.Context, kind string, events []string) (*endpointRec, error) {
	a := w.acct
	a.mu.Lock()
	live := 0
	for _, x := range a.endpoints {
		x.locked(func() {
			if !x.deleted {
				live++
			}
		})
	}
	if live >= maxEndpointsPerAccount {
		a.mu.Unlock()
		return nil, errNoRoom
	}
	e := &endpointRec{recv: w.h.recv[kind], filters: []filterVersion{{events: events}}}
	e.kind, e.name, e.worker, e.m = kindEndpoint, w.name("hook-"+kind), w, &webhookEndpoint
	e.path, e.desc = "/"+e.name, e.name
	a.endpoints = append(a.endpoints, e)
	a.mu.Unlock()
	e.recv.register(e.path)
	e.flight.Lock()
	defer e.flight.Unlock()
	body := client.WebhookCreate{URL: e.recv.url + e.path, Events: events, Description: e.name}
	req, resp, err := w.write(ctx, "webhooks.create", http.MethodPost, "/webhooks", body, true)
	e.create = req
	if req != nil {
		w.h.reg.addEndpoint(e)
	}
	if err != nil {
		if req != nil {
			req.apply = func(status int, body []byte, _ bool) {
				var v client.WebhookCreated
				if status == http.StatusCreated && json.Unmarshal(body, &v) == nil {
					e.recv.setSecret(e.path, v.Secret)
					e.locked(func() { e.id, e.ackedAt, e.filters[0].ackAt = v.ID, time.Now(), time.Now() })
				}
			}
		}
		return nil, nil
	}
	if resp.Status != http.StatusCreated {
		return nil, unexpected("webhooks.create", resp)
	}
	var v client.WebhookCreated
	if err := decode(resp, &v); err != nil {
		return nil, err
	}
	e.recv.setSecret(e.path, v.Secret)
	e.locked(func() { e.id, e.ackedAt, e.filters[0].ackAt = v.ID, time.Now(), time.Now() })
	req.recordID = v.ID
	w.h.observeAnswer(e, resp)
	return e, nil
}

// endpoint picks one of the account's endpoints (nil: none) that exist
// for sure and were never sent a delete, of kind unless kind is ""
// ("hostile": any but good).
func (w *worker) endpoint(kind string) *endpointRec {
	return w.pickEndpoint(func(e *endpointRec) bool {
		return kind == "" || e.recv.kind == kind || (kind == "hostile" && e.recv.kind != recvGood)
	})
}

// pickEndpoint picks one of the account's live endpoints that ok takes.
func (w *worker) pickEndpoint(ok func(*endpointRec) bool) *endpointRec {
	a := w.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	var pick []*endpointRec
	for _, e := range a.endpoints {
		live := false
		e.locked(func() { live = e.id != "" && !e.deleting && !e.deleted })
		if live && ok(e) {
			pick = append(pick, e)
		}
	}
	if len(pick) == 0 {
		return nil
	}
	return pick[w.rng.IntN(len(pick))]
}

// testEndpoint: POST /webhooks/{id}/test (202, or 409 while disabled).
func (w *worker) testEndpoint(ctx context.Context) error {
	e := w.endpoint("")
	if e == nil {
		return nil
	}
	return w.sendTest(ctx, e)
}

// sendTest is testEndpoint on endpoint e.
func (w *worker) sendTest(ctx context.Context, e *endpointRec) error {
	e.flight.Lock() // not while a delete of it is in flight
	defer e.flight.Unlock()
	if e.gone() {
		return nil
	}
	_, resp, err := w.write(ctx, "webhooks.test", http.MethodPost, "/webhooks/"+e.id+"/test", nil, true)
	if err != nil {
		return nil
	}
	if resp.Status != http.StatusAccepted && !(resp.Status == http.StatusConflict && errorCode(resp.Body) == "invalid_state") {
		return unexpected("webhooks.test", resp)
	}
	return nil
}

// reenableEndpoint re-enables a hostile endpoint the service disabled
// (PATCH state enabled), so the enabled ⇄ disabled cycle runs.
func (w *worker) reenableEndpoint(ctx context.Context) error {
	e := w.endpoint("hostile")
	if e == nil {
		return nil
	}
	w.h.refresh(ctx, w.c, e)
	if e.state() != "disabled" {
		return nil
	}
	e.flight.Lock()
	defer e.flight.Unlock()
	if e.gone() {
		return nil
	}
	_, resp, err := w.write(ctx, "webhooks.enable", http.MethodPatch, "/webhooks/"+e.id, client.WebhookUpdate{State: ptr("enabled")}, true)
	if err != nil {
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("webhooks.enable", resp)
	}
	w.h.observeAnswer(e, resp)
	return nil
}

func ptr[T any](v T) *T { return &v }
