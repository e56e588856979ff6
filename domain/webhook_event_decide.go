package domain

import (
	"fmt"
	"time"
)

// The commands of an event entity (Target KindEvent). The host (the
// webhook desk) picks the endpoints, makes the HTTP attempts and keeps the
// schedule; Decide checks and records.

// FanOut gives a born event its deliveries, one per endpoint that matched
// when it fired. Event is the born row (the entity may not have loaded it
// yet: it was written in another entity's record). A second FanOut of an
// event already fanned out changes nothing.
type FanOut struct {
	Event     *WebhookEvent
	Endpoints []string
	// DeliveryIDs are fresh dlv_ ids, one per endpoint, made by the host.
	DeliveryIDs []string
}

// CreateTest is POST /webhooks/{id}/test: a webhook.test event born
// fanned out to that one endpoint. The host checks the endpoint (its
// account, its state); Refusal is its answer, stored under the key.
type CreateTest struct {
	ID, Account, Endpoint, DeliveryID string
	Refusal                           *Error
}

// RecordAttempt records one attempt's outcome of delivery Delivery: 2xx
// delivers it; otherwise the next attempt waits Schedule[n-1] after this
// one ended (its outcome recorded: a receiver that times out after 10 s
// still gets the whole wait), and when the schedule is spent the delivery
// is failed.
type RecordAttempt struct {
	Delivery string
	Attempt  Attempt
	Schedule []time.Duration
}

// AbandonDelivery fails a pending delivery without an attempt (its
// endpoint was deleted).
type AbandonDelivery struct{ Delivery string }

// ResendDelivery is POST /webhooks/{id}/resend {event_id}: the event's
// failed delivery to Endpoint is pending again, for one more attempt (a
// failure fails it again; the schedule is not restarted). The host checks
// the endpoint (its account, its state); Refusal is its answer.
type ResendDelivery struct {
	Account, Endpoint string
	Refusal           *Error
}

func (FanOut) Target() Kind          { return KindEvent }
func (CreateTest) Target() Kind      { return KindEvent }
func (RecordAttempt) Target() Kind   { return KindEvent }
func (AbandonDelivery) Target() Kind { return KindEvent }
func (ResendDelivery) Target() Kind  { return KindEvent }

// TestDeliveryView is POST /webhooks/{id}/test's answer.
type TestDeliveryView struct {
	DeliveryID string `json:"delivery_id"`
}

// DeliveryStateView is the host's answer to an event command: where the
// delivery stands after it.
type DeliveryStateView struct {
	Delivery string `json:"delivery"`
	State    string `json:"state"`
	NextAt   string `json:"next_at"`
	Attempts int    `json:"attempts"`
}

// Handle runs req through the event's idempotency store and Decide.
func (s *EventState) Handle(req Request, env Env) Outcome {
	return handleOne(&s.Idem, req, env, "event", s.Decide, func(w *WebhookEvent) Event { return Event{Kind: EvWebhookEventPut, WebhookEvent: w} })
}

// Decide validates cmd against the event and returns its new row (nil for
// none) and the reply.
func (s *EventState) Decide(cmd Command, env Env) (*WebhookEvent, Reply, *Error) {
	switch c := cmd.(type) {
	case FanOut:
		return s.fanOut(c, env)
	case CreateTest:
		return s.createTest(c, env)
	}
	w := s.Event
	if w == nil {
		return nil, Reply{}, ErrNotFound("event")
	}
	switch c := cmd.(type) {
	case RecordAttempt:
		return recordAttempt(w, c, env)
	case ResendDelivery:
		return resend(w, c, env)
	case AbandonDelivery:
		d := w.Delivery(c.Delivery)
		if d == nil || d.State != DeliveryPending {
			return nil, Reply{}, ErrInvalidState("delivery %s is not pending", c.Delivery)
		}
		n := w.clone()
		nd := n.Delivery(c.Delivery)
		nd.State = DeliveryFailed
		n.UpdatedAt = env.Now
		return n, deliveryReply(nd), nil
	}
	panic(fmt.Sprintf("domain: decide of unknown event command %T", cmd))
}

func (s *EventState) fanOut(c FanOut, env Env) (*WebhookEvent, Reply, *Error) {
	base := s.Event
	if base == nil {
		base = c.Event
	}
	if base == nil || c.Event == nil || base.ID != c.Event.ID {
		panic("domain: fan-out without the born event")
	}
	if base.FannedOut {
		return nil, jsonReply(200, base.ID), nil
	}
	if len(c.Endpoints) != len(c.DeliveryIDs) || len(c.Endpoints) > MaxDeliveriesPerEvent {
		panic(fmt.Sprintf("domain: fan-out of %s to %d endpoints with %d ids", base.ID, len(c.Endpoints), len(c.DeliveryIDs)))
	}
	n := base.clone()
	n.FannedOut, n.UpdatedAt = true, env.Now
	for i, ep := range c.Endpoints {
		n.Deliveries = append(n.Deliveries, Delivery{ID: c.DeliveryIDs[i], Endpoint: ep, State: DeliveryPending, NextAt: env.Now})
	}
	return n, jsonReply(200, n.ID), nil
}

func (s *EventState) createTest(c CreateTest, env Env) (*WebhookEvent, Reply, *Error) {
	if s.Event != nil {
		return nil, Reply{}, ErrInvalidState("event %s exists", s.Event.ID)
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	if c.ID == "" || c.Account == "" || c.Endpoint == "" || c.DeliveryID == "" {
		panic("domain: webhook test without ids")
	}
	w := NewWebhookEvent(c.ID, c.Account, EventWebhookTest, c.Endpoint, struct {
		EndpointID string `json:"endpoint_id"`
	}{c.Endpoint}, env.Now)
	w.FannedOut = true
	w.Deliveries = []Delivery{{ID: c.DeliveryID, Endpoint: c.Endpoint, State: DeliveryPending, NextAt: env.Now}}
	return w, jsonReply(202, TestDeliveryView{DeliveryID: c.DeliveryID}), nil
}

// recordAttempt appends an attempt to a pending delivery and moves it on:
// delivered on 2xx, failed once the schedule is spent, else pending until
// the schedule's next wait has passed.
func recordAttempt(w *WebhookEvent, c RecordAttempt, env Env) (*WebhookEvent, Reply, *Error) {
	d := w.Delivery(c.Delivery)
	if d == nil || d.State != DeliveryPending {
		return nil, Reply{}, ErrInvalidState("delivery %s is not pending", c.Delivery)
	}
	if len(d.Attempts) >= MaxAttemptsPerDelivery || len(c.Schedule) >= MaxAttemptsPerDelivery {
		panic(fmt.Sprintf("domain: delivery %s past %d attempts", d.ID, MaxAttemptsPerDelivery))
	}
	n := w.clone()
	nd := n.Delivery(c.Delivery)
	a := c.Attempt
	a.N = len(nd.Attempts) + 1
	a.At = a.At.UTC()
	if len(a.Error) > MaxAttemptErrorBytes {
		a.Error = a.Error[:MaxAttemptErrorBytes]
	}
	nd.Attempts = append(nd.Attempts, a)
	switch {
	case a.StatusCode >= 200 && a.StatusCode < 300:
		nd.State = DeliveryDelivered
	case a.N > len(c.Schedule):
		nd.State = DeliveryFailed
	default:
		nd.NextAt = env.Now.Add(c.Schedule[a.N-1]) // from the attempt's end, not its start
	}
	n.UpdatedAt = env.Now
	return n, deliveryReply(nd), nil
}

// resend makes the event's failed delivery to the endpoint pending now.
func resend(w *WebhookEvent, c ResendDelivery, env Env) (*WebhookEvent, Reply, *Error) {
	if w.Account != c.Account {
		return nil, Reply{}, ErrNotFound("event")
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	var d *Delivery
	for i := range w.Deliveries {
		if w.Deliveries[i].Endpoint == c.Endpoint {
			d = &w.Deliveries[i]
		}
	}
	switch {
	case d == nil:
		return nil, Reply{}, ErrInvalidState("event %s has no delivery to webhook endpoint %s (its events filter left it out, or it was registered later)", w.ID, c.Endpoint)
	case d.State != DeliveryFailed:
		return nil, Reply{}, ErrInvalidState("delivery %s is %s; only a failed delivery is sent again", d.ID, d.State)
	case len(d.Attempts) >= MaxAttemptsPerDelivery:
		return nil, Reply{}, ErrInvalidState("delivery %s has had %d attempts, the most one delivery records", d.ID, len(d.Attempts))
	}
	n := w.clone()
	nd := n.Delivery(d.ID)
	nd.State, nd.NextAt = DeliveryPending, env.Now
	n.UpdatedAt = env.Now
	return n, jsonReply(202, TestDeliveryView{DeliveryID: d.ID}), nil
}

func deliveryReply(d *Delivery) Reply {
	return jsonReply(200, DeliveryStateView{Delivery: d.ID, State: d.State, NextAt: RFC3339(d.NextAt), Attempts: len(d.Attempts)})
}
