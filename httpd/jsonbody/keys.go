package jsonbody

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unicode"
	"unicode/utf8"

	"github.com/fxd-labs/fxd/domain"
)

// checkJSONText refuses, as 400 invalid_request, what encoding/json would
// otherwise accept silently: bytes that are not UTF-8 (it would replace
// them with U+FFFD), an object with a key twice, in any case (it keeps
// the last value, matching keys regardless of case), at any depth, and a
// key that names a field of target (the type decoded into) only in
// another case ("NAME" for "name": CONTRACT.md refuses unknown fields,
// and the published schemas are exact). A body signed, logged or proxied
// with one meaning must not be executed with another. A body
// encoding/json refuses anyway is left to it (nil), so its error stays
// the one the client sees.
//
// It belongs on Decode's slow path only: flatjson's fast path
// already refuses all of these (it falls back), so the hot path pays nothing.
func checkJSONText(body []byte, target reflect.Type) *domain.Error {
	if !utf8.Valid(body) {
		return domain.ErrInvalid("request body is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	// One frame per open object or array; an object's frame holds its
	// keys, folded, whether a key comes next, and the type its values
	// decode into (nil: unknown); an array's, its elements' type.
	type frame struct {
		keys    map[string]struct{}
		wantKey bool
		typ     reflect.Type
	}
	var stack []frame
	next := target // the type of the value that comes next
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil // the end, or malformed: encoding/json answers
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if key, ok := tok.(string); ok && top != nil && top.keys != nil && top.wantKey {
			folded := string(foldKey(key))
			if _, dup := top.keys[folded]; dup {
				return domain.ErrInvalid("request body repeats the key %q", key)
			}
			top.keys[folded] = struct{}{}
			top.wantKey = false
			var exact bool
			if next, exact = memberType(top.typ, key); !exact {
				return domain.ErrInvalid("unknown field %q", key)
			}
			continue
		}
		switch {
		case top != nil && top.keys != nil:
			top.wantKey = true // a value: the next token is a key or '}'
		case top != nil:
			next = top.typ // an array's element
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{keys: map[string]struct{}{}, wantKey: true, typ: deref(next)})
		case json.Delim('['):
			stack = append(stack, frame{typ: elemType(next)})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
	}
}

// foldKey is encoding/json's folding of a field name (fold.go), so two
// keys it would match to the same field fold equal.
func foldKey(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' {
				r -= 'a' - 'A'
			}
			out = append(out, byte(r))
			continue
		}
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}
