package httpd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRouterMatchesEveryRoute(t *testing.T) {
	table := (&Server{}).routes()
	r := newRouter(table)
	for i := range table {
		rt := &table[i]
		path := strings.NewReplacer("{id}", "x_1", "{address}", "0xabc").Replace(rt.Path)
		var p params
		got := r.match(rt.Method, []byte(path), &p)
		require.Equal(t, i, got, "%s %s", rt.Method, rt.Path)
	}
}

func TestRouterParamsAndMisses(t *testing.T) {
	table := (&Server{}).routes()
	r := newRouter(table)
	cases := []struct {
		method, path string
		want         string // route path, "" = no match
		param        string
	}{
		{"GET", "/contacts/ct_9", "/contacts/{id}", "ct_9"},
		{"GET", "/transactions/export", "/transactions/export", ""},
		{"POST", "/wallets/challenge", "/wallets/challenge", ""},
		{"PATCH", "/wallets/0xAbC", "/wallets/{address}", "0xAbC"},
		{"POST", "/fx/quotes/q_1/accept", "/fx/quotes/{id}/accept", "q_1"},
		{"GET", "/contacts/", "", ""},
		{"GET", "/contacts//x", "", ""},
		{"GET", "contacts", "", ""},
		{"GET", "", "", ""},
		{"PUT", "/contacts", "", ""},
		{"GET", "/contacts/a/b", "", ""},
		{"GET", "/nope", "", ""},
	}
	for _, c := range cases {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			var p params
			got := r.match(c.method, []byte(c.path), &p)
			if c.want == "" {
				require.Equal(t, -1, got)
				return
			}
			require.GreaterOrEqual(t, got, 0)
			require.Equal(t, c.want, table[got].Path)
			if c.param != "" {
				require.Equal(t, c.param, p.values[0])
			}
		})
	}
}

func TestRouterRefusesDuplicates(t *testing.T) {
	require.Panics(t, func() {
		newRouter([]route{{Method: "GET", Path: "/a/{id}"}, {Method: "GET", Path: "/a/{x}"}})
	})
}

func FuzzRouterMatch(f *testing.F) {
	for _, s := range []string{"/contacts/ct_1", "/fx/quotes/q/accept", "//", "/a/b/c/d", "/contacts/\x00", ""} {
		f.Add("GET", s)
	}
	table := (&Server{}).routes()
	r := newRouter(table)
	f.Fuzz(func(t *testing.T, method, path string) {
		var p params
		if i := r.match(method, []byte(path), &p); i >= 0 {
			require.Equal(t, method, table[i].Method)
			require.LessOrEqual(t, p.n, maxParams)
		}
	})
}

func BenchmarkRouterMatch(b *testing.B) {
	r := newRouter((&Server{}).routes())
	path := []byte("/contacts/ct_01M80AEBNHNGGG59ZW3K0W7BQN")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var p params
		if r.match("PATCH", path, &p) < 0 {
			b.Fatal("no match")
		}
	}
}
