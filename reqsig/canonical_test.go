package reqsig

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

func TestAppendCanonical(t *testing.T) {
	tests := []struct {
		name                     string
		ts, method, target, body string
		want                     string
	}{
		{"get no body", "1700000000", "GET", "/public/v1/account", "", "1700000000\nGET\n/public/v1/account\n" + emptySHA256},
		{"method upper-cased", "1", "get", "/x", "", "1\nGET\n/x\n" + emptySHA256},
		{"query kept raw", "1", "GET", "/a?b=%20&c=d%2f", "", "1\nGET\n/a?b=%20&c=d%2f\n" + emptySHA256},
		{"body hashed", "1", "POST", "/a", "abc", "1\nPOST\n/a\nba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := AppendCanonical(nil, []byte(tc.ts), []byte(tc.method), []byte(tc.target), []byte(tc.body))
			require.Equal(t, tc.want, string(got))
			require.Len(t, got, CanonicalLen([]byte(tc.ts), []byte(tc.method), []byte(tc.target)))
		})
	}
}

func TestAppendCanonicalAppends(t *testing.T) {
	got := AppendCanonical([]byte("prefix:"), []byte("1"), []byte("GET"), []byte("/"), nil)
	require.Equal(t, "prefix:1\nGET\n/\n"+emptySHA256, string(got))
}

func TestAppendCanonicalZeroAlloc(t *testing.T) {
	ts, method, target, body := []byte("1700000000"), []byte("POST"), []byte("/public/v1/fx/quotes"), []byte(`{"a":1}`)
	buf := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		buf = AppendCanonical(buf[:0], ts, method, target, body)
	})
	require.Zero(t, allocs)
}

func TestVerifyZeroAlloc(t *testing.T) {
	priv, pub := testKey(t)
	ts, method, body := []byte("1700000000"), []byte("POST"), []byte(`{"a":1}`)
	for _, target := range []string{"/public/v1/fx/quotes", "/public/v1/x?" + strings.Repeat("a", 2000)} {
		sig := []byte(Sign(priv, string(ts), string(method), target, body))
		allocs := testing.AllocsPerRun(100, func() {
			if !Verify(pub, ts, method, []byte(target), body, sig) {
				panic("verify failed")
			}
		})
		if len(target) > 400 && raceEnabled {
			continue // the pooled path; see race_test.go
		}
		require.Zero(t, allocs, "target length %d", len(target))
	}
}
