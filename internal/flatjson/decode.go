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
// whether it did. It reads the whole body before it stores anything, so
// when it reports false v is as it was and the caller can hand the same v
// to encoding/json.
func Decode(body []byte, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	fs := fieldsOf(rv.Type().Elem())
	if fs.fields == nil {
		return false
	}
	var vals [maxFields]value // by field; kind 0: absent
	if !parse(body, fs, &vals) {
		return false
	}
	base := rv.UnsafePointer()
	for i := range fs.fields {
		if vals[i].kind != absent {
			store(unsafe.Add(base, fs.fields[i].offset), fs.fields[i].kind, vals[i])
		}
	}
	return true
}

// value is one parsed field value.
type value struct {
	kind valueKind
	str  []byte // the string's bytes, aliasing the body
}

type valueKind uint8

const (
	absent valueKind = iota
	null
	valTrue
	valFalse
	valString
)

// parse reads body into vals, refusing anything outside the fast path.
func parse(body []byte, fs *fieldSet, vals *[maxFields]value) bool {
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
		i := fs.index(key)
		if i < 0 || vals[i].kind != absent {
			return false // unknown, case-folded or repeated key: encoding/json decides
		}
		p.space()
		if !p.byte(':') {
			return false
		}
		p.space()
		if vals[i], ok = p.value(fs.fields[i].kind); !ok {
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

// store writes a parsed value into the field at at. null leaves a string
// or bool as it is and clears a pointer, as encoding/json does.
func store(at unsafe.Pointer, k kind, v value) {
	switch k {
	case kindString:
		if v.kind == valString {
			*(*string)(at) = string(v.str)
		}
	case kindStringPtr:
		if v.kind == null {
			*(**string)(at) = nil
			return
		}
		s := string(v.str)
		*(**string)(at) = &s
	case kindBool:
		if v.kind != null {
			*(*bool)(at) = v.kind == valTrue
		}
	case kindBoolPtr:
		if v.kind == null {
			*(**bool)(at) = nil
			return
		}
		b := v.kind == valTrue
		*(**bool)(at) = &b
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

// value reads the value of a field of kind k, if it is one the fast path
// takes: null, or a plain string for a string, true or false for a bool.
func (p *parser) value(k kind) (value, bool) {
	if p.literal("null") {
		return value{kind: null}, true
	}
	switch k {
	case kindString, kindStringPtr:
		s, ok := p.plainString()
		return value{kind: valString, str: s}, ok
	case kindBool, kindBoolPtr:
		switch {
		case p.literal("true"):
			return value{kind: valTrue}, true
		case p.literal("false"):
			return value{kind: valFalse}, true
		}
	}
	return value{}, false
}
