// Package reqsig implements the Ed25519 request signature of the API
// (SPEC.md "Authentication", CONTRACT.md "Authentication details").
//
// A request is signed over its canonical string, four parts joined by a
// single LF with no trailing LF:
//
//	<SVC-TIMESTAMP, exactly as sent>
//	<HTTP method, upper case>
//	<request target: raw path and query exactly as sent, base path included>
//	<lower-case hex SHA-256 of the raw body; the hash of "" when there is none>
//
// The signature is the standard, padded base64 of the 64-byte Ed25519
// signature of that string, sent in SVC-SIGNATURE alongside SVC-API-KEY and
// SVC-TIMESTAMP.
//
// The package is shared by the server (Verify, DecodeSignature,
// ParseTimestamp) and the Go SDK (Sign), so both sides build the canonical
// string with the same code. It does not check freshness or replay; those
// are server policies (see httpd/replay).
package reqsig
