package httpd

import (
	"bytes"
	"testing"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/stretchr/testify/require"
)

// flatAll has one field of every kind the fast path fills.
type flatAll struct {
	S string  `json:"s"`
	P *string `json:"p"`
	B bool    `json:"b"`
	Q *bool   `json:"q"`
	X string  `json:"-"`
}

// notFlat has a field the fast path does not fill: always the slow path.
type notFlat struct {
	S string `json:"s"`
	N int    `json:"n"`
}

func ptr[T any](v T) *T { return &v }

func TestDecodeFlat(t *testing.T) {
	cases := []struct {
		name string
		body string
		fast bool // the fast path takes it
		want flatAll
	}{
		{"all kinds", `{"s":"a","p":"b","b":true,"q":false}`, true, flatAll{S: "a", P: ptr("b"), B: true, Q: ptr(false)}},
		{"white space", " \r\n\t{ \"s\" : \"a\" ,\n\"b\":false } \n", true, flatAll{S: "a"}},
		{"empty object", `{}`, true, flatAll{}},
		{"nulls", `{"s":null,"p":null,"b":null,"q":null}`, true, flatAll{}},
		{"utf-8", "{\"s\":\"Zoë 株式会社 \u2028\"}", true, flatAll{S: "Zoë 株式会社 \u2028"}},
		{"escape", `{"s":"a\"b"}`, false, flatAll{S: `a"b`}},
		{"unicode escape", `{"s":"\u00e9"}`, false, flatAll{S: "é"}},
		{"case-folded key", `{"S":"a"}`, false, flatAll{S: "a"}},
		{"repeated key", `{"s":"a","s":"b"}`, false, flatAll{S: "b"}},
		{"invalid utf-8", "{\"s\":\"\xff\"}", false, flatAll{S: "\ufffd"}},
		{"ignored field named", `{"X":"a"}`, false, flatAll{}},
		{"unknown key", `{"t":"a"}`, false, flatAll{}},
		{"number for string", `{"s":1}`, false, flatAll{}},
		{"string for bool", `{"b":"true"}`, false, flatAll{}},
		{"trailing data", `{"s":"a"} x`, false, flatAll{}},
		{"truncated", `{"s":"a"`, false, flatAll{}},
		{"literal run-on", `{"b":truex}`, false, flatAll{}},
		{"control character", "{\"s\":\"a\nb\"}", false, flatAll{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got flatAll
			require.Equal(t, c.fast, decodeFlat([]byte(c.body), &got))
			if c.fast {
				require.Equal(t, c.want, got)
			}
			requireFlatMatchesJSON[flatAll](t, []byte(c.body))

			// decodeStrict gives encoding/json's answer either way.
			var strict, slow flatAll
			err := decodeStrict([]byte(c.body), &strict)
			_, slowErr := decodeSlow([]byte(c.body), &slow)
			if slowErr == nil && err == nil {
				require.Equal(t, c.want, strict)
				require.Equal(t, slow, strict)
			}
		})
	}
	var nf notFlat
	require.False(t, decodeFlat([]byte(`{"s":"a"}`), &nf), "a type with an int field is never fast")
	require.Nil(t, decodeStrict([]byte(`{"s":"a","n":2}`), &nf))
	require.Equal(t, notFlat{S: "a", N: 2}, nf)
}

// TestRequestBodiesAreFlat: the bodies the API decodes on its hot paths
// are types the fast path fills (or this change bought nothing).
func TestRequestBodiesAreFlat(t *testing.T) {
	for _, v := range []any{&domain.CreateContact{}, &domain.UpdateContact{}, &domain.CreateChallenge{},
		&domain.RegisterWallet{}, &domain.UpdateWallet{}, &fx.QuoteRequest{}, &fx.AcceptRequest{}, &fx.SubmitRequest{}} {
		require.True(t, decodeFlat([]byte(`{}`), v), "%T", v)
	}
	var c domain.CreateContact
	require.True(t, decodeFlat([]byte(`{"name":"n","address":"0xab","currency":"USDC","memo":null}`), &c))
	require.Equal(t, domain.CreateContact{Name: "n", Address: "0xab", Currency: ptr("USDC")}, c)
}

// requireFlatMatchesJSON: whatever the fast path accepts, encoding/json
// accepts too (with nothing but white space after the object) and decodes
// to the same value.
func requireFlatMatchesJSON[T any](t *testing.T, body []byte) {
	t.Helper()
	var fast T
	if !decodeFlat(body, &fast) {
		return
	}
	var slow T
	end, err := decodeSlow(body, &slow)
	require.NoError(t, err, "the fast path took %q, which encoding/json refuses", body)
	require.Empty(t, bytes.TrimSpace(body[end:]), "the fast path took %q, which has data after the object", body)
	require.Equal(t, slow, fast, "body %q", body)
}

// FuzzDecodeFlatMatchesJSON is the fast path's differential test against
// encoding/json, on a type with every kind and on the contact body. Its
// seeds are in testdata/fuzz/FuzzDecodeFlatMatchesJSON.
func FuzzDecodeFlatMatchesJSON(f *testing.F) {
	f.Fuzz(func(t *testing.T, body []byte) {
		requireFlatMatchesJSON[flatAll](t, body)
		requireFlatMatchesJSON[domain.CreateContact](t, body)
	})
}

// BenchmarkDecodeStrict is a contact body through decodeStrict (the fast
// path) and through encoding/json alone (the slow path it replaces).
func BenchmarkDecodeStrict(b *testing.B) {
	body := []byte(`{"name":"bench contact 12345","address":"0x0000000000000000000000000000000000003039","currency":"USDC"}`)
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c domain.CreateContact
			if err := decodeStrict(body, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var c domain.CreateContact
			if _, err := decodeSlow(body, &c); err != nil {
				b.Fatal(err)
			}
		}
	})
}
