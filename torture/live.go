package torture

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/fxd-labs/fxd/client"
)

// live is a record whose state moves after its create: it can be read
// again and its answer absorbed.
type live interface {
	base() *tracked
	// getPath is the record's own GET, relative to the base path.
	getPath() string
	// absorb decodes the record's view, keeps it as the latest and
	// returns its state.
	absorb(body []byte) (string, error)
}

func (o *orderRec) base() *tracked    { return &o.tracked }
func (t *transferRec) base() *tracked { return &t.tracked }
func (l *linkRec) base() *tracked     { return &l.tracked }
func (e *endpointRec) base() *tracked { return &e.tracked }

func (o *orderRec) getPath() string    { return "/fx/orders/" + o.id }
func (t *transferRec) getPath() string { return "/transfers/" + t.id }
func (l *linkRec) getPath() string     { return "/payment-links/" + l.id }
func (e *endpointRec) getPath() string { return "/webhooks/" + e.id }

func (o *orderRec) absorb(body []byte) (string, error) {
	var v client.Order
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	o.locked(func() { o.final = &v })
	return v.State, nil
}

func (t *transferRec) absorb(body []byte) (string, error) {
	var v client.Transfer
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	t.locked(func() { t.final = &v })
	return v.State, nil
}

func (l *linkRec) absorb(body []byte) (string, error) {
	var v client.PaymentLink
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	l.locked(func() { l.final = &v })
	return v.State, nil
}

func (e *endpointRec) absorb(body []byte) (string, error) {
	var v client.Webhook
	if err := json.Unmarshal(body, &v); err != nil {
		return "", err
	}
	return v.State, nil
}

// observeAnswer absorbs a write's answer about rec and notes its state,
// unless the answer is a replay (a stored, older answer).
func (h *harness) observeAnswer(rec live, resp *client.Response) {
	if replayed(resp) || resp.Status/100 != 2 {
		return
	}
	state, err := rec.absorb(resp.Body)
	if err != nil {
		h.fail("%s %s: answer does not decode: %v", rec.base().kind, rec.base().id, err)
		return
	}
	rec.base().observe(state)
}

// refresh reads rec with c and notes its state; a record the service
// acknowledged and no longer knows is a failure.
func (h *harness) refresh(ctx context.Context, c *client.Client, rec live) {
	t := rec.base()
	if t.id == "" {
		return
	}
	t.flight.Lock()
	defer t.flight.Unlock()
	if g, ok := rec.(interface{ gone() bool }); ok && g.gone() {
		return // a delete was sent: its GET may be 404
	}
	resp, err := h.get(ctx, c, rec.getPath())
	if err != nil {
		return
	}
	if resp.Status != http.StatusOK {
		h.fail("GET %s: %d %.200s (the record was acknowledged)", rec.getPath(), resp.Status, resp.Body)
		return
	}
	state, err := rec.absorb(resp.Body)
	if err != nil {
		h.fail("GET %s: %v", rec.getPath(), err)
		return
	}
	t.observe(state)
}
