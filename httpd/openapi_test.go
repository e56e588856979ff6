package httpd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/fxd-labs/fxd/internal/repo"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	oaserrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

const (
	testBasePath  = "/public/v1"
	testServerURL = "http://127.0.0.1:8080"
)

// testRoutes is the real route table. Method values on a nil *Server are
// fine as long as nobody calls them.
func testRoutes() []route { return (&Server{}).routes() }

func buildTestDoc(t *testing.T) []byte {
	t.Helper()
	b, err := buildOpenAPI(testRoutes(), testBasePath, testServerURL)
	require.NoError(t, err)
	return b
}

func decodeDoc(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	require.NoError(t, json.Unmarshal(b, &doc))
	return doc
}

// sharedFile reads <repo root>/../shared/<name>. A missing file is a
// failure, not a skip: without it nothing checks the document against the
// contract text.
func sharedFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo.MustRoot(t), "..", "shared", name))
	require.NoError(t, err, "shared/%s is required", name)
	return b
}

// TestOpenAPIValidates checks the document with libopenapi-validator: the
// document against the official OpenAPI 3.1 JSON Schema, the model build
// (which resolves every reference), and a real request/response pair.
func TestOpenAPIValidates(t *testing.T) {
	b := buildTestDoc(t)
	doc, err := libopenapi.NewDocument(b)
	require.NoError(t, err)
	require.Equal(t, "3.1.0", doc.GetVersion())

	ok, verrs := schema_validation.ValidateOpenAPIDocument(doc)
	require.True(t, ok, "OpenAPI 3.1 schema validation failed:\n%s", formatValidationErrors(verrs))
	require.Empty(t, verrs)

	model, err := doc.BuildV3Model()
	require.NoError(t, err, "building the model (resolving every $ref) failed")
	require.NotNil(t, model)
	require.Equal(t, len(testRoutes()), countOperations(decodeDoc(t, b)))

	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, verrs = v.ValidateDocument()
	require.True(t, ok, "%s", formatValidationErrors(verrs))

	// Real traffic against the document: the server's own renderings.
	created := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	contact := domain.ViewContact(&domain.Contact{ID: "ct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", Name: "Ada", Address: "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A", Currency: "USDC", CreatedAt: created, UpdatedAt: created})
	req, _ := http.NewRequest("GET", testServerURL+testBasePath+"/contacts/"+contact.ID, nil)
	resp := jsonResponse(t, 200, contact, map[string]string{"X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "599", "X-RateLimit-Reset": "1793000000"})
	ok, verrs = v.ValidateHttpResponse(req, resp)
	require.True(t, ok, "%s", formatValidationErrors(verrs))

	req, _ = http.NewRequest("POST", testServerURL+testBasePath+"/contacts", strings.NewReader(`{"name":"Ada","address":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","memo":null}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "k-1")
	req.Header.Set("SVC-API-KEY", "svc_test_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000")
	req.Header.Set("SVC-TIMESTAMP", "1793000000")
	req.Header.Set("SVC-SIGNATURE", "c2lnbmF0dXJl")
	ok, verrs = v.ValidateHttpRequestSync(req)
	require.True(t, ok, "%s", formatValidationErrors(verrs))

	// An unknown field is refused by the document as by the server.
	req, _ = http.NewRequest("POST", testServerURL+testBasePath+"/contacts", strings.NewReader(`{"name":"Ada","address":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","nick":"x"}`))
	req.Header.Set("Content-Type", "application/json")
	ok, _ = v.ValidateHttpRequestSync(req)
	require.False(t, ok, "an unknown body field must not validate")

	req, _ = http.NewRequest("POST", testServerURL+testBasePath+"/contacts", nil)
	resp = jsonResponse(t, 400, json.RawMessage(domain.ErrInvalid("unknown field %q", "nick").Reply().Body), nil)
	ok, verrs = v.ValidateHttpResponse(req, resp)
	require.True(t, ok, "%s", formatValidationErrors(verrs))
}

// TestOpenAPIValidatorCatchesErrors proves the validator is not a rubber
// stamp: a broken document must fail.
func TestOpenAPIValidatorCatchesErrors(t *testing.T) {
	doc := decodeDoc(t, buildTestDoc(t))
	doc["info"].(map[string]any)["version"] = 1 // must be a string
	delete(doc["paths"].(map[string]any)["/time"].(map[string]any)["get"].(map[string]any), "responses")
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	d, err := libopenapi.NewDocument(b)
	require.NoError(t, err)
	ok, verrs := schema_validation.ValidateOpenAPIDocument(d)
	require.False(t, ok)
	require.NotEmpty(t, verrs)
}

func jsonResponse(t *testing.T, status int, body any, headers map[string]string) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	require.NoError(t, err)
	h := http.Header{"Content-Type": {"application/json"}}
	for k, v := range headers {
		h.Set(k, v)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(bytes.NewReader(b))}
}

func formatValidationErrors(errs []*oaserrors.ValidationError) string {
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s (line %d, col %d)\n", e.Error(), e.SpecLine, e.SpecCol)
		for _, f := range e.SchemaValidationErrors {
			fmt.Fprintf(&b, "  %s at %s (%s)\n", f.Reason, f.FieldPath, f.KeywordLocation)
		}
	}
	return b.String()
}

func countOperations(doc map[string]any) int {
	n := 0
	for _, item := range doc["paths"].(map[string]any) {
		n += len(item.(map[string]any))
	}
	return n
}

// schemaCompiler compiles the document's component schemas as JSON Schema
// 2020-12. Compiling a schema validates it against the 2020-12 meta-schema.
func schemaCompiler(t *testing.T, doc map[string]any) *jsonschema.Compiler {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	// Round-trip through the library's own decoder (json.Number).
	b, err := json.Marshal(doc)
	require.NoError(t, err)
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	require.NoError(t, c.AddResource(schemaDocURL, v))
	return c
}

const schemaDocURL = "https://fxd.invalid/openapi.json"

func compileComponent(t *testing.T, c *jsonschema.Compiler, name string) *jsonschema.Schema {
	t.Helper()
	s, err := c.Compile(schemaDocURL + "#/components/schemas/" + name)
	require.NoError(t, err, "schema %s", name)
	return s
}

// TestOpenAPISchemasAreJSONSchema2020 compiles every component schema under
// the 2020-12 meta-schema, and shows that a bad one is refused.
func TestOpenAPISchemasAreJSONSchema2020(t *testing.T) {
	doc := decodeDoc(t, buildTestDoc(t))
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	c := schemaCompiler(t, doc)
	for name := range schemas {
		compileComponent(t, c, name)
	}

	schemas["Broken"] = map[string]any{"type": 5}
	c = schemaCompiler(t, doc)
	_, err := c.Compile(schemaDocURL + "#/components/schemas/Broken")
	require.Error(t, err, "the meta-schema must refuse a bad schema")
}

func validateInstance(t *testing.T, s *jsonschema.Schema, instance string) error {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	require.NoError(t, err, instance)
	return s.Validate(v)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestOpenAPISchemasMatchServer validates what the server renders, and the
// contract's reference vectors, against the schemas, and checks that the
// schemas refuse what the server refuses.
func TestOpenAPISchemasMatchServer(t *testing.T) {
	doc := decodeDoc(t, buildTestDoc(t))
	c := schemaCompiler(t, doc)
	valid := func(schema, instance string) {
		t.Helper()
		require.NoError(t, validateInstance(t, compileComponent(t, c, schema), instance), "%s: %s", schema, instance)
	}
	invalid := func(schema, instance string) {
		t.Helper()
		require.Error(t, validateInstance(t, compileComponent(t, c, schema), instance), "%s must refuse %s", schema, instance)
	}
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

	// Renderings of the domain package.
	ct := &domain.Contact{ID: "ct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", Name: "Ada", Address: "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A", CreatedAt: now, UpdatedAt: now}
	valid("Contact", mustJSON(t, domain.ViewContact(ct)))
	ct2 := *ct
	ct2.ID, ct2.Currency, ct2.Memo = "ct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6N000000", "EURC", "rent"
	valid("Contact", mustJSON(t, domain.ViewContact(&ct2)))
	page := domain.Paginate([]*domain.Contact{&ct2, ct}, func(c *domain.Contact) string { return c.ID }, domain.ViewContact, domain.Page{Limit: 1})
	valid("ContactList", mustJSON(t, page))
	valid("ContactList", `{"data":[],"has_more":false,"next_cursor":null}`)
	valid("Account", mustJSON(t, domain.ViewAccount(&domain.Account{ID: "acct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", Name: "Demo", KYC: domain.KYCApproved, Swap: true, CreatedAt: now})))
	valid("Deleted", mustJSON(t, domain.DeletedView{ID: ct.ID, Deleted: true}))
	valid("Health", mustJSON(t, healthView{Status: "ok", Version: Version, WALIndex: 7}))
	valid("Health", `{"status":"ok","version":"1.0.0","wal_index":7,"chain":{"chain_id":1337,"head":12}}`)
	valid("Time", `{"unix":1793000000}`)
	for _, e := range domain.ErrorTable {
		valid("Error", string((&domain.Error{Status: e.Status, Code: e.Code, Message: e.Meaning}).Reply().Body))
	}
	invalid("Error", `{"error":{"code":"no_such_code","message":"x"}}`)

	// Requests: unknown fields and money as numbers are refused.
	valid("ContactCreate", `{"name":"Ada","address":"0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a","currency":null}`)
	invalid("ContactCreate", `{"name":"Ada","address":"0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a","nick":"x"}`)
	invalid("ContactCreate", `{"name":"","address":"0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a"}`)
	valid("ContactUpdate", `{"currency":"","memo":null}`)
	valid("QuoteRequest", `{"from_currency":"USDC","to_currency":"EURC","amount":"1250.50"}`)
	invalid("QuoteRequest", `{"from_currency":"USDC","to_currency":"EURC","amount":1250.5}`)
	invalid("QuoteRequest", `{"from_currency":"USDC","to_currency":"EURC","amount":"1.1234567"}`)
	invalid("QuoteRequest", `{"from_currency":"USDC","to_currency":"EURC","amount":"01"}`)
	valid("AcceptRequest", `{}`)
	valid("SubmitRequest", `{"tx_hash":"0x`+strings.Repeat("ab", 32)+`"}`)
	valid("SubmitRequest", `{"signature":"0x`+strings.Repeat("ab", 65)+`"}`)
	invalid("SubmitRequest", `{}`)
	invalid("SubmitRequest", `{"tx_hash":"0x`+strings.Repeat("ab", 32)+`","signature":"0x`+strings.Repeat("ab", 65)+`"}`)
	valid("TransferRequest", `{"from_currency":"USDC","currency":"USDC","amount":"10","contact_id":"ct_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000"}`)
	invalid("TransferRequest", `{"from_currency":"USDC","currency":"USDC","amount":"10"}`)
	valid("PaymentLinkUpdate", `{"state":"cancelled"}`)
	invalid("PaymentLinkUpdate", `{"state":"open"}`)
	valid("WebhookCreate", `{"url":"https://example.com/hook","events":["fx.order.settled"]}`)
	valid("WebhookCreate", `{"url":"HTTPS://example.com/hook","events":["*"],"description":null}`)
	valid("WebhookCreate", `{"url":"https://example.com/hook","events":["webhook.test","*"],"description":"ops"}`)
	invalid("WebhookCreate", `{"url":"http://example.com/hook"}`)
	invalid("WebhookCreate", `{"url":"https://example.com/hook","events":[]}`)
	invalid("WebhookCreate", `{"url":"https://example.com/hook","events":["fx.order.created"]}`)
	invalid("WebhookCreate", `{"url":"https://example.com/hook","secret":"whsec_x"}`)
	invalid("WebhookCreate", `{"url":"https://example.com/`+strings.Repeat("a", 2048)+`"}`)
	invalid("WebhookCreate", `{"url":"https://example.com/hook","description":"`+strings.Repeat("a", 501)+`"}`)
	valid("WebhookUpdate", `{}`)
	valid("WebhookUpdate", `{"state":"enabled"}`)
	valid("WebhookUpdate", `{"state":"disabled","description":"","events":null,"url":"https://example.com/h2"}`)
	invalid("WebhookUpdate", `{"state":"deleted"}`)
	invalid("WebhookUpdate", `{"url":"http://example.com/h2"}`)
	whSecret := sharedVector(t, "webhooks.json", "secret")
	endpoint := map[string]any{"id": "wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "url": "https://example.com/h", "events": []string{"*"},
		"description": nil, "state": "enabled", "created_at": "2026-11-01T12:00:00Z"}
	valid("Webhook", mustJSON(t, endpoint))
	endpoint["events"], endpoint["description"], endpoint["state"] = []string{"fx.order.settled", "webhook.test"}, "ops", "disabled"
	valid("Webhook", mustJSON(t, endpoint))
	valid("WebhookList", mustJSON(t, map[string]any{"data": []any{endpoint}, "has_more": false, "next_cursor": nil}))
	endpoint["secret"] = whSecret
	invalid("Webhook", mustJSON(t, endpoint))
	endpoint["state"] = "enabled"
	valid("WebhookCreated", mustJSON(t, endpoint))
	endpoint["secret"] = "whsec_x"
	invalid("WebhookCreated", mustJSON(t, endpoint))
	invalid("Webhook", `{"id":"wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000","url":"https://example.com/h","events":[],"state":"enabled","created_at":"2026-11-01T12:00:00Z","secret":"whsec_x"}`)
	valid("WebhookSecret", mustJSON(t, map[string]any{"id": "wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "secret": whSecret}))
	valid("WebhookTest", `{"delivery_id":"dlv_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000"}`)
	attempt := map[string]any{"id": "dlv_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "event_id": "evt_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
		"attempt": 2, "status_code": nil, "error": "dial tcp: connection refused", "duration_ms": 12, "at": "2026-11-01T12:00:10Z"}
	valid("Delivery", mustJSON(t, attempt))
	attempt["attempt"], attempt["status_code"], attempt["error"] = 1, 500, "HTTP 500"
	valid("DeliveryList", mustJSON(t, map[string]any{"data": []any{attempt}, "has_more": true, "next_cursor": attempt["id"]}))
	// A page cut inside a delivery: the cursor names the last row's attempt.
	attempt["attempt"] = 2
	valid("DeliveryList", mustJSON(t, map[string]any{"data": []any{attempt}, "has_more": true, "next_cursor": attempt["id"].(string) + ":2"}))
	attempt["attempt"] = 0
	invalid("Delivery", mustJSON(t, attempt))

	// Orders: signing follows route, with the contract's witness strings.
	vec := map[string]any{}
	require.NoError(t, json.Unmarshal(sharedFile(t, "vectors/eip712.json"), &vec))
	vector := func(name string) map[string]any {
		v, ok := vec[name].(map[string]any)
		require.True(t, ok, name)
		return v
	}
	typed := func(name string) map[string]any {
		v := vector(name)
		return map[string]any{"domain": v["domain"], "types": v["types"], "primaryType": v["primaryType"], "message": v["message"]}
	}
	require.Equal(t, gaslessWitnessType, vector("gasless_order")["witnessTypeString"])
	require.Equal(t, rfqWitnessType, vector("rfq_escrow_funding")["witnessTypeString"])
	valid("TypedData", mustJSON(t, typed("gasless_order")))
	valid("TypedData", mustJSON(t, typed("rfq_escrow_funding")))

	addr := "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A"
	amm := map[string]any{
		"type": "permit2_witness",
		"order": map[string]any{"signer": addr, "tokenIn": addr, "tokenOut": addr, "amountIn": "100000000", "minAmountOut": "91500000",
			"recipient": addr, "pool": addr, "deadline": "1795000120", "nonce": "42"},
		"relay":      map[string]any{"chainId": 1337, "permit2": addr, "relayRouter": addr, "witnessTypeString": gaslessWitnessType},
		"typed_data": typed("gasless_order"),
	}
	rfq := map[string]any{
		"type": "permit2_witness",
		"funding": map[string]any{"escrow": addr, "token": addr, "amount": "250000000", "executionId": "0x" + strings.Repeat("cc", 32),
			"quoteHash": "0x" + strings.Repeat("39", 32), "deadline": "1795000120", "nonce": "7", "signer": addr},
		"relay":      map[string]any{"chainId": 1337, "permit2": addr, "witnessTypeString": rfqWitnessType},
		"typed_data": typed("rfq_escrow_funding"),
		"call": map[string]any{"to": addr,
			"abi": map[string]any{"type": "function", "name": "escrowQuoteWithPermit2", "stateMutability": "nonpayable", "outputs": []any{},
				"inputs": []any{
					map[string]any{"name": "quote", "type": "tuple", "components": []any{map[string]any{"name": "maker", "type": "address"}}},
					map[string]any{"name": "providerSignature", "type": "bytes"},
					map[string]any{"name": "funding", "type": "tuple", "components": []any{map[string]any{"name": "signer", "type": "address"}}},
					map[string]any{"name": "permit2Signature", "type": "bytes"},
				}},
			"args": []any{map[string]any{"maker": addr}, "0x" + strings.Repeat("ab", 65), map[string]any{"signer": addr}},
		},
	}
	order := func(route string, signing any) string {
		return mustJSON(t, map[string]any{
			"order_id": "ord_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "route": route, "state": "accepted", "signing": signing,
			"quote_id": "q_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "from_currency": "USDC", "to_currency": "EURC",
			"amount_in": "100", "amount_out": "91.6", "min_amount_out": "91.5", "tx_hash": nil, "failure_reason": nil,
			"created_at": "2026-11-01T12:00:00Z", "updated_at": "2026-11-01T12:00:00Z",
		})
	}
	valid("Order", order("amm", amm))
	valid("Order", order("rfq", rfq))
	invalid("Order", order("amm", rfq))
	invalid("Order", order("rfq", amm))
	bad := map[string]any{}
	for k, v := range amm {
		bad[k] = v
	}
	bad["relay"] = map[string]any{"chainId": 1337, "permit2": addr, "relayRouter": addr, "witnessTypeString": "GaslessOrder witness)"}
	invalid("Order", order("amm", bad))
	// The accept answer: the order as the server renders it, and issues.
	accepted := &domain.Order{ID: "ord_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", Account: "acct_1", QuoteID: "q_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
		Route: domain.RouteAMM, State: domain.OrderAccepted, FromCurrency: "USDC", ToCurrency: "EURC", AmountIn: big.NewInt(100_000_000),
		AmountOut: big.NewInt(91_600_000), MinAmountOut: big.NewInt(91_500_000), Signer: addr, Signing: []byte(mustJSON(t, amm)),
		Deadline: now.Add(2 * time.Minute), CreatedAt: now, UpdatedAt: now}
	short := domain.Issues{Allowance: &domain.AllowanceIssue{Token: addr, Spender: addr, Actual: "0", Required: "100"},
		Balance: &domain.BalanceIssue{Token: addr, Actual: "99.5", Required: "100"}}
	valid("OrderAccepted", mustJSON(t, domain.ViewOrderAccept(accepted, short)))
	valid("OrderAccepted", mustJSON(t, domain.ViewOrderAccept(accepted, domain.Issues{})))
	valid("Order", mustJSON(t, domain.ViewOrder(accepted)))
	invalid("OrderAccepted", mustJSON(t, domain.ViewOrder(accepted)))
	mismatched := *accepted
	mismatched.Route = domain.RouteRFQ
	invalid("OrderAccepted", mustJSON(t, domain.ViewOrderAccept(&mismatched, short)))
	// Transfers as the server renders them.
	same := &domain.Transfer{ID: "tr_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", Account: "acct_1", State: domain.TransferCreated, FromCurrency: "USDC",
		Currency: "USDC", Amount: big.NewInt(5_000_000), AmountOut: big.NewInt(5_000_000), MinAmountOut: big.NewInt(5_000_000),
		Recipient: addr, SourceWallet: addr, Memo: "rent",
		Signing:   []byte(mustJSON(t, map[string]any{"type": "erc20_transfer", "tx": map[string]any{"chainId": 1337, "to": addr, "data": "0xa9059cbb", "value": "0"}})),
		ExpiresAt: now.Add(time.Hour), CreatedAt: now, UpdatedAt: now}
	valid("Transfer", mustJSON(t, domain.ViewTransfer(same)))
	cross := *same
	cross.Currency, cross.Signing, cross.AmountOut, cross.MinAmountOut = "EURC", nil, new(big.Int), new(big.Int)
	valid("Transfer", mustJSON(t, domain.ViewTransfer(&cross)))
	// Their ledger entries: amount_out null before the cross-currency accept.
	for _, tr := range []*domain.Transfer{same, &cross} {
		e := tr.Ledger()[0]
		valid("Transaction", mustJSON(t, domain.ViewLedger(&e)))
	}
	cross.State, cross.Signing = domain.TransferAccepted, []byte(mustJSON(t, amm))
	cross.Gasless = &domain.GaslessTerms{}
	cross.AmountOut, cross.MinAmountOut = big.NewInt(4_600_000), big.NewInt(4_577_000)
	issues := domain.Issues{Allowance: &domain.AllowanceIssue{Token: addr, Spender: addr, Actual: "0", Required: "5"}}
	valid("TransferAccepted", mustJSON(t, domain.ViewTransferAccept(&cross, issues)))
	valid("TransferAccepted", mustJSON(t, domain.ViewTransferAccept(&cross, domain.Issues{})))
	invalid("Transfer", mustJSON(t, map[string]any{"id": "tr_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "state": "created"}))
	// Payment links as the server renders them.
	link := &domain.Link{ID: "pl_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", Account: "acct_1", State: domain.LinkPaid, Currency: "USDC",
		Amount: big.NewInt(5_000_000), Received: big.NewInt(5_000_000), Forwarded: new(big.Int), ReceiveAddress: addr,
		PayoutWallet: addr, TokenAddress: addr, ChainID: 1337, URL: "http://127.0.0.1:8080/public/v1/pay/pl_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000",
		Payments: []domain.LinkPayment{{TxHash: "0x" + strings.Repeat("ab", 32), Amount: big.NewInt(5_000_000), At: now}},
		PaidAt:   now, EventID: "evt_1", CreatedAt: now, UpdatedAt: now}
	valid("PaymentLink", mustJSON(t, domain.ViewLink(link)))
	valid("PublicPaymentLink", mustJSON(t, domain.ViewPublicLink(link)))
	link.State, link.Payments, link.PaidAt, link.ExpiresAt, link.Description = domain.LinkOpen, nil, time.Time{}, now, "x"
	valid("PaymentLink", mustJSON(t, domain.ViewLink(link)))
	valid("PublicPaymentLink", mustJSON(t, domain.ViewPublicLink(link)))

	// Events: the Standard Webhooks body, data.object the record's view.
	event := func(typ string, object any) string {
		return mustJSON(t, map[string]any{"id": "evt_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000", "type": typ, "created_at": "2026-11-01T12:00:00Z",
			"api_version": "1.0.0", "data": map[string]any{"object": object}})
	}
	settled := *accepted
	settled.State = domain.OrderSettled
	paid := *link
	paid.State = domain.LinkPaid
	confirmed := *same
	confirmed.State = domain.TransferConfirmed
	test := map[string]any{"endpoint_id": "wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000"}
	for _, c := range []struct {
		schema, typ string
		object      any
	}{
		{"OrderEvent", "fx.order.settled", domain.ViewOrder(&settled)},
		{"OrderEvent", "fx.order.refunded", domain.ViewOrder(&settled)},
		{"TransferEvent", "transfer.confirmed", domain.ViewTransfer(&confirmed)},
		{"PaymentLinkEvent", "payment_link.paid", domain.ViewLink(&paid)},
		{"WebhookTestEvent", "webhook.test", test},
	} {
		valid(c.schema, event(c.typ, c.object))
		valid("Event", event(c.typ, c.object))
		valid("EventList", `{"data":[`+event(c.typ, c.object)+`],"has_more":false,"next_cursor":null}`)
	}
	invalid("Event", event("fx.order.settled", test))
	invalid("Event", event("webhook.test", domain.ViewOrder(&settled)))
	invalid("Event", event("payment_link.paid", domain.ViewTransfer(&confirmed)))
	invalid("Event", event("fx.order.created", domain.ViewOrder(&settled)))
	invalid("OrderEvent", event("transfer.confirmed", domain.ViewOrder(&settled)))
}

// sharedVector is a string field of shared/vectors/<file>.
func sharedVector(t *testing.T, file, field string) string {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(sharedFile(t, "vectors/"+file), &v))
	s, ok := v[field].(string)
	require.True(t, ok, "%s: %s", file, field)
	return s
}

// TestOpenAPIWebhooks checks the top-level webhooks (OpenAPI 3.1): one
// delivery per event type, with the Standard Webhooks headers, whose body
// is that type's event and no other.
func TestOpenAPIWebhooks(t *testing.T) {
	b := buildTestDoc(t)
	d, err := libopenapi.NewDocument(b)
	require.NoError(t, err)
	model, err := d.BuildV3Model()
	require.NoError(t, err)
	require.Equal(t, len(eventTypes), model.Model.Webhooks.Len())

	contract := string(sharedFile(t, "CONTRACT.md")) + string(sharedFile(t, "SPEC.md"))
	doc := decodeDoc(t, b)
	hooks := doc["webhooks"].(map[string]any)
	require.Len(t, hooks, len(eventTypes))
	c := schemaCompiler(t, doc)
	body := func(typ, object string) string {
		return `{"id":"evt_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000","type":"` + typ + `","created_at":"2026-11-01T12:00:00Z","api_version":"1.0.0","data":{"object":` + object + `}}`
	}
	testObject := `{"endpoint_id":"wh_01JBX6Q0ZKE4ZB3Q3G4D4HTN6M000000"}`
	for _, typ := range eventTypes {
		require.Contains(t, contract, typ, "event type %s is not in the contract", typ)
		item, ok := hooks[typ].(map[string]any)
		require.True(t, ok, typ)
		require.Len(t, item, 1, typ)
		op := item["post"].(map[string]any)
		require.Equal(t, []any{}, op["security"], typ)
		var headers []string
		for _, p := range asSlice(op["parameters"]) {
			pm := deref(doc, p).(map[string]any)
			require.Equal(t, "header", pm["in"], typ)
			require.Equal(t, true, pm["required"], typ)
			headers = append(headers, pm["name"].(string))
		}
		require.Equal(t, []string{"webhook-id", "webhook-timestamp", "webhook-signature"}, headers, typ)
		require.Contains(t, op["responses"], "2XX", typ)

		s, err := c.Compile(schemaDocURL + "#/webhooks/" + typ + "/post/requestBody/content/application~1json/schema")
		require.NoError(t, err, typ)
		if typ == "webhook.test" {
			require.NoError(t, validateInstance(t, s, body(typ, testObject)), typ)
		} else {
			require.Error(t, validateInstance(t, s, body("webhook.test", testObject)), typ)
		}
		for _, other := range eventTypes {
			if other != typ {
				require.Error(t, validateInstance(t, s, body(other, testObject)), "%s must refuse %s", typ, other)
			}
		}
	}

	// The signature header admits the reference vector, and two
	// signatures during a rotation.
	sig := regexp.MustCompile(patWebhookSignature)
	v := sharedVector(t, "webhooks.json", "webhook_signature")
	require.Regexp(t, sig, v)
	require.Regexp(t, sig, v+" "+v)
	require.NotRegexp(t, sig, v+" "+v+" "+v)
	require.NotRegexp(t, sig, "v1a,"+v[3:])
	require.Regexp(t, regexp.MustCompile(patWebhookSecret), sharedVector(t, "webhooks.json", "secret"))
}

// TestOpenAPIDeliveryCursor: GET /webhooks/{id}/deliveries documents the
// "<delivery id>:<attempt>" cursor it alone hands out, in its
// starting_after and in DeliveryList's next_cursor; other lists do not.
func TestOpenAPIDeliveryCursor(t *testing.T) {
	doc := decodeDoc(t, buildTestDoc(t))
	const colon = "<delivery id>:<attempt>"
	startingAfter := func(path string) string {
		op := doc["paths"].(map[string]any)[path].(map[string]any)["get"].(map[string]any)
		for _, p := range asSlice(op["parameters"]) {
			if pm := p.(map[string]any); pm["name"] == "starting_after" {
				return pm["description"].(string)
			}
		}
		t.Fatalf("%s: no starting_after", path)
		return ""
	}
	require.Contains(t, startingAfter("/webhooks/{id}/deliveries"), colon)
	require.NotContains(t, startingAfter("/webhooks"), colon)
	require.NotContains(t, startingAfter("/events"), colon)
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	cursor := func(list string) string {
		props := schemas[list].(map[string]any)["properties"].(map[string]any)
		return props["next_cursor"].(map[string]any)["description"].(string)
	}
	require.Contains(t, cursor("DeliveryList"), colon)
	require.NotContains(t, cursor("WebhookList"), colon)
	require.Contains(t, schemas["DeliveryList"].(map[string]any)["description"], "not interleaved by time")
}

// TestOpenAPIRoutes checks every route of the table against its operation.
func TestOpenAPIRoutes(t *testing.T) {
	doc := decodeDoc(t, buildTestDoc(t))
	require.Equal(t, "3.1.0", doc["openapi"])
	info := doc["info"].(map[string]any)
	require.Equal(t, "1.0.0", info["version"])
	require.Equal(t, "fxd", info["title"])
	require.Equal(t, []any{map[string]any{"url": testServerURL + testBasePath}}, doc["servers"])

	paths := doc["paths"].(map[string]any)
	ops := map[string]bool{}
	for _, rt := range testRoutes() {
		name := rt.Method + " " + rt.Path
		item, ok := paths[rt.Path].(map[string]any)
		require.True(t, ok, "%s: path missing", name)
		op, ok := item[strings.ToLower(rt.Method)].(map[string]any)
		require.True(t, ok, "%s: operation missing", name)
		require.Equal(t, rt.OperationID, op["operationId"], name)
		require.False(t, ops[rt.OperationID], "%s: operationId %s not unique", name, rt.OperationID)
		ops[rt.OperationID] = true
		require.Equal(t, rt.Summary, op["summary"], name)
		require.NotEmpty(t, op["tags"], name)

		auth := rt.Scope != 0
		write := rt.Method != "GET"
		if auth {
			require.Equal(t, scopeName(rt.Scope), op["x-fxd-scope"], name)
			require.Contains(t, op["description"], "scope", name)
			require.Equal(t, []any{map[string]any{secKey: []any{}, secTimestamp: []any{}, secSignature: []any{}}}, op["security"], name)
		} else {
			require.NotContains(t, op, "x-fxd-scope", name)
			require.Equal(t, []any{}, op["security"], name)
		}
		if rt.Scope == scopeAny {
			require.Equal(t, "any", op["x-fxd-scope"], name)
		}
		if rt.Heavy {
			require.Equal(t, true, op["x-fxd-heavy"], name)
		} else {
			require.NotContains(t, op, "x-fxd-heavy", name)
		}
		require.NotNil(t, rt.Handler, "%s: every route of the contract is served", name)
		require.NotContains(t, op, "x-fxd-planned", name)

		// Parameters: path parameters, query parameters, Idempotency-Key.
		var pnames []string
		for _, p := range asSlice(op["parameters"]) {
			pm := p.(map[string]any)
			if ref, ok := pm["$ref"]; ok {
				require.Equal(t, "#/components/parameters/IdempotencyKey", ref)
				pnames = append(pnames, "header:Idempotency-Key")
				continue
			}
			pnames = append(pnames, pm["in"].(string)+":"+pm["name"].(string))
		}
		var want []string
		for _, m := range regexp.MustCompile(`\{([^}]+)\}`).FindAllStringSubmatch(rt.Path, -1) {
			want = append(want, "path:"+m[1])
		}
		for _, q := range rt.Query {
			want = append(want, "query:"+q.Name)
		}
		if auth && write {
			want = append(want, "header:Idempotency-Key")
		}
		require.Equal(t, want, pnames, name)

		if rt.Body != "" {
			rb := op["requestBody"].(map[string]any)
			require.Equal(t, "#/components/schemas/"+rt.Body, rb["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"], name)
		} else {
			require.NotContains(t, op, "requestBody", name)
		}

		// Responses.
		resps := op["responses"].(map[string]any)
		okResp := resps[strconv.Itoa(rt.OK)].(map[string]any)
		ct := rt.ContentType
		if ct == "" {
			ct = "application/json"
		}
		content := okResp["content"].(map[string]any)
		require.Contains(t, content, ct, name)
		if rt.Result != "" {
			require.Equal(t, "#/components/schemas/"+rt.Result, content[ct].(map[string]any)["schema"].(map[string]any)["$ref"], name)
		}
		require.Contains(t, okResp["headers"], "Request-Id", name)
		var statuses []int
		if auth {
			statuses = append(statuses, 401, 403, 429, 503)
			require.Contains(t, okResp["headers"], "X-RateLimit-Limit", name)
			require.Contains(t, okResp["headers"], "X-RateLimit-Remaining", name)
			require.Contains(t, okResp["headers"], "X-RateLimit-Reset", name)
			if write {
				statuses = append(statuses, 400, 409, 413, 422)
				require.Contains(t, okResp["headers"], "Idempotency-Replayed", name)
			}
		}
		statuses = append(statuses, rt.Errors...)
		for _, s := range statuses {
			r, ok := deref(doc, resps[strconv.Itoa(s)]).(map[string]any)
			require.True(t, ok, "%s: response %d missing", name, s)
			require.Contains(t, r["headers"], "Request-Id", "%s %d: every answer carries one", name, s)
			schema := r["content"].(map[string]any)["application/json"].(map[string]any)["schema"].(map[string]any)["$ref"]
			if o, ok := opErrorBody[rt.OperationID][s]; ok {
				require.Equal(t, "#/components/schemas/"+o.schema, schema, "%s %d", name, s)
				continue
			}
			require.Equal(t, "#/components/schemas/Error", schema, "%s %d", name, s)
			codes := asSlice(r["x-fxd-error-codes"])
			require.NotEmpty(t, codes, "%s %d", name, s)
			for _, c := range codes {
				e, ok := errorCodeByName(c.(string))
				require.True(t, ok, c)
				require.Equal(t, s, e.Status, "%s: code %s under status %d", name, c, s)
			}
		}
		for k, v := range resps {
			resps[k] = deref(doc, v)
		}
		if auth {
			require.ElementsMatch(t, []any{"auth_failed", "stale_timestamp", "replayed"}, resps["401"].(map[string]any)["x-fxd-error-codes"], name)
			require.Contains(t, resps["401"].(map[string]any)["headers"], "SVC-Server-Time", name)
			require.Contains(t, asSlice(resps["403"].(map[string]any)["x-fxd-error-codes"]), "insufficient_scope", name)
			require.Contains(t, resps["429"].(map[string]any)["headers"], "Retry-After", name)
			if write {
				require.Contains(t, asSlice(resps["409"].(map[string]any)["x-fxd-error-codes"]), "idempotency_in_progress", name)
				require.Equal(t, []any{"body_too_large"}, resps["413"].(map[string]any)["x-fxd-error-codes"], name)
				require.Equal(t, []any{"idempotency_key_reused"}, resps["422"].(map[string]any)["x-fxd-error-codes"], name)
			}
		}
	}
	require.Equal(t, len(testRoutes()), countOperations(doc), "operations that are not routes")
	var tags []string
	for _, tg := range doc["tags"].([]any) {
		tags = append(tags, tg.(map[string]any)["name"].(string))
	}
	for _, item := range paths {
		for _, op := range item.(map[string]any) {
			for _, tg := range op.(map[string]any)["tags"].([]any) {
				require.Contains(t, tags, tg)
			}
		}
	}
}

// deref follows a local $ref ("#/a/b") of the document, if v is one.
func deref(doc map[string]any, v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	ref, ok := m["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, "#/") {
		return v
	}
	var cur any = doc
	for _, tok := range strings.Split(ref[2:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		cm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = cm[tok]
	}
	return cur
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// contractErrorTable parses the error table of CONTRACT.md: status and
// backquoted codes of each row.
func contractErrorTable(t *testing.T) []domain.ErrorRow {
	t.Helper()
	var out []domain.ErrorRow
	in := false
	sc := bufio.NewScanner(bytes.NewReader(sharedFile(t, "CONTRACT.md")))
	row := regexp.MustCompile(`^\|\s*(\d{3})\s*\|([^|]*)\|`)
	code := regexp.MustCompile("`([a-z_]+)`")
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = strings.HasPrefix(line, "## Errors")
			continue
		}
		m := row.FindStringSubmatch(line)
		if !in || m == nil {
			continue
		}
		status, _ := strconv.Atoi(m[1])
		for _, c := range code.FindAllStringSubmatch(m[2], -1) {
			out = append(out, domain.ErrorRow{Status: status, Code: c[1]})
		}
	}
	require.NoError(t, sc.Err())
	return out
}

// TestOpenAPIErrorCodes holds the generator's code table equal to
// CONTRACT.md's, the Error enum to every code, and shows each code under
// at least one operation.
func TestOpenAPIErrorCodes(t *testing.T) {
	contract := contractErrorTable(t)
	require.NotEmpty(t, contract)
	var ours []domain.ErrorRow
	for _, e := range domain.ErrorTable {
		ours = append(ours, domain.ErrorRow{Status: e.Status, Code: e.Code})
	}
	require.Equal(t, contract, ours, "domain.ErrorTable must equal CONTRACT.md's error table, in its order")

	doc := decodeDoc(t, buildTestDoc(t))
	schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
	enum := schemas["Error"].(map[string]any)["properties"].(map[string]any)["error"].(map[string]any)["properties"].(map[string]any)["code"].(map[string]any)["enum"]
	var codes []any
	for _, e := range contract {
		codes = append(codes, e.Code)
	}
	require.ElementsMatch(t, codes, enum)

	used := map[string]bool{}
	for _, item := range doc["paths"].(map[string]any) {
		for _, op := range item.(map[string]any) {
			for _, r := range op.(map[string]any)["responses"].(map[string]any) {
				for _, c := range asSlice(deref(doc, r).(map[string]any)["x-fxd-error-codes"]) {
					used[c.(string)] = true
				}
			}
		}
	}
	for _, e := range contract {
		require.True(t, used[e.Code], "no operation answers %s", e.Code)
	}
}

// TestOpenAPIRefsResolve follows every $ref of the document, and checks
// that every component is used.
func TestOpenAPIRefsResolve(t *testing.T) {
	doc := decodeDoc(t, buildTestDoc(t))
	refs := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "$ref" {
					refs[x.(string)] = true
					continue
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	require.NotEmpty(t, refs)
	for ref := range refs {
		require.True(t, strings.HasPrefix(ref, "#/"), "external $ref %s", ref)
		var cur any = doc
		for _, tok := range strings.Split(ref[2:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, ok := cur.(map[string]any)
			require.True(t, ok, "$ref %s does not resolve", ref)
			cur, ok = m[tok]
			require.True(t, ok, "$ref %s does not resolve", ref)
		}
	}
	for kind, comps := range doc["components"].(map[string]any) {
		if kind == "securitySchemes" {
			continue
		}
		for name := range comps.(map[string]any) {
			require.True(t, refs["#/components/"+kind+"/"+name], "component %s/%s is never used", kind, name)
		}
	}
}

// TestOpenAPIDeterministic: the document is byte-identical across builds
// (map keys are written sorted; nothing depends on iteration order).
func TestOpenAPIDeterministic(t *testing.T) {
	a := buildTestDoc(t)
	for range 5 {
		require.True(t, bytes.Equal(a, buildTestDoc(t)), "two builds differ")
	}
	require.True(t, json.Valid(a))
}

// TestOpenAPIRejectsBrokenTables: an inconsistent route table is an error
// at start, not a wrong document.
func TestOpenAPIRejectsBrokenTables(t *testing.T) {
	base := func() []route {
		return []route{
			{Method: "GET", Path: "/time", OperationID: "getTime", Summary: "t", OK: 200, Result: "Time"},
			{Method: "POST", Path: "/contacts", Scope: domain.ScopePay, OperationID: "createContact", Summary: "c", Body: "ContactCreate", OK: 201, Result: "Contact", Errors: []int{400}},
		}
	}
	_, err := buildOpenAPI(base(), testBasePath, "")
	require.NoError(t, err)

	cases := map[string]func(r []route) []route{
		"unknown body":   func(r []route) []route { r[1].Body = "Nope"; return r },
		"unknown result": func(r []route) []route { r[0].Result = "Nope"; return r },
		"duplicate opId": func(r []route) []route { r[1].OperationID = "getTime"; return r },
		"duplicate route": func(r []route) []route {
			r[1].OperationID = "other"
			r[1].Method = "GET"
			r[1].Path = "/time"
			r[1].Body = ""
			return r
		},
		"bad method":          func(r []route) []route { r[0].Method = "TRACE"; return r },
		"status without code": func(r []route) []route { r[0].Errors = []int{418}; return r },
		"malformed path":      func(r []route) []route { r[0].Path = "/time/{id"; return r },
		"body on GET":         func(r []route) []route { r[0].Body = "ContactCreate"; return r },
		"bad query type":      func(r []route) []route { r[0].Query = []param{{"limit", "int", ""}}; return r },
		"success not 2xx":     func(r []route) []route { r[0].OK = 302; return r },
		// transfer_not_verified is a 400, which a public GET does not answer.
		"code without status": func(r []route) []route { r[0].OperationID = "payPaymentLink"; return r },
	}
	for name, mutate := range cases {
		_, err := buildOpenAPI(mutate(base()), testBasePath, "")
		require.Error(t, err, name)
	}
}
