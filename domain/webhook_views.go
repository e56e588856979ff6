package domain

import (
	"strconv"
	"strings"
	"time"
)

// EndpointView is a webhook endpoint as its account sees it. Field order
// is the wire order, CONTRACT.md's. Secret is set only in POST /webhooks's
// answer (in the stored answer, its SealedToken): no other view shows it.
type EndpointView struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	State       string   `json:"state"`
	Secret      *string  `json:"secret,omitempty"`
	CreatedAt   string   `json:"created_at"`
}

// ViewEndpoint renders an endpoint, without its secret.
func ViewEndpoint(e *Endpoint) EndpointView {
	return EndpointView{ID: e.ID, URL: e.URL, Events: e.Events, Description: nullable(e.Description), State: e.State, CreatedAt: RFC3339(e.CreatedAt)}
}

// ViewEndpointCreated renders a new endpoint with its secret's token.
func ViewEndpointCreated(e *Endpoint, secretToken string) EndpointView {
	v := ViewEndpoint(e)
	v.Secret = &secretToken
	return v
}

// SecretView is POST /webhooks/{id}/rotate-secret's answer.
type SecretView struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
}

// AttemptView is one row of GET /webhooks/{id}/deliveries.
type AttemptView struct {
	ID         string  `json:"id"`
	EventID    string  `json:"event_id"`
	Attempt    int     `json:"attempt"`
	StatusCode *int    `json:"status_code"`
	Error      *string `json:"error"`
	DurationMs int64   `json:"duration_ms"`
	At         string  `json:"at"`
}

// ViewAttempts renders a delivery's attempts, newest first.
func ViewAttempts(eventID string, d *Delivery) []AttemptView {
	out := make([]AttemptView, 0, len(d.Attempts))
	for i := len(d.Attempts) - 1; i >= 0; i-- {
		a := d.Attempts[i]
		v := AttemptView{ID: d.ID, EventID: eventID, Attempt: a.N, Error: nullable(a.Error), DurationMs: a.DurationMs, At: RFC3339(a.At)}
		if a.StatusCode != 0 {
			code := a.StatusCode
			v.StatusCode = &code
		}
		out = append(out, v)
	}
	return out
}

// AttemptCursor is the cursor of a deliveries page cut inside delivery id
// after its attempt n: "<id>:<n>" (ids never hold a colon).
func AttemptCursor(id string, n int) string { return id + ":" + strconv.Itoa(n) }

// SplitAttemptCursor reads AttemptCursor's form: ok only for "<id>:<n>"
// with id not empty and n a canonical number from 1.
func SplitAttemptCursor(s string) (id string, n int, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	num := s[i+1:]
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 || num != strconv.Itoa(n) {
		return "", 0, false
	}
	return s[:i], n, true
}

// FiredEvent of an order: its terminal state's event, the order as its
// GET shows it at the transition.
func (o *Order) FiredEvent() (string, any, time.Time) {
	typ := map[string]string{OrderSettled: EventOrderSettled, OrderFailed: EventOrderFailed, OrderRefunded: EventOrderRefunded}[o.State]
	return typ, ViewOrder(o), o.UpdatedAt
}

// FiredEvent of a transfer: transfer.confirmed or transfer.failed.
func (t *Transfer) FiredEvent() (string, any, time.Time) {
	typ := map[string]string{TransferConfirmed: EventTransferConfirmed, TransferFailed: EventTransferFailed}[t.State]
	return typ, ViewTransfer(t), t.UpdatedAt
}

// FiredEvent of a payment link: payment_link.paid.
func (l *Link) FiredEvent() (string, any, time.Time) {
	if l.State != LinkPaid {
		return "", nil, time.Time{}
	}
	return EventLinkPaid, ViewLink(l), l.UpdatedAt
}
