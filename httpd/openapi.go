package httpd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/ratelimit"
)

// The OpenAPI 3.1 document of CONTRACT.md ("GET /openapi.json"), generated
// from the route table so the published contract cannot drift from the
// router. buildOpenAPI also checks the table: a route naming an unknown
// schema, a duplicate operation id or path, or an error status no contract
// code belongs to is an error, so a broken table stops the server at start.

const openAPIVersion = "3.1.0"

// Names of the security schemes: the three SPEC.md headers, all required
// together on every authenticated call.
const (
	secKey       = "SvcApiKey"
	secTimestamp = "SvcTimestamp"
	secSignature = "SvcSignature"
)

// Header names not owned by another package.
const (
	hdrIdemKey      = "Idempotency-Key"
	hdrIdemReplayed = "Idempotency-Replayed"
	hdrServerTime   = "SVC-Server-Time"
)

// opErrorCodes are the codes an operation may answer beyond the defaults of
// each status (see statusCodes), by operation id. Each code's status must be
// among the operation's responses.
var opErrorCodes = map[string][]string{
	"createQuotes":   {domain.CodeUnsupportedAsset},
	"acceptQuote":    {"quote_expired"},
	"submitOrder":    {"invalid_signature", "funding_not_verified", domain.CodeInsufficientAllowance, domain.CodeInsufficientBalance, domain.CodeRelayWouldRevert},
	"createTransfer": {domain.CodeUnsupportedAsset, domain.CodeNotPermitted},
	"acceptTransfer": {domain.CodeNotPermitted, "no_quote_available"},
	"submitTransfer": {"invalid_signature", domain.CodeTransferNotVerified, domain.CodeTxAlreadyUsed,
		domain.CodeInsufficientAllowance, domain.CodeInsufficientBalance, domain.CodeRelayWouldRevert},
	"createPaymentLink":   {domain.CodeUnsupportedAsset, domain.CodeNotPermitted},
	"payPaymentLink":      {"transfer_not_verified"},
	"createContact":       {domain.CodeUnsupportedAsset},
	"updateContact":       {domain.CodeUnsupportedAsset},
	"createWebhook":       {"invalid_webhook_url", "webhook_encryption_unavailable"},
	"updateWebhook":       {"invalid_webhook_url"},
	"rotateWebhookSecret": {"webhook_encryption_unavailable"},
	"listTransactions":    {domain.CodeUnsupportedAsset},
	"exportTransactions":  {domain.CodeUnsupportedAsset},
}

// opErrorBody overrides an error status of an operation with another body
// than Error: GET /health answers 503 with the Health body.
var opErrorBody = map[string]map[int]struct{ schema, desc string }{
	"getHealth": {503: {"Health", "Recovering: the Health body with status recovering, while the log is replayed."}},
}

// tagOf groups operations by the first path segment.
var tagOf = map[string]string{
	"health": "meta", "time": "meta", "openapi.json": "meta",
	"fx": "fx", "currencies": "fx",
	"account": "account", "balances": "account",
	"wallets":       "wallets",
	"transactions":  "ledger",
	"transfers":     "transfers",
	"payment-links": "payment-links", "pay": "payment-links",
	"contacts": "contacts",
	"webhooks": "webhooks",
	"events":   "events",
}

var tagDescriptions = []struct{ name, desc string }{
	{"meta", "Unauthenticated service metadata."},
	{"fx", "Quotes, orders and rates: quote, accept, sign the returned typed data, submit, poll the order."},
	{"account", "Account profile and balances."},
	{"wallets", "Signer wallets, registered with SIWE (EIP-4361)."},
	{"ledger", "The unified ledger of FX swaps, transfers and payment links."},
	{"transfers", "Same-currency (ERC-20, self-broadcast) and cross-currency (relayed swap) transfers."},
	{"payment-links", "Payment links and their public pay page."},
	{"contacts", "Saved payout recipients."},
	{"webhooks", "Webhook endpoints, their deliveries and signing secrets (Standard Webhooks signatures; the deliveries themselves are under webhooks)."},
	{"events", "Every event of the account for 30 days, exactly as delivered, so a receiver that was down can catch up."},
}

// openAPIDoc is the generator's state for one document.
type openAPIDoc struct {
	schemas obj
	// errors are the error responses, shared by the operations that
	// answer the same status with the same codes, headers and body.
	errors obj
}

// buildOpenAPI renders the OpenAPI 3.1 document of the routes. Paths are
// relative to the single server, serverURL+basePath.
func buildOpenAPI(routes []route, basePath, serverURL string) ([]byte, error) {
	d := &openAPIDoc{schemas: openAPISchemas(), errors: obj{}}
	paths := obj{}
	seenOp := map[string]bool{}
	tags := map[string]bool{}
	for i := range routes {
		rt := &routes[i]
		op, err := d.operation(rt)
		if err != nil {
			return nil, fmt.Errorf("openapi: %s %s: %w", rt.Method, rt.Path, err)
		}
		if seenOp[rt.OperationID] {
			return nil, fmt.Errorf("openapi: %s %s: duplicate operationId %q", rt.Method, rt.Path, rt.OperationID)
		}
		seenOp[rt.OperationID] = true
		for _, t := range op["tags"].([]string) {
			tags[t] = true
		}
		item, _ := paths[rt.Path].(obj)
		if item == nil {
			item = obj{}
			paths[rt.Path] = item
		}
		m := strings.ToLower(rt.Method)
		if item[m] != nil {
			return nil, fmt.Errorf("openapi: duplicate route %s %s", rt.Method, rt.Path)
		}
		item[m] = op
	}

	webhooks, err := d.eventWebhooks(seenOp)
	if err != nil {
		return nil, err
	}
	tags["webhooks"] = true

	tagList := []any{}
	for _, t := range tagDescriptions {
		if tags[t.name] {
			tagList = append(tagList, obj{"name": t.name, "description": t.desc})
			delete(tags, t.name)
		}
	}
	rest := make([]string, 0, len(tags))
	for t := range tags {
		rest = append(rest, t)
	}
	slices.Sort(rest)
	for _, t := range rest {
		tagList = append(tagList, obj{"name": t})
	}

	url := strings.TrimRight(serverURL, "/") + basePath
	if url == "" {
		url = "/"
	}
	doc := obj{
		"openapi": openAPIVersion,
		"info": obj{
			"title":   "fxd",
			"version": Version,
			"summary": "Non-custodial FX and payments API.",
			"description": "Every value operation returns EIP-712 typed data that the caller signs with one of its registered signer wallets; the service never holds the caller's keys.\n\n" +
				"Authentication: every call except the public ones carries SVC-API-KEY, SVC-TIMESTAMP and SVC-SIGNATURE. " + canonicalStringDoc + "\n\n" +
				"Money amounts are decimal strings in currency units; times are RFC 3339 UTC. Lists take ?limit= (1.." + strconv.Itoa(domain.MaxPageLimit) + ", default " + strconv.Itoa(domain.DefaultPageLimit) +
				") and ?starting_after=<id>, newest first. Unknown request body fields are refused; unknown query parameters are ignored.\n\n" +
				"Rate limits per key, sliding 60 s window: read (GET) " + strconv.Itoa(ratelimit.DefaultLimits.Read) + ", write (POST/PATCH/DELETE) " + strconv.Itoa(ratelimit.DefaultLimits.Write) +
				", heavy " + strconv.Itoa(ratelimit.DefaultLimits.Heavy) + " (x-fxd-heavy operations, which also count as writes); public routes " + strconv.Itoa(ratelimit.DefaultPerIPLimits.Limit) + " per minute per client IP.\n\n" +
				"Webhooks: each event is POSTed to every enabled endpoint of the account whose events match, signed as Standard Webhooks specifies (see the top-level webhooks, one entry per event type); GET /events lists the same payloads for 30 days.\n\n" +
				"Extensions: x-fxd-scope is the scope a key must carry (any: a valid key of any scope); x-fxd-heavy marks the heaviest trade operations; x-fxd-error-codes lists the codes an error response may carry.",
		},
		"servers":  []any{obj{"url": url}},
		"tags":     tagList,
		"paths":    paths,
		"webhooks": webhooks,
		"security": []any{obj{secKey: []string{}, secTimestamp: []string{}, secSignature: []string{}}},
		"components": obj{
			"schemas":         d.schemas,
			"securitySchemes": securitySchemes(),
			"parameters": obj{
				"WebhookId":        webhookHeaders["WebhookId"],
				"WebhookTimestamp": webhookHeaders["WebhookTimestamp"],
				"WebhookSignature": webhookHeaders["WebhookSignature"],
				"IdempotencyKey": obj{
					"name": hdrIdemKey, "in": "header", "required": false,
					"description": "1 to 255 printable ASCII characters. Makes a write safe to retry: replaying the same key on the same route (per API key, method and path) within 24 hours returns the original status and body with Idempotency-Replayed: true and does not act twice. The same key with a different body is 422 idempotency_key_reused. A body refused as malformed (400, an unknown field included) is an answer like any other, stored and replayed under the key; a key already used answers any other body 422, malformed or not.",
					"schema":      obj{"type": "string", "minLength": 1, "maxLength": maxIdemKeyLen, "pattern": patIdemKey},
				},
			},
			"headers":   responseHeaders(),
			"responses": d.errors,
		},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	return buf.Bytes(), nil
}

// eventSummaries say when each event type fires (SPEC.md "Events").
var eventSummaries = map[string]string{
	orderSettledEvent:      "An FX order reached settled",
	orderFailedEvent:       "An FX order reached failed",
	orderRefundedEvent:     "An FX order reached refunded (the maker missed the settlement deadline; the escrow refunded the taker)",
	transferConfirmedEvent: "A transfer reached confirmed",
	transferFailedEvent:    "A transfer reached failed",
	linkPaidEvent:          "A payment link was paid in full",
	webhookTestEvent:       "POST /webhooks/{id}/test was called for this endpoint",
}

// webhookHeaders are the Standard Webhooks headers of every delivery, as
// components.parameters.
var webhookHeaders = obj{
	"WebhookId": obj{
		"name": "webhook-id", "in": "header", "required": true,
		"description": "The event id (evt_…), the same on every attempt of the event to every endpoint: deduplicate on it (delivery is at least once).",
		"schema":      obj{"type": "string", "pattern": "^evt_" + patIDBody},
	},
	"WebhookTimestamp": obj{
		"name": "webhook-timestamp", "in": "header", "required": true,
		"description": "Unix seconds when this attempt was signed. Refuse a delivery whose timestamp is far from your clock (Standard Webhooks libraries allow 5 minutes) to stop replays.",
		"schema":      obj{"type": "integer", "minimum": 0},
	},
	"WebhookSignature": obj{
		"name": "webhook-signature", "in": "header", "required": true,
		"description": "v1,<base64 HMAC-SHA256(key, webhook-id + \".\" + webhook-timestamp + \".\" + raw body)>, where key is the base64-decoded part of the endpoint's whsec_ secret. For 24 h after POST /webhooks/{id}/rotate-secret the header holds two signatures, space-separated, the new secret's first; accept the delivery if any one verifies with a secret you hold. Compare in constant time, and verify the raw body before parsing it.",
		"schema":      obj{"type": "string", "pattern": patWebhookSignature},
	},
}

// eventWebhooks renders the OpenAPI 3.1 top-level webhooks: what the
// service POSTs to a receiver, one entry per event type. Its operation
// ids must not collide with the routes' (seenOp).
func (d *openAPIDoc) eventWebhooks(seenOp map[string]bool) (obj, error) {
	out := obj{}
	for _, typ := range eventTypes {
		envelope := eventEnvelopeOf(typ)
		if _, ok := d.schemas[envelope].(obj); !ok {
			return nil, fmt.Errorf("openapi: webhook %s: no event schema", typ)
		}
		summary, ok := eventSummaries[typ]
		if !ok {
			return nil, fmt.Errorf("openapi: webhook %s: no summary", typ)
		}
		var opID strings.Builder
		opID.WriteString("receive")
		for _, w := range strings.FieldsFunc(typ, func(r rune) bool { return r == '.' || r == '_' }) {
			opID.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		if seenOp[opID.String()] {
			return nil, fmt.Errorf("openapi: webhook %s: duplicate operationId %q", typ, opID.String())
		}
		seenOp[opID.String()] = true
		schema := sref(envelope)
		if types := eventTypesOf(envelope); len(types) > 1 {
			schema = obj{"allOf": []any{sref(envelope), obj{"properties": obj{"type": obj{"const": typ}}}}}
		}
		out[typ] = obj{"post": obj{
			"operationId": opID.String(),
			"summary":     summary,
			"description": "Event " + typ + ", POSTed by the service to each enabled endpoint of the account whose events list it (webhook.test: to the tested endpoint only). The body is the event exactly as GET /events/{id} returns it. " +
				"Any 2xx answer within 10 s acknowledges it; anything else (another status, a redirect, which is never followed, a timeout, a refused connection) is a failed attempt, retried with back-off (10 s, 1 m, 5 m, 30 m, 2 h, 6 h, 12 h, 24 h by default) and then marked failed. " +
				"10 consecutive failed attempts disable the endpoint. Delivery is at least once, so the same webhook-id may arrive more than once; order between events is not guaranteed.",
			"tags":       []string{"webhooks"},
			"security":   []any{},
			"parameters": []any{obj{"$ref": "#/components/parameters/WebhookId"}, obj{"$ref": "#/components/parameters/WebhookTimestamp"}, obj{"$ref": "#/components/parameters/WebhookSignature"}},
			"requestBody": obj{
				"required": true,
				"content":  obj{"application/json": obj{"schema": schema}},
			},
			"responses": obj{
				"2XX":     obj{"description": "Received: the delivery succeeded. The body is ignored."},
				"default": obj{"description": "A failed attempt: retried on the schedule, then the delivery is failed."},
			},
		}}
	}
	return out, nil
}

// eventTypesOf are the event types of an envelope schema.
func eventTypesOf(envelope string) []string {
	for _, e := range eventEnvelopes {
		if e.schema == envelope {
			return e.types
		}
	}
	return nil
}

const canonicalStringDoc = "SVC-SIGNATURE is base64 of the Ed25519 signature of the canonical string: the timestamp (unix seconds), the upper-case HTTP method, the request target (path including the base path and any query string, exactly as sent) and the lower-case hex SHA-256 of the raw body (of the empty string when there is none), joined by single LF characters with no trailing LF. The timestamp must be within 30 s of server time (GET /time) and each signature is single-use."

func securitySchemes() obj {
	return obj{
		secKey: obj{"type": "apiKey", "in": "header", "name": "SVC-API-KEY",
			"description": "The key_id (svc_test_… or svc_live_…). Used together with SVC-TIMESTAMP and SVC-SIGNATURE."},
		secTimestamp: obj{"type": "apiKey", "in": "header", "name": "SVC-TIMESTAMP",
			"description": "Unix time in seconds, the same value that was signed; within 30 s of server time, and not before the server started (401 stale_timestamp with SVC-Server-Time: sign again). Each signature is accepted once (401 replayed), across restarts too."},
		secSignature: obj{"type": "apiKey", "in": "header", "name": "SVC-SIGNATURE",
			"description": canonicalStringDoc},
	}
}

func responseHeaders() obj {
	intHeader := func(desc string) obj {
		return obj{"description": desc, "schema": obj{"type": "integer", "minimum": 0}}
	}
	return obj{
		"XRateLimitLimit":     intHeader("Limit of the request's tightest rate class per 60 s window. Sent on every response after authentication."),
		"XRateLimitRemaining": intHeader("Requests of that class still admitted in the current window."),
		"XRateLimitReset":     intHeader("Unix seconds at which a slot of that class frees."),
		"RetryAfter":          intHeader("Whole seconds to wait before retrying."),
		"IdempotencyReplayed": obj{"description": "true when this is the stored answer to an earlier request with the same Idempotency-Key.",
			"schema": obj{"type": "string", "const": "true"}},
		"SVCServerTime": intHeader("Server time in unix seconds; sent with 401 stale_timestamp."),
		"RequestId": obj{"description": "This answer's id; the server's log lines about the request name it. Quote it when asking about a call.",
			"schema": obj{"type": "string", "pattern": "^req_[0-9A-HJKMNP-TV-Z]{26}$"}},
	}
}

func href(name string) obj { return obj{"$ref": "#/components/headers/" + name} }

// operation renders one route.
func (d *openAPIDoc) operation(rt *route) (obj, error) {
	switch rt.Method {
	case "GET", "POST", "PATCH", "DELETE", "PUT":
	default:
		return nil, fmt.Errorf("unsupported method")
	}
	if rt.OperationID == "" || rt.Summary == "" {
		return nil, fmt.Errorf("operationId and summary are required")
	}
	if !strings.HasPrefix(rt.Path, "/") {
		return nil, fmt.Errorf("path must start with /")
	}
	if rt.OK < 200 || rt.OK > 299 {
		return nil, fmt.Errorf("success status %d is not 2xx", rt.OK)
	}
	auth := rt.Scope != 0
	write := rt.Method != "GET"
	seg := strings.SplitN(strings.TrimPrefix(rt.Path, "/"), "/", 2)[0]
	tag, ok := tagOf[seg]
	if !ok {
		tag = seg
	}

	op := obj{
		"operationId": rt.OperationID,
		"summary":     rt.Summary,
		"description": describe(rt),
		"tags":        []string{tag},
	}
	if auth {
		op["x-fxd-scope"] = scopeName(rt.Scope)
		op["security"] = []any{obj{secKey: []string{}, secTimestamp: []string{}, secSignature: []string{}}}
	} else {
		op["security"] = []any{}
	}
	if rt.Heavy {
		op["x-fxd-heavy"] = true
	}

	params, err := parameters(rt)
	if err != nil {
		return nil, err
	}
	if auth && write {
		params = append(params, obj{"$ref": "#/components/parameters/IdempotencyKey"})
	}
	if len(params) > 0 {
		op["parameters"] = params
	}

	if rt.Body != "" {
		body, ok := d.schemas[rt.Body].(obj)
		if !ok {
			return nil, fmt.Errorf("unknown body schema %q", rt.Body)
		}
		if !write {
			return nil, fmt.Errorf("a %s route cannot take a body", rt.Method)
		}
		op["requestBody"] = obj{
			"required": bodyRequired(body),
			"content":  obj{"application/json": obj{"schema": sref(rt.Body)}},
		}
	}

	responses, err := d.responses(rt, auth, write)
	if err != nil {
		return nil, err
	}
	op["responses"] = responses
	return op, nil
}

// describe is the operation's description: who may call it and how it is
// limited.
func describe(rt *route) string {
	var b strings.Builder
	switch {
	case rt.Scope == 0:
		b.WriteString("Public: no authentication; " + strconv.Itoa(ratelimit.DefaultPerIPLimits.Limit) + " requests per minute per client IP.")
	case rt.Scope == scopeAny:
		b.WriteString("Required scope: any (a valid API key of any scope).")
	default:
		b.WriteString("Required scope: `" + rt.Scope.String() + "`.")
	}
	if rt.Scope != 0 {
		switch ratelimit.ClassFor(rt.Method, rt.Heavy) {
		case ratelimit.Heavy:
			b.WriteString(" Rate class: heavy (" + strconv.Itoa(ratelimit.DefaultLimits.Heavy) + "/min; also counts as a write).")
		case ratelimit.Write:
			b.WriteString(" Rate class: write (" + strconv.Itoa(ratelimit.DefaultLimits.Write) + "/min).")
		default:
			b.WriteString(" Rate class: read (" + strconv.Itoa(ratelimit.DefaultLimits.Read) + "/min).")
		}
		if rt.Method != "GET" {
			b.WriteString(" Idempotent with an Idempotency-Key header.")
		}
	}
	return b.String()
}

// scopeName is the x-fxd-scope value.
func scopeName(s domain.Scopes) string {
	if s == scopeAny {
		return "any"
	}
	return s.String()
}

// bodyRequired: a body whose fields are all optional may be omitted.
func bodyRequired(s obj) bool {
	req, _ := s["required"].([]string)
	return len(req) > 0 || s["oneOf"] != nil || s["anyOf"] != nil
}

// parameters are the route's path parameters, in path order, and its
// query parameters.
func parameters(rt *route) ([]any, error) {
	var out []any
	names := map[string]bool{}
	for _, seg := range strings.Split(rt.Path, "/") {
		if !strings.ContainsAny(seg, "{}") {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(seg, "{"), "}")
		if len(name) != len(seg)-2 || name == "" || strings.ContainsAny(name, "{}") {
			return nil, fmt.Errorf("malformed path segment %q", seg)
		}
		if names[name] {
			return nil, fmt.Errorf("path parameter %q twice", name)
		}
		names[name] = true
		p := obj{"name": name, "in": "path", "required": true}
		switch name {
		case "address":
			p["description"] = "Wallet address."
			p["schema"] = sref("Address")
		case "id":
			p["description"] = "Record id."
			p["schema"] = obj{"type": "string", "minLength": 1}
		default:
			p["schema"] = obj{"type": "string", "minLength": 1}
		}
		out = append(out, p)
	}
	for _, q := range rt.Query {
		if q.Name == "" || names[q.Name] {
			return nil, fmt.Errorf("query parameter %q empty or repeated", q.Name)
		}
		names[q.Name] = true
		var schema obj
		switch q.Type {
		case "integer", "string", "boolean", "number":
			schema = obj{"type": q.Type}
		default:
			return nil, fmt.Errorf("query parameter %q has type %q", q.Name, q.Type)
		}
		switch q.Name {
		case "limit":
			schema["minimum"], schema["maximum"], schema["default"] = 1, domain.MaxPageLimit, domain.DefaultPageLimit
		case "type":
			switch {
			case slices.Equal(rt.Query, ledgerQuery), slices.Equal(rt.Query, ledgerFilters):
				schema["enum"] = []string{"fx_amm", "fx_rfq", "transfer", "payment_link"}
			case slices.Equal(rt.Query, eventQuery):
				schema["enum"] = eventTypes
			}
		case "from", "to":
			schema["format"] = "date-time"
		case "currency":
			schema["minLength"] = 1 // given empty: 400, as every filter
		}
		p := obj{"name": q.Name, "in": "query", "required": false, "schema": schema}
		if q.Description != "" {
			p["description"] = q.Description
		}
		out = append(out, p)
	}
	return out, nil
}

// statusCodes are the codes an error status carries on a route before the
// operation's own extras (opErrorCodes).
func statusCodes(status int, auth, write, listed bool) []string {
	switch status {
	case 400:
		return []string{domain.CodeInvalidRequest}
	case 401:
		return []string{domain.CodeAuthFailed, domain.CodeStaleTimestamp, domain.CodeReplayed}
	case 403:
		if listed {
			return []string{domain.CodeInsufficientScope, domain.CodeNotPermitted}
		}
		return []string{domain.CodeInsufficientScope}
	case 404:
		return []string{domain.CodeNotFound}
	case 409:
		var c []string
		if listed {
			c = append(c, domain.CodeInvalidState)
		}
		if auth && write {
			c = append(c, domain.CodeIdempotencyInProgress)
		}
		return c
	case 413:
		return []string{domain.CodeBodyTooLarge}
	case 422:
		return []string{domain.CodeIdempotencyKeyReused}
	case 429:
		return []string{domain.CodeOverLimit}
	case 502:
		return []string{"no_quote_available"}
	case 503:
		return []string{domain.CodeUnavailable}
	}
	return nil
}

// responses renders the success response and every error status of the
// route: the common ones of its kind plus rt.Errors.
func (d *openAPIDoc) responses(rt *route, auth, write bool) (obj, error) {
	// Error statuses.
	statuses := map[int]bool{}
	listed := map[int]bool{}
	if auth {
		for _, s := range []int{401, 403, 429, 503} {
			statuses[s] = true
		}
		if write {
			for _, s := range []int{400, 409, 413, 422} {
				statuses[s] = true
			}
		}
	} else {
		statuses[429] = true // per client IP
		if write {
			statuses[400], statuses[413] = true, true
		}
	}
	for _, s := range rt.Errors {
		if s < 400 || s > 599 {
			return nil, fmt.Errorf("error status %d is not 4xx or 5xx", s)
		}
		statuses[s], listed[s] = true, true
	}
	codes := map[int][]string{}
	for s := range statuses {
		codes[s] = statusCodes(s, auth, write, listed[s])
	}
	for _, c := range opErrorCodes[rt.OperationID] {
		e, ok := errorCodeByName(c)
		if !ok {
			return nil, fmt.Errorf("unknown error code %q", c)
		}
		if !statuses[e.Status] {
			return nil, fmt.Errorf("code %q needs status %d, which the route does not list", c, e.Status)
		}
		if !slices.Contains(codes[e.Status], c) {
			codes[e.Status] = append(codes[e.Status], c)
		}
	}

	out := obj{}
	// Success.
	ct := rt.ContentType
	if ct == "" {
		ct = "application/json"
	}
	var schema obj
	switch {
	case rt.Result != "":
		if _, ok := d.schemas[rt.Result]; !ok {
			return nil, fmt.Errorf("unknown result schema %q", rt.Result)
		}
		schema = sref(rt.Result)
	case ct == "text/csv":
		schema = obj{"type": "string", "description": "RFC 4180 CSV (records end in CRLF) with a header row; text cells starting with = + - @, a tab or a CR are prefixed with '."}
	default:
		schema = obj{"type": "object"}
	}
	okHeaders := obj{RequestIDHeader: href("RequestId")}
	if auth {
		addLimitHeaders(okHeaders)
		if write {
			okHeaders[hdrIdemReplayed] = href("IdempotencyReplayed")
		}
	}
	okResp := obj{
		"description": http.StatusText(rt.OK),
		"content":     obj{ct: obj{"schema": schema}},
		"headers":     okHeaders,
	}
	out[strconv.Itoa(rt.OK)] = okResp

	// Errors, in status order.
	kind := "public"
	switch {
	case auth && write:
		kind = "write"
	case auth:
		kind = "read"
	}
	order := make([]int, 0, len(statuses))
	for s := range statuses {
		order = append(order, s)
	}
	slices.Sort(order)
	for _, s := range order {
		cs := codes[s]
		if len(cs) == 0 {
			return nil, fmt.Errorf("no contract code for status %d", s)
		}
		if s == rt.OK {
			return nil, fmt.Errorf("status %d is both success and error", s)
		}
		if o, ok := opErrorBody[rt.OperationID][s]; ok {
			if _, ok := d.schemas[o.schema].(obj); !ok {
				return nil, fmt.Errorf("unknown error body schema %q", o.schema)
			}
			resp := obj{"description": o.desc, "content": obj{"application/json": obj{"schema": sref(o.schema)}},
				"headers": obj{RequestIDHeader: href("RequestId")}}
			ref, err := d.sharedError(s, kind, o.schema, nil, resp)
			if err != nil {
				return nil, err
			}
			out[strconv.Itoa(s)] = ref
			continue
		}
		var desc strings.Builder
		desc.WriteString(http.StatusText(s))
		desc.WriteString(". Codes:")
		for _, c := range cs {
			e, _ := errorCodeByName(c)
			desc.WriteString(" `" + c + "` (" + e.Meaning + ");")
		}
		resp := obj{
			"description":       strings.TrimSuffix(desc.String(), ";") + ".",
			"content":           obj{"application/json": obj{"schema": sref("Error")}},
			"x-fxd-error-codes": cs,
		}
		h := obj{}
		switch {
		case s == 401:
			h[hdrServerTime] = href("SVCServerTime")
		case s == 413:
			// Refused before authentication.
		case auth:
			addLimitHeaders(h)
		case s == 429:
			addLimitHeaders(h)
		}
		if s == 429 || s == 503 || slices.Contains(cs, domain.CodeIdempotencyInProgress) {
			h[ratelimit.HeaderRetryAfter] = href("RetryAfter")
		}
		if auth && write && s != 401 && s != 413 && s != 422 && s != 429 {
			h[hdrIdemReplayed] = href("IdempotencyReplayed")
		}
		h[RequestIDHeader] = href("RequestId")
		resp["headers"] = h
		ref, err := d.sharedError(s, kind, "", cs, resp)
		if err != nil {
			return nil, err
		}
		out[strconv.Itoa(s)] = ref
	}
	return out, nil
}

// sharedError files an error response under components.responses, named by
// what determines it: status, kind of route, body ("" for Error) and codes.
func (d *openAPIDoc) sharedError(status int, kind, body string, codes []string, resp obj) (obj, error) {
	name := "E" + strconv.Itoa(status) + "_" + kind
	if body != "" {
		name += "_" + body
	}
	if len(codes) > 0 {
		name += "_" + strings.Join(codes, "_")
	}
	if old, ok := d.errors[name]; ok {
		a, _ := json.Marshal(old)
		b, _ := json.Marshal(resp)
		if !bytes.Equal(a, b) {
			return nil, fmt.Errorf("two different error responses named %s", name)
		}
	}
	d.errors[name] = resp
	return obj{"$ref": "#/components/responses/" + name}, nil
}

func addLimitHeaders(h obj) {
	h[ratelimit.HeaderLimit] = href("XRateLimitLimit")
	h[ratelimit.HeaderRemaining] = href("XRateLimitRemaining")
	h[ratelimit.HeaderReset] = href("XRateLimitReset")
}
