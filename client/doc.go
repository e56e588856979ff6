// Package client is the Go SDK of the API: a typed method per route, list
// iterators, retries that are safe to make, and requests signed per
// SPEC.md "Authentication" (via reqsig, the same code the server verifies
// with), sent over net/http. `fxd call`, the integration tests and the
// load generator use it too, through the raw Do.
//
// # Typed calls
//
// Every route of the route table (httpd/routes.go) has a method named
// after its OpenAPI operationId with the first letter upper-cased
// (createTransfer → CreateTransfer), taking the path parameters, then the
// request body or the query parameters, and returning the answer typed:
//
//	c, err := client.New("http://127.0.0.1:8080", keyID, key)
//	if err != nil { … }
//	tr, err := c.CreateTransfer(ctx, client.TransferRequest{
//		FromCurrency: "USDC", Currency: "USDC", Amount: "25.50",
//		Recipient: "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A",
//	}, client.IdempotencyKey("invoice-7"))
//	var apiErr *client.APIError
//	switch {
//	case errors.As(err, &apiErr) && apiErr.Code == client.CodeNotPermitted:
//		// apiErr.Status, .Message, .RetryAfter, .Header
//	case err != nil: // transport, timeout, context
//	default:
//		fmt.Println(tr.ID, tr.State, tr.Signing.Tx.Data)
//	}
//
// Field names and JSON tags are CONTRACT.md's. Money amounts are decimal
// strings in currency units ("25.50"), never floats; integers inside
// signing are decimal strings of base units. Times are the RFC 3339 UTC
// strings the API sends. A field the API may send as null is a pointer;
// unknown fields of an answer are ignored, so a newer server does not
// break an older SDK. Request fields left zero are omitted, except where
// the contract gives "" a meaning (ContactUpdate, WebhookUpdate: a
// pointer to "" clears; write it new("")).
//
// The types are written by hand, not generated from the OpenAPI document:
// no Go generator we know of handles OpenAPI 3.1 (JSON Schema 2020-12:
// type arrays with "null", const, if/then, prefixItems) without losing
// nullability or inventing wrapper types. The tests hold the hand-written
// types to the document instead: every route has its method, every
// schema's properties are exactly its type's fields, all the way down,
// and an example of every body, valid against the schema, survives a
// decode and encode unchanged.
//
// # Lists
//
// ListX returns one page (Page: Data, HasMore, NextCursor); AllX walks the
// pages by the contract's cursor (next_cursor passed back as
// starting_after while has_more), one page in memory at a time:
//
//	for ct, err := range c.AllContacts(ctx, client.ListParams{Limit: 200}) {
//		if err != nil { return err } // yielded once; the walk ends
//		fmt.Println(ct.Name, ct.Address)
//	}
//
// # Retries
//
// The typed methods retry what cannot make the server act twice (see
// RetryPolicy for the rules): transport errors and 5xx when the request
// is safe to repeat, 429, 503 and 409 idempotency_in_progress after the
// answer's Retry-After, with a backoff otherwise (DefaultRetryPolicy:
// four attempts). Every attempt is signed afresh, since resending a signed
// request is by definition a replay, and keeps one Idempotency-Key: the
// caller's (IdempotencyKey) or one the SDK makes for each write that takes
// a key (every authenticated POST, PATCH and DELETE, except POST
// /fx/quotes, where a key would make the quotes durable). A retry of a
// write with a key is answered with the stored outcome of the first
// attempt if that one ran. WithRetryPolicy changes the policy,
// MaxAttempts one call's; WithSleep replaces the waiting (tests).
//
// A 401 stale_timestamp with SVC-Server-Time makes the Client adopt the
// server's clock (as SyncClock does, see ClockOffset) and retry once.
//
// # Raw requests
//
// Do signs and sends one request as given and returns the answer of any
// status; DoUnsigned sends one without auth headers. Neither retries:
// not on errors, not on 429, not on stale timestamps. A retry is then
// the caller's decision, signed afresh. (net/http's transport may resend
// a request whose kept-alive connection died under it; the server's
// single-use signatures make that copy either the only one it saw or a
// 401 replayed, which Do reports as the lost answer it stands for.)
//
// # Uniqueness
//
// The canonical string has no nonce, so two identical requests signed in
// the same second carry the same signature and the server refuses the
// second as `replayed` (CONTRACT.md "Conventions"). The server ignores
// unknown query parameters, so a Client makes each request it signs, raw
// or typed, unique: it remembers the (method, target, body hash) triples
// it signed in the current second, and when a request would repeat one it
// appends a query parameter `_r=<n>` (with '?' or '&' as the target
// needs) so the target, and so the signature, differ. Response.Target
// reports the target actually sent. The memory is one second's worth of
// requests: the set is cleared when the second changes. Uniqueness holds
// per Client; two Clients (or two processes) sharing a key can still
// collide within one second.
//
// The server must therefore never give `_r` a meaning; it is not part of
// an idempotency record's scope (the path without the query).
//
// # Transport
//
// Requests go through net/http: by default a transport of the Client's own
// (WithMaxConns connections, WithTLSConfig, no proxy, no compression),
// or any http.RoundTripper given with WithTransport. Redirects are never
// followed (the signature covers the target). The request target is
// written byte for byte as signed. Answers are read whole up to
// WithMaxResponseBodySize, except the CSV export, which is streamed.
package client
