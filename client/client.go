package client

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/reqsig"
)

// userAgent identifies the SDK in server logs.
const userAgent = "fxd-go-client/1.0.0"

// ErrNoKey is returned by Do on a Client made without a key.
var ErrNoKey = errors.New("client: no signing key configured")

// Client signs and sends API requests to one server. It is safe for
// concurrent use; create one per (server, key) and share it.
type Client struct {
	hc       *fasthttp.HostClient
	host     string
	keyID    string
	key      ed25519.PrivateKey
	timeout  time.Duration
	clock    func() time.Time
	basePath string
	offsetNs atomic.Int64
	signed   signedSet
}

// New returns a Client for baseURL ("http://127.0.0.1:8080"; scheme and
// host only, the base path belongs in each target) signing with key under
// keyID. keyID and key may both be empty for a Client that only makes
// unsigned calls (DoUnsigned, SyncClock).
func New(baseURL, keyID string, key ed25519.PrivateKey, opts ...Option) (*Client, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.maxConns < 1 {
		return nil, fmt.Errorf("client: max conns %d, want >= 1", cfg.maxConns)
	}
	if cfg.timeout <= 0 {
		return nil, fmt.Errorf("client: timeout %v, want > 0", cfg.timeout)
	}
	if cfg.maxBodySize < 1 {
		return nil, fmt.Errorf("client: max response body size %d, want >= 1", cfg.maxBodySize)
	}
	if cfg.clock == nil {
		return nil, errors.New("client: nil clock")
	}
	if cfg.basePath != "" && (cfg.basePath[0] != '/' || strings.HasSuffix(cfg.basePath, "/")) {
		return nil, fmt.Errorf("client: base path %q must start and not end with '/'", cfg.basePath)
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
	isTLS := u.Scheme == "https"
	addr := u.Host
	if u.Port() == "" {
		port := "80"
		if isTLS {
			port = "443"
		}
		addr = net.JoinHostPort(u.Hostname(), port)
	}
	c := &Client{
		host:     u.Host,
		keyID:    keyID,
		key:      key,
		timeout:  cfg.timeout,
		clock:    cfg.clock,
		basePath: cfg.basePath,
		hc: &fasthttp.HostClient{
			Addr:                addr,
			Name:                userAgent,
			IsTLS:               isTLS,
			TLSConfig:           cfg.tlsConfig,
			MaxConns:            cfg.maxConns,
			MaxConnWaitTimeout:  cfg.timeout,
			MaxResponseBodySize: cfg.maxBodySize,
			// The signature covers the target byte for byte.
			DisablePathNormalizing: true,
			// Never resend: a resent signed request is a replay.
			MaxIdemponentCallAttempts: 1,
			RetryIfErr:                func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		},
	}
	return c, nil
}

// Do signs and sends one request and returns the complete response, of any
// status. target is the raw path and query including the base path
// ("/public/v1/fx/orders?limit=5"); body is sent raw (JSON, usually) and
// gets Content-Type application/json unless headers say otherwise; headers
// adds request headers (Idempotency-Key, …) but may not set the auth
// headers, Host or Content-Length.
//
// When the same method, target and body were already signed in the current
// second, the request goes out with `_r=<n>` appended (see the package
// documentation); Response.Target tells. Do never retries.
func (c *Client) Do(ctx context.Context, method, target string, body []byte, headers map[string]string) (*Response, error) {
	if c.key == nil {
		return nil, ErrNoKey
	}
	req, err := c.newRequest(method, target, body, headers)
	if err != nil {
		return nil, err
	}
	method = string(req.Header.Method())
	ts, sent := c.signed.claim(c.unixSeconds, method, target, sha256.Sum256(body))
	if err := setTarget(req, c.host, sent, c.hc.IsTLS); err != nil {
		fasthttp.ReleaseRequest(req)
		return nil, fmt.Errorf("client: %s %s: %w", method, target, err)
	}
	tsText := strconv.FormatInt(ts, 10)
	req.Header.Set(reqsig.HeaderKey, c.keyID)
	req.Header.Set(reqsig.HeaderTimestamp, tsText)
	req.Header.Set(reqsig.HeaderSignature, reqsig.Sign(c.key, tsText, method, sent, body))
	return c.send(ctx, req, sent)
}

// DoUnsigned sends a request without auth headers, for the
// unauthenticated routes (/health, /time, /openapi.json, /pay/…). It
// does not add `_r`: unsigned requests have no replay check.
func (c *Client) DoUnsigned(ctx context.Context, method, target string, body []byte, headers map[string]string) (*Response, error) {
	req, err := c.newRequest(method, target, body, headers)
	if err != nil {
		return nil, err
	}
	if err := setTarget(req, c.host, target, c.hc.IsTLS); err != nil {
		fasthttp.ReleaseRequest(req)
		return nil, fmt.Errorf("client: %s %s: %w", req.Header.Method(), target, err)
	}
	return c.send(ctx, req, target)
}

// CloseIdleConnections closes the keep-alive connections not in use.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// newRequest validates the inputs and builds a pooled request without its
// target; the caller owns (and releases, or passes to send) it.
func (c *Client) newRequest(method, target string, body []byte, headers map[string]string) (*fasthttp.Request, error) {
	m, err := checkMethod(method)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	if err := checkTarget(target); err != nil {
		return nil, fmt.Errorf("client: %s: %w", m, err)
	}
	for k := range headers {
		switch http.CanonicalHeaderKey(k) {
		case "Svc-Api-Key", "Svc-Timestamp", "Svc-Signature", "Host", "Content-Length":
			return nil, fmt.Errorf("client: %s %s: header %q is set by the client", m, target, k)
		}
	}
	req := fasthttp.AcquireRequest()
	// Send header names as spelled (SVC-API-KEY, not Svc-Api-Key).
	req.Header.DisableNormalizing()
	req.Header.SetMethod(m)
	if len(body) > 0 {
		req.Header.SetContentType("application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.SetBodyRaw(body)
	return req, nil
}

// setTarget sets the request line and checks that fasthttp will send the
// target exactly as given: it parses and re-renders the URI on the way out
// (dropping an empty '?', for one), and a target that does not survive
// that unchanged would be signed over bytes the server never sees.
func setTarget(req *fasthttp.Request, host, target string, isTLS bool) error {
	req.Header.SetHost(host)
	req.SetRequestURI(target)
	u := req.URI()
	u.DisablePathNormalizing = true
	if isTLS {
		// HostClient refuses a request whose scheme differs from its own.
		u.SetScheme("https")
	}
	if got := u.RequestURI(); string(got) != target {
		return fmt.Errorf("target would be sent as %q, not as signed", got)
	}
	return nil
}

// send performs req (which it releases) and copies out the response.
func (c *Client) send(ctx context.Context, req *fasthttp.Request, target string) (*Response, error) {
	method := string(req.Header.Method())
	resp := fasthttp.AcquireResponse()
	deadline := time.Now().Add(c.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	var err error
	if ctx.Done() == nil {
		err = c.hc.DoDeadline(req, resp, deadline)
	} else if err = ctx.Err(); err == nil {
		// fasthttp cannot be interrupted: run it aside and, if the context
		// ends first, let it finish and release the pooled objects.
		done := make(chan error, 1)
		go func() { done <- c.hc.DoDeadline(req, resp, deadline) }()
		select {
		case err = <-done:
		case <-ctx.Done():
			go func() {
				<-done
				fasthttp.ReleaseRequest(req)
				fasthttp.ReleaseResponse(resp)
			}()
			return nil, fmt.Errorf("client: %s %s: %w", method, target, ctx.Err())
		}
	}
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", method, target, err)
	}
	out := &Response{
		Status: resp.StatusCode(),
		Header: make(http.Header),
		Body:   append([]byte(nil), resp.Body()...),
		Target: target,
	}
	for k, v := range resp.Header.All() {
		out.Header.Add(string(k), string(v))
	}
	return out, nil
}
