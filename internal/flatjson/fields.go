// Package flatjson is a fast path for decoding the request bodies the API
// reads most: small flat objects whose fields are strings, optional
// strings and booleans (a contact, a wallet, a quote request).
//
// encoding/json's Decoder costs more than the rest of such a request's own
// work outside the signature check (two passes over the bytes, a buffered
// copy, reflection per field: ~1.3 µs per contact body, twice that under
// load). Decode takes only the unambiguous case and reports false for
// anything else, so the caller falls back to encoding/json, which decides
// every other case (errors, escapes, case-folded keys, nested values)
// exactly as before. Decode agrees with a json.Decoder that refuses
// unknown fields; FuzzDecodeMatchesJSON checks that on random bodies.
// (Encoding is left to json.Marshal: its cached struct encoder was as
// fast as a hand-written one for these views.)
package flatjson

import (
	"reflect"
	"strings"
	"sync"
)

// kind is a field type the fast path fills.
type kind uint8

const (
	kindString kind = iota + 1
	kindStringPtr
	kindBool
	kindBoolPtr
)

// field is one JSON field of a flat struct.
type field struct {
	name   string
	offset uintptr
	kind   kind
}

// fieldSet is the field table of a struct type. A nil fields slice means
// the type has a field the fast path does not fill: it always falls back.
type fieldSet struct {
	fields []field
}

// maxFields bounds the fields of a flat struct.
const maxFields = 16

var tables sync.Map // reflect.Type -> *fieldSet

// fieldsOf returns the table of struct type t, built once.
func fieldsOf(t reflect.Type) *fieldSet {
	if fs, ok := tables.Load(t); ok {
		return fs.(*fieldSet)
	}
	fs := build(t)
	tables.Store(t, fs)
	return fs
}

func build(t reflect.Type) *fieldSet {
	fs := &fieldSet{}
	if t.Kind() != reflect.Struct || t.NumField() > maxFields {
		return fs
	}
	var fields []field
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || f.Anonymous || !plainName(name) || opts != "" {
			return fs // untagged, embedded, option-bearing or oddly named: fall back
		}
		var k kind
		switch f.Type {
		case reflect.TypeFor[string]():
			k = kindString
		case reflect.TypeFor[*string]():
			k = kindStringPtr
		case reflect.TypeFor[bool]():
			k = kindBool
		case reflect.TypeFor[*bool]():
			k = kindBoolPtr
		default:
			return fs
		}
		fields = append(fields, field{name: name, offset: f.Offset, kind: k})
	}
	fs.fields = fields
	return fs
}

// index is the field named exactly key, or -1.
func (fs *fieldSet) index(key []byte) int {
	for i := range fs.fields {
		if fs.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

// plainName reports whether a JSON name is letters, digits and '_' only:
// the names the API uses, and nothing whose matching could be subtle.
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
