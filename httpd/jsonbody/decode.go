// Package jsonbody is the front door's strict decoder of a JSON request
// body: one object, no unknown field, nothing after it, valid UTF-8 and no
// key twice. Every refusal is a 400 invalid_request whose message says
// what is wrong. It lives apart from httpd so that tests of the desks
// (fx, pay) decode a fuzzed body exactly as the server does, instead of
// keeping a copy that drifts.
package jsonbody

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/flatjson"
)

// Decode parses a JSON object body into v, refusing unknown fields
// (CONTRACT.md: the message names the field), trailing data and
// non-objects. Plain flat bodies take the fast path (internal/flatjson);
// everything else, errors included, is encoding/json's.
func Decode(body []byte, v any) *domain.Error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return domain.ErrInvalid("request body must be a JSON object")
	}
	if flatjson.Decode(body, v) {
		return nil
	}
	// encoding/json takes invalid UTF-8 inside strings (as U+FFFD) and a
	// repeated key (the last wins, in any case); the fast path refuses
	// both, so the slow one must too (keys.go).
	if err := checkJSONText(body, deref(reflect.TypeOf(v))); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	// Only white space may follow the object (the offset is just past it).
	if len(bytes.TrimSpace(body[dec.InputOffset():])) != 0 {
		return domain.ErrInvalid("request body has data after the JSON object")
	}
	return nil
}

// jsonError turns encoding/json's refusal into the client's 400, in words
// that name the field or the byte and not Go's types.
func jsonError(err error) *domain.Error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	msg := err.Error()
	switch {
	case errors.As(err, &typeErr):
		return domain.ErrInvalid("field %q must be %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()))
	case errors.As(err, &syntaxErr):
		return domain.ErrInvalid("malformed JSON at byte %d", syntaxErr.Offset)
	case strings.HasPrefix(msg, "json: unknown field "):
		return domain.ErrInvalid("unknown field %s", strings.TrimPrefix(msg, "json: unknown field "))
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return domain.ErrInvalid("malformed JSON: unexpected end of body")
	}
	return domain.ErrInvalid("malformed JSON")
}

// jsonKind names a Go kind as the JSON type a client should have sent.
func jsonKind(k string) string {
	switch k {
	case "ptr", "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return "a " + k
}
