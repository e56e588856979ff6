package client

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/reqsig"
)

// userAgent identifies the SDK in server logs.
const userAgent = "fxd-go-client/1.0.0"

// ErrNoKey is returned by Do, and by the typed methods of authenticated
// routes, on a Client made without a key.
var ErrNoKey = errors.New("client: no signing key configured")

// Client signs and sends API requests to one server. It is safe for
// concurrent use; create one per (server, key) and share it.
type Client struct {
	hc       *http.Client
	scheme   string
	host     string
	keyID    string
	key      ed25519.PrivateKey
	timeout  time.Duration
	clock    func() time.Time
	basePath string
	maxBody  int
	retry    RetryPolicy
	sleep    func(context.Context, time.Duration) error
	offsetNs atomic.Int64
	signed   signedSet
}

// New returns a Client for baseURL ("http://127.0.0.1:8080"; scheme and
// host only: the base path is WithBasePath's, and Do's targets carry it)
// signing with key under keyID. keyID and key may both be empty for a
// Client that only makes unsigned calls (DoUnsigned, SyncClock, the
// public routes).
func New(baseURL, keyID string, key ed25519.PrivateKey, opts ...Option) (*Client, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	switch {
	case keyID == "" && key == nil:
	case keyID == "":
		return nil, errors.New("client: key given without a key id")
	case len(key) != ed25519.PrivateKeySize:
		return nil, fmt.Errorf("client: private key is %d bytes, want %d", len(key), ed25519.PrivateKeySize)
	}
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("client: base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("client: base URL %q: scheme must be http or https", baseURL)
	}
	if u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("client: base URL %q: want scheme://host[:port] only", baseURL)
	}
	rt := cfg.transport
	if rt == nil {
		d := &net.Dialer{Timeout: cfg.timeout, KeepAlive: 30 * time.Second}
		rt = &rawFallback{inner: newTransport(cfg, d), dialer: d, tls: cfg.tlsConfig}
	}
	return &Client{
		hc: &http.Client{
			Transport: rt,
			// A redirect would resend the signed request to a target
			// the signature does not cover; the caller sees the 3xx.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		scheme:   u.Scheme,
		host:     u.Host,
		keyID:    keyID,
		key:      key,
		timeout:  cfg.timeout,
		clock:    cfg.clock,
		basePath: cfg.basePath,
		maxBody:  cfg.maxBodySize,
		retry:    cfg.retry,
		sleep:    cfg.sleep,
	}, nil
}

// check validates a configuration.
func (cfg *config) check() error {
	switch {
	case cfg.maxConns < 1:
		return fmt.Errorf("client: max conns %d, want >= 1", cfg.maxConns)
	case cfg.timeout <= 0:
		return fmt.Errorf("client: timeout %v, want > 0", cfg.timeout)
	case cfg.maxBodySize < 1:
		return fmt.Errorf("client: max response body size %d, want >= 1", cfg.maxBodySize)
	case cfg.clock == nil:
		return errors.New("client: nil clock")
	case cfg.sleep == nil:
		return errors.New("client: nil sleep")
	case cfg.basePath != "" && (cfg.basePath[0] != '/' || strings.HasSuffix(cfg.basePath, "/")):
		return fmt.Errorf("client: base path %q must start and not end with '/'", cfg.basePath)
	}
	return cfg.retry.check()
}

// newTransport is the Client's own transport: bounded connections to one
// host, no proxy (a proxy could rewrite the signed target), no
// compression (the body is read as the server sent it).
func newTransport(cfg config, d *net.Dialer) *http.Transport {
	return &http.Transport{
		DialContext:            d.DialContext,
		TLSClientConfig:        cfg.tlsConfig,
		TLSHandshakeTimeout:    cfg.timeout,
		MaxConnsPerHost:        cfg.maxConns,
		MaxIdleConns:           cfg.maxConns,
		MaxIdleConnsPerHost:    cfg.maxConns,
		IdleConnTimeout:        90 * time.Second, // below the server's 2 min, so we close first
		DisableCompression:     true,
		MaxResponseHeaderBytes: 64 << 10,
	}
}

// Do signs and sends one request and returns the complete response, of any
// status. target is the raw path and query including the base path
// ("/public/v1/fx/orders?limit=5"); body is sent raw (JSON, usually) and
// gets Content-Type application/json unless headers say otherwise; headers
// adds request headers (Idempotency-Key, …), sent with their names as
// spelled, but may not set the auth headers, Host or Content-Length.
//
// When the same method, target and body were already signed in the current
// second, the request goes out with `_r=<n>` appended (see the package
// documentation); Response.Target tells. Do never retries.
func (c *Client) Do(ctx context.Context, method, target string, body []byte, headers map[string]string) (*Response, error) {
	if c.key == nil {
		return nil, ErrNoKey
	}
	m, h, err := prepare(method, target, body, headers)
	if err != nil {
		return nil, err
	}
	return c.sendOnce(ctx, m, target, body, h, true, nil)
}

// DoUnsigned sends a request without auth headers, for the
// unauthenticated routes (/health, /time, /openapi.json, /pay/…). It
// does not add `_r`: unsigned requests have no replay check.
func (c *Client) DoUnsigned(ctx context.Context, method, target string, body []byte, headers map[string]string) (*Response, error) {
	m, h, err := prepare(method, target, body, headers)
	if err != nil {
		return nil, err
	}
	return c.sendOnce(ctx, m, target, body, h, false, nil)
}

// CloseIdleConnections closes the keep-alive connections not in use.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// prepare validates a raw request and returns its method as sent and its
// headers (names as the caller spelled them).
func prepare(method, target string, body []byte, headers map[string]string) (string, http.Header, error) {
	m, err := checkMethod(method)
	if err != nil {
		return "", nil, fmt.Errorf("client: %w", err)
	}
	if err := checkTarget(target); err != nil {
		return "", nil, fmt.Errorf("client: %s: %w", m, err)
	}
	h := baseHeader(len(headers), body)
	for k, v := range headers {
		switch ck := http.CanonicalHeaderKey(k); ck {
		case "Svc-Api-Key", "Svc-Timestamp", "Svc-Signature", "Host", "Content-Length":
			return "", nil, fmt.Errorf("client: %s %s: header %q is set by the client", m, target, k)
		case "Content-Type", "User-Agent":
			delete(h, ck) // the caller's wins
		}
		h[k] = []string{v}
	}
	return m, h, nil
}

// baseHeader holds the headers of every request; extra is room for more.
func baseHeader(extra int, body []byte) http.Header {
	h := make(http.Header, extra+5)
	h["User-Agent"] = []string{userAgent}
	if len(body) > 0 {
		h["Content-Type"] = []string{"application/json"}
	}
	return h
}

// sendOnce sends one request, signed afresh when sign is set (a new
// timestamp, and `_r` if this exact request was signed this second), and
// reads the whole answer; with stream set, a 200 answer's body is handed
// over unread instead. It sets the auth headers in h.
func (c *Client) sendOnce(ctx context.Context, method, target string, body []byte, h http.Header, sign bool, stream *io.ReadCloser) (*Response, error) {
	sent, ts := target, int64(0)
	if sign {
		ts, sent = c.signed.claim(c.unixSeconds, method, target, sha256.Sum256(body))
		tsText := strconv.FormatInt(ts, 10)
		// Spelled as SPEC.md spells them (header names are
		// case-insensitive, but what is on the wire stays recognisable).
		h[reqsig.HeaderKey] = []string{c.keyID}
		h[reqsig.HeaderTimestamp] = []string{tsText}
		h[reqsig.HeaderSignature] = []string{reqsig.Sign(c.key, tsText, method, sent, body)}
	}
	ex, err := c.exchange(ctx, method, sent, body, h)
	if err != nil {
		return nil, err
	}
	out := &Response{Status: ex.resp.StatusCode, Header: ex.resp.Header, Target: sent, signedAt: ts}
	if stream != nil && out.Status == http.StatusOK {
		ex.stopTimer()
		*stream = &streamBody{ex}
		return out, nil
	}
	defer ex.release()
	if out.Body, err = readBody(ex.resp.Body, ex.resp.ContentLength, c.maxBody); err != nil {
		return nil, ex.fail(err)
	}
	if ex.resent && sign && out.Status == http.StatusUnauthorized && errorCodeOf(out.Body) == CodeReplayed {
		// The transport resent our signed bytes on a fresh connection
		// after the first one died with the request on it: the server
		// had the first copy, and its answer is lost.
		return nil, ex.fail(errLostAfterSend)
	}
	return out, nil
}
