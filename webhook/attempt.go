package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook/screen"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// maxDrain bounds the response body read to keep a connection reusable;
// a longer answer closes it.
const maxDrain = 64 << 10

// attempt is one delivery attempt: sign, POST, then the outcome in the
// log (the event's record first, then the endpoint's failure count). A
// job that cannot write is retried by the driver, attempt included: the
// receiver may get the event twice, which at-least-once allows.
func (s *sender) attempt(ctx context.Context, p *pending) error {
	ep := s.ep.Load()
	if ep == nil {
		return s.abandon(ctx, p)
	}
	keys, err := s.signingKeys(ep)
	if err != nil {
		return err // the server's fault, not the receiver's: nothing recorded
	}
	select {
	case s.posts <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	a := s.post(ctx, ep, p.ev, keys)
	<-s.posts
	out, err := s.d.e.Exec(ctx, p.ev.ID, domain.Request{Cmd: domain.RecordAttempt{Delivery: p.dlv, Attempt: a, Schedule: s.d.cfg.Schedule}})
	if err != nil {
		return fmt.Errorf("webhook: record attempt of %s: %w", p.dlv, err)
	}
	if out.Err != nil {
		return nil // no longer pending: another path finished it
	}
	ok := a.StatusCode >= 200 && a.StatusCode < 300
	if ok {
		s.d.attemptsOK.Add(1)
	} else {
		s.d.attemptsFailed.Add(1)
	}
	if _, err := s.d.e.Exec(ctx, ep.ID, domain.Request{Cmd: domain.RecordOutcome{OK: ok}}); err != nil {
		return fmt.Errorf("webhook: record outcome on %s: %w", ep.ID, err)
	}
	return nil
}

// abandon fails a pending delivery of a deleted endpoint.
func (s *sender) abandon(ctx context.Context, p *pending) error {
	_, err := s.d.e.Exec(ctx, p.ev.ID, domain.Request{Cmd: domain.AbandonDelivery{Delivery: p.dlv}})
	if err != nil {
		return fmt.Errorf("webhook: abandon %s: %w", p.dlv, err)
	}
	return nil
}

// signingKeys opens the endpoint's signing secrets (two during a rotation).
func (s *sender) signingKeys(ep *domain.Endpoint) ([][]byte, error) {
	if s.d.cfg.Sealer == nil {
		return nil, errors.New("webhook: no master key configured: deliveries wait until one is")
	}
	sealed := ep.SigningSecrets(s.d.cfg.Clock())
	keys := make([][]byte, 0, len(sealed))
	for _, sl := range sealed {
		k, err := s.keys.get(sl, func(b []byte) ([]byte, error) { return s.d.openSecret(ep.ID, b) })
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// post sends the event once and reports the outcome; it never returns
// an error, since every failure is the attempt's outcome.
func (s *sender) post(ctx context.Context, ep *domain.Endpoint, w *domain.WebhookEvent, keys [][]byte) domain.Attempt {
	now := s.d.cfg.Clock()
	a := domain.Attempt{At: now}
	ts := now.Unix()
	sig, err := sign.Header(keys, w.ID, ts, w.Body)
	if err != nil {
		panic("webhook: sign: " + err.Error()) // at most two keys of the right size: a broken invariant
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(w.Body))
	if err != nil {
		a.Error = "invalid url: " + err.Error()
		return a
	}
	h := req.Header
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", "fxd-webhooks/1.0")
	h.Set("webhook-id", w.ID)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", sig)
	start := time.Now()
	resp, err := s.client.Load().Do(req)
	if err == nil {
		_, _ = io.CopyN(io.Discard, resp.Body, maxDrain)
		_ = resp.Body.Close()
	}
	a.DurationMs = time.Since(start).Milliseconds()
	switch {
	case err != nil:
		a.Error = describe(err)
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		a.StatusCode, a.Error = resp.StatusCode, "redirect not followed"
	default:
		a.StatusCode = resp.StatusCode
	}
	return a
}

// describe is a transport error as a delivery row shows it: the cause,
// without Go's "Post <url>:" wrapping.
func describe(err error) string {
	var se *screen.Error
	if errors.As(err, &se) {
		return se.Error()
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return fmt.Sprintf("timeout: no answer within %s", AttemptTimeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// newClient is an endpoint's HTTP client (screen.Client): screened at
// every new connection, TLS verified (RootCAs adds --webhook-ca), no
// redirects, AttemptTimeout for the whole exchange, MaxInFlight
// connections kept for reuse.
func (d *Desk) newClient(rawURL string) *http.Client {
	return screen.Client(rawURL, d.cfg.Policy, d.cfg.Resolver, d.cfg.RootCAs, AttemptTimeout, MaxInFlight)
}
