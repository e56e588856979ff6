package reqsig

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"github.com/fxd-labs/fxd/internal/repo"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// authVectors mirrors /work/shared/vectors/auth.json: signatures made with
// node:crypto, i.e. by an implementation we did not write.
type authVectors struct {
	PrivateKeyPEM string       `json:"private_key_pkcs8_pem"`
	PublicKeyHex  string       `json:"public_key_hex"`
	Cases         []authVector `json:"cases"`
}

type authVector struct {
	Method    string `json:"method"`
	Target    string `json:"target"`
	Body      string `json:"body"`
	Timestamp string `json:"timestamp"`
	Canonical string `json:"canonical"`
	Signature string `json:"signature_base64"`
}

// loadAuthVectors reads <repo root>/../shared/vectors/auth.json. A missing
// file is a failure, not a skip: without it nothing checks us against a
// third-party implementation.
func loadAuthVectors(t testing.TB) (authVectors, ed25519.PrivateKey) {
	t.Helper()
	path := filepath.Join(repo.MustRoot(t), "..", "shared", "vectors", "auth.json")
	raw, err := os.ReadFile(path)
	require.NoError(t, err, "reference vectors are required")
	var v authVectors
	require.NoError(t, json.Unmarshal(raw, &v))
	require.NotEmpty(t, v.Cases)
	priv, err := ParsePrivateKeyPEM([]byte(v.PrivateKeyPEM))
	require.NoError(t, err)
	return v, priv
}

func TestVectorsPublicKey(t *testing.T) {
	v, priv := loadAuthVectors(t)
	pub := priv.Public().(ed25519.PublicKey)
	require.Equal(t, v.PublicKeyHex, hex.EncodeToString(pub))
}

func TestVectors(t *testing.T) {
	v, priv := loadAuthVectors(t)
	pub := priv.Public().(ed25519.PublicKey)
	for _, tc := range v.Cases {
		t.Run(tc.Method+" "+tc.Target, func(t *testing.T) {
			ts, method, target, body := []byte(tc.Timestamp), []byte(tc.Method), []byte(tc.Target), []byte(tc.Body)

			require.Equal(t, tc.Canonical, string(AppendCanonical(nil, ts, method, target, body)))
			require.Equal(t, tc.Signature, Sign(priv, tc.Timestamp, tc.Method, tc.Target, body))
			require.True(t, Verify(pub, ts, method, target, body, []byte(tc.Signature)))

			tampered := []struct {
				name                     string
				ts, method, target, body []byte
			}{
				{"body", ts, method, target, append([]byte(tc.Body), ' ')},
				{"target", ts, method, []byte(tc.Target + "?x=1"), body},
				{"target case", ts, method, []byte("/PUBLIC" + tc.Target[len("/public"):]), body},
				{"method", ts, []byte(otherMethod(tc.Method)), target, body},
				{"timestamp", []byte("1795000001"), method, target, body},
				{"timestamp spelling", []byte("01795000000"), method, target, body},
			}
			for _, m := range tampered {
				require.False(t, Verify(pub, m.ts, m.method, m.target, m.body, []byte(tc.Signature)), m.name)
			}
		})
	}
}

func otherMethod(m string) string {
	if m == "GET" {
		return "POST"
	}
	return "GET"
}
