package client

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

// TestHTTPS runs the signed round trip over TLS to a loopback server with
// a certificate of its own CA.
func TestHTTPS(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "fxd test"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IP(netip.MustParseAddr("127.0.0.1").AsSlice())},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})

	_, pub := testKey()
	srv := &authServer{t: t, pub: pub, seen: map[[64]byte]bool{}, serverUnix: func() int64 { return 1 }}
	fs := &fasthttp.Server{Handler: srv.handle, DisableHeaderNamesNormalizing: true}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go fs.ServeTLSEmbed(ln, certPEM, keyPEM) //nolint:errcheck // ends with the test
	t.Cleanup(func() { _ = fs.Shutdown() })

	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(certPEM))
	c := newTestClient(t, "https://"+ln.Addr().String(), newClock(1_795_000_000),
		WithTLSConfig(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	resp, err := c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, resp.Status, string(resp.Body))
	require.True(t, srv.received()[0].Verified)
}
