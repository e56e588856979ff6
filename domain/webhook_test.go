package domain

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const (
	whID    = "wh_000001"
	evtID   = "evt_000009"
	hookURL = "https://hooks.example.com/fxd"
)

var sealedA, sealedB, sealedC = []byte("sealed-a"), []byte("sealed-b"), []byte("sealed-c")

// runEntity runs commands through Handle (idempotency, decide) and applies
// what each writes, a second apart.
func runEntity(t *testing.T, c *clock, s Entity, cmds ...Command) []Reply {
	t.Helper()
	var replies []Reply
	for _, cmd := range cmds {
		out := s.Handle(Request{Cmd: cmd}, c.env())
		for i := range out.Events {
			s.Apply(&out.Events[i])
		}
		replies = append(replies, out.Reply)
		c.advance(time.Second)
	}
	return replies
}

func createEndpointCmd() CreateEndpoint {
	return CreateEndpoint{ID: whID, Account: acctID, URL: hookURL, Sealed: sealedA}
}

func TestEndpointCreate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*CreateEndpoint)
		status int
		events []string
		msg    string
	}{
		{"events omitted: all", func(*CreateEndpoint) {}, 201, []string{"*"}, ""},
		{"star wins", func(c *CreateEndpoint) { c.Events = []string{"transfer.failed", "*"} }, 201, []string{"*"}, ""},
		{"each type once, in order", func(c *CreateEndpoint) {
			c.Events = []string{"transfer.failed", "fx.order.settled", "transfer.failed"}
		}, 201, []string{"transfer.failed", "fx.order.settled"}, ""},
		{"webhook.test is a type", func(c *CreateEndpoint) { c.Events = []string{"webhook.test"} }, 201, []string{"webhook.test"}, ""},
		{"star does not hide an unknown type", func(c *CreateEndpoint) { c.Events = []string{"*", "bogus"} }, 400, nil, "bogus"},
		{"empty list", func(c *CreateEndpoint) { c.Events = []string{} }, 400, nil, "at least one"},
		{"unknown type", func(c *CreateEndpoint) { c.Events = []string{"fx.order.created"} }, 400, nil, `unknown event type \"fx.order.created\"`},
		{"too many", func(c *CreateEndpoint) { c.Events = strings.Split(strings.Repeat("transfer.failed,", 9), ",") }, 400, nil, "more than"},
		{"no url", func(c *CreateEndpoint) { c.URL = "" }, 400, nil, "url is required"},
		{"long url", func(c *CreateEndpoint) { c.URL = hookURL + strings.Repeat("a", MaxEndpointURLBytes) }, 400, nil, "at most 2048"},
		{"long description", func(c *CreateEndpoint) { c.Description = strings.Repeat("é", 501) }, 400, nil, "description"},
		{"host refusal", func(c *CreateEndpoint) { c.Refusal = ErrInvalidWebhookURL("no") }, 400, nil, "no"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := createEndpointCmd()
			tc.edit(&cmd)
			s := NewEndpointState()
			r := runEntity(t, newClock(), s, cmd)[0]
			require.Equal(t, tc.status, r.Status, string(r.Body))
			if tc.status != 201 {
				require.Nil(t, s.Endpoint, "a refusal writes no row")
				require.Contains(t, string(r.Body), tc.msg)
				return
			}
			require.Equal(t, tc.events, s.Endpoint.Events)
			var v EndpointView
			require.NoError(t, json.Unmarshal(r.Body, &v))
			require.NotNil(t, v.Secret)
			require.Equal(t, SealedToken(sealedA), *v.Secret, "the stored answer holds the secret sealed")
			got, ok := ParseSealedToken(*v.Secret)
			require.True(t, ok)
			require.Equal(t, sealedA, got)
			require.Equal(t, EndpointEnabled, v.State)
			plain, err := json.Marshal(ViewEndpoint(s.Endpoint))
			require.NoError(t, err)
			require.NotContains(t, string(plain), "secret", "only the create's answer shows it")
			require.Regexp(t, `^\{"id":"[^"]+","url":"[^"]+","events":\[[^]]*\],"description":[^,]+,"state":"enabled","secret":"sealed:[^"]+","created_at":"[^"]+"\}$`,
				string(r.Body), "CONTRACT.md's field order")
		})
	}
}

func TestEndpointUpdateDeleteAndAccounts(t *testing.T) {
	c := newClock()
	s := NewEndpointState()
	runEntity(t, c, s, createEndpointCmd())
	other := "acct_other"
	r := runEntity(t, c, s,
		UpdateEndpoint{Account: other, State: ptr(EndpointDisabled)},
		UpdateEndpoint{Account: acctID, URL: ptr(hookURL + "/v2"), Events: &[]string{"payment_link.paid"}, Description: ptr("main")},
		UpdateEndpoint{Account: acctID, State: ptr("paused")},
		UpdateEndpoint{Account: acctID, Events: &[]string{}},
		UpdateEndpoint{Account: acctID, URL: ptr("http://x"), Refusal: ErrInvalidWebhookURL("not https")},
		RotateSecret{Account: other, Sealed: sealedB},
		DeleteEndpoint{Account: other},
	)
	require.Equal(t, []int{404, 200, 400, 400, 400, 404, 404}, statuses(r))
	e := s.Endpoint
	require.Equal(t, hookURL+"/v2", e.URL, "refused patches change nothing")
	require.Equal(t, []string{"payment_link.paid"}, e.Events)
	require.Equal(t, "main", e.Description)
	require.Equal(t, EndpointEnabled, e.State)

	r = runEntity(t, c, s, DeleteEndpoint{Account: acctID}, UpdateEndpoint{Account: acctID, State: ptr(EndpointEnabled)}, RecordOutcome{OK: false})
	require.Equal(t, []int{200, 404, 404}, statuses(r))
	require.JSONEq(t, `{"id":"wh_000001","deleted":true}`, string(r[0].Body))
	require.False(t, s.Endpoint.Live(), "a deleted endpoint leaves the live index")
	require.Panics(t, func() { s.Apply(&Event{Kind: EvEndpointPut, Endpoint: e}) }, "nothing follows a deletion")
}

// Ten consecutive failures disable; a success in between resets the
// count; re-enabling resets it too; a success with no failures writes
// nothing.
func TestEndpointFailuresDisable(t *testing.T) {
	c := newClock()
	s := NewEndpointState()
	runEntity(t, c, s, createEndpointCmd())
	out := s.Handle(Request{Cmd: RecordOutcome{OK: true}}, c.env())
	require.Empty(t, out.Events, "nothing to reset")
	for range 5 {
		runEntity(t, c, s, RecordOutcome{OK: false})
	}
	runEntity(t, c, s, RecordOutcome{OK: true})
	require.Zero(t, s.Endpoint.Failures)
	for i := 1; i <= MaxConsecutiveFailures; i++ {
		require.Equal(t, EndpointEnabled, s.Endpoint.State, "after %d failures", i-1)
		runEntity(t, c, s, RecordOutcome{OK: false})
	}
	require.Equal(t, EndpointDisabled, s.Endpoint.State)
	runEntity(t, c, s, RecordOutcome{OK: false}) // an attempt in flight at the disable
	require.Equal(t, MaxConsecutiveFailures+1, s.Endpoint.Failures)
	r := runEntity(t, c, s, UpdateEndpoint{Account: acctID, State: ptr(EndpointEnabled)})
	require.Equal(t, 200, r[0].Status)
	require.Equal(t, EndpointEnabled, s.Endpoint.State)
	require.Zero(t, s.Endpoint.Failures)
}

// A rotation keeps the previous secret signing for 24 h; a second one
// drops the oldest.
func TestEndpointRotation(t *testing.T) {
	c := newClock()
	s := NewEndpointState()
	runEntity(t, c, s, createEndpointCmd())
	rotatedAt := c.now
	r := runEntity(t, c, s, RotateSecret{Account: acctID, Sealed: sealedB})
	require.JSONEq(t, `{"id":"wh_000001","secret":"`+SealedToken(sealedB)+`"}`, string(r[0].Body))
	e := s.Endpoint
	require.Equal(t, [][]byte{sealedB, sealedA}, e.SigningSecrets(c.now))
	require.Equal(t, [][]byte{sealedB, sealedA}, e.SigningSecrets(rotatedAt.Add(SecretOverlap-time.Second)))
	require.Equal(t, [][]byte{sealedB}, e.SigningSecrets(rotatedAt.Add(SecretOverlap)))
	runEntity(t, c, s, RotateSecret{Account: acctID, Sealed: sealedC})
	require.Equal(t, [][]byte{sealedC, sealedB}, s.Endpoint.SigningSecrets(c.now))
}

func bornEvent(typ string) *WebhookEvent {
	return NewWebhookEvent(evtID, acctID, typ, "tr_000001", map[string]string{"id": "tr_000001"}, t0)
}

// An event fans out once, from the born row the entity may not have
// loaded; attempts follow the schedule until delivered or spent.
func TestEventFanOutAndAttempts(t *testing.T) {
	c := newClock()
	s := NewEventState()
	born := bornEvent(EventTransferConfirmed)
	require.JSONEq(t, `{"id":"evt_000009","type":"transfer.confirmed","created_at":"`+t0RFC+`","api_version":"1.0.0","data":{"object":{"id":"tr_000001"}}}`, string(born.Body))
	fan := FanOut{Event: born, Endpoints: []string{"wh_a", "wh_b"}, DeliveryIDs: []string{"dlv_a", "dlv_b"}}
	out := s.Handle(Request{Cmd: fan}, c.env())
	require.Len(t, out.Events, 1)
	s.Apply(&out.Events[0])
	require.True(t, s.Event.FannedOut)
	require.False(t, s.Event.Live())
	require.Empty(t, s.Handle(Request{Cmd: fan}, c.env()).Events, "a second fan-out writes nothing")

	schedule := []time.Duration{10 * time.Second, time.Minute}
	attempt := func(dlv string, status int) Reply {
		// The attempt began 10 s ago (a receiver that timed out): the
		// wait counts from its end, now.
		started := c.now.Add(-10 * time.Second)
		return runEntity(t, c, s, RecordAttempt{Delivery: dlv, Attempt: Attempt{StatusCode: status, At: started, DurationMs: 10_000}, Schedule: schedule})[0]
	}
	for i, tc := range []struct {
		dlv, state string
		status     int
		wait       time.Duration
	}{
		{"dlv_a", DeliveryPending, 500, 10 * time.Second},
		{"dlv_b", DeliveryDelivered, 204, 0},
		{"dlv_a", DeliveryPending, 0, time.Minute},
		{"dlv_a", DeliveryFailed, 302, 0},
	} {
		at := c.now
		r := attempt(tc.dlv, tc.status)
		require.Equal(t, 200, r.Status, "step %d: %s", i, r.Body)
		d := s.Event.Delivery(tc.dlv)
		require.Equal(t, tc.state, d.State, "step %d", i)
		if tc.wait > 0 {
			require.Equal(t, at.Add(tc.wait), d.NextAt, "step %d", i)
		}
	}
	require.Len(t, s.Event.Delivery("dlv_a").Attempts, 3)
	require.Equal(t, []int{1, 2, 3}, attemptNumbers(s.Event.Delivery("dlv_a")))
	require.Equal(t, 409, attempt("dlv_a", 200).Status, "a finished delivery takes no attempt")
	require.Equal(t, 409, attempt("dlv_x", 200).Status)

	views := ViewAttempts(evtID, s.Event.Delivery("dlv_a"))
	b, err := json.Marshal(views[2])
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"dlv_a","event_id":"evt_000009","attempt":1,"status_code":500,"error":null,"duration_ms":10000,"at":"`+t0.Add(-10*time.Second).Format(time.RFC3339)+`"}`, string(b))
	require.Nil(t, views[1].StatusCode, "a transport error has no status")
}

func attemptNumbers(d *Delivery) []int {
	var out []int
	for _, a := range d.Attempts {
		out = append(out, a.N)
	}
	return out
}

func TestEventTestAndAbandon(t *testing.T) {
	c := newClock()
	s := NewEventState()
	r := runEntity(t, c, s, CreateTest{ID: evtID, Account: acctID, Endpoint: whID, DeliveryID: "dlv_t"})
	require.Equal(t, 202, r[0].Status)
	require.JSONEq(t, `{"delivery_id":"dlv_t"}`, string(r[0].Body))
	require.JSONEq(t, `{"id":"evt_000009","type":"webhook.test","created_at":"`+t0RFC+`","api_version":"1.0.0","data":{"object":{"endpoint_id":"wh_000001"}}}`, string(s.Event.Body))
	require.True(t, s.Event.FannedOut)
	r = runEntity(t, c, s, AbandonDelivery{Delivery: "dlv_t"}, AbandonDelivery{Delivery: "dlv_t"})
	require.Equal(t, []int{200, 409}, statuses(r))
	require.Equal(t, DeliveryFailed, s.Event.Delivery("dlv_t").State)

	refused := NewEventState()
	r = runEntity(t, c, refused, CreateTest{ID: evtID, Account: acctID, Endpoint: whID, DeliveryID: "dlv_t", Refusal: ErrInvalidState("disabled")})
	require.Equal(t, 409, r[0].Status)
	require.Nil(t, refused.Event)
}

// A transition that fires an event carries its birth in the same record,
// with the record as its GET shows it then; rows after it (a forward of
// the paid link's money) do not fire it again.
func TestRowEventsBirth(t *testing.T) {
	c := newClock()
	s := NewLinkState()
	runLink(t, c, s, createLinkCmd())
	out := s.Handle(Request{Cmd: pay(hashFund, 0, "100000000")}, c.env())
	require.Len(t, out.Events, 2)
	require.Equal(t, EvLinkPut, out.Events[0].Kind)
	require.Equal(t, EvWebhookEventPut, out.Events[1].Kind)
	w := out.Events[1].WebhookEvent
	paid := out.Events[0].Link
	require.Equal(t, paid.EventID, w.ID)
	require.Equal(t, EventLinkPaid, w.Type)
	require.Equal(t, plID, w.Source)
	require.False(t, w.FannedOut)
	var p struct {
		Data struct {
			Object PaymentLinkView `json:"object"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(w.Body, &p))
	require.Equal(t, ViewLink(paid), p.Data.Object)
	for i := range out.Events {
		s.Apply(&out.Events[i]) // the link ignores the birth; the store keeps it
	}
	out = s.Handle(Request{Cmd: LinkForwarded{Total: bi("100000000"), TxHash: hashOther}}, c.env())
	require.Len(t, out.Events, 1, "no second birth")
	require.Panics(t, func() {
		rowEvents("", []*Link{{ID: plID, State: LinkOpen, EventID: "evt_x"}}, func(l *Link) Event { return Event{Kind: EvLinkPut, Link: l} })
	}, "an event id in a state that fires none is a broken invariant")
}

func TestEventApplyRefusesAnotherBody(t *testing.T) {
	s := NewEventState()
	s.Apply(&Event{Kind: EvWebhookEventPut, WebhookEvent: bornEvent(EventTransferConfirmed)})
	other := bornEvent(EventTransferFailed)
	require.Panics(t, func() { s.Apply(&Event{Kind: EvWebhookEventPut, WebhookEvent: other}) })
}

// A failed delivery is sent again on request: pending now, one more
// attempt numbered after the others; nothing else is re-sendable.
func TestEventResend(t *testing.T) {
	c := newClock()
	s := NewEventState()
	runEntity(t, c, s, CreateTest{ID: evtID, Account: acctID, Endpoint: whID, DeliveryID: "dlv_t"})
	resend := ResendDelivery{Account: acctID, Endpoint: whID}
	for _, tc := range []struct {
		name   string
		cmd    ResendDelivery
		status int
		code   string
	}{
		{"pending", resend, 409, CodeInvalidState},
		{"another account's event", ResendDelivery{Account: "acct_other", Endpoint: whID}, 404, CodeNotFound},
		{"no delivery to that endpoint", ResendDelivery{Account: acctID, Endpoint: "wh_000002"}, 409, CodeInvalidState},
	} {
		r := runEntity(t, c, s, tc.cmd)
		require.Equal(t, tc.status, r[0].Status, tc.name)
		require.Contains(t, string(r[0].Body), tc.code, tc.name)
	}

	sched := []time.Duration{time.Second}
	att := func(status int) RecordAttempt {
		return RecordAttempt{Delivery: "dlv_t", Attempt: Attempt{StatusCode: status, At: c.now}, Schedule: sched}
	}
	runEntity(t, c, s, att(500), att(500))
	require.Equal(t, DeliveryFailed, s.Event.Delivery("dlv_t").State, "the schedule is spent")

	refused := resend
	refused.Refusal = ErrInvalidState("endpoint disabled")
	r := runEntity(t, c, s, refused, resend)
	require.Equal(t, []int{409, 202}, statuses(r))
	require.JSONEq(t, `{"delivery_id":"dlv_t"}`, string(r[1].Body))
	d := s.Event.Delivery("dlv_t")
	require.Equal(t, DeliveryPending, d.State)
	require.False(t, d.NextAt.After(c.now), "attempted at once")

	runEntity(t, c, s, att(500))
	require.Equal(t, DeliveryFailed, s.Event.Delivery("dlv_t").State, "one more attempt; its failure fails it again")
	r = runEntity(t, c, s, resend, att(204), resend)
	require.Equal(t, []int{202, 200, 409}, statuses(r), "a delivered one is not sent again")
	require.Equal(t, []int{1, 2, 3, 4}, attemptNumbers(s.Event.Delivery("dlv_t")))
	require.Equal(t, DeliveryDelivered, s.Event.Delivery("dlv_t").State)
}
