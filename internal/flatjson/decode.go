package flatjson

import (
	"reflect"
	"unicode/utf8"
	"unsafe"
)

// Decode decodes body into v (a pointer to a struct) when body is in the
// fast path's case — one object, keys that name a field exactly, values
// that are escape-free valid UTF-8 strings, true, false or null for the
// field's kind, no key twice, only white space around — and reports
// whether it did. When it reports false, v may be partly written: the
// caller decodes into a fresh value with encoding/json.
func Decode(body []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	ft := fieldsOf(rv.Type().Elem())
	if ft.fields == nil {
		return false
	}
	base := rv.UnsafePointer()
	var seen [MaxFields]bool
	p := parser{b: body}
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

// parser reads a body left to right.
type parser struct {
	b   []byte
	pos int
}

func (p *parser) space() {
	for p.pos < len(p.b) {
		switch p.b[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) byte(c byte) bool {
	if p.pos < len(p.b) && p.b[p.pos] == c {
		p.pos++
		return true
	}
	return false
}

func (p *parser) literal(s string) bool {
	if len(p.b)-p.pos >= len(s) && string(p.b[p.pos:p.pos+len(s)]) == s {
		p.pos += len(s)
		return true
	}
	return false
}

// end accepts only white space after the object.
func (p *parser) end() bool {
	p.space()
	return p.pos == len(p.b)
}

// plainString reads a string with no escapes and no control characters
// that is valid UTF-8: its bytes are then its value.
func (p *parser) plainString() ([]byte, bool) {
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
func (p *parser) value(f field, base unsafe.Pointer) bool {
	at := unsafe.Add(base, f.offset)
	if p.literal("null") {
		// null leaves a string or bool as it is and clears a pointer, as
		// encoding/json does.
		switch f.kind {
		case kindStringPtr:
			*(**string)(at) = nil
		case kindBoolPtr:
			*(**bool)(at) = nil
		}
		return true
	}
	switch f.kind {
	case kindString, kindStringPtr:
		s, ok := p.plainString()
		if !ok {
			return false
		}
		str := string(s)
		if f.kind == kindString {
			*(*string)(at) = str
		} else {
			*(**string)(at) = &str
		}
		return true
	case kindBool, kindBoolPtr:
		var b bool
		switch {
		case p.literal("true"):
			b = true
		case p.literal("false"):
		default:
			return false
		}
		if f.kind == kindBool {
			*(*bool)(at) = b
		} else {
			*(**bool)(at) = &b
		}
		return true
	}
	return false
}
