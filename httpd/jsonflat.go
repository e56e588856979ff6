package httpd

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// The flat fast path of decodeStrict.
//
// Most request bodies are small flat objects of strings (a contact, a
// wallet, a quote request), and encoding/json's Decoder costs more than
// the rest of the request's own work outside the signature check (two
// passes over the bytes, a buffered copy, reflection per field: ~1.3 µs
// per contact, twice that under load). decodeFlat handles exactly the
// unambiguous case — one object, keys that name a field exactly, values
// that are plain strings (no escapes, valid UTF-8), true, false or null
// for the field's kind, no key twice — and reports false for anything
// else, which decodeStrict then gives to encoding/json as before. So the
// fast path never decides an error and never decides anything
// encoding/json would decide differently; FuzzDecodeFlatMatchesJSON
// checks that on random bodies.

// flatKind is a field type the fast path fills.
type flatKind uint8

const (
	flatString flatKind = iota + 1
	flatStringPtr
	flatBool
	flatBoolPtr
)

// flatField is one JSON field of a flat struct.
type flatField struct {
	name   string
	offset uintptr
	kind   flatKind
}

// flatType is the field table of a struct type; nil fields means the type
// has a field the fast path does not fill, so it always takes the slow path.
type flatType struct {
	fields []flatField
}

// maxFlatFields bounds the fields tracked per body (for duplicate keys).
const maxFlatFields = 16

var flatTypes sync.Map // reflect.Type -> *flatType

// flatTypeOf returns the table for *T (built once per type).
func flatTypeOf(t reflect.Type) *flatType {
	if ft, ok := flatTypes.Load(t); ok {
		return ft.(*flatType)
	}
	ft := buildFlatType(t)
	flatTypes.Store(t, ft)
	return ft
}

func buildFlatType(t reflect.Type) *flatType {
	ft := &flatType{}
	if t.Kind() != reflect.Struct || t.NumField() > maxFlatFields {
		return ft
	}
	var fields []flatField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !f.IsExported() || f.Anonymous || name == "" || opts != "" {
			return ft // untagged, embedded or option-bearing fields: slow path
		}
		var k flatKind
		switch {
		case f.Type == reflect.TypeFor[string]():
			k = flatString
		case f.Type == reflect.TypeFor[*string]():
			k = flatStringPtr
		case f.Type == reflect.TypeFor[bool]():
			k = flatBool
		case f.Type == reflect.TypeFor[*bool]():
			k = flatBoolPtr
		default:
			return ft
		}
		fields = append(fields, flatField{name: name, offset: f.Offset, kind: k})
	}
	ft.fields = fields
	return ft
}

// decodeFlat decodes body into v (a pointer to a struct) when body is in
// the fast path's case and reports whether it did. When it reports false,
// v may be partly written; the caller decodes into a fresh value.
func decodeFlat(body []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	ft := flatTypeOf(rv.Type().Elem())
	if ft.fields == nil {
		return false
	}
	base := rv.UnsafePointer()
	var seen [maxFlatFields]bool
	p := flatParser{b: body}
	p.space()
	if !p.byte('{') {
		return false
	}
	p.space()
	if p.byte('}') {
		return p.end()
	}
	for {
		key, ok := p.plainString()
		if !ok {
			return false
		}
		i := ft.index(key)
		if i < 0 || seen[i] {
			return false // unknown, case-folded or repeated key: encoding/json decides
		}
		seen[i] = true
		p.space()
		if !p.byte(':') {
			return false
		}
		p.space()
		if !p.value(ft.fields[i], base) {
			return false
		}
		p.space()
		if p.byte('}') {
			return p.end()
		}
		if !p.byte(',') {
			return false
		}
		p.space()
	}
}

// index is the field named exactly key, or -1.
func (ft *flatType) index(key []byte) int {
	for i := range ft.fields {
		if ft.fields[i].name == string(key) {
			return i
		}
	}
	return -1
}

// flatParser reads a body left to right.
type flatParser struct {
	b   []byte
	pos int
}

func (p *flatParser) space() {
	for p.pos < len(p.b) {
		switch p.b[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *flatParser) byte(c byte) bool {
	if p.pos < len(p.b) && p.b[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *flatParser) literal(s string) bool {
	if len(p.b)-p.pos >= len(s) && string(p.b[p.pos:p.pos+len(s)]) == s {
		p.pos += len(s)
		return true
	}
	return false
}

// end accepts only white space after the object.
func (p *flatParser) end() bool {
	p.space()
	return p.pos == len(p.b)
}

// plainString reads a string with no escapes and no control characters
// that is valid UTF-8: its bytes are then its value.
func (p *flatParser) plainString() ([]byte, bool) {
	if !p.byte('"') {
		return nil, false
	}
	start := p.pos
	ascii := true
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		switch {
		case c == '"':
			s := p.b[start:p.pos]
			p.pos++
			return s, ascii || utf8.Valid(s)
		case c == '\\' || c < 0x20:
			return nil, false
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.pos++
	}
	return nil, false
}

// value reads the value of field f and stores it, if it is one the fast
// path takes for f's kind.
func (p *flatParser) value(f flatField, base unsafe.Pointer) bool {
	at := unsafe.Add(base, f.offset)
	if p.literal("null") {
		// null leaves a string or bool as it is and clears a pointer, as
		// encoding/json does.
		switch f.kind {
		case flatStringPtr:
			*(**string)(at) = nil
		case flatBoolPtr:
			*(**bool)(at) = nil
		}
		return true
	}
	switch f.kind {
	case flatString, flatStringPtr:
		s, ok := p.plainString()
		if !ok {
			return false
		}
		str := string(s)
		if f.kind == flatString {
			*(*string)(at) = str
		} else {
			*(**string)(at) = &str
		}
		return true
	case flatBool, flatBoolPtr:
		var b bool
		switch {
		case p.literal("true"):
			b = true
		case p.literal("false"):
		default:
			return false
		}
		if f.kind == flatBool {
			*(*bool)(at) = b
		} else {
			*(**bool)(at) = &b
		}
		return true
	}
	return false
}

// decodeSlow is encoding/json with unknown fields refused: the reference
// the fast path agrees with. It returns the offset just past the value.
func decodeSlow(body []byte, v any) (int64, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	return dec.InputOffset(), err
}
