package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook/screen"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// EndpointRequest is the body of POST /webhooks (CONTRACT.md).
type EndpointRequest struct {
	URL         string    `json:"url"`
	Events      *[]string `json:"events"`
	Description *string   `json:"description"`
}

// EndpointUpdate is the body of PATCH /webhooks/{id}.
type EndpointUpdate struct {
	URL         *string   `json:"url"`
	Events      *[]string `json:"events"`
	Description *string   `json:"description"`
	State       *string   `json:"state"`
}

var errNoEndpoint = domain.ErrNotFound("webhook endpoint")

// CreateEndpoint is POST /webhooks: the id is reserved under the key, the
// URL screened, the secret made and sealed, then the endpoint created;
// the answer shows the secret, opened on the way out (StoredSecret).
func (d *Desk) CreateEndpoint(ctx context.Context, acct string, req EndpointRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	if d.cfg.Sealer == nil { // nothing is stored, not even the key's answer
		return domain.Refuse(domain.ErrWebhookEncryptionUnavailable()), nil
	}
	r, out, err := d.e.Reserve(ctx, acct, domain.KindEndpoint, idem)
	if r.ID == "" || err != nil {
		return out, err
	}
	id := r.ID
	cmd := domain.CreateEndpoint{ID: id, Account: acct, URL: req.URL}
	if req.Events != nil {
		cmd.Events = *req.Events
		if cmd.Events == nil {
			cmd.Events = []string{}
		}
	}
	if req.Description != nil {
		cmd.Description = *req.Description
	}
	cmd.Refusal = d.screenURL(ctx, req.URL)
	d.creates.Lock() // until the endpoint is in the count (its hook runs before Create returns)
	defer d.creates.Unlock()
	if cmd.Refusal == nil && d.count(acct) >= domain.MaxEndpointsPerAccount {
		cmd.Refusal = domain.ErrInvalid("an account has at most %d webhook endpoints; delete one first", domain.MaxEndpointsPerAccount)
	}
	if cmd.Sealed, err = d.newSealedSecret(id); err != nil {
		return domain.Outcome{}, err
	}
	out, err = d.e.CreateReserved(ctx, r, domain.Request{Cmd: cmd, Idem: idem})
	return d.reveal(id, out, err)
}

// UpdateEndpoint is PATCH /webhooks/{id}.
func (d *Desk) UpdateEndpoint(ctx context.Context, acct, id string, req EndpointUpdate, idem *domain.IdemRequest) (domain.Outcome, error) {
	cmd := domain.UpdateEndpoint{Account: acct, URL: req.URL, Description: req.Description, State: req.State}
	if req.Events != nil {
		events := *req.Events
		if events == nil {
			events = []string{}
		}
		cmd.Events = &events
	}
	if req.URL != nil {
		cmd.Refusal = d.screenURL(ctx, *req.URL)
	}
	return d.exec(ctx, id, cmd, idem)
}

// DeleteEndpoint is DELETE /webhooks/{id}; its pending deliveries are
// abandoned (failed, never attempted again).
func (d *Desk) DeleteEndpoint(ctx context.Context, acct, id string, idem *domain.IdemRequest) (domain.Outcome, error) {
	return d.exec(ctx, id, domain.DeleteEndpoint{Account: acct}, idem)
}

// RotateSecret is POST /webhooks/{id}/rotate-secret.
func (d *Desk) RotateSecret(ctx context.Context, acct, id string, idem *domain.IdemRequest) (domain.Outcome, error) {
	if d.cfg.Sealer == nil {
		return domain.Refuse(domain.ErrWebhookEncryptionUnavailable()), nil
	}
	if !isEndpointID(id) {
		return domain.Refuse(errNoEndpoint), nil
	}
	sealed, err := d.newSealedSecret(id)
	if err != nil {
		return domain.Outcome{}, err
	}
	out, err := d.exec(ctx, id, domain.RotateSecret{Account: acct, Sealed: sealed}, idem)
	return d.reveal(id, out, err)
}

// TestEndpoint is POST /webhooks/{id}/test: a webhook.test event, born
// fanned out to that endpoint, its id reserved under the key. The key is
// looked at first: a test answered 202 replays as 202 for 24 h even once
// its endpoint is deleted (the endpoint's 404 is the answer only to a key
// never used, and is stored under it like any answer).
func (d *Desk) TestEndpoint(ctx context.Context, acct, id string, idem *domain.IdemRequest) (domain.Outcome, error) {
	evt, out, err := d.e.Reserve(ctx, acct, domain.KindEvent, idem)
	if evt.ID == "" || err != nil {
		return out, err
	}
	cmd := domain.CreateTest{ID: evt.ID, Account: acct, Endpoint: id, DeliveryID: d.e.NewID(domain.DeliveryPrefix, acct)}
	if cmd.Refusal, err = d.sendable(ctx, acct, id); err != nil {
		return domain.Outcome{}, err
	}
	return d.e.CreateReserved(ctx, evt, domain.Request{Cmd: cmd, Idem: idem})
}

// sendable is the refusal of a send to endpoint id of acct (a test, a
// resend): 404 when it is not the account's, 409 unless enabled; nil when
// it may be sent to. The refusal rides in the event's command, so it is
// stored under the Idempotency-Key like any answer.
func (d *Desk) sendable(ctx context.Context, acct, id string) (*domain.Error, error) {
	ep, err := d.Endpoint(ctx, acct, id)
	switch {
	case errors.Is(err, actors.ErrNoEntity):
		return errNoEndpoint, nil
	case err != nil:
		return nil, err
	case ep.State != domain.EndpointEnabled:
		return domain.ErrInvalidState("webhook endpoint %s is %s; enable it first", id, ep.State), nil
	}
	return nil, nil
}

// ResendRequest is the body of POST /webhooks/{id}/resend.
type ResendRequest struct {
	EventID string `json:"event_id"`
}

// Resend is POST /webhooks/{id}/resend: the event's failed delivery to the
// endpoint goes out once more (202 {delivery_id}), if sendable.
func (d *Desk) Resend(ctx context.Context, acct, id string, req ResendRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	if req.EventID == "" {
		return domain.Refuse(domain.ErrInvalid("event_id is required")), nil
	}
	if k, ok := domain.KindOf(req.EventID); !ok || k != domain.KindEvent {
		return domain.Refuse(domain.ErrNotFound("event")), nil
	}
	cmd := domain.ResendDelivery{Account: acct, Endpoint: id}
	var err error
	if cmd.Refusal, err = d.sendable(ctx, acct, id); err != nil {
		return domain.Outcome{}, err
	}
	out, err := d.e.Exec(ctx, req.EventID, domain.Request{Cmd: cmd, Idem: idem})
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Refuse(domain.ErrNotFound("event")), nil
	}
	return out, err
}

// Endpoint returns the endpoint id of acct; actors.ErrNoEntity when there
// is none, or it was deleted, or it is another account's.
func (d *Desk) Endpoint(ctx context.Context, acct, id string) (*domain.Endpoint, error) {
	r, err := d.e.Row(ctx, domain.KindEndpoint, id, acct)
	if err != nil {
		return nil, err
	}
	ep := r.(*domain.Endpoint)
	if ep.State == domain.EndpointDeleted {
		return nil, actors.ErrNoEntity
	}
	return ep, nil
}

// exec runs an endpoint command; an id that names no endpoint is 404.
func (d *Desk) exec(ctx context.Context, id string, cmd domain.Command, idem *domain.IdemRequest) (domain.Outcome, error) {
	if !isEndpointID(id) {
		return domain.Refuse(errNoEndpoint), nil
	}
	out, err := d.e.Exec(ctx, id, domain.Request{Cmd: cmd, Idem: idem})
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Refuse(errNoEndpoint), nil
	}
	return out, err
}

func isEndpointID(id string) bool {
	k, ok := domain.KindOf(id)
	return ok && k == domain.KindEndpoint
}

// screenURL screens a receiver URL, as 400 invalid_webhook_url.
func (d *Desk) screenURL(ctx context.Context, url string) *domain.Error {
	if url == "" {
		return domain.ErrInvalid("url is required")
	}
	if _, err := screen.Screen(ctx, url, d.cfg.Policy, d.cfg.Resolver); err != nil {
		return domain.ErrInvalidWebhookURL("%s", err.Error())
	}
	return nil
}

// count is the number of live endpoints of acct.
func (d *Desk) count(acct string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.byAccount[acct])
}

// newSealedSecret makes a secret and seals it to endpoint id, under the
// current master key.
func (d *Desk) newSealedSecret(id string) ([]byte, error) {
	text, err := sign.NewSecret()
	if err != nil {
		return nil, err
	}
	sealed, err := d.cfg.Sealer.Seal([]byte(text), []byte(id))
	if err != nil {
		return nil, fmt.Errorf("webhook: seal the secret of %s: %w", id, err)
	}
	return sealed, nil
}

// openSecret opens a sealed secret of endpoint id to its HMAC key.
func (d *Desk) openSecret(id string, sealed []byte) ([]byte, error) {
	text, err := d.cfg.Sealer.Open(sealed, []byte(id))
	if err != nil {
		return nil, fmt.Errorf("webhook: open the secret of %s: %w", id, err)
	}
	return sign.ParseSecret(string(text))
}

// sealedField finds the sealed secret an answer holds.
var sealedField = regexp.MustCompile(`"secret":"(sealed:[A-Za-z0-9_-]+)"`)

// reveal opens the sealed secret of an answer (first or replayed): the log
// holds the answer sealed, the caller gets the secret. A reseal (a master
// key rotation) does not rewrite stored answers: one stored before the
// rotation opens only while the key that sealed it is still configured as
// a previous key, which is why operators keep that key for
// domain.IdemRetention after the reseal.
func (d *Desk) reveal(id string, out domain.Outcome, err error) (domain.Outcome, error) {
	if err != nil {
		return out, err
	}
	m := sealedField.FindSubmatchIndex(out.Reply.Body)
	if m == nil {
		return out, nil
	}
	token := string(out.Reply.Body[m[2]:m[3]])
	sealed, ok := domain.ParseSealedToken(token)
	if !ok {
		panic("webhook: unreadable sealed secret in an answer")
	}
	text, err := d.cfg.Sealer.Open(sealed, []byte(id))
	if err != nil {
		return domain.Outcome{}, fmt.Errorf("webhook: open the answer's secret of %s: %w", id, err)
	}
	body := bytes.Clone(out.Reply.Body)
	out.Reply.Body = append(body[:m[2]], append(text, out.Reply.Body[m[3]:]...)...)
	return out, nil
}
