package reqsig

import (
	"crypto/ed25519"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// testKey derives a fixed key so failures reproduce.
func testKey(t testing.TB) (ed25519.PrivateKey, ed25519.PublicKey) {
	t.Helper()
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	return priv, priv.Public().(ed25519.PublicKey)
}

func TestSignVerifyRoundTrip(t *testing.T) {
	priv, pub := testKey(t)
	long := "/public/v1/transactions?" + strings.Repeat("q=1&", 300)
	for _, target := range []string{"/", "/public/v1/account", long} {
		sig := Sign(priv, "1700000000", "POST", target, []byte("{}"))
		require.Len(t, sig, SignatureB64Len)
		require.True(t, Verify(pub, []byte("1700000000"), []byte("POST"), []byte(target), []byte("{}"), []byte(sig)))
		// The method is upper-cased on both sides.
		require.True(t, Verify(pub, []byte("1700000000"), []byte("post"), []byte(target), []byte("{}"), []byte(sig)))
	}
}

func TestVerifyRejects(t *testing.T) {
	priv, pub := testKey(t)
	ts, method, target, body := []byte("1700000000"), []byte("GET"), []byte("/public/v1/account"), []byte(nil)
	good := Sign(priv, string(ts), string(method), string(target), body)
	raw, err := base64.StdEncoding.DecodeString(good)
	require.NoError(t, err)
	flipped := append([]byte(nil), raw...)
	flipped[10] ^= 1

	// A signature whose last character carries non-zero padding bits: it
	// decodes (leniently) to the same bytes, so it must be refused.
	last := good[len(good)-3]
	idx := strings.IndexByte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", last)
	require.GreaterOrEqual(t, idx, 0)
	nonCanonical := good[:len(good)-3] + string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[idx^1]) + "=="

	otherPub, _, err := ed25519.GenerateKey(nil)
	require.NoError(t, err)

	tests := []struct {
		name string
		pub  ed25519.PublicKey
		sig  string
	}{
		{"empty", pub, ""},
		{"bit flipped", pub, base64.StdEncoding.EncodeToString(flipped)},
		{"unpadded", pub, strings.TrimRight(good, "=")},
		{"url alphabet", pub, base64.URLEncoding.EncodeToString(raw[:63]) + "AA=="},
		{"non-zero padding bits", pub, nonCanonical},
		{"embedded newline", pub, good[:40] + "\n" + good[40:87]},
		{"trailing newline", pub, good + "\n"},
		{"leading space", pub, " " + good},
		{"too short", pub, base64.StdEncoding.EncodeToString(raw[:63])},
		{"too long", pub, base64.StdEncoding.EncodeToString(append(raw, 0))},
		{"other key", otherPub, good},
		{"short public key", pub[:31], good},
		{"nil public key", nil, good},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.False(t, Verify(tc.pub, ts, method, target, body, []byte(tc.sig)))
		})
	}
	require.True(t, Verify(pub, ts, method, target, body, []byte(good)), "control")
}

func TestDecodeSignature(t *testing.T) {
	var raw [64]byte
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	enc := base64.StdEncoding.EncodeToString(raw[:])
	var got [64]byte
	require.True(t, DecodeSignature(&got, []byte(enc)))
	require.Equal(t, raw, got)
	require.False(t, DecodeSignature(&got, []byte(enc[:87]+"B")))
}

func BenchmarkVerify(b *testing.B) {
	priv, pub := testKey(b)
	ts, method, target, body := []byte("1700000000"), []byte("POST"), []byte("/public/v1/fx/quotes"), []byte(`{"from_currency":"USDC","to_currency":"EURC","amount":"100"}`)
	sig := []byte(Sign(priv, string(ts), string(method), string(target), body))
	b.ReportAllocs()
	for b.Loop() {
		if !Verify(pub, ts, method, target, body, sig) {
			b.Fatal("verify failed")
		}
	}
}

func BenchmarkSign(b *testing.B) {
	priv, _ := testKey(b)
	body := []byte(`{"from_currency":"USDC","to_currency":"EURC","amount":"100"}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = Sign(priv, "1700000000", "POST", "/public/v1/fx/quotes", body)
	}
}
