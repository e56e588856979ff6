// Package client is the Go SDK of the API: it signs requests per SPEC.md
// "Authentication" (via reqsig, the same code the server verifies with) and
// sends them over fasthttp. It is used by `fxd call`, the integration tests
// and the load generator.
//
// # Uniqueness
//
// The canonical string has no nonce, so two identical requests signed in
// the same second carry the same signature and the server refuses the
// second as `replayed` (CONTRACT.md "Conventions"). The server ignores
// unknown query parameters, so a Client makes each request it signs unique:
// it remembers the (method, target, body hash) triples it signed in the
// current second, and when a request would repeat one it appends a query
// parameter `_r=<n>` (with '?' or '&' as the target needs) so the target,
// and so the signature, differ. Response.Target reports the target actually
// sent. The memory is one second's worth of requests: the set is cleared
// when the second changes. Uniqueness holds per Client; two Clients (or two
// processes) sharing a key can still collide within one second.
//
// The server must therefore never give `_r` a meaning.
//
// # No retries
//
// A Client never retries: not on errors, not on 429, not on connection
// failures (fasthttp's built-in retry of idempotent requests is turned
// off). A retry is the caller's decision, signed afresh, because resending
// the same signed bytes is by definition a replay.
package client
