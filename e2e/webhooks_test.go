package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// TestWebhookEndpoints: registration answers the secret once and never
// again; list, get, patch and delete; the SSRF screen refuses every URL it
// should (and admits loopback only under the test flag); unknown event
// types are refused; another account sees nothing; without a master key
// nothing is stored.
func TestWebhookEndpoints(t *testing.T) {
	t.Parallel()
	tlsf := makeHookTLS(t)
	mk := writeMasterKeyFile(t)
	srv := startServer(t, t.TempDir(), hookFlags(tlsf, mk, "")...)
	_, c := hookAccount(t, srv, "hooks")
	// Registration screens the URL and never connects: nothing listens here.
	const base = "https://127.0.0.1:8443"

	// Create: events omitted is every type; the secret is shown this once.
	a := createHook(t, c, map[string]any{"url": base + "/hooks/a"})
	require.Equal(t, base+"/hooks/a", a.URL)
	require.Equal(t, []string{"*"}, a.Events)
	require.Nil(t, a.Description)
	b := createHook(t, c, map[string]any{"url": base + "/hooks/b", "events": []string{"transfer.confirmed", "fx.order.settled"}, "description": "ops"})
	require.ElementsMatch(t, []string{"transfer.confirmed", "fx.order.settled"}, b.Events)
	require.NotNil(t, b.Description)
	require.Equal(t, "ops", *b.Description)
	require.NotEqual(t, a.Secret, b.Secret, "a secret per endpoint")
	star := createHook(t, c, map[string]any{"url": base + "/hooks/star", "events": []string{"*"}})
	require.Equal(t, []string{"*"}, star.Events)

	// GET never shows a secret.
	got := getHook(t, c, a.ID)
	want := a
	want.Secret = ""
	require.Equal(t, want, got)
	for _, target := range []string{"/webhooks", "/webhooks/" + a.ID, "/webhooks/" + b.ID, "/webhooks?limit=1"} {
		body := string(getOK(t, c, basePath+target))
		require.NotContains(t, body, "secret", "GET %s", target)
		for _, s := range []string{a.Secret, b.Secret, star.Secret} {
			require.NotContains(t, body, strings.TrimPrefix(s, "whsec_"), "GET %s shows a secret", target)
		}
	}

	// List: newest first, paged by the cursor.
	all := listHooks(t, c, "")
	require.Equal(t, []string{star.ID, b.ID, a.ID}, hookIDs(all.Data))
	require.False(t, all.HasMore)
	require.Nil(t, all.NextCursor)
	p1 := listHooks(t, c, "?limit=2")
	require.Equal(t, []string{star.ID, b.ID}, hookIDs(p1.Data))
	require.True(t, p1.HasMore)
	require.NotNil(t, p1.NextCursor)
	require.Equal(t, b.ID, *p1.NextCursor)
	p2 := listHooks(t, c, "?limit=2&starting_after="+b.ID)
	require.Equal(t, []string{a.ID}, hookIDs(p2.Data))
	require.False(t, p2.HasMore)
	require.Nil(t, p2.NextCursor)
	requireError(t, call(t, c, "GET", basePath+"/webhooks?limit=0", "", nil), 400, "invalid_request")

	// Patch events, description, url, state.
	pb := patchHook(t, c, b.ID, map[string]any{"events": []string{"payment_link.paid"}, "description": "ops 2"})
	require.Equal(t, []string{"payment_link.paid"}, pb.Events)
	require.Equal(t, "ops 2", *pb.Description)
	require.Equal(t, b.URL, pb.URL, "fields not in the body stay")
	require.Equal(t, b.CreatedAt, pb.CreatedAt)
	require.Equal(t, pb, getHook(t, c, b.ID))
	pb = patchHook(t, c, b.ID, map[string]any{"url": base + "/hooks/b2"})
	require.Equal(t, base+"/hooks/b2", pb.URL)
	require.Equal(t, []string{"payment_link.paid"}, pb.Events)
	pb = patchHook(t, c, b.ID, map[string]any{"state": "disabled"})
	require.Equal(t, "disabled", pb.State)
	requireError(t, call(t, c, "POST", basePath+"/webhooks/"+b.ID+"/test", "", nil), 409, "invalid_state")
	pb = patchHook(t, c, b.ID, map[string]any{"state": "enabled"})
	require.Equal(t, "enabled", pb.State)
	pa := patchHook(t, c, a.ID, map[string]any{"events": []string{"*"}})
	require.Equal(t, []string{"*"}, pa.Events)

	// Refusals of the body: nothing changes.
	badBody := func(method, target, body string) {
		t.Helper()
		requireError(t, call(t, c, method, basePath+target, body, nil), 400, "invalid_request")
	}
	badBody("POST", "/webhooks", hookBody(t, map[string]any{"url": base + "/x", "events": []string{"transfer.confirmed", "no.such.event"}}))
	badBody("POST", "/webhooks", hookBody(t, map[string]any{"url": base + "/x", "events": []string{"transfer.*"}}))
	badBody("POST", "/webhooks", hookBody(t, map[string]any{"url": base + "/x", "extra": 1}))
	badBody("POST", "/webhooks", hookBody(t, map[string]any{"events": []string{"*"}}))
	badBody("POST", "/webhooks", `{"url":`)
	badBody("PATCH", "/webhooks/"+b.ID, hookBody(t, map[string]any{"events": []string{"no.such.event"}}))
	badBody("PATCH", "/webhooks/"+b.ID, hookBody(t, map[string]any{"state": "paused"}))
	badBody("PATCH", "/webhooks/"+b.ID, hookBody(t, map[string]any{"extra": 1}))
	require.Equal(t, pb, getHook(t, c, b.ID), "a refused PATCH changes nothing")

	// The SSRF screen: none of these is stored.
	for _, u := range []string{
		"http://127.0.0.1:8443/hooks",               // not https
		"https://10.0.0.1/hooks",                    // RFC 1918
		"https://172.16.5.4/hooks",                  // RFC 1918
		"https://192.168.1.1/hooks",                 // RFC 1918
		"https://100.64.0.1/hooks",                  // CGNAT
		"https://169.254.169.254/latest/meta-data/", // link-local, metadata
		"https://0.0.0.0/hooks",                     // unspecified
		"https://224.0.0.1/hooks",                   // multicast
		"https://[fd00::1]/hooks",                   // IPv6 ULA
		"https://[fe80::1]/hooks",                   // IPv6 link-local
		"https://[::ffff:10.0.0.1]/hooks",           // IPv4-mapped private
		"https://167772161/hooks",                   // 10.0.0.1, decimal
		"https://0x0a000001/hooks",                  // 10.0.0.1, hex
		"https://012.0.0.1/hooks",                   // 10.0.0.1, octal
		"https://user:pw@127.0.0.1:8443/hooks",      // userinfo
		"https://does-not-exist.invalid/hooks",      // does not resolve
	} {
		resp := call(t, c, "POST", basePath+"/webhooks", hookBody(t, map[string]any{"url": u}), nil)
		requireError(t, resp, 400, "invalid_webhook_url")
		require.NotEmpty(t, errorMessage(t, resp.Body), "the message says why %s is refused", u)
	}
	requireError(t, call(t, c, "PATCH", basePath+"/webhooks/"+b.ID, hookBody(t, map[string]any{"url": "https://10.0.0.1/hooks"}), nil), 400, "invalid_webhook_url")
	require.Equal(t, pb, getHook(t, c, b.ID))
	require.Len(t, listHooks(t, c, "").Data, 3, "refused registrations store nothing")

	// Loopback receivers under --webhook-allow-loopback.
	var loop []string
	for _, u := range []string{"https://localhost:8443/hooks", "https://[::1]:8443/hooks", "https://[::ffff:127.0.0.1]:8443/hooks"} {
		loop = append(loop, createHook(t, c, map[string]any{"url": u}).ID)
	}

	// Another account: every route of these ids is 404, its list is empty.
	_, other := hookAccount(t, srv, "someone else")
	for _, r := range [][2]string{
		{"GET", "/webhooks/" + a.ID},
		{"PATCH", "/webhooks/" + a.ID},
		{"DELETE", "/webhooks/" + a.ID},
		{"POST", "/webhooks/" + a.ID + "/test"},
		{"POST", "/webhooks/" + a.ID + "/rotate-secret"},
		{"POST", "/webhooks/" + a.ID + "/resend"},
		{"GET", "/webhooks/" + a.ID + "/deliveries"},
	} {
		body := ""
		switch {
		case r[0] == "PATCH":
			body = `{"description":"mine now"}`
		case strings.HasSuffix(r[1], "/resend"):
			body = `{"event_id":"evt_06H278N51M000FMTS5RCG0A5W927JC1D"}`
		}
		requireError(t, call(t, other, r[0], basePath+r[1], body, nil), 404, "not_found")
	}
	require.Empty(t, listHooks(t, other, "").Data)
	require.Equal(t, a.ID, getHook(t, c, a.ID).ID, "untouched")

	// The routes need the webhooks scope.
	reader := srv.client(t, srv.createKey(t, srv.createAccount(t, "reader"), "read,trade,pay,wallets"))
	for _, target := range []string{"/webhooks", "/events"} {
		requireError(t, call(t, reader, "GET", basePath+target, "", nil), 403, "insufficient_scope")
	}

	// Delete: 200 once, 404 after, gone from the list.
	del := call(t, c, "DELETE", basePath+"/webhooks/"+a.ID, "", nil)
	require.Equal(t, 200, del.Status, "%s", del.Body)
	var deleted struct {
		ID      string `json:"id"`
		Deleted bool   `json:"deleted"`
	}
	decodeStrictJSON(t, del.Body, &deleted)
	require.Equal(t, a.ID, deleted.ID)
	require.True(t, deleted.Deleted)
	requireError(t, call(t, c, "GET", basePath+"/webhooks/"+a.ID, "", nil), 404, "not_found")
	requireError(t, call(t, c, "DELETE", basePath+"/webhooks/"+a.ID, "", nil), 404, "not_found")
	requireError(t, call(t, c, "POST", basePath+"/webhooks/"+a.ID+"/test", "", nil), 404, "not_found")
	requireError(t, call(t, c, "GET", basePath+"/webhooks/wh_doesnotexist", "", nil), 404, "not_found")
	newest := slices.Clone(loop)
	slices.Reverse(newest)
	require.Equal(t, append(newest, star.ID, b.ID), hookIDs(listHooks(t, c, "").Data))

	// Without a master key: 503 and nothing stored.
	noKey := startServer(t, t.TempDir(), hookFlags(tlsf, "", "")...)
	_, nc := hookAccount(t, noKey, "no master key")
	resp := call(t, nc, "POST", basePath+"/webhooks", hookBody(t, map[string]any{"url": base + "/hooks"}), nil)
	requireError(t, resp, 503, "webhook_encryption_unavailable")
	require.Empty(t, listHooks(t, nc, "").Data, "a refused registration stores nothing")

	// Without --webhook-allow-loopback, loopback is refused in every spelling.
	strict := startServer(t, t.TempDir(), "--webhook-ca", tlsf.CAFile, "--webhook-master-key-file", mk)
	_, sc := hookAccount(t, strict, "no loopback")
	for _, u := range []string{base + "/hooks", "https://localhost:8443/hooks", "https://[::1]:8443/hooks", "https://[::ffff:127.0.0.1]:8443/hooks", "https://2130706433:8443/hooks"} {
		requireError(t, call(t, sc, "POST", basePath+"/webhooks", hookBody(t, map[string]any{"url": u}), nil), 400, "invalid_webhook_url")
	}
	require.Empty(t, listHooks(t, sc, "").Data)
}

func hookIDs(es []hookEndpoint) []string {
	ids := []string{}
	for _, e := range es {
		ids = append(ids, e.ID)
	}
	return ids
}

// TestWebhookDelivery: deliveries are signed so that the Standard Webhooks
// library verifies them; every event is also in GET /events, byte for
// byte; the events filter applies to record events and never to a test
// delivery; fx.order.settled, transfer.confirmed and payment_link.paid carry
// the record as its own GET shows it; the attempts are listed.
func TestWebhookDelivery(t *testing.T) {
	t.Parallel()
	jsDir(t)
	tlsf := makeHookTLS(t)
	srv := startServer(t, t.TempDir(), hookFlags(tlsf, writeMasterKeyFile(t), "")...)
	rcv := startReceiver(t, tlsf, 0)
	tr := newTrader(t, srv, "hooks", map[string]string{"USDC": "1000"})
	_, c := hookKeyFor(t, tr)

	const allPath, transfersPath = "/ok/all", "/ok/transfers"
	all := createHook(t, c, map[string]any{"url": rcv.url(allPath), "description": "everything"})
	transfers := createHook(t, c, map[string]any{"url": rcv.url(transfersPath), "events": []string{"transfer.confirmed"}})
	rcv.addSecret(t, all.Secret)
	rcv.addSecret(t, transfers.Secret)

	// webhook.test, verified by standardwebhooks, and the same bytes in GET /events/{id}.
	testDlv := sendTest(t, c, all.ID)
	testEvt := eventOfDelivery(t, srv, c, all.ID, testDlv)
	q := rcv.await(t, "the test delivery to "+allPath, hookDeadline, eventOn(allPath, testEvt))
	e := requireSigned(t, q, all.Secret)
	require.False(t, q.Verified[transfers.Secret], "another endpoint's secret must not verify")
	require.Equal(t, "webhook.test", e.Type)
	require.JSONEq(t, fmt.Sprintf(`{"endpoint_id":%q}`, all.ID), string(e.Data.Object))
	require.NotContains(t, strings.Split(q.Signatures, " "), "", "one signature, no stray spaces: %q", q.Signatures)
	require.Len(t, strings.Split(q.Signatures, " "), 1, "one secret, one signature")
	sameBytes(t, q.Body, getEvent(t, c, testEvt), "webhook.test")
	ds := ofDelivery(deliveries(t, c, all.ID), testDlv)
	require.NotEmpty(t, ds)
	require.Equal(t, testEvt, ds[0].EventID)
	require.Equal(t, 1, ds[0].Attempt)
	require.NotNil(t, ds[0].StatusCode)
	require.Equal(t, 200, *ds[0].StatusCode)
	require.Nil(t, ds[0].Error)

	// A test delivery goes to the endpoint tested, whatever its filter, and
	// only there.
	tDlv := sendTest(t, c, transfers.ID)
	tEvt := eventOfDelivery(t, srv, c, transfers.ID, tDlv)
	tq := rcv.await(t, "the test delivery to "+transfersPath, hookDeadline, eventOn(transfersPath, tEvt))
	te := requireSigned(t, tq, transfers.Secret)
	require.Equal(t, "webhook.test", te.Type)
	require.JSONEq(t, fmt.Sprintf(`{"endpoint_id":%q}`, transfers.ID), string(te.Data.Object))

	// transfer.confirmed: to both endpoints, the transfer as GET shows it.
	tv := confirmTransfer(t, tr)
	isTransfer := func(path string) func(hookRequest) bool {
		return func(q hookRequest) bool {
			if q.Path != path {
				return false
			}
			var ev struct {
				Type string
				Data struct{ Object struct{ ID string } }
			}
			return json.Unmarshal([]byte(q.Body), &ev) == nil && ev.Type == "transfer.confirmed" && ev.Data.Object.ID == tv.ID
		}
	}
	q = rcv.await(t, "transfer.confirmed at "+allPath, hookDeadline, isTransfer(allPath))
	e = requireSigned(t, q, all.Secret)
	requireObjectIsGET(t, tr.c, e, basePath+"/transfers/"+tv.ID)
	sameBytes(t, q.Body, getEvent(t, c, e.ID), "transfer.confirmed")
	transferEvt := e.ID
	q = rcv.await(t, "transfer.confirmed at "+transfersPath, hookDeadline, isTransfer(transfersPath))
	require.Equal(t, transferEvt, requireSigned(t, q, transfers.Secret).ID, "one event, delivered to each endpoint")

	// fx.order.settled: to the catch-all endpoint only.
	o := settleAMMOrder(t, tr)
	q = rcv.await(t, "fx.order.settled at "+allPath, hookDeadline, func(q hookRequest) bool {
		var ev struct {
			Type string
			Data struct {
				Object struct {
					OrderID string `json:"order_id"`
				}
			}
		}
		return q.Path == allPath && json.Unmarshal([]byte(q.Body), &ev) == nil && ev.Type == "fx.order.settled" && ev.Data.Object.OrderID == o.OrderID
	})
	e = requireSigned(t, q, all.Secret)
	requireObjectIsGET(t, tr.c, e, basePath+"/fx/orders/"+o.OrderID)
	sameBytes(t, q.Body, getEvent(t, c, e.ID), "fx.order.settled")
	orderEvt := e.ID

	// payment_link.paid: the filter now takes it too.
	pt := patchHook(t, c, transfers.ID, map[string]any{"events": []string{"transfer.confirmed", "payment_link.paid"}})
	require.ElementsMatch(t, []string{"transfer.confirmed", "payment_link.paid"}, pt.Events)
	l := payLink(t, tr)
	isPaid := func(path string) func(hookRequest) bool {
		return func(q hookRequest) bool {
			var ev struct {
				Type string
				Data struct{ Object struct{ ID string } }
			}
			return q.Path == path && json.Unmarshal([]byte(q.Body), &ev) == nil && ev.Type == "payment_link.paid" && ev.Data.Object.ID == l.ID
		}
	}
	q = rcv.await(t, "payment_link.paid at "+allPath, hookDeadline, isPaid(allPath))
	e = requireSigned(t, q, all.Secret)
	sameBytes(t, q.Body, getEvent(t, c, e.ID), "payment_link.paid")
	var paid linkView
	decodeStrictJSON(t, e.Data.Object, &paid)
	now := tr.link(t, l.ID)
	require.Equal(t, now.ID, paid.ID)
	require.Equal(t, "paid", paid.State)
	require.Equal(t, now.State, paid.State)
	require.Equal(t, now.AmountReceived, paid.AmountReceived)
	require.Equal(t, now.PaidAt, paid.PaidAt)
	require.Equal(t, now.TxHashes, paid.TxHashes)
	linkEvt := e.ID
	q = rcv.await(t, "payment_link.paid at "+transfersPath, hookDeadline, isPaid(transfersPath))
	require.Equal(t, linkEvt, requireSigned(t, q, transfers.Secret).ID)

	// The filter kept the order's event from the transfers endpoint, and the
	// catch-all endpoint never got the other endpoint's test.
	var toTransfers []string
	for _, q := range rcv.requests(onPath(transfersPath)) {
		toTransfers = append(toTransfers, q.ID)
	}
	require.ElementsMatch(t, []string{tEvt, transferEvt, linkEvt}, uniq(toTransfers), "events delivered to %s", transfersPath)
	require.Empty(t, rcv.requests(eventOn(allPath, tEvt)), "a test delivery goes only to the endpoint tested")
	require.Empty(t, ofEvent(deliveries(t, c, transfers.ID), orderEvt), "no attempt of fx.order.settled to a transfer.confirmed endpoint")
	require.Empty(t, ofEvent(deliveries(t, c, all.ID), tEvt))

	// GET /events: every event of the account, newest first, a page at a
	// time; each exactly what was delivered.
	wantIDs := []string{testEvt, tEvt, transferEvt, orderEvt, linkEvt}
	events := allEvents(t, c, 1, "")
	require.Equal(t, events, allEvents(t, c, 200, ""), "pages of 1 and one page of 200 list the same")
	var ids []string
	var prev time.Time
	for i, raw := range events {
		var ev hookEvent
		decodeStrictJSON(t, raw, &ev)
		ids = append(ids, ev.ID)
		at := requireRFC3339UTC(t, ev.CreatedAt)
		if i > 0 {
			require.False(t, at.After(prev), "newest first: %s after %s", ev.CreatedAt, prev)
		}
		prev = at
		delivered := rcv.requests(func(q hookRequest) bool { return q.ID == ev.ID })
		require.NotEmpty(t, delivered, "event %s was never delivered", ev.ID)
		for _, q := range delivered {
			require.JSONEq(t, q.Body, string(raw), "GET /events lists %s as delivered", ev.ID)
			sameBytes(t, q.Body, getEvent(t, c, ev.ID), ev.Type)
		}
	}
	require.ElementsMatch(t, wantIDs, ids, "GET /events")
	first := eventsPage(t, c, "?limit=1")
	require.Len(t, first.Data, 1)
	require.True(t, first.HasMore)
	require.NotNil(t, first.NextCursor)
	require.Equal(t, ids[0], *first.NextCursor)
	byType := func(typ string) []string {
		var out []string
		for _, raw := range allEvents(t, c, 200, "&type="+typ) {
			var ev hookEvent
			decodeStrictJSON(t, raw, &ev)
			require.Equal(t, typ, ev.Type)
			out = append(out, ev.ID)
		}
		return out
	}
	require.ElementsMatch(t, []string{testEvt, tEvt}, byType("webhook.test"))
	require.Equal(t, []string{transferEvt}, byType("transfer.confirmed"))
	require.Equal(t, []string{orderEvt}, byType("fx.order.settled"))
	require.Equal(t, []string{linkEvt}, byType("payment_link.paid"))
	require.Empty(t, byType("transfer.failed"))
	requireError(t, call(t, c, "GET", basePath+"/events?limit=201", "", nil), 400, "invalid_request")
	requireError(t, call(t, c, "GET", basePath+"/events?type=", "", nil), 400, "invalid_request")
	requireError(t, call(t, c, "GET", basePath+"/events/evt_doesnotexist", "", nil), 404, "not_found")
	// A cursor is an id of the list's own kind: any such id pages within
	// the list's own records (an id of another kind once listed the
	// account's other records and crashed the server); a string that is
	// no such id is 400, not a silent first page.
	for _, list := range []struct {
		c            *client.Client
		path, prefix string
	}{{c, "/events", "evt_"}, {tr.c, "/fx/orders", "ord_"}, {tr.c, "/transfers", "tr_"}, {tr.c, "/payment-links", "pl_"}} {
		own := list.prefix + strings.TrimPrefix(transferEvt, "evt_") // well formed, of the list's kind
		for _, after := range []string{"zzz", all.ID, transferEvt, "aaa", own} {
			resp := call(t, list.c, "GET", basePath+list.path+"?starting_after="+after, "", nil)
			if !strings.HasPrefix(after, list.prefix) {
				requireError(t, resp, 400, "invalid_request")
				continue
			}
			require.Equal(t, 200, resp.Status, "%s?starting_after=%s: %s", list.path, after, resp.Body)
			var page struct {
				Data []map[string]any `json:"data"`
			}
			require.NoError(t, json.Unmarshal(resp.Body, &page))
			for _, item := range page.Data {
				id, _ := item["id"].(string)
				if id == "" {
					id, _ = item["order_id"].(string)
				}
				require.True(t, strings.HasPrefix(id, list.prefix), "%s?starting_after=%s listed %v", list.path, after, item)
			}
		}
	}
	_, other := hookAccount(t, srv, "someone else")
	requireError(t, call(t, other, "GET", basePath+"/events/"+transferEvt, "", nil), 404, "not_found")
	require.Empty(t, eventsPage(t, other, "").Data, "another account's events are not listed")

	// The attempts: one row each, all answered 200 at once, newest first,
	// a page at a time.
	att := deliveries(t, c, all.ID)
	require.ElementsMatch(t, []string{testEvt, transferEvt, orderEvt, linkEvt}, eventIDs(att), "attempts to %s: %s", all.ID, fmtDeliveries(att))
	for _, d := range att {
		require.Equal(t, 1, d.Attempt)
		require.True(t, succeeded(d), "attempt %s", fmtDeliveries([]hookDelivery{d}))
		require.Nil(t, d.Error)
	}
	require.Equal(t, linkEvt, att[0].EventID, "newest delivery first")
	require.Equal(t, testEvt, att[len(att)-1].EventID)
	var paged []hookDelivery
	query := "?limit=1"
	for range len(att) + 1 {
		page := deliveriesPage(t, c, all.ID, query)
		require.LessOrEqual(t, len(page.Data), 1, "a page never holds more than limit rows")
		paged = append(paged, page.Data...)
		if !page.HasMore {
			require.Nil(t, page.NextCursor)
			break
		}
		require.NotNil(t, page.NextCursor)
		// One attempt per delivery: every page ends on a delivery's edge,
		// so the cursor is the plain delivery id (no ":<attempt>").
		require.Equal(t, page.Data[len(page.Data)-1].ID, *page.NextCursor)
		query = "?limit=1&starting_after=" + *page.NextCursor
	}
	require.Equal(t, att, paged, "pages of 1 list the same attempts")
}

func eventIDs(ds []hookDelivery) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.EventID)
	}
	return out
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// TestWebhookRetriesAndDisable: failed attempts are retried on the schedule
// with the same event id; 10 consecutive failures disable the endpoint, and
// re-enabling it resumes the pending event. An endpoint that never answers
// is cut at 10 s without holding up another endpoint; a redirect is a
// failure and is not followed.
func TestWebhookRetriesAndDisable(t *testing.T) {
	t.Parallel()
	tlsf := makeHookTLS(t)
	// Fourteen retries: the tenth failed attempt disables the endpoint while
	// its event still has attempts left, so re-enabling resumes it.
	srv := startServer(t, t.TempDir(), hookFlags(tlsf, writeMasterKeyFile(t), retrySchedule(14, 100*time.Millisecond))...)
	rcv := startReceiver(t, tlsf, 0)
	_, c := hookAccount(t, srv, "retries")
	endpoint := func(path string) hookEndpoint {
		t.Helper()
		e := createHook(t, c, map[string]any{"url": rcv.url(path)})
		rcv.addSecret(t, e.Secret)
		return e
	}
	state := func(id string) func() hookEndpoint { return func() hookEndpoint { return getHook(t, c, id) } }
	stateOf := func(e hookEndpoint) string { return e.State }

	t.Run("ten failures disable, re-enabling resumes", func(t *testing.T) {
		const path = "/flaky/10/disable" // 500 ten times, then 200
		flaky := endpoint(path)
		dlv := sendTest(t, c, flaky.ID)
		awaitState(t, srv, "endpoint "+flaky.ID, "disabled", hookDeadline, state(flaky.ID), stateOf)
		ds := awaitDeliveries(t, srv, c, flaky.ID, "10 attempts", 10*time.Second, func(ds []hookDelivery) bool { return len(ds) >= 10 })
		require.Len(t, ds, 10, "disabled after exactly 10 failed attempts: %s", fmtDeliveries(ds))
		var attempts []int
		for _, d := range ds {
			require.Equal(t, dlv, d.ID, "one delivery, shared by its attempts")
			require.Equal(t, ds[0].EventID, d.EventID)
			require.NotNil(t, d.StatusCode, "attempt %d", d.Attempt)
			require.Equal(t, 500, *d.StatusCode, "attempt %d", d.Attempt)
			attempts = append(attempts, d.Attempt)
		}
		slices.Sort(attempts)
		require.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, attempts)
		evt := ds[0].EventID
		got := rcv.awaitCount(t, "10 requests on "+path, 10, 10*time.Second, onPath(path))
		require.Len(t, got, 10, "the receiver got exactly the 10 attempts:\n%s", rcv.dump())
		for _, q := range got {
			require.Equal(t, evt, q.ID, "the same webhook-id on every attempt")
			require.Equal(t, got[0].Body, q.Body, "the same body on every attempt")
			requireSigned(t, q, flaky.Secret)
		}
		requireError(t, call(t, c, "POST", basePath+"/webhooks/"+flaky.ID+"/test", "", nil), 409, "invalid_state")

		// Re-enabled: the pending event goes out again, and now it lands.
		require.Equal(t, "enabled", patchHook(t, c, flaky.ID, map[string]any{"state": "enabled"}).State)
		q := rcv.await(t, "the event again after re-enabling", hookDeadline, func(q hookRequest) bool {
			return q.Path == path && q.Status != nil && *q.Status == 200
		})
		require.Equal(t, evt, q.ID)
		require.Equal(t, got[0].Body, q.Body)
		requireSigned(t, q, flaky.Secret)
		ds = awaitDeliveries(t, srv, c, flaky.ID, "the successful attempt", hookDeadline, func(ds []hookDelivery) bool {
			return slices.ContainsFunc(ds, succeeded)
		})
		require.Len(t, ds, 11, "%s", fmtDeliveries(ds))
		require.Equal(t, "enabled", getHook(t, c, flaky.ID).State)
		sameBytes(t, q.Body, getEvent(t, c, evt), "webhook.test after retries")
	})

	t.Run("a hanging endpoint is cut at 10 s and holds up no other", func(t *testing.T) {
		const hangPath, okPath = "/hang/slow", "/ok/prompt"
		hang := endpoint(hangPath)
		healthy := endpoint(okPath)
		hangDlv := sendTest(t, c, hang.ID)
		hq := rcv.await(t, "the attempt on "+hangPath, hookDeadline, onPath(hangPath))
		sendTest(t, c, healthy.ID)
		// Well before the hanging attempt's 10 s are up.
		oq := rcv.await(t, "the delivery to the healthy endpoint", time.Until(hq.At.Add(8*time.Second)), onPath(okPath))
		requireSigned(t, oq, healthy.Secret)
		require.Len(t, rcv.requests(onPath(hangPath)), 1, "the hanging attempt is still open")

		ds := awaitDeliveries(t, srv, c, hang.ID, "the end of the hanging attempt", 30*time.Second, func(ds []hookDelivery) bool {
			return len(ofDelivery(ds, hangDlv)) > 0
		})
		first := ofDelivery(ds, hangDlv)
		i := slices.IndexFunc(first, func(d hookDelivery) bool { return d.Attempt == 1 })
		require.GreaterOrEqual(t, i, 0, "no attempt 1: %s", fmtDeliveries(first))
		d := first[i]
		require.Nil(t, d.StatusCode, "no answer, no status: %s", fmtDeliveries(first))
		require.NotNil(t, d.Error, "a transport error is recorded")
		require.NotEmpty(t, *d.Error)
		require.GreaterOrEqual(t, d.DurationMS, int64(9_000), "cut at the 10 s deadline: %s", fmtDeliveries(first))
		require.LessOrEqual(t, d.DurationMS, int64(12_000), "cut at the 10 s deadline: %s", fmtDeliveries(first))
	})

	t.Run("a redirect is a failure and is not followed", func(t *testing.T) {
		const path = "/redirect/away"
		red := endpoint(path)
		dlv := sendTest(t, c, red.ID)
		ds := awaitDeliveries(t, srv, c, red.ID, "the first attempt", hookDeadline, func(ds []hookDelivery) bool {
			return len(ofDelivery(ds, dlv)) > 0
		})
		d := ofDelivery(ds, dlv)[0]
		require.NotNil(t, d.StatusCode, "%s", fmtDeliveries(ds))
		require.Equal(t, 302, *d.StatusCode)
		require.NotNil(t, d.Error)
		require.Equal(t, "redirect not followed", *d.Error)
		requireSigned(t, rcv.await(t, "the attempt on "+path, hookDeadline, onPath(path)), red.Secret)
		// It counts as a failure: ten of them disable the endpoint.
		awaitState(t, srv, "endpoint "+red.ID, "disabled", hookDeadline, state(red.ID), stateOf)
		// A delivery after all of that, to order the receiver's output: the
		// redirect's target was never asked for.
		barrier := endpoint("/ok/after-redirect")
		sendTest(t, c, barrier.ID)
		rcv.await(t, "the delivery after the redirects", hookDeadline, onPath("/ok/after-redirect"))
		require.Empty(t, rcv.requests(func(q hookRequest) bool { return strings.HasPrefix(q.Path, "/ok/from-redirect") }),
			"a redirect was followed:\n%s", rcv.dump())
		for _, d := range deliveries(t, c, red.ID) {
			require.False(t, succeeded(d), "%s", fmtDeliveries([]hookDelivery{d}))
		}
	})
}

// TestWebhookRotation: after rotate-secret every delivery carries the old
// and the new signature, and the library verifies it with either; a second
// rotation drops the oldest.
func TestWebhookRotation(t *testing.T) {
	t.Parallel()
	tlsf := makeHookTLS(t)
	srv := startServer(t, t.TempDir(), hookFlags(tlsf, writeMasterKeyFile(t), "")...)
	rcv := startReceiver(t, tlsf, 0)
	_, c := hookAccount(t, srv, "rotation")
	const path = "/ok/rotation"
	e := createHook(t, c, map[string]any{"url": rcv.url(path)})
	s1 := e.Secret
	rcv.addSecret(t, s1)

	deliver := func() hookRequest {
		t.Helper()
		dlv := sendTest(t, c, e.ID)
		evt := eventOfDelivery(t, srv, c, e.ID, dlv)
		return rcv.await(t, "test delivery "+dlv, hookDeadline, eventOn(path, evt))
	}
	rotate := func() string {
		t.Helper()
		resp := call(t, c, "POST", basePath+"/webhooks/"+e.ID+"/rotate-secret", "", nil)
		require.Equal(t, 200, resp.Status, "%s", resp.Body)
		var out struct {
			ID     string `json:"id"`
			Secret string `json:"secret"`
		}
		decodeStrictJSON(t, resp.Body, &out)
		require.Equal(t, e.ID, out.ID)
		requireSecret(t, out.Secret)
		require.NotContains(t, string(getOK(t, c, basePath+"/webhooks/"+e.ID)), strings.TrimPrefix(out.Secret, "whsec_"))
		rcv.addSecret(t, out.Secret)
		return out.Secret
	}

	q := deliver()
	requireSigned(t, q, s1)
	require.Len(t, strings.Split(q.Signatures, " "), 1)

	s2 := rotate()
	require.NotEqual(t, s1, s2)
	q = deliver()
	requireSigned(t, q, s1, s2)
	require.Len(t, strings.Split(q.Signatures, " "), 2, "both signatures during the rotation: %q", q.Signatures)

	s3 := rotate()
	require.NotContains(t, []string{s1, s2}, s3)
	q = deliver()
	requireSigned(t, q, s2, s3)
	require.False(t, q.Verified[s1], "a second rotation drops the oldest secret")
	require.Len(t, strings.Split(q.Signatures, " "), 2, "%q", q.Signatures)

	require.Equal(t, "enabled", getHook(t, c, e.ID).State)
	_, other := hookAccount(t, srv, "someone else")
	requireError(t, call(t, other, "POST", basePath+"/webhooks/"+e.ID+"/rotate-secret", "", nil), 404, "not_found")
}

// TestWebhookCrashRedelivery: events pending for a receiver that is down
// (some tried and failed, some perhaps never tried) survive kill -9; after
// the restart every one is delivered with its event id and the body of GET
// /events/{id}, none lost.
func TestWebhookCrashRedelivery(t *testing.T) {
	t.Parallel()
	jsDir(t)
	tlsf := makeHookTLS(t)
	// Long enough steps that no event fails more than once before the kill
	// (ten failures would disable the endpoint).
	flags := hookFlags(tlsf, writeMasterKeyFile(t), retrySchedule(9, 10*time.Second))
	dir := t.TempDir()

	// A port for the receiver, which is then down until after the crash.
	probe := startReceiver(t, tlsf, 0)
	port := probe.Port
	probe.Kill()

	srv := startServer(t, dir, flags...)
	tr := newTrader(t, srv, "crash hooks", map[string]string{"USDC": "100"})
	hkey, c := hookKeyFor(t, tr)
	const path = "/ok/crash"
	e := createHook(t, c, map[string]any{"url": fmt.Sprintf("https://127.0.0.1:%d%s", port, path)})

	// Events while the receiver is down: each fails its first attempt.
	tv := confirmTransfer(t, tr)
	var dlvs []string
	for range 4 {
		dlvs = append(dlvs, sendTest(t, c, e.ID))
	}
	ds := awaitDeliveries(t, srv, c, e.ID, "a failed first attempt of all 5 events", hookDeadline, func(ds []hookDelivery) bool {
		return len(uniq(eventIDs(ds))) >= 5
	})
	preKill := uniq(eventIDs(ds))
	for _, d := range ds {
		require.False(t, succeeded(d), "the receiver is down: %s", fmtDeliveries(ds))
		require.Nil(t, d.StatusCode, "connection refused has no status: %s", fmtDeliveries(ds))
		require.NotNil(t, d.Error)
	}
	// Two more, acknowledged right before the kill: maybe never tried.
	for range 2 {
		dlvs = append(dlvs, sendTest(t, c, e.ID))
	}
	srv.Kill()

	// The receiver comes back on its port, then the service.
	rcv := startReceiver(t, tlsf, port)
	rcv.addSecret(t, e.Secret)
	srv2 := startServer(t, dir, flags...)
	tr.srv, tr.c, tr.rpc = srv2, srv2.client(t, tr.key), srv2.chainRPC(t)
	c = srv2.client(t, hkey)

	events := allEvents(t, c, 200, "")
	require.Len(t, events, 7, "one transfer.confirmed and six webhook.test")
	var ids []string
	types := map[string]int{}
	for _, raw := range events {
		var ev hookEvent
		decodeStrictJSON(t, raw, &ev)
		ids = append(ids, ev.ID)
		types[ev.Type]++
		if ev.Type == "transfer.confirmed" {
			requireObjectIsGET(t, tr.c, ev, basePath+"/transfers/"+tv.ID)
		}
	}
	require.Equal(t, map[string]int{"transfer.confirmed": 1, "webhook.test": 6}, types)
	require.Subset(t, ids, preKill, "the event ids tried before the crash are the ones after it")

	for _, id := range ids {
		rcv.await(t, "event "+id+" after the restart", hookDeadline, eventOn(path, id))
	}
	for _, id := range ids {
		body := getEvent(t, c, id)
		for _, q := range rcv.requests(eventOn(path, id)) {
			requireSigned(t, q, e.Secret)
			sameBytes(t, q.Body, body, "event "+id+" redelivered after kill -9")
		}
	}
	// Every acknowledged test delivery, and the transfer's, ended in a 2xx.
	ds = awaitDeliveries(t, srv2, c, e.ID, "a successful attempt of every event", hookDeadline, func(ds []hookDelivery) bool {
		for _, id := range ids {
			if !slices.ContainsFunc(ofEvent(ds, id), succeeded) {
				return false
			}
		}
		return true
	})
	for _, dlv := range dlvs {
		require.True(t, slices.ContainsFunc(ofDelivery(ds, dlv), succeeded), "test delivery %s: %s", dlv, fmtDeliveries(ofDelivery(ds, dlv)))
	}
	require.Equal(t, "enabled", getHook(t, c, e.ID).State)
}
