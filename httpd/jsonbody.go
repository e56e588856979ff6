package httpd

import (
	"bytes"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
)

// Request bodies are decoded by package jsonbody (one strict decoder,
// shared with the desks' fuzz tests); what stays here is the front door's
// own policy for routes that take no fields.

// emptyBody accepts an absent body or an empty JSON object, for routes
// that take no fields.
func emptyBody(body []byte) *domain.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var none struct{}
	return jsonbody.Decode(body, &none)
}
