package jsonbody

import (
	"reflect"
	"strings"
	"sync"
)

// The exact JSON names of a struct's fields, as encoding/json reads them
// (tag name, else the field name; "-" skipped; an untagged embedded
// struct's fields promoted), so checkJSONText can refuse a key that
// matches one only when case is ignored.

// fieldTable is a struct's fields by exact JSON name, and the exact
// names by their folded form (foldKey, encoding/json's matching).
type fieldTable struct {
	exact  map[string]reflect.Type
	folded map[string]struct{}
}

// fieldTables caches fieldsOf by struct type (a handful of request types).
var fieldTables sync.Map // reflect.Type → *fieldTable

// memberType returns the type a key's value decodes into within an object
// of type t, and false when the key names a field of t only in another
// case. For a map it is the map's element; for anything else (unknown
// type, or a key no field has in any case) nil and true: encoding/json
// answers for those.
func memberType(t reflect.Type, key string) (reflect.Type, bool) {
	switch {
	case t == nil:
		return nil, true
	case t.Kind() == reflect.Map:
		return t.Elem(), true
	case t.Kind() != reflect.Struct:
		return nil, true
	}
	ft := fieldsOf(t)
	if typ, ok := ft.exact[key]; ok {
		return typ, true
	}
	_, folds := ft.folded[string(foldKey(key))]
	return nil, !folds
}

func fieldsOf(t reflect.Type) *fieldTable {
	if ft, ok := fieldTables.Load(t); ok {
		return ft.(*fieldTable)
	}
	ft := &fieldTable{exact: map[string]reflect.Type{}, folded: map[string]struct{}{}}
	addFields(ft.exact, t)
	for name := range ft.exact {
		ft.folded[string(foldKey(name))] = struct{}{}
	}
	fieldTables.Store(t, ft)
	return ft
}

func addFields(m map[string]reflect.Type, t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			if et := deref(f.Type); et != nil && et.Kind() == reflect.Struct {
				addFields(m, et)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := m[name]; !taken { // the shallower field wins
			m[name] = f.Type
		}
	}
}

// deref is t without its pointers (nil for nil).
func deref(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// elemType is the element type of an array or slice type t (through
// pointers), else nil.
func elemType(t reflect.Type) reflect.Type {
	t = deref(t)
	if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
		return t.Elem()
	}
	return nil
}
