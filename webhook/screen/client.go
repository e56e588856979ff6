package screen

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"time"
)

// Client returns the HTTP client of deliveries to rawURL under p: every
// new connection screens the URL again (a name is resolved again, so DNS
// rebinding is caught) and connects only to the addresses screened, with
// no second resolution (Dialer); TLS is always verified, against roots
// (nil: the system's); no proxy; no redirects (the 3xx answer is returned
// as it is); timeout bounds the whole exchange; at most maxConns
// connections, kept for reuse.
func Client(rawURL string, p Policy, r Resolver, roots *x509.CertPool, timeout time.Duration, maxConns int) *http.Client {
	return &http.Client{
		Transport:     transport(rawURL, p, r, roots, timeout, maxConns, nil),
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// transport is Client's transport; dial replaces the network in tests.
func transport(rawURL string, p Policy, r Resolver, roots *x509.CertPool, timeout time.Duration, maxConns int, dial dialFunc) *http.Transport {
	return &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			t, err := Screen(ctx, rawURL, p, r)
			if err != nil {
				return nil, err
			}
			if dial != nil {
				return dialTarget(p, t, dial)(ctx, network, addr)
			}
			return Dialer(p, t)(ctx, network, addr)
		},
		TLSClientConfig:       &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   maxConns,
		MaxConnsPerHost:       maxConns,
		IdleConnTimeout:       90 * time.Second,
		DisableCompression:    true,
	}
}
