package sign

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNewSecret(t *testing.T) {
	a, err := NewSecret()
	require.NoError(t, err)
	b, err := NewSecret()
	require.NoError(t, err)
	require.NotEqual(t, a, b)
	require.True(t, strings.HasPrefix(a, SecretPrefix))
	key, err := ParseSecret(a)
	require.NoError(t, err)
	require.Len(t, key, 32)
}

func TestParseSecret(t *testing.T) {
	enc := base64.StdEncoding.EncodeToString
	key := func(n int) []byte { return []byte(strings.Repeat("k", n)) }
	good := enc(key(32))
	tests := []struct {
		name   string
		secret string
		want   []byte // nil: refused
	}{
		{"32 bytes", "whsec_" + good, key(32)},
		{"24 bytes", "whsec_" + enc(key(24)), key(24)},
		{"64 bytes", "whsec_" + enc(key(64)), key(64)},
		{"23 bytes", "whsec_" + enc(key(23)), nil},
		{"65 bytes", "whsec_" + enc(key(65)), nil},
		{"no prefix", good, nil},
		{"other prefix", "whsec-" + good, nil},
		{"upper-case prefix", "WHSEC_" + good, nil},
		{"empty", "", nil},
		{"prefix only", "whsec_", nil},
		{"unpadded", "whsec_" + strings.TrimRight(enc(key(31)), "="), nil},
		{"url alphabet", "whsec_" + base64.URLEncoding.EncodeToString([]byte(strings.Repeat("\xfb\xff", 16))), nil},
		{"line break", "whsec_" + good[:20] + "\n" + good[20:], nil},
		{"trailing CRLF", "whsec_" + good + "\r\n", nil},
		{"space", "whsec_ " + good, nil},
		{"non-zero padding bits", "whsec_" + good[:len(good)-2] + "B=", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseSecret(tc.secret)
			if tc.want == nil {
				require.Error(t, err)
				require.True(t, strings.HasPrefix(err.Error(), "sign: "), err.Error())
				if len(tc.secret) > len(SecretPrefix)+8 {
					require.NotContains(t, err.Error(), tc.secret[len(SecretPrefix):], "an error must not quote the secret")
				}
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}
