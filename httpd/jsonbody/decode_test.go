package jsonbody

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		name, body, msg string
	}{
		{"ok", `{"name":"a","address":"0x1"}`, ""},
		{"ok with spaces", " \n{\"name\":\"a\"}\n ", ""},
		{"ok nested null", `{"name":"a","memo":null}`, ""},
		{"empty", ``, "request body must be a JSON object"},
		{"array", `[1]`, "request body must be a JSON object"},
		{"unknown field", `{"name":"a","nick":"b"}`, `unknown field "nick"`},
		{"wrong type", `{"name":5}`, `field "name" must be a string`},
		{"trailing data", `{"name":"a"} {}`, "request body has data after the JSON object"},
		{"truncated", `{"name":"a"`, "malformed JSON: unexpected end of body"},
		{"syntax", `{"name":}`, "malformed JSON at byte 9"},
		{"invalid UTF-8", "{\"name\":\"\xff\"}", "request body is not valid UTF-8"},
		{"repeated key", `{"name":"a","name":"b"}`, `request body repeats the key "name"`},
		{"repeated key in another case", `{"name":"a","NAME":"b"}`, `request body repeats the key "NAME"`},
		{"a field's name in another case", `{"NAME":"a"}`, `unknown field "NAME"`},
		{"in another case after a good key", `{"name":"a","Address":"0x1"}`, `unknown field "Address"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v domain.CreateContact
			err := Decode([]byte(c.body), &v)
			if c.msg == "" {
				require.Nil(t, err)
				require.Equal(t, "a", v.Name)
				return
			}
			require.NotNil(t, err)
			require.Equal(t, 400, err.Status)
			require.Equal(t, domain.CodeInvalidRequest, err.Code)
			require.Equal(t, c.msg, err.Message)
		})
	}
}

// FuzzDecodeContact feeds arbitrary bodies through the strict decoder and
// the domain's validation: never a panic, and every refusal is a 400 with a
// contract code.
func FuzzDecodeContact(f *testing.F) {
	for _, s := range []string{
		`{"name":"Bob","address":"0x00000000000000000000000000000000000000aa","currency":"USDC","memo":"m"}`,
		`{"name":"Zoë Ümlaut","address":"0x00000000000000000000000000000000000000AA"}`,
		`{"name":"","address":""}`, `{`, `[]`, `{"name":null}`, `{"currency":"usdc"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var c domain.CreateContact
		if err := Decode(body, &c); err != nil {
			require.Equal(t, 400, err.Status)
			return
		}
		st := domain.NewAccountState()
		st.Account = &domain.Account{ID: "acct_1"}
		_, reply, derr := st.Decide(c, domain.Env{NewID: func(p string) string { return p + "1" }})
		if derr != nil {
			require.Equal(t, 400, derr.Status)
			require.Contains(t, []string{domain.CodeInvalidRequest, domain.CodeUnsupportedAsset}, derr.Code)
			return
		}
		require.Equal(t, 201, reply.Status)
	})
}

// TestDecodeNestedKeyCase: a key names a field exactly at every depth (a
// struct in a struct, structs in a slice, through pointers and an
// embedded struct); a map takes any key.
func TestDecodeNestedKeyCase(t *testing.T) {
	type leaf struct {
		Value string `json:"value"`
	}
	type Embedded struct {
		Extra string `json:"extra"`
	}
	type body struct {
		Embedded
		One   *leaf             `json:"one"`
		Many  []leaf            `json:"many"`
		Tags  map[string]string `json:"tags"`
		Plain string
		Skip  string `json:"-"`
	}
	for _, c := range []struct{ body, msg string }{
		{`{"one":{"value":"x"},"many":[{"value":"y"}],"tags":{"ANY":"z"},"extra":"e","Plain":"p"}`, ""},
		{`{"one":{"Value":"x"}}`, `unknown field "Value"`},
		{`{"many":[{"value":"y"},{"VALUE":"y"}]}`, `unknown field "VALUE"`},
		{`{"EXTRA":"e"}`, `unknown field "EXTRA"`},
		{`{"plain":"p"}`, `unknown field "plain"`},
		{`{"Skip":"s"}`, `unknown field "Skip"`},
	} {
		var v body
		err := Decode([]byte(c.body), &v)
		if c.msg == "" {
			require.Nil(t, err, c.body)
			require.Equal(t, "x", v.One.Value)
			require.Equal(t, "z", v.Tags["ANY"])
			continue
		}
		require.NotNil(t, err, c.body)
		require.Equal(t, c.msg, err.Message, c.body)
	}
}
