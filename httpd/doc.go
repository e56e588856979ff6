// Package httpd is the fasthttp front door: one route table (which also
// generates the OpenAPI document), request authentication (Ed25519, freshness,
// single-use signatures), scopes, rate limits, idempotency, strict JSON, and
// the one function that writes errors.
//
// Nothing from a fasthttp request outlives its handler: everything handed to
// the engine is copied into Go strings and fresh slices first, because
// fasthttp reuses its buffers for the next request on the connection.
package httpd
