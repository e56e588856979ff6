package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	oaserrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/reqsig"
)

// TestOpenAPIMatchesTraffic validates real exchanges with the running
// server (successes and the contract's errors) against the OpenAPI
// document the same server publishes, with a real OpenAPI validator.
func TestOpenAPIMatchesTraffic(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir())
	acct := srv.createAccount(t, "openapi")
	key := srv.createKey(t, acct, "read,pay")
	readOnly := srv.createKey(t, acct, "read")
	trader := srv.createKey(t, acct, "trade,wallets")
	payer := srv.createKey(t, acct, "pay")
	hooks := srv.createKey(t, acct, "webhooks")

	resp := callPublic(t, srv.unsigned(t), "GET", basePath+"/openapi.json")
	requireStatus(t, resp, 200)
	doc, err := libopenapi.NewDocument(resp.Body)
	require.NoError(t, err)
	require.Equal(t, "3.1.0", doc.GetVersion())
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, verrs := v.ValidateDocument()
	require.True(t, ok, "the served document is not valid OpenAPI 3.1:\n%s", validationErrors(verrs))

	n := 0
	// exchange sends a request by hand and validates request and response
	// against the document.
	exchange := func(t *testing.T, k apiKey, method, target, body string, headers map[string]string, wantStatus int, validateRequest bool) []byte {
		t.Helper()
		n++
		r := rawRequest{method: method, target: target, keyID: k.ID, priv: k.Priv, headers: headers}
		if body != "" {
			r.body = []byte(body)
		}
		r.unsigned = k.ID == ""
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		r.ts = ts
		got := r.send(t, srv.BaseURL)
		require.Equal(t, wantStatus, got.Status, "%s %s: %s", method, target, got.Body)

		// The same request, rebuilt for the validator.
		var rb io.Reader
		if body != "" {
			rb = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, srv.BaseURL+target, rb)
		require.NoError(t, err)
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if k.ID != "" {
			req.Header.Set(reqsig.HeaderKey, k.ID)
			req.Header.Set(reqsig.HeaderTimestamp, ts)
			req.Header.Set(reqsig.HeaderSignature, reqsig.Sign(k.Priv, ts, method, target, []byte(body)))
		}
		for h, val := range headers {
			req.Header.Set(h, val)
		}
		if validateRequest {
			ok, verrs := v.ValidateHttpRequestSync(req)
			require.True(t, ok, "request %s %s does not match the document:\n%s", method, target, validationErrors(verrs))
		}
		res := &http.Response{StatusCode: got.Status, Header: got.Header, Body: io.NopCloser(bytes.NewReader(got.Body)), Request: req}
		ok, verrs := v.ValidateHttpResponse(req, res)
		require.True(t, ok, "answer %d to %s %s does not match the document:\n%s\nbody: %s", got.Status, method, target, validationErrors(verrs), got.Body)
		return got.Body
	}
	none := apiKey{}
	contacts := basePath + "/contacts"

	firstBody := contactBodyString("Ada")
	body := exchange(t, key, "POST", contacts, firstBody, map[string]string{"Idempotency-Key": "oa-1"}, 201, true)
	id := decodeContact(t, body).ID
	for _, tc := range []struct {
		name            string
		key             apiKey
		method, target  string
		body            string
		headers         map[string]string
		status          int
		validateRequest bool
	}{
		{"create with currency and memo", key, "POST", contacts, `{"name":"Bob","address":"` + randomAddress() + `","currency":"EURC","memo":"rent"}`, nil, 201, true},
		{"idempotent replay", key, "POST", contacts + "?again=1", firstBody, map[string]string{"Idempotency-Key": "oa-1"}, 201, true},
		{"list", key, "GET", contacts + "?limit=1", "", nil, 200, true},
		{"get", key, "GET", contacts + "/" + id, "", nil, 200, true},
		{"update", key, "PATCH", contacts + "/" + id, `{"memo":"updated"}`, nil, 200, true},
		{"account", key, "GET", basePath + "/account", "", nil, 200, true},
		{"health", none, "GET", basePath + "/health", "", nil, 200, true},
		{"time", none, "GET", basePath + "/time", "", nil, 200, true},
		{"400 invalid_request", key, "POST", contacts, `{"name":"x"}`, nil, 400, false},
		{"400 unsupported_asset", key, "POST", contacts, `{"name":"x","address":"` + randomAddress() + `","currency":"BTC"}`, nil, 400, false},
		{"400 bad limit", key, "GET", contacts + "?limit=0", "", nil, 400, false},
		{"401 auth_failed", apiKey{ID: "svc_test_unknown", Priv: key.Priv}, "GET", basePath + "/account", "", nil, 401, false},
		{"403 insufficient_scope", readOnly, "POST", contacts, contactBodyString("Eve"), nil, 403, true},
		{"404 not_found", key, "GET", contacts + "/ct_01M80AG7DGGN82BKWCMHEJCKG8", "", nil, 404, true},
		{"413 body_too_large", key, "POST", contacts, `{"name":"` + strings.Repeat("x", 64<<10) + `"}`, nil, 413, false},
		{"422 idempotency_key_reused", key, "POST", contacts, contactBodyString("Other"), map[string]string{"Idempotency-Key": "oa-1"}, 422, true},
		{"404 webhook test", hooks, "POST", basePath + "/webhooks/wh_01M80AG7DGGN82BKWCMHEJCKG8/test", "", nil, 404, true},
		{"404 transfer", payer, "POST", basePath + "/transfers/tr_01M80AG7DGGN82BKWCMHEJCKG8/submit", `{"tx_hash":"0x` + strings.Repeat("ab", 32) + `"}`, nil, 404, true},
		{"delete", key, "DELETE", contacts + "/" + id, "", nil, 200, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			exchange(t, tc.key, tc.method, tc.target, tc.body, tc.headers, tc.status, tc.validateRequest)
		})
	}
	t.Run("fx", func(t *testing.T) {
		jsDir(t)
		_, chainID := getCurrencies(t, srv.client(t, key))
		registerWallet(t, srv, srv.client(t, trader), newEthKey(t), chainID)
		var quotes quotesView
		require.NoError(t, json.Unmarshal(exchange(t, trader, "POST", basePath+"/fx/quotes", `{"from_currency":"USDC","to_currency":"EURC","amount":"10"}`, nil, 200, true), &quotes))
		var amm, rfq orderView
		require.NoError(t, json.Unmarshal(exchange(t, trader, "POST", basePath+"/fx/quotes/"+quotes.pick(t, "amm").ID+"/accept", `{}`, nil, 200, true), &amm))
		require.NoError(t, json.Unmarshal(exchange(t, trader, "POST", basePath+"/fx/quotes/"+quotes.pick(t, "rfq").ID+"/accept", "", nil, 200, true), &rfq))
		exchange(t, trader, "GET", basePath+"/fx/orders/"+amm.OrderID, "", nil, 200, true)
		exchange(t, trader, "GET", basePath+"/fx/orders?limit=1", "", nil, 200, true)
		exchange(t, trader, "POST", basePath+"/fx/orders/"+amm.OrderID+"/submit", `{"signature":"0x`+strings.Repeat("11", 65)+`"}`, nil, 400, true)
		exchange(t, trader, "POST", basePath+"/fx/orders/"+rfq.OrderID+"/submit", `{"tx_hash":"0x`+strings.Repeat("cd", 32)+`"}`, nil, 200, true)
		exchange(t, trader, "POST", basePath+"/fx/quotes/q_01M80AG7DGGN82BKWCMHEJCKG8/accept", "", nil, 404, true)
		exchange(t, trader, "GET", basePath+"/fx/orders/ord_01M80AG7DGGN82BKWCMHEJCKG8", "", nil, 404, true)
		exchange(t, trader, "POST", basePath+"/fx/quotes", `{"from_currency":"USDC","to_currency":"XAU","amount":"10"}`, nil, 400, true)

		// Payments, with the wallet registered above.
		to := randomAddress()
		var same, cross struct{ ID string }
		require.NoError(t, json.Unmarshal(exchange(t, payer, "POST", basePath+"/transfers",
			`{"from_currency":"USDC","currency":"USDC","amount":"1.5","recipient":"`+to+`","memo":"=1+1"}`, nil, 201, true), &same))
		require.NoError(t, json.Unmarshal(exchange(t, payer, "POST", basePath+"/transfers",
			`{"from_currency":"USDC","currency":"EURC","amount":"2","recipient":"`+to+`"}`, nil, 201, true), &cross))
		exchange(t, payer, "POST", basePath+"/transfers/"+cross.ID+"/accept", "", nil, 200, true)
		exchange(t, payer, "GET", basePath+"/transfers/"+same.ID, "", nil, 200, true)
		exchange(t, payer, "GET", basePath+"/transfers?limit=5", "", nil, 200, true)
		exchange(t, payer, "POST", basePath+"/transfers/"+same.ID+"/submit", `{"tx_hash":"0x`+strings.Repeat("cd", 32)+`"}`, nil, 200, true)
		exchange(t, payer, "POST", basePath+"/transfers/"+cross.ID+"/submit", `{"signature":"0x`+strings.Repeat("11", 65)+`"}`, nil, 400, true)
		var link struct{ ID string }
		require.NoError(t, json.Unmarshal(exchange(t, payer, "POST", basePath+"/payment-links", `{"currency":"EURC","amount":"9.99","description":"tea"}`, nil, 201, true), &link))
		exchange(t, key, "GET", basePath+"/payment-links/"+link.ID, "", nil, 200, true)
		exchange(t, key, "GET", basePath+"/payment-links", "", nil, 200, true)
		exchange(t, none, "GET", basePath+"/pay/"+link.ID, "", nil, 200, true)
		exchange(t, none, "POST", basePath+"/pay/"+link.ID+"/submit", `{"tx_hash":"0x`+strings.Repeat("cd", 32)+`"}`, nil, 400, true)
		exchange(t, payer, "PATCH", basePath+"/payment-links/"+link.ID, `{"state":"cancelled"}`, nil, 200, true)
		exchange(t, payer, "PATCH", basePath+"/payment-links/"+link.ID+"?again=1", `{"state":"cancelled"}`, nil, 409, true)
		exchange(t, key, "GET", basePath+"/transactions?limit=10&type=transfer", "", nil, 200, true)
		exchange(t, key, "GET", basePath+"/transactions?from=yesterday", "", nil, 400, true)
		exchange(t, key, "GET", basePath+"/transactions/export?currency=USDC", "", nil, 200, true)
	})
	t.Run("the validator is not a rubber stamp", func(t *testing.T) {
		req, err := http.NewRequest("GET", srv.BaseURL+contacts+"/"+id, nil)
		require.NoError(t, err)
		bad := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"id":5,"name":"x"}`)), Request: req}
		ok, _ := v.ValidateHttpResponse(req, bad)
		require.False(t, ok, "a contact with a numeric id and missing fields validated")
	})
	t.Run("429 over_limit", func(t *testing.T) {
		limited := srv.createKey(t, acct, "trade")
		for i := 0; i < 30; i++ {
			r := rawRequest{method: "POST", target: fmt.Sprintf("%s/fx/quotes?i=%d", basePath, i), body: []byte(`{}`), keyID: limited.ID, priv: limited.Priv}
			require.Equal(t, 400, r.send(t, srv.BaseURL).Status)
		}
		exchange(t, limited, "POST", basePath+"/fx/quotes", `{"from_currency":"USDC","to_currency":"EURC","amount":"10"}`, nil, 429, true)
	})
}

func validationErrors(errs []*oaserrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s: %s\n", e.Message, e.Reason)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "  %s at %s\n", f.Reason, f.FieldPath)
		}
	}
	return b.String()
}
