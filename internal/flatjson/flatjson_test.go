package flatjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

// all has one field of every kind the fast paths handle.
type all struct {
	S string  `json:"s"`
	P *string `json:"p"`
	B bool    `json:"b"`
	Q *bool   `json:"q"`
	X string  `json:"-"`
}

// contact is the busiest body (POST /contacts).
type contact = domain.CreateContact

// withInt has a field the fast paths do not handle.
type withInt struct {
	S string `json:"s"`
	N int    `json:"n"`
}

// withOption has a tag option (the fast path leaves options alone).
type withOption struct {
	S string `json:"s,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// decodeJSON is the reference: a json.Decoder refusing unknown fields,
// with nothing but white space after the object.
func decodeJSON(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimSpace(body[dec.InputOffset():])) != 0 {
		return errTrailing
	}
	return nil
}

var errTrailing = errors.New("data after the object")

func TestDecode(t *testing.T) {
	cases := []struct {
		name string
		body string
		fast bool // the fast path takes it
		want all
	}{
		{"all kinds", `{"s":"a","p":"b","b":true,"q":false}`, true, all{S: "a", P: ptr("b"), B: true, Q: ptr(false)}},
		{"white space", " \r\n\t{ \"s\" : \"a\" ,\n\"b\":false } \n", true, all{S: "a"}},
		{"empty object", `{}`, true, all{}},
		{"nulls", `{"s":null,"p":null,"b":null,"q":null}`, true, all{}},
		{"utf-8", "{\"s\":\"Zoë 株式会社 \u2028\"}", true, all{S: "Zoë 株式会社 \u2028"}},
		{"escape", `{"s":"a\"b"}`, false, all{S: `a"b`}},
		{"unicode escape", `{"s":"\u00e9"}`, false, all{S: "é"}},
		{"case-folded key", `{"S":"a"}`, false, all{S: "a"}},
		{"repeated key", `{"s":"a","s":"b"}`, false, all{S: "b"}},
		{"invalid utf-8", "{\"s\":\"\xff\"}", false, all{S: "\ufffd"}},
		{"ignored field named", `{"X":"a"}`, false, all{}},
		{"unknown key", `{"t":"a"}`, false, all{}},
		{"number for string", `{"s":1}`, false, all{}},
		{"string for bool", `{"b":"true"}`, false, all{}},
		{"trailing data", `{"s":"a"} x`, false, all{}},
		{"truncated", `{"s":"a"`, false, all{}},
		{"literal run-on", `{"b":truex}`, false, all{}},
		{"control character", "{\"s\":\"a\nb\"}", false, all{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got all
			require.Equal(t, c.fast, Decode([]byte(c.body), &got))
			if c.fast {
				require.Equal(t, c.want, got)
			}
			requireDecodeMatchesJSON[all](t, []byte(c.body))
		})
	}
	before := all{S: "kept", P: ptr("kept"), B: true}
	got := before
	require.False(t, Decode([]byte(`{"s":"new","p":null,"b":false,"t":1}`), &got), "unknown key after three good ones")
	require.Equal(t, before, got, "a refusal stores nothing")

	var wi withInt
	require.False(t, Decode([]byte(`{"s":"a"}`), &wi), "an int field: never fast")
	var wo withOption
	require.False(t, Decode([]byte(`{"s":"a"}`), &wo), "a tag option: never fast")
	require.False(t, Decode([]byte(`{}`), all{}), "not a pointer")
	var c contact
	require.True(t, Decode([]byte(`{"name":"n","address":"0xab","currency":"USDC","memo":null}`), &c))
	require.Equal(t, contact{Name: "n", Address: "0xab", Currency: ptr("USDC")}, c)
}

// requireDecodeMatchesJSON: whatever the fast path accepts, encoding/json
// accepts too and decodes to the same value.
func requireDecodeMatchesJSON[T any](t *testing.T, body []byte) {
	t.Helper()
	var fast T
	if !Decode(body, &fast) {
		return
	}
	var ref T
	require.NoError(t, decodeJSON(body, &ref), "the fast path took %q, which encoding/json refuses", body)
	require.Equal(t, ref, fast, "body %q", body)
}

// FuzzDecodeMatchesJSON is Decode's differential test against
// encoding/json, on a type with every kind and on the contact body. The
// seeds are in testdata/fuzz/FuzzDecodeMatchesJSON.
func FuzzDecodeMatchesJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		requireDecodeMatchesJSON[all](t, body)
		requireDecodeMatchesJSON[contact](t, body)
	})
}

// BenchmarkDecode: a contact body through the fast path and through
// encoding/json.
func BenchmarkDecode(b *testing.B) {
	body := []byte(`{"name":"bench contact 12345","address":"0x0000000000000000000000000000000000003039","currency":"USDC"}`)
	b.Run("flatjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c contact
			if !Decode(body, &c) {
				b.Fatal("slow path")
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c contact
			if err := decodeJSON(body, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
