package httpd

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/logsink"
	"github.com/fxd-labs/fxd/reqsig"
)

// requestIDPattern is a request id: req_ and 128 bits in the ids
// alphabet (the first character carries 3 bits).
var requestIDPattern = regexp.MustCompile(`^req_[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

func TestRequestIDFormatAndUniqueness(t *testing.T) {
	const perG, goroutines = 20_000, 8
	var mu sync.Mutex
	seen := make(map[string]bool, perG*goroutines)
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids := make([]string, perG)
			for i := range ids {
				ids[i] = newRequestID()
			}
			mu.Lock()
			defer mu.Unlock()
			for _, id := range ids {
				require.Regexp(t, requestIDPattern, id)
				require.False(t, seen[id], "id %s made twice", id)
				seen[id] = true
			}
		}()
	}
	wg.Wait()
	require.Len(t, seen, perG*goroutines)
}

// TestRequestIDUsesEveryBit: over many ids each of the 26 positions takes
// every value it can (the first only 0-7), so no bits are stuck.
func TestRequestIDUsesEveryBit(t *testing.T) {
	var used [requestIDChars]map[byte]bool
	for i := range used {
		used[i] = map[byte]bool{}
	}
	for range 5000 {
		id := newRequestID()
		for i := range requestIDChars {
			used[i][id[len(requestIDPrefix)+i]] = true
		}
	}
	require.Len(t, used[0], 8)
	for i := 1; i < requestIDChars; i++ {
		require.Len(t, used[i], 32, "position %d", i)
	}
}

func TestSetRequestIDAllocatesNothing(t *testing.T) {
	var resp fasthttp.Response
	setRequestID(&resp.Header) // the header's buffers grow once
	allocs := testing.AllocsPerRun(1000, func() { setRequestID(&resp.Header) })
	require.Zero(t, allocs)
	require.Regexp(t, requestIDPattern, string(resp.Header.Peek(RequestIDHeader)))
}

// testAPI is a Server over a real engine, driven in process, with one
// account and keys of chosen scopes.
type testAPI struct {
	s    *Server
	e    *actors.Engine
	log  *logsink.Buffer
	acct string
	n    atomic.Int64 // makes each signed request unique
}

func newTestAPI(t *testing.T) *testAPI {
	t.Helper()
	buf := &logsink.Buffer{}
	logger := slog.New(slog.NewJSONHandler(buf, nil))
	e, err := actors.Open(actors.Config{DataDir: t.TempDir(), Logger: logger})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	t.Cleanup(func() { _ = e.Close() })
	return serveTestAPI(t, Config{BasePath: "/public/v1", Logger: logger, Started: time.Now().Add(-time.Second)}, e, buf)
}

// serveTestAPI starts a Server over e with cfg and creates the account the
// tests sign for.
func serveTestAPI(t *testing.T, cfg Config, e *actors.Engine, buf *logsink.Buffer) *testAPI {
	t.Helper()
	s, err := New(cfg, e)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	out, err := e.CreateAccount(context.Background(), domain.CreateAccount{Name: "t", KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(t, err)
	var a struct{ ID string }
	require.NoError(t, json.Unmarshal(out.Reply.Body, &a))
	return &testAPI{s: s, e: e, log: buf, acct: a.ID}
}

// key makes a key of scopes ("read,pay") and returns its id and private half.
func (ta *testAPI) key(t *testing.T, scopes string) (string, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	names := strings.Split(scopes, ",")
	sc, derr := domain.ParseScopes(names)
	require.Nil(t, derr)
	id := ta.e.NewID("svc_test_", ta.acct)
	out, err := ta.e.Exec(context.Background(), ta.acct, domain.Request{Cmd: domain.CreateKey{KeyID: id, PublicKey: pub, Scopes: sc}})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, "%s", out.Reply.Body)
	return id, priv
}

// answer is what a test keeps of a response.
type answer struct {
	status int
	header map[string]string
	body   []byte
}

// do serves one request in process. With a key it is signed (and made
// unique with a query); ts 0 is now.
func (ta *testAPI) do(t *testing.T, method, target string, body []byte, keyID string, priv ed25519.PrivateKey, headers map[string]string) answer {
	t.Helper()
	var req fasthttp.Request
	req.Header.SetMethod(method)
	if keyID != "" {
		sep := "?"
		if strings.Contains(target, "?") {
			sep = "&"
		}
		target += sep + "n=" + strconv.FormatInt(ta.n.Add(1), 10)
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		if headers["SVC-TIMESTAMP"] != "" {
			ts = headers["SVC-TIMESTAMP"]
		}
		req.Header.Set(reqsig.HeaderKey, keyID)
		req.Header.Set(reqsig.HeaderTimestamp, ts)
		req.Header.Set(reqsig.HeaderSignature, reqsig.Sign(priv, ts, method, target, body))
	}
	req.SetRequestURI(target)
	for k, v := range headers {
		if k != "SVC-TIMESTAMP" {
			req.Header.Set(k, v)
		}
	}
	req.SetBody(body)
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
	ta.s.serve(&ctx)
	return capture(&ctx.Response)
}

func capture(r *fasthttp.Response) answer {
	a := answer{status: r.StatusCode(), header: map[string]string{}, body: append([]byte(nil), r.Body()...)}
	for k, v := range r.Header.All() {
		a.header[string(k)] = string(v)
	}
	return a
}

// requireContractError: the body is exactly {"error":{"code","message"}}.
func requireContractError(t *testing.T, body []byte, code string) {
	t.Helper()
	var e map[string]map[string]any
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	require.Len(t, e, 1, "%s", body)
	require.Len(t, e["error"], 2, "%s", body)
	require.Equal(t, code, e["error"]["code"], "%s", body)
	require.IsType(t, "", e["error"]["message"])
}

// TestEveryAnswerHasARequestID walks the answer paths of the pipeline:
// each answer carries a fresh id, and error bodies keep the contract's
// shape exactly.
func TestEveryAnswerHasARequestID(t *testing.T) {
	ta := newTestAPI(t)
	payKey, payPriv := ta.key(t, "read,pay")
	readKey, readPriv := ta.key(t, "read")
	hookKey, hookPriv := ta.key(t, "webhooks")
	contact := []byte(`{"name":"a","address":"0x00000000000000000000000000000000000000aa"}`)
	idem := map[string]string{"Idempotency-Key": "k-1"}
	stale := map[string]string{"SVC-TIMESTAMP": strconv.FormatInt(time.Now().Add(-time.Hour).Unix(), 10)}
	cases := []struct {
		name           string
		method, target string
		body           []byte
		key            string
		priv           ed25519.PrivateKey
		headers        map[string]string
		status         int
		code           string // contract error code; "" for a success
	}{
		{"public 200", "GET", "/public/v1/time", nil, "", nil, nil, 200, ""},
		{"signed 200", "GET", "/public/v1/account", nil, readKey, readPriv, nil, 200, ""},
		{"created 201", "POST", "/public/v1/contacts", contact, payKey, payPriv, idem, 201, ""},
		{"idempotent replay", "POST", "/public/v1/contacts", contact, payKey, payPriv, idem, 201, ""},
		{"unknown route", "GET", "/public/v1/nope", nil, "", nil, nil, 404, domain.CodeNotFound},
		{"outside the base path", "GET", "/elsewhere", nil, "", nil, nil, 404, domain.CodeNotFound},
		{"unknown method", "BREW", "/public/v1/time", nil, "", nil, nil, 404, domain.CodeNotFound},
		{"body too large", "POST", "/public/v1/contacts", bytes.Repeat([]byte("x"), MaxBodyBytes+1), "", nil, nil, 413, domain.CodeBodyTooLarge},
		{"no auth headers", "GET", "/public/v1/account", nil, "", nil, nil, 401, domain.CodeAuthFailed},
		{"stale timestamp", "GET", "/public/v1/account", nil, readKey, readPriv, stale, 401, domain.CodeStaleTimestamp},
		{"wrong scope", "POST", "/public/v1/contacts", contact, readKey, readPriv, nil, 403, domain.CodeInsufficientScope},
		{"bad body", "POST", "/public/v1/contacts", []byte(`{"nope":1}`), payKey, payPriv, nil, 400, domain.CodeInvalidRequest},
		{"not found", "GET", "/public/v1/contacts/ct_nope", nil, payKey, payPriv, nil, 404, domain.CodeNotFound},
		{"unavailable 503", "GET", "/public/v1/webhooks", nil, hookKey, hookPriv, nil, 503, domain.CodeUnavailable},
	}
	seen := map[string]string{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := ta.do(t, c.method, c.target, c.body, c.key, c.priv, c.headers)
			require.Equal(t, c.status, a.status, "%s", a.body)
			id := a.header[RequestIDHeader]
			require.Regexp(t, requestIDPattern, id)
			require.Empty(t, seen[id], "id %s already answered %s", id, seen[id])
			seen[id] = c.name
			if c.code != "" {
				requireContractError(t, a.body, c.code)
			}
			if c.name == "idempotent replay" {
				require.Equal(t, "true", a.header["Idempotency-Replayed"])
			}
		})
	}
}

// TestRequestIDOnRateLimitAndReadErrors: the answers not written by a
// handler (429 of the per-IP limit, fasthttp's read errors) carry one too.
func TestRequestIDOnRateLimitAndReadErrors(t *testing.T) {
	ta := newTestAPI(t)
	var last answer
	for range 61 { // the public routes admit 60 a minute per address
		last = ta.do(t, "GET", "/public/v1/time", nil, "", nil, nil)
	}
	require.Equal(t, 429, last.status)
	require.Regexp(t, requestIDPattern, last.header[RequestIDHeader])
	requireContractError(t, last.body, domain.CodeOverLimit)

	for _, err := range []error{fasthttp.ErrBodyTooLarge, io.ErrUnexpectedEOF} {
		var ctx fasthttp.RequestCtx
		ta.s.readError(&ctx, err)
		a := capture(&ctx.Response)
		require.Regexp(t, requestIDPattern, a.header[RequestIDHeader])
		require.Contains(t, []int{400, 413}, a.status)
	}
}

// TestFailureLogNamesTheRequest: a 5xx is logged once, with the id its
// answer carries, the route template and the contract error.
func TestFailureLogNamesTheRequest(t *testing.T) {
	ta := newTestAPI(t)
	key, priv := ta.key(t, "webhooks")
	a := ta.do(t, "GET", "/public/v1/webhooks/wh_x/deliveries", nil, key, priv, nil)
	require.Equal(t, 503, a.status)
	id := a.header[RequestIDHeader]
	line := logLineWith(t, ta.log.String(), id)
	require.Equal(t, "request failed", line["msg"])
	require.Equal(t, "/webhooks/{id}/deliveries", line["route"])
	require.Equal(t, "GET", line["method"])
	require.EqualValues(t, 503, line["status"])
	require.Equal(t, domain.CodeUnavailable, line["code"])

	ok := ta.do(t, "GET", "/public/v1/time", nil, "", nil, nil)
	require.NotContains(t, ta.log.String(), ok.header[RequestIDHeader], "a 2xx is not logged")
}

// logLineWith returns the one JSON log line whose request_id is id.
func logLineWith(t *testing.T, log, id string) map[string]any {
	t.Helper()
	var found []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(log), "\n") {
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &v), "log line %q", l)
		if v["request_id"] == id {
			found = append(found, v)
		}
	}
	require.Len(t, found, 1, "log lines naming %s in:\n%s", id, log)
	return found[0]
}

func TestLineBudget(t *testing.T) {
	b := lineBudget{max: 3}
	t0 := time.Unix(100, 0)
	for i := range 3 {
		ok, dropped := b.take(t0)
		require.True(t, ok, "line %d", i)
		require.Zero(t, dropped)
	}
	for range 5 {
		ok, _ := b.take(t0.Add(500 * time.Millisecond))
		require.False(t, ok)
	}
	ok, dropped := b.take(t0.Add(time.Second))
	require.True(t, ok, "a new second admits again")
	require.Equal(t, 5, dropped, "and says how many were left out")
	_, dropped = b.take(t0.Add(time.Second))
	require.Zero(t, dropped)
}

// TestFailureLogIsBounded: beyond failureLinesPerSecond lines in a second
// the rest are left out (and counted in the next line admitted).
func TestFailureLogIsBounded(t *testing.T) {
	buf := &logsink.Buffer{}
	f := newFailureLog(slog.New(slog.NewJSONHandler(buf, nil)))
	for i := range failureLinesPerSecond * 3 {
		f.failed("request failed", fmt.Sprint("req_", i), "GET", "/x", 503, nil, 0)
	}
	lines := strings.Count(buf.String(), "\n")
	// A second boundary may fall inside the loop: then up to twice the
	// budget pass, never all of the burst.
	require.GreaterOrEqual(t, lines, failureLinesPerSecond)
	require.LessOrEqual(t, lines, failureLinesPerSecond*2)
	if lines == failureLinesPerSecond {
		require.NotContains(t, buf.String(), "lines_left_out")
	}
}
