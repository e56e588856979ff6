package client

import "net/http"

// Response is a complete HTTP response, read whole (up to
// WithMaxResponseBodySize), so it stays valid for as long as the caller
// keeps it.
type Response struct {
	// Status is the HTTP status code.
	Status int
	// Header holds the response headers under canonical names
	// (Header.Get is case-insensitive).
	Header http.Header
	// Body is the raw response body.
	Body []byte
	// Target is the request target as sent and signed: the caller's target,
	// plus `_r=<n>` when the Client had to make the request unique.
	Target string

	// signedAt is the SVC-TIMESTAMP the request carried (0: unsigned).
	signedAt int64
}
