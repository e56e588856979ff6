package domain

import (
	"encoding/json"
	"fmt"
	"time"
)

// KindEvent is a webhook event (evt_…): the exact payload every receiver
// gets, and its delivery to each endpoint that matched when it fired.
// An event is born in the log record of the transition that fired it (an
// order, a transfer or a payment link's row; see rowEvents), so its bytes
// are durable before any attempt; its fan-out to the account's endpoints
// is then the event entity's own record (FanOut), and each attempt's
// outcome another (RecordAttempt). A webhook.test event is born fanned out
// to the one endpoint it tests (CreateTest).
const KindEvent Kind = 7

// Delivery states: one event to one endpoint.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
)

// EventWebhookTest is the type of POST /webhooks/{id}/test's event.
const EventWebhookTest = "webhook.test"

// EventTypes are every event type (SPEC.md "Events", and webhook.test).
var EventTypes = []string{
	EventOrderSettled, EventOrderFailed, EventOrderRefunded,
	EventTransferConfirmed, EventTransferFailed, EventLinkPaid, EventWebhookTest,
}

// KnownEventType reports whether typ is an event type.
func KnownEventType(typ string) bool {
	for _, t := range EventTypes {
		if t == typ {
			return true
		}
	}
	return false
}

// Bounds of an event row.
const (
	// MaxDeliveriesPerEvent: an event goes to at most every endpoint of
	// its account.
	MaxDeliveriesPerEvent = MaxEndpointsPerAccount
	// MaxAttemptsPerDelivery bounds the attempts one delivery records
	// (the schedule's length plus one is at most this).
	MaxAttemptsPerDelivery = 64
	// MaxAttemptErrorBytes bounds an attempt's error text.
	MaxAttemptErrorBytes = 300
	// EventRetention is how long GET /events lists an event.
	EventRetention = 30 * 24 * time.Hour
)

// Attempt is one delivery attempt's outcome.
type Attempt struct {
	N          int // 1-based
	StatusCode int // 0: no HTTP answer (a transport error)
	Error      string
	DurationMs int64
	At         time.Time
}

// Delivery is an event's delivery to one endpoint.
type Delivery struct {
	ID       string // dlv_…
	Endpoint string // wh_…
	State    string
	NextAt   time.Time // pending: no attempt before then
	Attempts []Attempt
}

// WebhookEvent is one event row. Immutable once built.
type WebhookEvent struct {
	ID        string // evt_…
	Account   string
	Type      string
	CreatedAt time.Time
	// Body is the payload, byte for byte what every attempt sends and
	// GET /events/{id} answers.
	Body []byte
	// Source is the record whose transition fired it (ord_, tr_, pl_ or,
	// for webhook.test, the endpoint).
	Source string
	// FannedOut: Deliveries lists every endpoint that matched at fan-out.
	FannedOut  bool
	Deliveries []Delivery
	UpdatedAt  time.Time
}

// EventPayload is the Standard Webhooks body (CONTRACT.md "Webhooks").
type EventPayload struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	CreatedAt  string `json:"created_at"`
	APIVersion string `json:"api_version"`
	Data       struct {
		Object any `json:"object"`
	} `json:"data"`
}

// NewWebhookEvent renders the event id of type typ about object at the
// moment at: its body is fixed here, once.
func NewWebhookEvent(id, account, typ, source string, object any, at time.Time) *WebhookEvent {
	p := EventPayload{ID: id, Type: typ, CreatedAt: RFC3339(at), APIVersion: WebhookAPIVersion}
	p.Data.Object = object
	body, err := json.Marshal(p)
	if err != nil {
		panic("domain: marshal event payload: " + err.Error())
	}
	return &WebhookEvent{ID: id, Account: account, Type: typ, CreatedAt: at.UTC(), Body: body, Source: source, UpdatedAt: at.UTC()}
}

// firer is a row that may fire a webhook event in its transition.
type firer interface {
	Row
	// FiredEvent is the type and API view of the event the row's state
	// fires ("" when it fires none) and the transition's time.
	FiredEvent() (typ string, object any, at time.Time)
}

// rowEvents wraps an entity's new rows as log events and, after the row
// whose transition fires a webhook event (its event id is new), the
// event's birth: so the event's bytes are in the same record as the
// transition. prevEvent is the event id of the entity's current row.
func rowEvents[R firer](prevEvent string, rows []R, wrap func(R) Event) []Event {
	out := make([]Event, 0, len(rows)+1)
	for _, r := range rows {
		out = append(out, wrap(r))
		ev := r.RowEventID()
		if ev == "" || ev == prevEvent {
			continue
		}
		typ, object, at := r.FiredEvent()
		if typ == "" {
			panic(fmt.Sprintf("domain: %s has event id %s in a state that fires none", r.RowID(), ev))
		}
		out = append(out, Event{Kind: EvWebhookEventPut, WebhookEvent: NewWebhookEvent(ev, r.RowAccount(), typ, r.RowID(), object, at)})
		prevEvent = ev
	}
	return out
}

// Delivery returns the delivery id of the event, nil if none.
func (w *WebhookEvent) Delivery(id string) *Delivery {
	for i := range w.Deliveries {
		if w.Deliveries[i].ID == id {
			return &w.Deliveries[i]
		}
	}
	return nil
}

// clone copies the row deeply enough to edit its deliveries.
func (w *WebhookEvent) clone() *WebhookEvent {
	n := *w
	n.Deliveries = make([]Delivery, len(w.Deliveries))
	for i, d := range w.Deliveries {
		d.Attempts = append([]Attempt(nil), d.Attempts...)
		n.Deliveries[i] = d
	}
	return &n
}

// Row methods of an event. It is live until fanned out: a start finds
// the events whose fan-out a crash interrupted in the live index. Pending
// deliveries are indexed per endpoint by the store (EvWebhookEventPut).
func (w *WebhookEvent) RowID() string                { return w.ID }
func (w *WebhookEvent) RowAccount() string           { return w.Account }
func (w *WebhookEvent) Live() bool                   { return !w.FannedOut }
func (w *WebhookEvent) RowEventID() string           { return "" }
func (w *WebhookEvent) LookupKeys() []string         { return nil }
func (w *WebhookEvent) Ledger() []LedgerEntry        { return nil }
func (w *WebhookEvent) MarshalRow(dst []byte) []byte { return MarshalWebhookEvent(dst, w) }

// EventState is one event entity. The zero value is an event not born.
type EventState struct {
	Event *WebhookEvent
	Idem  IdemStore
}

// NewEventState returns an empty event entity.
func NewEventState() *EventState { return &EventState{} }

// Clone copies the state; rows are shared, they are immutable.
func (s *EventState) Clone() Entity { return &EventState{Event: s.Event, Idem: s.Idem.Clone()} }

// Exists reports whether the entity holds a row or a stored answer.
func (s *EventState) Exists() bool { return s.Event != nil || s.Idem.Len() > 0 }

// InFlight is IdemStore.InFlight against the committed event state.
func (s *EventState) InFlight(committed Entity, scope string, now time.Time) bool {
	return s.Idem.InFlight(&committed.(*EventState).Idem, scope, now)
}

// Apply applies one event of an event entity's record.
func (s *EventState) Apply(e *Event) {
	switch e.Kind {
	case EvWebhookEventPut:
		s.applyRow(e.WebhookEvent)
	case EvIdemPut:
		s.Idem.Put(e.Idem)
	default:
		panic(fmt.Sprintf("domain: apply of event kind %s to a webhook event", e.Kind))
	}
}

func (s *EventState) applyRow(w *WebhookEvent) {
	if w == nil || w.ID == "" || w.Account == "" || len(w.Body) == 0 {
		panic("domain: apply webhook_event_put without id, account or body")
	}
	if old := s.Event; old != nil && (old.ID != w.ID || string(old.Body) != string(w.Body) || old.FannedOut && !w.FannedOut) {
		panic(fmt.Sprintf("domain: apply webhook_event_put of %s: not a successor of the current row", w.ID))
	}
	for _, d := range w.Deliveries {
		if d.ID == "" || d.Endpoint == "" || (d.State != DeliveryPending && d.State != DeliveryDelivered && d.State != DeliveryFailed) {
			panic(fmt.Sprintf("domain: apply webhook_event_put of %s: bad delivery %+v", w.ID, d))
		}
	}
	s.Event = w
}
