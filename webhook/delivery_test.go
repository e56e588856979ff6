package webhook

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// attempts reads GET /webhooks/{id}/deliveries (one page of up to 200).
func (h *harness) attempts(ep string) []domain.AttemptView {
	h.t.Helper()
	page, err := h.d.ListDeliveries(ctxT(h.t), h.acct, ep, domain.Page{Limit: 200})
	require.NoError(h.t, err)
	return page.Data
}

// pendingOf lists the store's pending deliveries of endpoint ep.
func (h *harness) pendingOf(ep string) []string {
	h.t.Helper()
	var out []string
	require.NoError(h.t, h.e.PendingDeliveries(ctxT(h.t), ep, "", 1<<20, func(ref snapshot.DeliveryRef) error {
		out = append(out, ref.Delivery)
		return nil
	}))
	return out
}

// TestWebhookTestDelivery: POST /webhooks/{id}/test reaches the receiver
// once, signed with the revealed secret, webhook-id the event id, the
// body byte for byte GET /events/{id}'s; the deliveries list shows the
// attempt.
func TestWebhookTestDelivery(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(3)}, false)
	rc := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, rc.URL())
	other := h.createEndpoint(h.acct, rc.URL()) // its secret must not verify
	start := time.Now()

	dlv := h.sendTest(h.acct, c.ID)
	got := rc.waitHits(t, 1)
	require.Never(t, func() bool { return rc.count() > 1 }, 300*time.Millisecond, 10*time.Millisecond, "delivered once")
	hh := got[0]

	evt := hh.Header.Get("webhook-id")
	require.True(t, strings.HasPrefix(evt, "evt_"), "webhook-id %q", evt)
	require.Equal(t, http.MethodPost, hh.Method)
	require.Equal(t, "/hooks", hh.Path)
	require.Equal(t, "application/json", hh.Header.Get("Content-Type"))
	ts, err := strconv.ParseInt(hh.Header.Get("webhook-timestamp"), 10, 64)
	require.NoError(t, err)
	require.InDelta(t, start.Unix(), ts, 5)

	require.NoError(t, verify(c.Secret, hh), "signed with the endpoint's secret")
	require.ErrorIs(t, verify(other.Secret, hh), sign.ErrNoMatch, "another endpoint's secret does not verify")
	tampered := hh
	tampered.Body = append([]byte(nil), hh.Body...)
	tampered.Body[len(tampered.Body)-2] ^= 1
	require.ErrorIs(t, verify(c.Secret, tampered), sign.ErrNoMatch)

	body, err := h.d.Event(ctxT(t), h.acct, evt)
	require.NoError(t, err)
	require.Equal(t, string(body), string(hh.Body), "the body is GET /events/{id}'s, byte for byte")
	var p struct {
		ID, Type, CreatedAt, APIVersion string
		Data                            struct {
			Object map[string]any `json:"object"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(hh.Body, &p))
	require.Equal(t, evt, p.ID)
	require.Equal(t, domain.EventWebhookTest, p.Type)
	require.Equal(t, map[string]any{"endpoint_id": c.ID}, p.Data.Object)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(hh.Body, &raw))
	require.JSONEq(t, `"1.0.0"`, string(raw["api_version"]))
	require.Contains(t, raw, "created_at")

	var rows []domain.AttemptView
	require.Eventually(t, func() bool { rows = h.attempts(c.ID); return len(rows) == 1 }, waitFor, pollTick)
	r := rows[0]
	require.Equal(t, dlv, r.ID, "the row's id is the test's delivery_id")
	require.Equal(t, evt, r.EventID)
	require.Equal(t, 1, r.Attempt)
	require.NotNil(t, r.StatusCode)
	require.Equal(t, 200, *r.StatusCode)
	require.Nil(t, r.Error)
	h.waitDelivery(c.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	require.Empty(t, h.attempts(other.ID), "the other endpoint got nothing")

	events, err := h.d.ListEvents(ctxT(t), h.acct, domain.EventWebhookTest, domain.Page{Limit: 10})
	require.NoError(t, err)
	require.Len(t, events.Data, 1)
	require.Equal(t, string(hh.Body), string(events.Data[0]))

	stranger := h.newAccount("stranger")
	_, err = h.d.Event(ctxT(t), stranger, evt)
	require.ErrorIs(t, err, actors.ErrNoEntity, "another account's event is not found")

	// A disabled endpoint refuses a test: 409 invalid_state, nothing sent.
	h.setState(h.acct, c.ID, domain.EndpointDisabled)
	out, err := h.d.TestEndpoint(ctxT(t), h.acct, c.ID, nil)
	require.NoError(t, err)
	require.Equal(t, 409, out.Reply.Status, "%s", out.Reply.Body)
	require.Equal(t, domain.CodeInvalidState, errorCode(t, out.Reply.Body))
	require.Equal(t, 1, rc.count())
}

// TestFanOut: an event born in another record goes to every endpoint of
// its account whose filter wants its type, disabled ones included (their
// delivery waits); not to others, not to another account's.
func TestFanOut(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(3)}, false)
	type ep struct {
		rc *receiver
		c  created
	}
	mk := func(acct string, events ...string) ep {
		rc := newReceiver(t, 200)
		return ep{rc, h.createEndpoint(acct, rc.URL(), events...)}
	}
	all := mk(h.acct)
	confirmed := mk(h.acct, domain.EventTransferConfirmed)
	failed := mk(h.acct, domain.EventTransferFailed)
	settled := mk(h.acct, domain.EventOrderSettled)
	disabled := mk(h.acct, "*")
	h.setState(h.acct, disabled.c.ID, domain.EndpointDisabled)
	stranger := h.newAccount("stranger")
	theirs := mk(stranger)
	everyone := []ep{all, confirmed, failed, settled, disabled, theirs}

	cases := []struct {
		name string
		fire func(n int) string
		want []ep // in creation order
	}{
		{"transfer.confirmed born in the transfer's record", func(n int) string { return h.fireTransfer(h.acct, n) },
			[]ep{all, confirmed, disabled}},
		{"fx.order.settled born elsewhere, fanned out by the hook's path", func(int) string {
			id := h.e.NewID("evt_", h.acct)
			ord := h.e.NewID("ord_", h.acct)
			h.d.trackEvent(domain.NewWebhookEvent(id, h.acct, domain.EventOrderSettled, ord, map[string]string{"id": ord, "state": "settled"}, time.Now()))
			return id
		}, []ep{all, settled, disabled}},
	}
	var waiting []string // deliveries of the disabled endpoint
	for n, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			evt := tc.fire(n)
			w := h.waitFannedOut(evt)
			var eps, want []string
			for _, d := range w.Deliveries {
				eps = append(eps, d.Endpoint)
			}
			for _, e := range tc.want {
				want = append(want, e.c.ID)
			}
			require.Equal(t, want, eps, "the matching endpoints, in creation order")

			for _, e := range tc.want {
				if e.c.ID == disabled.c.ID {
					continue
				}
				require.Eventually(t, func() bool { return len(e.rc.hitsFor(evt)) > 0 }, waitFor, pollTick)
				require.Len(t, e.rc.hitsFor(evt), 1, "once")
				hh := e.rc.hitsFor(evt)[0]
				require.Equal(t, string(w.Body), string(hh.Body))
				require.NoError(t, verify(e.c.Secret, hh))
				h.waitDelivery(e.c.ID, deliveryOf(t, w, e.c.ID), "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
			}
			// The others get nothing; the disabled one waits, unattempted.
			require.Never(t, func() bool {
				for _, e := range everyone {
					wanted := contains(want, e.c.ID) && e.c.ID != disabled.c.ID
					if !wanted && len(e.rc.hitsFor(evt)) > 0 {
						return true
					}
				}
				return false
			}, 200*time.Millisecond, 10*time.Millisecond)
			dlv := deliveryOf(t, w, disabled.c.ID)
			_, d := h.delivery(disabled.c.ID, dlv)
			require.Equal(t, domain.DeliveryPending, d.State)
			require.Empty(t, d.Attempts)
			waiting = append(waiting, dlv)

			// A second fan-out of the same event changes nothing.
			require.NoError(t, h.d.fanOut(ctxT(t), &w))
			require.Len(t, h.event(evt).Deliveries, len(tc.want))
		})
	}
	require.ElementsMatch(t, waiting, h.pendingOf(disabled.c.ID))

	// Enabled again, the disabled endpoint gets what it missed.
	h.setState(h.acct, disabled.c.ID, domain.EndpointEnabled)
	disabled.rc.waitHits(t, len(cases))
	for _, dlv := range waiting {
		h.waitDelivery(disabled.c.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	}
	require.Empty(t, h.pendingOf(disabled.c.ID))
}

func contains[T comparable](xs []T, x T) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestRetriesAndDisable: a failing receiver is retried on the schedule;
// 10 consecutive failures disable the endpoint (no 11th request), and a
// delivery whose schedule is spent is failed; re-enabling (or a success)
// resets the failure count and delivers what waited.
func TestRetriesAndDisable(t *testing.T) {
	cases := []struct {
		name      string
		schedule  int
		attempts  int
		epState   string
		dlvState  string
		reenables bool
	}{
		{"ten failures disable the endpoint", 12, 10, domain.EndpointDisabled, domain.DeliveryPending, true},
		{"a spent schedule fails the delivery", 3, 4, domain.EndpointEnabled, domain.DeliveryFailed, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{Schedule: shortSchedule(tc.schedule)}, false)
			rc := newReceiver(t, 500)
			c := h.createEndpoint(h.acct, rc.URL())
			dlv := h.sendTest(h.acct, c.ID)

			h.waitDelivery(c.ID, dlv, "attempted", func(d *domain.Delivery) bool { return len(d.Attempts) >= tc.attempts })
			require.Eventually(t, func() bool { return h.endpoint(c.ID).State == tc.epState && h.endpoint(c.ID).Failures == tc.attempts },
				waitFor, pollTick, "endpoint %+v", h.endpoint(c.ID))
			// Several schedule steps pass: no further request.
			require.Never(t, func() bool { return rc.count() > tc.attempts }, 500*time.Millisecond, 10*time.Millisecond)
			require.Equal(t, tc.attempts, rc.count())
			_, d := h.delivery(c.ID, dlv)
			require.Equal(t, tc.dlvState, d.State)
			require.Len(t, d.Attempts, tc.attempts)

			rows := h.attempts(c.ID)
			require.Len(t, rows, tc.attempts)
			for i, r := range rows {
				require.Equal(t, tc.attempts-i, r.Attempt, "newest first")
				require.NotNil(t, r.StatusCode)
				require.Equal(t, 500, *r.StatusCode)
				require.Equal(t, dlv, r.ID)
			}
			for _, hh := range rc.got() {
				require.NoError(t, verify(c.Secret, hh))
				require.Equal(t, rc.got()[0].Header.Get("webhook-id"), hh.Header.Get("webhook-id"), "the same event id on every attempt")
			}

			rc.status.Store(200)
			hits := tc.attempts + 1
			if tc.reenables {
				out, err := h.d.TestEndpoint(ctxT(t), h.acct, c.ID, nil)
				require.NoError(t, err)
				require.Equal(t, 409, out.Reply.Status, "disabled: %s", out.Reply.Body)
				h.setState(h.acct, c.ID, domain.EndpointEnabled)
				require.Zero(t, h.endpoint(c.ID).Failures, "re-enabling resets the count")
				rc.waitHits(t, tc.attempts+1)
				h.waitDelivery(c.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
			} else {
				// The failed delivery stays failed; a new event delivers
				// and its success resets the count.
				next := h.sendTest(h.acct, c.ID)
				h.waitDelivery(c.ID, next, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
				require.Eventually(t, func() bool { return h.endpoint(c.ID).Failures == 0 }, waitFor, pollTick)
				w, d := h.delivery(c.ID, dlv)
				require.Equal(t, domain.DeliveryFailed, d.State)
				h.resendFailed(c.ID, w.ID, dlv, tc.attempts, rc)
				hits++
			}
			require.Never(t, func() bool { return rc.count() > hits }, 300*time.Millisecond, 10*time.Millisecond)
			ep := h.endpoint(c.ID)
			require.Equal(t, domain.EndpointEnabled, ep.State)
			require.Zero(t, ep.Failures)
		})
	}
}

// TestRedirectNotFollowed: a 3xx is recorded with its status and
// "redirect not followed", counts as a failure, and is never followed.
func TestRedirectNotFollowed(t *testing.T) {
	h := newHarness(t, Config{Schedule: []time.Duration{time.Hour}}, false)
	target := newReceiver(t, 200)
	for _, code := range []int{301, 302, 303, 307, 308} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			rc := newReceiver(t, code)
			rc.before = func(w http.ResponseWriter, _ *http.Request) bool {
				w.Header().Set("Location", target.URL())
				return false
			}
			c := h.createEndpoint(h.acct, rc.URL())
			dlv := h.sendTest(h.acct, c.ID)
			d := h.waitDelivery(c.ID, dlv, "attempted", func(d *domain.Delivery) bool { return len(d.Attempts) == 1 })
			require.Equal(t, code, d.Attempts[0].StatusCode)
			require.Equal(t, "redirect not followed", d.Attempts[0].Error)
			require.Equal(t, domain.DeliveryPending, d.State, "a failure: retried on the schedule")
			rows := h.attempts(c.ID)
			require.Len(t, rows, 1)
			require.Equal(t, code, *rows[0].StatusCode)
			require.Equal(t, "redirect not followed", *rows[0].Error)
			require.Eventually(t, func() bool { return h.endpoint(c.ID).Failures == 1 }, waitFor, pollTick)
			require.Never(t, func() bool { return target.count() > 0 }, 200*time.Millisecond, 10*time.Millisecond, "never followed")
			require.Equal(t, 1, rc.count())
		})
	}
}

// TestHangingReceiverDelaysNoOther: while one endpoint's receiver holds
// its requests, another endpoint's deliveries arrive; the held endpoint
// has at most MaxInFlight requests in flight, and the rest follow once it
// answers.
func TestHangingReceiverDelaysNoOther(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(3)}, false)
	release := make(chan struct{})
	var releaseOnce sync.Once
	let := func() { releaseOnce.Do(func() { close(release) }) }
	var held, maxHeld atomic.Int32
	hang := newReceiver(t, 200)
	hang.before = func(_ http.ResponseWriter, r *http.Request) bool {
		n := held.Add(1)
		for m := maxHeld.Load(); n > m && !maxHeld.CompareAndSwap(m, n); m = maxHeld.Load() {
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		held.Add(-1)
		return false
	}
	fast := newReceiver(t, 200)
	t.Cleanup(let) // first: the desk's Stop then finds no attempt hanging

	a := h.createEndpoint(h.acct, hang.URL())
	b := h.createEndpoint(h.acct, fast.URL())
	evt := h.fireTransfer(h.acct, 1) // one event to both
	w := h.waitFannedOut(evt)
	require.Len(t, w.Deliveries, 2)

	aStart := hang.waitHits(t, 1)[0].At
	bHits := fast.waitHits(t, 1)
	require.Less(t, bHits[0].At.Sub(aStart), AttemptTimeout/2, "B arrived well before A's deadline")

	// A fills its slots and no more; B's deliveries go on meanwhile.
	const more = MaxInFlight + 4
	for range more {
		h.sendTest(h.acct, a.ID)
	}
	for range 3 {
		h.sendTest(h.acct, b.ID)
	}
	hang.waitHits(t, MaxInFlight)
	fast.waitHits(t, 4)
	h.waitDelivery(b.ID, deliveryOf(t, w, b.ID), "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	require.Never(t, func() bool { return hang.count() > MaxInFlight }, 300*time.Millisecond, 10*time.Millisecond, "at most MaxInFlight requests in flight")
	require.EqualValues(t, MaxInFlight, held.Load(), "A's requests are all still held")
	_, da := h.delivery(a.ID, deliveryOf(t, w, a.ID))
	require.Equal(t, domain.DeliveryPending, da.State)
	require.Empty(t, da.Attempts, "A's first attempt has not ended")

	// A answers: everything it was owed arrives, never more than
	// MaxInFlight at once.
	let()
	hang.waitHits(t, 1+more)
	h.waitDelivery(a.ID, deliveryOf(t, w, a.ID), "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	require.Eventually(t, func() bool { return len(h.pendingOf(a.ID)) == 0 }, waitFor, pollTick)
	require.EqualValues(t, MaxInFlight, maxHeld.Load())
	require.Equal(t, 1+more, hang.count(), "each once")
}

// TestUpdateEndpoint: PATCH changes the URL (screened again; a pending
// delivery goes to the new one), the filter and the description; a
// refused URL or filter changes nothing.
func TestUpdateEndpoint(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(12)}, false)
	old := newReceiver(t, 500)
	next := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, old.URL())
	dlv := h.sendTest(h.acct, c.ID)
	h.waitDelivery(c.ID, dlv, "attempted", func(d *domain.Delivery) bool { return len(d.Attempts) >= 1 })

	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		name string
		req  EndpointUpdate
		code string
	}{
		{"private url", EndpointUpdate{URL: str("https://10.1.2.3/hooks")}, domain.CodeInvalidWebhookURL},
		{"plain http", EndpointUpdate{URL: str("http://127.0.0.1:" + next.port() + "/hooks")}, domain.CodeInvalidWebhookURL},
		{"unknown event type", EndpointUpdate{Events: &[]string{"nope"}}, domain.CodeInvalidRequest},
		{"unknown state", EndpointUpdate{State: str("paused")}, domain.CodeInvalidRequest},
	} {
		out, err := h.d.UpdateEndpoint(ctxT(t), h.acct, c.ID, tc.req, nil)
		require.NoError(t, err, tc.name)
		require.Equal(t, 400, out.Reply.Status, "%s: %s", tc.name, out.Reply.Body)
		require.Equal(t, tc.code, errorCode(t, out.Reply.Body), tc.name)
	}
	ep := h.endpoint(c.ID)
	require.Equal(t, old.URL(), ep.URL)
	require.Equal(t, []string{"*"}, ep.Events)

	out, err := h.d.UpdateEndpoint(ctxT(t), h.acct, c.ID, EndpointUpdate{URL: str(next.URL()), Events: &[]string{domain.EventTransferFailed}, Description: str("ops")}, nil)
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
	var v domain.EndpointView
	require.NoError(t, json.Unmarshal(out.Reply.Body, &v))
	require.Equal(t, next.URL(), v.URL)
	require.Equal(t, []string{domain.EventTransferFailed}, v.Events)
	require.Equal(t, "ops", *v.Description)
	require.NotContains(t, string(out.Reply.Body), "secret")

	// The pending test delivery goes to the new URL, signed as before.
	h.waitDelivery(c.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	got := next.waitHits(t, 1)
	require.NoError(t, verify(c.Secret, got[0]))
	n := old.count()
	// The new filter: a transfer.confirmed event no longer goes to it.
	w := h.waitFannedOut(h.fireTransfer(h.acct, 9))
	require.Empty(t, w.Deliveries)
	require.Never(t, func() bool { return old.count() > n || next.count() > 1 }, 200*time.Millisecond, 10*time.Millisecond)
}

// TestRotation: after a rotation a delivery carries two signatures,
// verifying with the old secret and the new; a second rotation drops the
// oldest; past the overlap only the current one signs.
func TestRotation(t *testing.T) {
	var offset atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	h := newHarness(t, Config{Schedule: shortSchedule(3), Clock: clock}, false)
	rc := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, rc.URL())
	secrets := []string{c.Secret}
	rotate := func() {
		out, err := h.d.RotateSecret(ctxT(t), h.acct, c.ID, nil)
		require.NoError(t, err)
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
		var v domain.SecretView
		require.NoError(t, json.Unmarshal(out.Reply.Body, &v))
		require.Equal(t, c.ID, v.ID)
		_, err = sign.ParseSecret(v.Secret)
		require.NoError(t, err, "the new secret is revealed: %q", v.Secret)
		require.NotContains(t, secrets, v.Secret)
		secrets = append(secrets, v.Secret)
	}
	deliver := func() hit {
		dlv := h.sendTest(h.acct, c.ID)
		h.waitDelivery(c.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
		w, _ := h.delivery(c.ID, dlv)
		hs := rc.hitsFor(w.ID)
		require.Len(t, hs, 1)
		return hs[0]
	}
	verifyAt := func(secret string, hh hit) error {
		return sign.Verify(secret, hh.Header.Get("webhook-id"), hh.Header.Get("webhook-timestamp"), hh.Header.Get("webhook-signature"), hh.Body, clock(), 0)
	}

	cases := []struct {
		name   string
		before func()
		sigs   int
		ok     []int // indexes into secrets that verify
		bad    []int
	}{
		{"before any rotation", func() {}, 1, []int{0}, nil},
		{"after a rotation", rotate, 2, []int{0, 1}, nil},
		{"after a second rotation", rotate, 2, []int{1, 2}, []int{0}},
		{"past the overlap", func() { offset.Store(int64(domain.SecretOverlap + time.Hour)) }, 1, []int{2}, []int{0, 1}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.before()
			hh := deliver()
			sigs := strings.Split(hh.Header.Get("webhook-signature"), " ")
			require.Len(t, sigs, tc.sigs, "%q", hh.Header.Get("webhook-signature"))
			for _, s := range sigs {
				require.True(t, strings.HasPrefix(s, "v1,"), s)
			}
			for _, i := range tc.ok {
				require.NoError(t, verifyAt(secrets[i], hh), "secret %d", i)
			}
			for _, i := range tc.bad {
				require.True(t, errors.Is(verifyAt(secrets[i], hh), sign.ErrNoMatch), "secret %d must not verify", i)
			}
		})
	}
}

// TestDeleteAbandonsPending: deleting an endpoint fails its pending
// deliveries at once, with no further attempt.
func TestDeleteAbandonsPending(t *testing.T) {
	h := newHarness(t, Config{Schedule: []time.Duration{time.Hour, time.Hour}}, false)
	cases := []struct {
		name     string
		status   int
		prepare  func(c created) string // returns the delivery
		attempts int
	}{
		{"after a failed attempt", 500, func(c created) string {
			dlv := h.sendTest(h.acct, c.ID)
			h.waitDelivery(c.ID, dlv, "attempted", func(d *domain.Delivery) bool { return len(d.Attempts) == 1 })
			return dlv
		}, 1},
		{"of a disabled endpoint, never attempted", 200, func(c created) string {
			h.setState(h.acct, c.ID, domain.EndpointDisabled)
			w := h.waitFannedOut(h.fireTransfer(h.acct, 7))
			return deliveryOf(t, w, c.ID)
		}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rc := newReceiver(t, tc.status)
			c := h.createEndpoint(h.acct, rc.URL())
			dlv := tc.prepare(c)
			require.Equal(t, []string{dlv}, h.pendingOf(c.ID))

			out, err := h.d.DeleteEndpoint(ctxT(t), h.acct, c.ID, nil)
			require.NoError(t, err)
			require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
			d := h.waitDelivery(c.ID, dlv, "abandoned", func(d *domain.Delivery) bool { return d.State == domain.DeliveryFailed })
			require.Len(t, d.Attempts, tc.attempts, "no attempt after the deletion")
			require.Empty(t, h.pendingOf(c.ID))
			require.Never(t, func() bool { return rc.count() > tc.attempts }, 200*time.Millisecond, 10*time.Millisecond)
			_, err = h.d.ListDeliveries(ctxT(t), h.acct, c.ID, domain.Page{Limit: 10})
			require.ErrorIs(t, err, actors.ErrNoEntity, "a deleted endpoint is gone from the API")
		})
		h.deleteAll(t)
	}
}

// deleteAll deletes every endpoint of the harness's account, so the next
// case's fan-out is its own.
func (h *harness) deleteAll(t *testing.T) {
	list, err := h.d.ListEndpoints(ctxT(t), h.acct, domain.Page{Limit: 100})
	require.NoError(t, err)
	for _, e := range list.Data {
		_, err := h.d.DeleteEndpoint(ctxT(t), h.acct, e.ID, nil)
		require.NoError(t, err)
	}
}

// TestRestartDeliversPending: a delivery pending when the service stops is
// delivered once after the restart, with the same event id and body.
func TestRestartDeliversPending(t *testing.T) {
	cases := []struct {
		name     string
		status   int // the receiver's answer before the restart
		disable  bool
		unfanned bool // born after the desk stopped: not fanned out yet
	}{
		{"waiting on a disabled endpoint", 200, true, false},
		{"waiting for its retry after a 500", 500, false, false},
		{"born while the desk was down, not fanned out", 200, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Config{Schedule: []time.Duration{300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond, 300 * time.Millisecond}}, false)
			rc := newReceiver(t, tc.status)
			c := h.createEndpoint(h.acct, rc.URL())
			if tc.disable {
				h.setState(h.acct, c.ID, domain.EndpointDisabled)
			}
			if tc.unfanned {
				h.stopDesk() // the engine runs on: the transfer's record bears the event
			}
			evt := h.fireTransfer(h.acct, 3)
			var dlv string
			if !tc.unfanned {
				dlv = deliveryOf(t, h.waitFannedOut(evt), c.ID)
			} else {
				require.Eventually(t, func() bool {
					r, err := h.e.Row(ctxT(t), domain.KindEvent, evt, "")
					return err == nil && !r.(*domain.WebhookEvent).FannedOut
				}, waitFor, pollTick, "the event is born in the log, not fanned out")
			}
			if tc.status != 200 {
				h.waitDelivery(c.ID, dlv, "attempted", func(d *domain.Delivery) bool { return len(d.Attempts) >= 1 })
			}
			body, err := h.d.Event(ctxT(t), h.acct, evt)
			require.NoError(t, err)

			var failed int
			h.restart(func() {
				failed = rc.count() // every request so far was answered 500 (or none came)
				rc.status.Store(200)
			})

			if tc.disable {
				require.Never(t, func() bool { return rc.count() > 0 }, 200*time.Millisecond, 10*time.Millisecond, "still disabled")
				h.setState(h.acct, c.ID, domain.EndpointEnabled)
			}
			if tc.unfanned {
				// Start fans it out, not the next sweep (every 5 s).
				require.Eventually(t, func() bool { return h.event(evt).FannedOut }, sweepEvery/2, pollTick, "Start fans out what it finds unfanned")
				dlv = deliveryOf(t, h.event(evt), c.ID)
			}
			got := rc.waitHits(t, failed+1)
			d := h.waitDelivery(c.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
			require.Never(t, func() bool { return rc.count() > failed+1 }, 400*time.Millisecond, 10*time.Millisecond, "delivered once")
			last := got[failed]
			require.Equal(t, evt, last.Header.Get("webhook-id"))
			require.Equal(t, string(body), string(last.Body))
			require.NoError(t, verify(c.Secret, last), "the sealed secret survives the restart")
			require.Len(t, d.Attempts, failed+1)
			require.Equal(t, 200, d.Attempts[failed].StatusCode)
			require.Empty(t, h.pendingOf(c.ID))
		})
	}
}

// TestSpilledBacklogIsDelivered: more pending deliveries than the backlog
// holds in memory (they stay in the store) are all delivered, once each,
// after the endpoint is enabled again, a sweep having passed meanwhile.
//
// It fails now: sender.refill clears spilled, and a scan that ends at its
// bound (every delivery it visited already in memory, as when the sweep
// refills a full backlog) never sets it again, so what the store holds
// beyond the backlog stays pending until a restart. See the report.
func TestSpilledBacklogIsDelivered(t *testing.T) {
	const backlog, events = 8, 40
	h := newHarness(t, Config{Schedule: shortSchedule(3), Backlog: backlog}, false)
	rc := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, rc.URL())
	h.setState(h.acct, c.ID, domain.EndpointDisabled)

	// The fan-out job itself, one event after the other: what is under
	// test is the sender's backlog, not the fan-out driver.
	want := make([]string, events)
	for i := range events {
		want[i] = h.e.NewID("evt_", h.acct)
		w := domain.NewWebhookEvent(want[i], h.acct, domain.EventOrderSettled, h.e.NewID("ord_", h.acct), map[string]int{"n": i}, time.Now())
		require.NoError(t, h.d.fanOut(ctxT(t), &w))
	}
	require.Len(t, h.pendingOf(c.ID), events)
	require.Equal(t, Stats{Endpoints: 1, Senders: 1, Tracked: backlog, Spilled: 1}, h.d.Stats(), "memory holds the backlog, the store the rest")

	// What the desk's sweep does every sweepEvery, without the wait.
	for _, s := range h.d.spilledSenders() {
		s.refill()
	}
	st := h.d.Stats()
	require.Equal(t, backlog, st.Tracked)
	require.Equal(t, 1, st.Spilled, "the store still holds more than memory")
	require.Zero(t, rc.count())

	h.setState(h.acct, c.ID, domain.EndpointEnabled)
	left := events
	if !assert.Eventually(t, func() bool { left = len(h.pendingOf(c.ID)); return left == 0 }, waitFor, 20*time.Millisecond) {
		t.Fatalf("%d of %d deliveries still pending; desk %+v", left, events, h.d.Stats())
	}
	seen := map[string]int{}
	for _, hh := range rc.got() {
		seen[hh.Header.Get("webhook-id")]++
	}
	require.Len(t, seen, events)
	for _, id := range want {
		require.Equal(t, 1, seen[id], "event %s delivered once", id)
	}
}

// TestDialTimeScreen: the screen runs again at delivery: a name that
// resolved to loopback at registration and now resolves to a refused
// address is not connected to; the attempt records the refusal.
func TestDialTimeScreen(t *testing.T) {
	res := newFakeResolver()
	h := newHarness(t, Config{Resolver: res, Schedule: []time.Duration{time.Hour}}, false)
	rc := newReceiver(t, 200)
	port := rc.port()

	// Control: a name that keeps resolving to loopback is delivered to,
	// TLS verified against its name.
	res.set("good.test", "127.0.0.1")
	good := h.createEndpoint(h.acct, "https://good.test:"+port+"/hooks")
	dlv := h.sendTest(h.acct, good.ID)
	h.waitDelivery(good.ID, dlv, "delivered", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })

	cases := []struct {
		name  string
		addrs []string
		want  []string // in the attempt's error
	}{
		{"rebound to a private address", []string{"10.0.0.1"}, []string{"10.0.0.1", "private", "only to public internet addresses"}},
		{"rebound to metadata", []string{"169.254.169.254"}, []string{"169.254.169.254", "metadata", "only to public internet addresses"}},
		{"one address of several refused", []string{"127.0.0.1", "192.168.0.7"}, []string{"192.168.0.7", "only to public internet addresses"}},
		{"no longer resolves", nil, []string{"does not resolve"}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			name := "hooks" + strconv.Itoa(i) + ".test"
			res.set(name, "127.0.0.1")
			c := h.createEndpoint(h.acct, "https://"+name+":"+port+"/hooks")
			if tc.addrs == nil {
				res.mu.Lock()
				delete(res.names, name)
				res.mu.Unlock()
			} else {
				res.set(name, tc.addrs...)
			}
			before := rc.count()
			dlv := h.sendTest(h.acct, c.ID)
			d := h.waitDelivery(c.ID, dlv, "attempted", func(d *domain.Delivery) bool { return len(d.Attempts) == 1 })
			a := d.Attempts[0]
			require.Zero(t, a.StatusCode, "no HTTP answer")
			for _, s := range tc.want {
				require.Contains(t, strings.ToLower(a.Error), s)
			}
			require.NotContains(t, a.Error, "Post ", "the cause, not Go's wrapping")
			rows := h.attempts(c.ID)
			require.Len(t, rows, 1)
			require.Nil(t, rows[0].StatusCode, "status_code null on a transport error")
			require.Never(t, func() bool { return rc.count() > before }, 200*time.Millisecond, 10*time.Millisecond, "the receiver saw nothing")
		})
	}
}

// TestFanOutBurst: a burst of events is fanned out at the pace of the
// log, not at fanOutJobs (8) per fan-out Tick (1 s): before jobs.Driver
// kept the ids that found every slot taken, 64 events took ~8 s.
func TestFanOutBurst(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(3)}, false)
	rc := newReceiver(t, 200)
	h.createEndpoint(h.acct, rc.URL())
	const n = 64
	ids := make([]string, n)
	for i := range n {
		ids[i] = h.e.NewID("evt_", h.acct)
		h.d.trackEvent(domain.NewWebhookEvent(ids[i], h.acct, domain.EventOrderSettled, h.e.NewID("ord_", h.acct), map[string]int{"n": i}, time.Now()))
	}
	// A deadline of a few driver ticks: the writes themselves take a
	// fraction of it.
	require.Eventually(t, func() bool { return rc.count() >= n }, 3*time.Second, pollTick, "delivered %d of %d", rc.count(), n)
}

// TestDeliveryBurstPace: a backlog of more than MaxInFlight deliveries to
// an enabled endpoint drains as fast as the receiver answers, not at
// MaxInFlight per sender tick (1 s under the default schedule; ~4 s for
// 80 before the jobs.Driver fix).
func TestDeliveryBurstPace(t *testing.T) {
	h := newHarness(t, Config{Schedule: []time.Duration{10 * time.Second}}, false)
	rc := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, rc.URL())
	h.setState(h.acct, c.ID, domain.EndpointDisabled)
	const n = 5 * MaxInFlight
	for i := range n {
		w := domain.NewWebhookEvent(h.e.NewID("evt_", h.acct), h.acct, domain.EventOrderSettled, h.e.NewID("ord_", h.acct), map[string]int{"n": i}, time.Now())
		require.NoError(t, h.d.fanOut(ctxT(t), &w))
	}
	h.setState(h.acct, c.ID, domain.EndpointEnabled)
	require.Eventually(t, func() bool { return rc.count() >= n }, 2*time.Second, pollTick, "delivered %d of %d", rc.count(), n)
}

// resendFailed sends the failed delivery dlv (event evt, attempts made)
// again: 202 with its id, one more attempt with the same event id, then
// delivered; refused for another account, an unknown event, and once
// delivered.
func (h *harness) resendFailed(ep, evt, dlv string, attempts int, rc *receiver) {
	t := h.t
	t.Helper()
	ctx := ctxT(t)
	for _, c := range []struct {
		acct, evt string
		status    int
	}{
		{"acct_other", evt, 404},
		{h.acct, "evt_06H278N51M000FMTS5RCG0A5W927JC1D", 404},
		{h.acct, "wh_" + evt, 404},
	} {
		out, err := h.d.Resend(ctx, c.acct, ep, ResendRequest{EventID: c.evt}, nil)
		require.NoError(t, err)
		require.Equal(t, c.status, out.Reply.Status, "%s %s: %s", c.acct, c.evt, out.Reply.Body)
	}
	out, err := h.d.Resend(ctx, h.acct, ep, ResendRequest{EventID: evt}, nil)
	require.NoError(t, err)
	require.Equal(t, 202, out.Reply.Status, "%s", out.Reply.Body)
	require.JSONEq(t, `{"delivery_id":"`+dlv+`"}`, string(out.Reply.Body))
	h.waitDelivery(ep, dlv, "delivered on resend", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	_, d := h.delivery(ep, dlv)
	require.Len(t, d.Attempts, attempts+1)
	require.Equal(t, attempts+1, d.Attempts[attempts].N, "numbered after the others")
	got := rc.got()
	require.Equal(t, got[0].Header.Get("webhook-id"), got[len(got)-1].Header.Get("webhook-id"), "the same event id")
	out, err = h.d.Resend(ctx, h.acct, ep, ResendRequest{EventID: evt}, nil)
	require.NoError(t, err)
	require.Equal(t, 409, out.Reply.Status, "delivered: %s", out.Reply.Body)
}
