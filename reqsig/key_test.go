package reqsig

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPrivateKeyPEMRoundTrip(t *testing.T) {
	priv, _ := testKey(t)
	out, err := MarshalPrivateKeyPEM(priv)
	require.NoError(t, err)
	back, err := ParsePrivateKeyPEM(out)
	require.NoError(t, err)
	require.Equal(t, priv, back)
}

func TestParsePrivateKeyPEMRejects(t *testing.T) {
	priv, _ := testKey(t)
	good, err := MarshalPrivateKeyPEM(priv)
	require.NoError(t, err)
	block, _ := pem.Decode(good)

	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ecDER, err := x509.MarshalPKCS8PrivateKey(ec)
	require.NoError(t, err)

	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"not pem", []byte("hello")},
		{"wrong type", pem.EncodeToMemory(&pem.Block{Type: "ED25519 PRIVATE KEY", Bytes: block.Bytes})},
		{"headers", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED"}, Bytes: block.Bytes})},
		{"two blocks", append(append([]byte(nil), good...), good...)},
		{"garbage der", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}})},
		{"ecdsa key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: ecDER})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePrivateKeyPEM(tc.in)
			require.Error(t, err)
		})
	}
}

func TestMarshalPrivateKeyPEMRejectsShortKey(t *testing.T) {
	_, err := MarshalPrivateKeyPEM(make([]byte, 10))
	require.Error(t, err)
}
