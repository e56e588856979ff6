package client

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"github.com/fxd-labs/fxd/internal/repo"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/reqsig"
)

// fixedClock returns a settable fake clock.
type fixedClock struct{ ns atomic.Int64 }

func newClock(unix int64) *fixedClock {
	c := &fixedClock{}
	c.ns.Store(unix * int64(time.Second))
	return c
}
func (c *fixedClock) now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *fixedClock) advance(d time.Duration) { c.ns.Add(int64(d)) }

func testKey() (ed25519.PrivateKey, ed25519.PublicKey) {
	priv := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	return priv, priv.Public().(ed25519.PublicKey)
}

func newTestClient(t *testing.T, base string, clock *fixedClock, opts ...Option) *Client {
	t.Helper()
	priv, _ := testKey()
	c, err := New(base, "svc_test_k1", priv, append([]Option{WithClock(clock.now), WithTimeout(5 * time.Second)}, opts...)...)
	require.NoError(t, err)
	return c
}

func TestSignedRequestOnTheWire(t *testing.T) {
	_, pub := testKey()
	srv, base := startAuthServer(t, pub)
	c := newTestClient(t, base, newClock(1_795_000_000))

	body := []byte(`{"name":"Zoë","address":"0x00000000000000000000000000000000000000aa"}`)
	resp, err := c.Do(context.Background(), "post", "/public/v1/contacts", body, map[string]string{"Idempotency-Key": "k-1"})
	require.NoError(t, err)
	require.Equal(t, 200, resp.Status, string(resp.Body))
	require.JSONEq(t, `{"ok":true}`, string(resp.Body))
	require.Equal(t, "/public/v1/contacts", resp.Header.Get("X-Echo-Target"), "response headers under canonical names")
	require.Equal(t, "/public/v1/contacts", resp.Target)

	got := srv.received()
	require.Len(t, got, 1)
	r := got[0]
	require.True(t, r.Verified)
	require.Equal(t, "POST", r.Method)
	require.Equal(t, "/public/v1/contacts", r.URI)
	require.Equal(t, body, r.Body, "body is sent raw")
	require.Equal(t, "svc_test_k1", r.Headers["SVC-API-KEY"], "header names as spelled in SPEC.md")
	require.Equal(t, "1795000000", r.Headers["SVC-TIMESTAMP"])
	require.Len(t, r.Headers["SVC-SIGNATURE"], reqsig.SignatureB64Len)
	require.Equal(t, "k-1", r.Headers["Idempotency-Key"])
	require.Equal(t, "application/json", r.Headers["Content-Type"])
}

// TestVectorOnTheWire sends the first auth.json case through the client and
// requires the exact SVC-SIGNATURE node:crypto produced.
func TestVectorOnTheWire(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(repo.MustRoot(t), "..", "shared", "vectors", "auth.json"))
	require.NoError(t, err, "reference vectors are required")
	var v struct {
		PEM   string `json:"private_key_pkcs8_pem"`
		Cases []struct {
			Method, Target, Body, Timestamp string
			Signature                       string `json:"signature_base64"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &v))
	priv, err := reqsig.ParsePrivateKeyPEM([]byte(v.PEM))
	require.NoError(t, err)
	srv, base := startAuthServer(t, priv.Public().(ed25519.PublicKey))
	for i, tc := range v.Cases {
		var unix int64
		_, err := fmt.Sscan(tc.Timestamp, &unix)
		require.NoError(t, err)
		clock := newClock(unix)
		c, err := New(base, "svc_test_vec", priv, WithClock(clock.now))
		require.NoError(t, err)
		var body []byte
		if tc.Body != "" {
			body = []byte(tc.Body)
		}
		resp, err := c.Do(context.Background(), tc.Method, tc.Target, body, nil)
		require.NoError(t, err)
		require.Equal(t, 200, resp.Status, "case %d: %s", i, resp.Body)
		got := srv.received()
		require.Equal(t, tc.Signature, got[len(got)-1].Headers["SVC-SIGNATURE"], "case %d", i)
		require.Equal(t, tc.Target, got[len(got)-1].URI, "case %d", i)
	}
}

func TestRepeatedRequestsAreMadeUnique(t *testing.T) {
	type call struct {
		method, target, body string
		advance              time.Duration
		want                 string // target as sent
	}
	tests := []struct {
		name  string
		calls []call
	}{
		{"same GET three times", []call{
			{"GET", "/public/v1/account", "", 0, "/public/v1/account"},
			{"GET", "/public/v1/account", "", 0, "/public/v1/account?_r=1"},
			{"GET", "/public/v1/account", "", 0, "/public/v1/account?_r=2"},
		}},
		{"existing query gets &", []call{
			{"GET", "/public/v1/fx/orders?limit=5", "", 0, "/public/v1/fx/orders?limit=5"},
			{"GET", "/public/v1/fx/orders?limit=5", "", 0, "/public/v1/fx/orders?limit=5&_r=1"},
		}},
		{"trailing & is reused", []call{
			{"GET", "/public/v1/fx/orders?limit=5&", "", 0, "/public/v1/fx/orders?limit=5&"},
			{"GET", "/public/v1/fx/orders?limit=5&", "", 0, "/public/v1/fx/orders?limit=5&_r=1"},
		}},
		{"different body or method is already unique", []call{
			{"POST", "/public/v1/fx/quotes", `{"amount":"1"}`, 0, "/public/v1/fx/quotes"},
			{"POST", "/public/v1/fx/quotes", `{"amount":"2"}`, 0, "/public/v1/fx/quotes"},
			{"GET", "/public/v1/fx/quotes", "", 0, "/public/v1/fx/quotes"},
			{"POST", "/public/v1/fx/quotes", `{"amount":"1"}`, 0, "/public/v1/fx/quotes?_r=1"},
		}},
		{"a new second starts afresh", []call{
			{"GET", "/public/v1/account", "", 0, "/public/v1/account"},
			{"GET", "/public/v1/account", "", 0, "/public/v1/account?_r=1"},
			{"GET", "/public/v1/account", "", time.Second, "/public/v1/account"},
			{"GET", "/public/v1/account", "", 0, "/public/v1/account?_r=1"},
		}},
		{"caller's own _r does not collide", []call{
			{"GET", "/public/v1/account", "", 0, "/public/v1/account"},
			{"GET", "/public/v1/account", "", 0, "/public/v1/account?_r=1"},
			{"GET", "/public/v1/account?_r=1", "", 0, "/public/v1/account?_r=1&_r=1"},
			{"GET", "/public/v1/account", "", 0, "/public/v1/account?_r=2"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, pub := testKey()
			srv, base := startAuthServer(t, pub)
			clock := newClock(1_795_000_000)
			c := newTestClient(t, base, clock)
			for i, call := range tc.calls {
				clock.advance(call.advance)
				var body []byte
				if call.body != "" {
					body = []byte(call.body)
				}
				resp, err := c.Do(context.Background(), call.method, call.target, body, nil)
				require.NoError(t, err)
				require.Equal(t, 200, resp.Status, "call %d: %s", i, resp.Body)
				require.Equal(t, call.want, resp.Target, "call %d", i)
				got := srv.received()
				require.Equal(t, call.want, got[len(got)-1].URI, "call %d", i)
				require.True(t, got[len(got)-1].Verified)
				require.False(t, got[len(got)-1].Replayed)
			}
		})
	}
}

func TestConcurrentIdenticalRequestsAllAccepted(t *testing.T) {
	_, pub := testKey()
	srv, base := startAuthServer(t, pub)
	c := newTestClient(t, base, newClock(1_795_000_000), WithMaxConns(8))
	const workers, each = 16, 25
	var wg sync.WaitGroup
	targets := make(chan string, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				resp, err := c.Do(context.Background(), "GET", "/public/v1/balances", nil, nil)
				if err != nil || resp.Status != 200 {
					t.Errorf("request failed: %v %v", err, resp)
					return
				}
				targets <- resp.Target
			}
		}()
	}
	wg.Wait()
	close(targets)
	distinct := map[string]bool{}
	for tg := range targets {
		distinct[tg] = true
	}
	require.Len(t, distinct, workers*each, "every request went out with its own target")
	for _, r := range srv.received() {
		require.True(t, r.Verified)
		require.False(t, r.Replayed)
	}
}

func TestTargetSentExactly(t *testing.T) {
	_, pub := testKey()
	srv, base := startAuthServer(t, pub)
	c := newTestClient(t, base, newClock(1_795_000_000))
	for _, target := range []string{
		"/public/v1/a//b/../c",
		"/public/v1/x/./y?q=%20&r=%2F&s=a+b",
		"/public/v1/%7Euser/%2e%2e",
		"/public/v1/transactions?from=2026-01-01T00:00:00Z&to=&type=fx_amm",
		"/public/v1/x?a=1&a=2&&b",
		"/public/v1/account?", // an empty query is sent as it is
	} {
		resp, err := c.Do(context.Background(), "GET", target, nil, nil)
		require.NoError(t, err, target)
		require.Equal(t, 200, resp.Status, "%s: %s", target, resp.Body)
		got := srv.received()
		require.Equal(t, target, got[len(got)-1].URI)
	}
}

func TestInvalidRequestsAreNotSent(t *testing.T) {
	_, pub := testKey()
	srv, base := startAuthServer(t, pub)
	c := newTestClient(t, base, newClock(1_795_000_000))
	tests := []struct {
		name, method, target string
		headers              map[string]string
		errPart              string
	}{
		{"relative target", "GET", "public/v1/account", nil, "must start with '/'"},
		{"empty target", "GET", "", nil, "must start with '/'"},
		{"scheme-relative", "GET", "//evil.example/x", nil, "'//'"},
		{"space", "GET", "/public/v1/a b", nil, "percent-encoded"},
		{"fragment", "GET", "/public/v1/a#frag", nil, "percent-encoded"},
		{"non-ascii", "GET", "/public/v1/ü", nil, "percent-encoded"},
		{"too long", "GET", "/" + strings.Repeat("a", MaxTargetLen), nil, "limit"},
		{"bad method", "GE T", "/public/v1/account", nil, "letters"},
		{"auth header", "GET", "/public/v1/account", map[string]string{"svc-signature": "x"}, "set by the client"},
		{"host header", "GET", "/public/v1/account", map[string]string{"Host": "x"}, "set by the client"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.Do(context.Background(), tc.method, tc.target, nil, tc.headers)
			require.ErrorContains(t, err, tc.errPart)
		})
	}
	require.Empty(t, srv.received())
}

func TestSyncClock(t *testing.T) {
	_, pub := testKey()
	srv, base := startAuthServer(t, pub)
	srv.serverUnix = func() int64 { return 1_795_000_000 }
	clock := newClock(1_795_000_000 - 1000) // 1000 s slow
	c := newTestClient(t, base, clock)

	require.NoError(t, c.SyncClock(context.Background()))
	require.Equal(t, 1000*time.Second+500*time.Millisecond, c.ClockOffset())

	resp, err := c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, resp.Status)
	got := srv.received()
	require.Equal(t, "1795000000", got[len(got)-1].Headers["SVC-TIMESTAMP"])
}

func TestSyncClockErrors(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
	}{
		{"status", 503, `{"unix":1}`},
		{"not json", 200, `nope`},
		{"missing field", 200, `{"time":1795000000}`},
		{"string", 200, `{"unix":"1795000000"}`},
		{"zero", 200, `{"unix":0}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := serve(t, &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
				ctx.SetStatusCode(tc.status)
				ctx.SetBodyString(tc.body)
			}})
			c, err := New(base, "", nil, WithBasePath("/v1"))
			require.NoError(t, err)
			require.Error(t, c.SyncClock(context.Background()))
			require.Zero(t, c.ClockOffset())
		})
	}
}

func TestDoUnsigned(t *testing.T) {
	_, pub := testKey()
	srv, base := startAuthServer(t, pub)
	c, err := New(base, "", nil)
	require.NoError(t, err)

	_, err = c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.ErrorIs(t, err, ErrNoKey)

	for i := 0; i < 2; i++ {
		resp, err := c.DoUnsigned(context.Background(), "GET", "/public/v1/health", nil, nil)
		require.NoError(t, err)
		require.Equal(t, 401, resp.Status, "our test server wants a signature")
		require.Equal(t, "/public/v1/health", resp.Target, "unsigned requests are never varied")
	}
	for _, r := range srv.received() {
		require.NotContains(t, r.Headers, "SVC-API-KEY")
		require.NotContains(t, r.Headers, "SVC-TIMESTAMP")
		require.NotContains(t, r.Headers, "SVC-SIGNATURE")
	}
}

func TestContextCancelAndTimeout(t *testing.T) {
	release := make(chan struct{})
	base := serve(t, &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		<-release
	}})
	t.Cleanup(func() { close(release) })
	clock := newClock(1_795_000_000)

	c := newTestClient(t, base, clock)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err := c.Do(ctx, "GET", "/public/v1/account", nil, nil)
	require.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	_, err = c.Do(ctx, "GET", "/public/v1/account", nil, nil)
	require.ErrorIs(t, err, context.Canceled, "a dead context sends nothing")

	short := newTestClient(t, base, clock, WithTimeout(100*time.Millisecond))
	start := time.Now()
	_, err = short.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.ErrorIs(t, err, ErrTimeout)
	require.Less(t, time.Since(start), 2*time.Second)
}

// TestNeverRetries points the client at a server that reads a request and
// drops the connection: fasthttp would resend an idempotent request on a
// fresh connection; ours must not.
func TestNeverRetries(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	var accepted atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			buf := make([]byte, 4096)
			_, _ = conn.Read(buf)
			conn.Close()
		}
	}()
	c := newTestClient(t, "http://"+ln.Addr().String(), newClock(1_795_000_000))
	_, err = c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.Error(t, err)
	time.Sleep(100 * time.Millisecond)
	require.Equal(t, int32(1), accepted.Load(), "exactly one attempt")
}

func TestNewValidates(t *testing.T) {
	priv, _ := testKey()
	tests := []struct {
		name  string
		base  string
		keyID string
		key   ed25519.PrivateKey
		opts  []Option
	}{
		{"path in base", "http://127.0.0.1:8080/public/v1", "k", priv, nil},
		{"query in base", "http://127.0.0.1:8080?x=1", "k", priv, nil},
		{"scheme", "ftp://127.0.0.1", "k", priv, nil},
		{"no host", "http://", "k", priv, nil},
		{"userinfo", "http://u:p@127.0.0.1", "k", priv, nil},
		{"key without id", "http://127.0.0.1", "", priv, nil},
		{"short key", "http://127.0.0.1", "k", priv[:32], nil},
		{"id without key", "http://127.0.0.1", "k", nil, nil},
		{"max conns", "http://127.0.0.1", "k", priv, []Option{WithMaxConns(0)}},
		{"timeout", "http://127.0.0.1", "k", priv, []Option{WithTimeout(0)}},
		{"base path", "http://127.0.0.1", "k", priv, []Option{WithBasePath("v1/")}},
		{"body size", "http://127.0.0.1", "k", priv, []Option{WithMaxResponseBodySize(0)}},
		{"clock", "http://127.0.0.1", "k", priv, []Option{WithClock(nil)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.base, tc.keyID, tc.key, tc.opts...)
			require.Error(t, err)
		})
	}
	for _, ok := range []string{"http://127.0.0.1:8080", "http://127.0.0.1:8080/", "https://api.example", "http://[::1]:9"} {
		_, err := New(ok, "k", priv)
		require.NoError(t, err, ok)
	}
}

// TestControlCharactersInHeadersAreSent: Do sends a header value net/http
// would refuse (a control character) as given, so the server is the one
// that judges it (the e2e tests send such Idempotency-Keys); a server
// that reads bytes sees them, signed.
func TestControlCharactersInHeadersAreSent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	heads := make(chan string, 4)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			br := bufio.NewReader(conn)
			var head strings.Builder
			for {
				line, err := br.ReadString('\n')
				head.WriteString(line)
				if err != nil || line == "\r\n" {
					break
				}
			}
			_, _ = br.Discard(2) // the body, {}
			heads <- head.String()
			_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
			conn.Close()
		}
	}()
	c := newTestClient(t, "http://"+ln.Addr().String(), newClock(1_795_000_000))
	for _, v := range []string{"a\x01b", "a\x7fb"} {
		resp, err := c.Do(context.Background(), "POST", "/public/v1/contacts", []byte(`{}`), map[string]string{"Idempotency-Key": v})
		require.NoError(t, err, "%q", v)
		require.Equal(t, 200, resp.Status)
		require.JSONEq(t, `{}`, string(resp.Body))
		head := <-heads
		require.True(t, strings.HasPrefix(head, "POST "+resp.Target+" HTTP/1.1\r\n"), head)
		require.Contains(t, head, "Idempotency-Key: "+v+"\r\n")
		require.Contains(t, head, "SVC-SIGNATURE: ")
		require.Contains(t, head, "Content-Length: 2\r\n")
	}
}
