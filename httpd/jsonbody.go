package httpd

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/flatjson"
)

// decodeStrict parses a JSON object body into v, refusing unknown fields
// (CONTRACT.md: the message names the field), trailing data and
// non-objects. Plain flat bodies take the fast path (internal/flatjson);
// everything else, errors included, is encoding/json's.
func decodeStrict(body []byte, v any) *domain.Error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return domain.ErrInvalid("request body must be a JSON object")
	}
	if flatjson.Decode(body, v) {
		return nil
	}
	// encoding/json takes invalid UTF-8 inside strings (as U+FFFD) and a
	// repeated key (the last wins, in any case); the fast path refuses
	// both, so the slow one must too (jsonkeys.go).
	if err := checkJSONText(body); err != nil {
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

// emptyBody accepts an absent body or an empty JSON object, for routes
// that take no fields.
func emptyBody(body []byte) *domain.Error {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var none struct{}
	return decodeStrict(body, &none)
}
