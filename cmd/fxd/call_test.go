package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/reqsig"
)

func TestUniqueTarget(t *testing.T) {
	param := `_r=[0-9a-f]{16}$`
	for path, want := range map[string]string{
		"/public/v1/account":          `^/public/v1/account\?` + param,
		"/public/v1/contacts?limit=5": `^/public/v1/contacts\?limit=5&` + param,
		"/public/v1/contacts?":        `^/public/v1/contacts\?` + param,
		"/public/v1/contacts?a=1&":    `^/public/v1/contacts\?a=1&` + param,
	} {
		a, err := uniqueTarget(path)
		require.NoError(t, err)
		require.Regexp(t, want, a, path)
		b, err := uniqueTarget(path)
		require.NoError(t, err)
		require.NotEqual(t, a, b, "two runs sign two targets")
	}
}

// signedServer stands in for the API's signature check: it verifies each
// request against pub with the server clock now()+skew (±30 s window,
// single-use signatures), answers 401 stale_timestamp with SVC-Server-Time
// outside the window, and otherwise status with body.
type signedServer struct {
	pub    ed25519.PublicKey
	skew   time.Duration
	status int
	body   string

	mu      sync.Mutex
	seen    map[string]bool // signatures accepted
	targets []string        // every request target, in order
}

func (s *signedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.targets = append(s.targets, r.RequestURI)
	w.Header().Set("Content-Type", "application/json")
	now := time.Now().Add(s.skew).Unix()
	tsText, sig := r.Header.Get(reqsig.HeaderTimestamp), r.Header.Get(reqsig.HeaderSignature)
	ts, _ := strconv.ParseInt(tsText, 10, 64)
	switch {
	case ts < now-30 || ts > now+30:
		w.Header().Set("SVC-Server-Time", strconv.FormatInt(now, 10))
		w.WriteHeader(401)
		_, _ = io.WriteString(w, `{"error":{"code":"stale_timestamp","message":"stale"}}`)
	case !reqsig.Verify(s.pub, []byte(tsText), []byte(r.Method), []byte(r.RequestURI), body, []byte(sig)):
		w.WriteHeader(401)
		_, _ = io.WriteString(w, `{"error":{"code":"auth_failed","message":"bad signature"}}`)
	case s.seen[sig]:
		w.WriteHeader(401)
		_, _ = io.WriteString(w, `{"error":{"code":"replayed","message":"replayed"}}`)
	default:
		s.seen[sig] = true
		w.Header().Set("X-Ratelimit-Limit", "600")
		w.WriteHeader(s.status)
		_, _ = io.WriteString(w, s.body)
	}
}

// newSignedServer starts a signedServer and writes its key to a PEM file.
func newSignedServer(t *testing.T, skew time.Duration, status int, body string) (*signedServer, string, string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	pemBytes, err := reqsig.MarshalPrivateKeyPEM(priv)
	require.NoError(t, err)
	keyFile := filepath.Join(t.TempDir(), "key.pem")
	require.NoError(t, os.WriteFile(keyFile, pemBytes, 0o600))
	s := &signedServer{pub: pub, skew: skew, status: status, body: body, seen: map[string]bool{}}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts.URL, keyFile
}

func TestCallPrintsBodyAloneAndStatusOnStderr(t *testing.T) {
	body := `{"id":"acct_1","name":"Ada"}` // no final newline: printed as is
	srv, url, keyFile := newSignedServer(t, 0, 200, body)
	args := []string{"call", "--base-url", url, "--key-id", "svc_test_k", "--key-file", keyFile, "get", "/public/v1/account"}
	for range 2 { // the same call twice within the second: both are answered
		res := run(t, args...)
		require.Equal(t, 0, res.code, res.stderr)
		require.Equal(t, body, res.stdout, "the body byte for byte")
		require.Equal(t, "HTTP 200 OK\n", res.stderr)
	}
	require.Len(t, srv.targets, 2)
	require.NotEqual(t, srv.targets[0], srv.targets[1])
	require.Regexp(t, `^/public/v1/account\?_r=`, srv.targets[0])

	res := run(t, append(args, "-i")...)
	require.Equal(t, 0, res.code, res.stderr)
	require.Regexp(t, regexp.MustCompile(`(?m)^HTTP 200 OK\n(.+: .+\n)*X-Ratelimit-Limit: 600\n`), res.stderr)
	require.Equal(t, body, res.stdout)
}

func TestCallNon2xxExitsOne(t *testing.T) {
	body := `{"error":{"code":"not_found","message":"no such contact"}}`
	_, url, keyFile := newSignedServer(t, 0, 404, body)
	res := run(t, "call", "--base-url", url, "--key-id", "svc_test_k", "--key-file", keyFile, "GET", "/public/v1/contacts/ct_1")
	require.Equal(t, exitFailure, res.code)
	require.Equal(t, body, res.stdout, "the body is printed before the exit")
	require.Equal(t, "HTTP 404 Not Found\n", res.stderr)
}

// TestCallSignsWithTheServersClock: a server an hour ahead answers the
// first request stale_timestamp; the second, signed with its time from
// SVC-Server-Time, passes.
func TestCallSignsWithTheServersClock(t *testing.T) {
	srv, url, keyFile := newSignedServer(t, time.Hour, 201, `{"ok":true}`)
	res := run(t, "call", "--base-url", url, "--key-id", "svc_test_k", "--key-file", keyFile,
		"--idempotency-key", "k-1", "POST", "/public/v1/contacts", `{"name":"Ada"}`)
	require.Equal(t, 0, res.code, res.stderr)
	require.Equal(t, `{"ok":true}`, res.stdout)
	require.Contains(t, res.stderr, "1h0m0s behind the server's")
	require.Contains(t, res.stderr, "HTTP 201 Created\n")
	require.Len(t, srv.targets, 2, "one stale attempt, one signed with the server's time")
}
