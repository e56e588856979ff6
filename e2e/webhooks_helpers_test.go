package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/internal/logsink"
)

// The webhook tests deliver to a real HTTPS receiver, e2e/js/receiver.mjs,
// which verifies each delivery with the Standard Webhooks library for
// JavaScript: the interop an integrator relies on. Its certificate is
// issued by a CA the test makes; the server trusts it through --webhook-ca
// and admits the loopback receiver through --webhook-allow-loopback.

// Waits of the webhook tests (deadlines, never expectations).
const (
	hookDeadline    = 60 * time.Second // an event until it reaches the receiver
	receiverStartup = 30 * time.Second // node receiver.mjs until it listens
)

// hookTLS is the receiver's certificate: a CA (given to the server) and a
// leaf for 127.0.0.1, ::1 and localhost, PEM files in a temp dir.
type hookTLS struct {
	CAFile, CertFile, KeyFile string
}

// makeHookTLS issues a fresh CA and a leaf certificate signed by it.
func makeHookTLS(t testing.TB) hookTLS {
	t.Helper()
	dir := t.TempDir()
	serial := func() *big.Int {
		n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
		require.NoError(t, err)
		return n
	}
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "fxd e2e webhook test CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(48 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	require.NoError(t, err)
	ca, err := x509.ParseCertificate(caDER)
	require.NoError(t, err)

	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	leafTmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(48 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:     []string{"localhost"},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, &leafKey.PublicKey, caKey)
	require.NoError(t, err)
	leafKeyDER, err := x509.MarshalPKCS8PrivateKey(leafKey)
	require.NoError(t, err)

	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600))
		return p
	}
	return hookTLS{
		CAFile:   write("ca.pem", "CERTIFICATE", caDER),
		CertFile: write("receiver.pem", "CERTIFICATE", leafDER),
		KeyFile:  write("receiver-key.pem", "PRIVATE KEY", leafKeyDER),
	}
}

// writeMasterKeyFile writes a 0600 file holding the base64 of 32 random
// bytes, as --webhook-master-key-file wants it.
func writeMasterKeyFile(t testing.TB) string {
	t.Helper()
	key := make([]byte, 32)
	_, err := rand.Read(key)
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "webhook-master.key")
	require.NoError(t, os.WriteFile(p, []byte(base64.StdEncoding.EncodeToString(key)), 0o600))
	return p
}

// hookFlags are the serve flags of a webhook test: loopback receivers, the
// test CA, a master key (unless masterKeyFile is "") and a retry schedule
// (unless schedule is "").
func hookFlags(tlsf hookTLS, masterKeyFile, schedule string) []string {
	f := []string{"--webhook-allow-loopback", "--webhook-ca", tlsf.CAFile}
	if masterKeyFile != "" {
		f = append(f, "--webhook-master-key-file", masterKeyFile)
	}
	if schedule != "" {
		f = append(f, "--webhook-retry-schedule", schedule)
	}
	return f
}

// retrySchedule is n steps of d, as --webhook-retry-schedule takes them.
func retrySchedule(n int, d time.Duration) string {
	s := make([]string, n)
	for i := range s {
		s[i] = d.String()
	}
	return strings.Join(s, ",")
}

// ---- the receiver ----------------------------------------------------

// hookRequest is one request the receiver got (a line of receiver.mjs).
type hookRequest struct {
	Method     string          `json:"method"`
	Path       string          `json:"path"`
	ID         string          `json:"id"`         // webhook-id
	Timestamp  string          `json:"timestamp"`  // webhook-timestamp
	Signatures string          `json:"signatures"` // webhook-signature
	Body       string          `json:"body"`       // raw
	Verified   map[string]bool `json:"verified"`   // by secret, with standardwebhooks
	Status     *int            `json:"status"`     // what it answered; nil: never
	At         time.Time       `json:"-"`          // when the test read the line
}

// event decodes the delivered body as an event.
func (r hookRequest) event(t *testing.T) hookEvent {
	t.Helper()
	var e hookEvent
	decodeStrictJSON(t, []byte(r.Body), &e)
	return e
}

// receiverJS makes sure e2e/js has standardwebhooks installed (an older
// node_modules may predate it: jsDir checks only ethers and anvil) and
// returns the directory.
var (
	receiverJSOnce sync.Once
	receiverJSErr  error
)

func receiverJS(t testing.TB) string {
	t.Helper()
	dir := jsDir(t)
	receiverJSOnce.Do(func() {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", "standardwebhooks", "package.json")); err == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = dir
		cmd.Env = cleanEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			receiverJSErr = fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
		}
	})
	if receiverJSErr != nil {
		t.Fatalf("e2e/js: %v", receiverJSErr)
	}
	return dir
}

// hookReceiver is one running `node receiver.mjs`.
type hookReceiver struct {
	Port int

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *logsink.Buffer
	exited chan struct{}
	kill   sync.Once

	mu      sync.Mutex
	reqs    []hookRequest
	sent    int           // stdin lines written
	acked   int           // stdin lines the receiver applied
	changed chan struct{} // closed and replaced on every line read
}

// startReceiver runs the receiver on port (0: an ephemeral one) and waits
// until it listens. It is killed when the test ends.
func startReceiver(t *testing.T, tlsf hookTLS, port int) *hookReceiver {
	t.Helper()
	dir := receiverJS(t)
	r := &hookReceiver{stderr: &logsink.Buffer{}, exited: make(chan struct{}), changed: make(chan struct{})}
	r.cmd = exec.Command("node", "receiver.mjs", "--cert", tlsf.CertFile, "--key", tlsf.KeyFile, "--port", strconv.Itoa(port))
	r.cmd.Dir = dir
	r.cmd.Env = cleanEnv()
	r.cmd.Stderr = r.stderr
	stdout, err := r.cmd.StdoutPipe()
	require.NoError(t, err)
	r.stdin, err = r.cmd.StdinPipe()
	require.NoError(t, err)
	require.NoError(t, r.cmd.Start(), "start node receiver.mjs")
	listening := make(chan int, 1)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var line struct {
				Listening *int `json:"listening"`
				Ack       *int `json:"ack"`
				hookRequest
			}
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				fmt.Fprintf(r.stderr, "e2e: unparsable receiver line %q: %v\n", sc.Text(), err)
				continue
			}
			switch {
			case line.Listening != nil:
				listening <- *line.Listening
			case line.Ack != nil:
				r.update(func() { r.acked = *line.Ack })
			default:
				req := line.hookRequest
				req.At = time.Now()
				r.update(func() { r.reqs = append(r.reqs, req) })
			}
		}
	}()
	go func() {
		<-readDone // Wait closes the pipe: read all of it first
		_ = r.cmd.Wait()
		close(r.exited)
	}()
	t.Cleanup(func() {
		r.Kill()
		if t.Failed() {
			t.Logf("receiver.mjs (port %d) stderr:\n%s", r.Port, tail(r.stderr.String(), 8<<10))
		}
	})
	select {
	case r.Port = <-listening:
	case <-r.exited:
		t.Fatalf("receiver.mjs exited before it listened; stderr:\n%s", r.stderr)
	case <-time.After(receiverStartup):
		t.Fatalf("receiver.mjs did not listen within %v; stderr:\n%s", receiverStartup, r.stderr)
	}
	return r
}

func (r *hookReceiver) update(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f()
	close(r.changed)
	r.changed = make(chan struct{})
}

// Kill stops the receiver with SIGKILL (a receiver that is down) and waits
// for it to be gone; safe to call more than once.
func (r *hookReceiver) Kill() {
	r.kill.Do(func() {
		select {
		case <-r.exited:
		default:
			_ = r.cmd.Process.Signal(syscall.SIGKILL)
		}
	})
	select {
	case <-r.exited:
	case <-time.After(stopDeadline):
		panic(fmt.Sprintf("receiver.mjs pid %d did not die within %v of SIGKILL", r.cmd.Process.Pid, stopDeadline))
	}
}

// url is the receiver's URL for path (e.g. "/ok/a").
func (r *hookReceiver) url(path string) string {
	return fmt.Sprintf("https://127.0.0.1:%d%s", r.Port, path)
}

// addSecret teaches the receiver a secret and waits until it applied it.
func (r *hookReceiver) addSecret(t *testing.T, secret string) {
	t.Helper()
	line, err := json.Marshal(map[string]string{"secret": secret})
	require.NoError(t, err)
	r.mu.Lock()
	r.sent++
	want := r.sent
	_, err = r.stdin.Write(append(line, '\n'))
	r.mu.Unlock()
	require.NoError(t, err, "write to receiver.mjs")
	r.wait(t, "receiver ack of a secret", 10*time.Second, func() bool { return r.acked >= want })
}

// wait blocks until cond (called under r.mu) holds, failing after within.
func (r *hookReceiver) wait(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	timer := time.NewTimer(within)
	defer timer.Stop()
	for {
		r.mu.Lock()
		ok, changed := cond(), r.changed
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-changed:
		case <-r.exited:
			t.Fatalf("%s: receiver.mjs exited; stderr:\n%s", what, r.stderr)
		case <-timer.C:
			t.Fatalf("%s: not within %v; the receiver got:\n%s", what, within, r.dump())
		}
	}
}

// requests returns the requests so far that match (all if match is nil).
func (r *hookReceiver) requests(match func(hookRequest) bool) []hookRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []hookRequest
	for _, q := range r.reqs {
		if match == nil || match(q) {
			out = append(out, q)
		}
	}
	return out
}

// await waits for the first request that matches and returns it.
func (r *hookReceiver) await(t *testing.T, what string, within time.Duration, match func(hookRequest) bool) hookRequest {
	t.Helper()
	var got hookRequest
	r.wait(t, what, within, func() bool {
		for _, q := range r.reqs {
			if match(q) {
				got = q
				return true
			}
		}
		return false
	})
	return got
}

// awaitCount waits until at least n requests match and returns them all.
func (r *hookReceiver) awaitCount(t *testing.T, what string, n int, within time.Duration, match func(hookRequest) bool) []hookRequest {
	t.Helper()
	r.wait(t, what, within, func() bool {
		c := 0
		for _, q := range r.reqs {
			if match(q) {
				c++
			}
		}
		return c >= n
	})
	return r.requests(match)
}

// dump lists what the receiver got, one line a request, for failures.
func (r *hookReceiver) dump() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	for _, q := range r.reqs {
		status := "never"
		if q.Status != nil {
			status = strconv.Itoa(*q.Status)
		}
		fmt.Fprintf(&b, "  %s %s %s id=%s answered %s body %.200s\n", q.At.Format("15:04:05.000"), q.Method, q.Path, q.ID, status, q.Body)
	}
	if b.Len() == 0 {
		return "  (nothing)\n"
	}
	return b.String()
}

// onPath matches requests to path.
func onPath(path string) func(hookRequest) bool {
	return func(q hookRequest) bool { return q.Path == path }
}

// eventOn matches requests to path carrying the event id.
func eventOn(path, id string) func(hookRequest) bool {
	return func(q hookRequest) bool { return q.Path == path && q.ID == id }
}

// ---- the API ---------------------------------------------------------

// hookEndpoint is a webhook endpoint on the wire; Secret only in the
// answers of POST /webhooks.
type hookEndpoint struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	State       string   `json:"state"`
	Secret      string   `json:"secret,omitempty"`
	CreatedAt   string   `json:"created_at"`
}

// hookEndpointFields are the fields of an endpoint as GET shows it.
var hookEndpointFields = []string{"id", "url", "events", "description", "state", "created_at"}

// hookDelivery is one attempt of GET /webhooks/{id}/deliveries.
type hookDelivery struct {
	ID         string  `json:"id"`
	EventID    string  `json:"event_id"`
	Attempt    int     `json:"attempt"`
	StatusCode *int    `json:"status_code"`
	Error      *string `json:"error"`
	DurationMS int64   `json:"duration_ms"`
	At         string  `json:"at"`
}

// hookEvent is an event: the body of a delivery and of GET /events/{id}.
type hookEvent struct {
	ID         string `json:"id"`
	Type       string `json:"type"`
	CreatedAt  string `json:"created_at"`
	APIVersion string `json:"api_version"`
	Data       struct {
		Object json.RawMessage `json:"object"`
	} `json:"data"`
}

// hookPage is one page of a list.
type hookPage[T any] struct {
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// hookAccount is an account with a key of scope webhooks.
func hookAccount(t *testing.T, srv *server, name string) (apiKey, *client.Client) {
	t.Helper()
	key := srv.createKey(t, srv.createAccount(t, name), "webhooks")
	return key, srv.client(t, key)
}

// hookKeyFor adds a webhooks key to a trader's account (newTrader's key has
// no webhooks scope) and returns it with its client.
func hookKeyFor(t *testing.T, tr *fxTrader) (apiKey, *client.Client) {
	t.Helper()
	key := tr.srv.createKey(t, tr.key.Account, "webhooks")
	return key, tr.srv.client(t, key)
}

// hookBody is the JSON of a POST /webhooks or PATCH body.
func hookBody(t *testing.T, fields map[string]any) string {
	t.Helper()
	b, err := json.Marshal(fields)
	require.NoError(t, err)
	return string(b)
}

// createHook registers an endpoint and checks the 201 shape: exactly the
// endpoint's fields and the secret, shown this once.
func createHook(t *testing.T, c *client.Client, fields map[string]any) hookEndpoint {
	t.Helper()
	resp := call(t, c, "POST", basePath+"/webhooks", hookBody(t, fields), nil)
	require.Equal(t, 201, resp.Status, "POST /webhooks %v: %s", fields, resp.Body)
	require.ElementsMatch(t, append([]string{"secret"}, hookEndpointFields...), sortedKeys(object(t, resp.Body)), "created endpoint %s", resp.Body)
	var e hookEndpoint
	decodeStrictJSON(t, resp.Body, &e)
	require.True(t, strings.HasPrefix(e.ID, "wh_"), "id %q", e.ID)
	require.Equal(t, "enabled", e.State)
	requireSecret(t, e.Secret)
	requireRFC3339UTC(t, e.CreatedAt)
	return e
}

// requireSecret requires whsec_ and the standard base64 of a key of 24 to
// 64 bytes (Standard Webhooks' range).
func requireSecret(t *testing.T, secret string) {
	t.Helper()
	require.True(t, strings.HasPrefix(secret, "whsec_"), "secret %q", secret)
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	require.NoError(t, err, "secret %q is not whsec_<base64>", secret)
	require.GreaterOrEqual(t, len(key), 24, "secret key of %d bytes", len(key))
	require.LessOrEqual(t, len(key), 64, "secret key of %d bytes", len(key))
}

func requireRFC3339UTC(t *testing.T, s string) time.Time {
	t.Helper()
	ts, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err, "time %q", s)
	require.True(t, strings.HasSuffix(s, "Z"), "time %q is not UTC", s)
	return ts
}

// decodeHook decodes an endpoint as GET and PATCH show it: no secret.
func decodeHook(t *testing.T, body []byte) hookEndpoint {
	t.Helper()
	require.ElementsMatch(t, hookEndpointFields, sortedKeys(object(t, body)), "endpoint %s", body)
	var e hookEndpoint
	decodeStrictJSON(t, body, &e)
	return e
}

func getHook(t *testing.T, c *client.Client, id string) hookEndpoint {
	t.Helper()
	resp := call(t, c, "GET", basePath+"/webhooks/"+id, "", nil)
	require.Equal(t, 200, resp.Status, "GET /webhooks/%s: %s", id, resp.Body)
	return decodeHook(t, resp.Body)
}

func patchHook(t *testing.T, c *client.Client, id string, fields map[string]any) hookEndpoint {
	t.Helper()
	resp := call(t, c, "PATCH", basePath+"/webhooks/"+id, hookBody(t, fields), nil)
	require.Equal(t, 200, resp.Status, "PATCH /webhooks/%s %v: %s", id, fields, resp.Body)
	return decodeHook(t, resp.Body)
}

// listHooks reads one page of GET /webhooks.
func listHooks(t *testing.T, c *client.Client, query string) hookPage[hookEndpoint] {
	t.Helper()
	resp := call(t, c, "GET", basePath+"/webhooks"+query, "", nil)
	require.Equal(t, 200, resp.Status, "GET /webhooks%s: %s", query, resp.Body)
	var raw hookPage[json.RawMessage]
	decodeStrictJSON(t, resp.Body, &raw)
	page := hookPage[hookEndpoint]{HasMore: raw.HasMore, NextCursor: raw.NextCursor, Data: []hookEndpoint{}}
	for _, r := range raw.Data {
		page.Data = append(page.Data, decodeHook(t, r))
	}
	return page
}

// sendTest asks for a test delivery and returns its delivery id.
func sendTest(t *testing.T, c *client.Client, id string) string {
	t.Helper()
	resp := call(t, c, "POST", basePath+"/webhooks/"+id+"/test", "", nil)
	require.Equal(t, 202, resp.Status, "POST /webhooks/%s/test: %s", id, resp.Body)
	var out struct {
		DeliveryID string `json:"delivery_id"`
	}
	decodeStrictJSON(t, resp.Body, &out)
	require.True(t, strings.HasPrefix(out.DeliveryID, "dlv_"), "delivery_id %q", out.DeliveryID)
	return out.DeliveryID
}

// deliveriesPage reads one page of GET /webhooks/{id}/deliveries and checks
// each row's shape.
func deliveriesPage(t *testing.T, c *client.Client, id, query string) hookPage[hookDelivery] {
	t.Helper()
	resp := call(t, c, "GET", basePath+"/webhooks/"+id+"/deliveries"+query, "", nil)
	require.Equal(t, 200, resp.Status, "GET /webhooks/%s/deliveries%s: %s", id, query, resp.Body)
	var raw hookPage[json.RawMessage]
	decodeStrictJSON(t, resp.Body, &raw)
	page := hookPage[hookDelivery]{HasMore: raw.HasMore, NextCursor: raw.NextCursor}
	for _, r := range raw.Data {
		require.ElementsMatch(t, []string{"id", "event_id", "attempt", "status_code", "error", "duration_ms", "at"},
			sortedKeys(object(t, r)), "delivery row %s", r)
		var d hookDelivery
		decodeStrictJSON(t, r, &d)
		require.True(t, strings.HasPrefix(d.ID, "dlv_"), "delivery %s", r)
		require.True(t, strings.HasPrefix(d.EventID, "evt_"), "delivery %s", r)
		require.GreaterOrEqual(t, d.Attempt, 1, "delivery %s", r)
		require.GreaterOrEqual(t, d.DurationMS, int64(0), "delivery %s", r)
		requireRFC3339UTC(t, d.At)
		page.Data = append(page.Data, d)
	}
	return page
}

// deliveries reads every attempt to the endpoint (one page of 200; the
// tests stay below it).
func deliveries(t *testing.T, c *client.Client, id string) []hookDelivery {
	t.Helper()
	page := deliveriesPage(t, c, id, "?limit=200")
	require.False(t, page.HasMore, "more than 200 attempts to %s", id)
	return page.Data
}

// awaitDeliveries polls the endpoint's attempts until cond holds.
func awaitDeliveries(t *testing.T, srv *server, c *client.Client, id, what string, within time.Duration, cond func([]hookDelivery) bool) []hookDelivery {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		ds := deliveries(t, c, id)
		if cond(ds) {
			return ds
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries of %s: %s not within %v; they are %s\nserver stderr:\n%s", id, what, within, fmtDeliveries(ds), tail(srv.Stderr(), 8<<10))
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func fmtDeliveries(ds []hookDelivery) string {
	var b strings.Builder
	for _, d := range ds {
		sc, e := "null", "null"
		if d.StatusCode != nil {
			sc = strconv.Itoa(*d.StatusCode)
		}
		if d.Error != nil {
			e = strconv.Quote(*d.Error)
		}
		fmt.Fprintf(&b, "\n  %s %s attempt %d status %s error %s %d ms at %s", d.ID, d.EventID, d.Attempt, sc, e, d.DurationMS, d.At)
	}
	if b.Len() == 0 {
		return "(none)"
	}
	return b.String()
}

// ofEvent filters attempts by event id.
func ofEvent(ds []hookDelivery, eventID string) []hookDelivery {
	var out []hookDelivery
	for _, d := range ds {
		if d.EventID == eventID {
			out = append(out, d)
		}
	}
	return out
}

// ofDelivery filters attempts by delivery id.
func ofDelivery(ds []hookDelivery, deliveryID string) []hookDelivery {
	var out []hookDelivery
	for _, d := range ds {
		if d.ID == deliveryID {
			out = append(out, d)
		}
	}
	return out
}

// succeeded reports whether an attempt got a 2xx.
func succeeded(d hookDelivery) bool {
	return d.StatusCode != nil && *d.StatusCode >= 200 && *d.StatusCode < 300
}

// eventOfDelivery waits for the first attempt of a delivery (a test's
// delivery_id) and returns its event id.
func eventOfDelivery(t *testing.T, srv *server, c *client.Client, endpointID, deliveryID string) string {
	t.Helper()
	ds := awaitDeliveries(t, srv, c, endpointID, "an attempt of "+deliveryID, hookDeadline, func(ds []hookDelivery) bool {
		return len(ofDelivery(ds, deliveryID)) > 0
	})
	return ofDelivery(ds, deliveryID)[0].EventID
}

// getEvent reads GET /events/{id} and returns its raw body.
func getEvent(t *testing.T, c *client.Client, id string) []byte {
	t.Helper()
	resp := call(t, c, "GET", basePath+"/events/"+id, "", nil)
	require.Equal(t, 200, resp.Status, "GET /events/%s: %s", id, resp.Body)
	return resp.Body
}

// eventsPage reads one page of GET /events.
func eventsPage(t *testing.T, c *client.Client, query string) hookPage[json.RawMessage] {
	t.Helper()
	resp := call(t, c, "GET", basePath+"/events"+query, "", nil)
	require.Equal(t, 200, resp.Status, "GET /events%s: %s", query, resp.Body)
	var page hookPage[json.RawMessage]
	decodeStrictJSON(t, resp.Body, &page)
	return page
}

// allEvents pages through GET /events (extra query, e.g. "&type=…") with
// pages of pageSize, checking the cursor rules, and returns the events in
// list order.
func allEvents(t *testing.T, c *client.Client, pageSize int, extra string) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	query := fmt.Sprintf("?limit=%d%s", pageSize, extra)
	for pages := 0; ; pages++ {
		require.Less(t, pages, 1000, "GET /events never ends")
		page := eventsPage(t, c, query)
		require.LessOrEqual(t, len(page.Data), pageSize)
		out = append(out, page.Data...)
		if !page.HasMore {
			require.Nil(t, page.NextCursor, "next_cursor of the last page")
			return out
		}
		require.NotEmpty(t, page.Data)
		require.NotNil(t, page.NextCursor, "has_more without next_cursor")
		var last hookEvent
		decodeStrictJSON(t, page.Data[len(page.Data)-1], &last)
		require.Equal(t, last.ID, *page.NextCursor, "next_cursor is the id of the last item")
		query = fmt.Sprintf("?limit=%d&starting_after=%s%s", pageSize, *page.NextCursor, extra)
	}
}

// requireSigned checks a delivery's Standard Webhooks headers: webhook-id
// is the body's event id, the timestamp is now, every signature is v1 and
// standardwebhooks verified it with each of secrets.
func requireSigned(t *testing.T, q hookRequest, secrets ...string) hookEvent {
	t.Helper()
	require.Equal(t, "POST", q.Method)
	e := q.event(t)
	require.Equal(t, e.ID, q.ID, "webhook-id is the event id")
	require.True(t, strings.HasPrefix(e.ID, "evt_"), "event id %q", e.ID)
	require.Equal(t, "1.0.0", e.APIVersion)
	requireRFC3339UTC(t, e.CreatedAt)
	ts, err := strconv.ParseInt(q.Timestamp, 10, 64)
	require.NoError(t, err, "webhook-timestamp %q", q.Timestamp)
	require.InDelta(t, q.At.Unix(), ts, 60, "webhook-timestamp %d is the time of the attempt", ts)
	for _, sig := range strings.Split(q.Signatures, " ") {
		b64, ok := strings.CutPrefix(sig, "v1,")
		require.True(t, ok, "webhook-signature %q", q.Signatures)
		raw, err := base64.StdEncoding.DecodeString(b64)
		require.NoError(t, err, "webhook-signature %q", q.Signatures)
		require.Len(t, raw, 32, "HMAC-SHA256 in %q", q.Signatures)
	}
	for _, s := range secrets {
		require.True(t, q.Verified[s], "standardwebhooks does not verify %s %s on %s with secret %d of %d; verified %v, webhook-signature %q",
			e.Type, e.ID, q.Path, indexOf(secrets, s)+1, len(secrets), q.Verified, q.Signatures)
	}
	return e
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// objectMap decodes a JSON object keeping numbers exact.
func objectMap(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	return object(t, raw)
}

// requireObjectIsGET requires data.object of an event to equal, field by
// field, the record's own GET (read right after the event arrived).
func requireObjectIsGET(t *testing.T, c *client.Client, e hookEvent, target string) {
	t.Helper()
	got := objectMap(t, e.Data.Object)
	want := objectMap(t, getOK(t, c, target))
	require.ElementsMatch(t, sortedKeys(want), sortedKeys(got), "%s %s: data.object has the fields of GET %s", e.Type, e.ID, target)
	for _, k := range sortedKeys(want) {
		require.Equal(t, want[k], got[k], "%s %s: data.object.%s differs from GET %s", e.Type, e.ID, k, target)
	}
}

// ---- reaching the events of records ----------------------------------

// confirmTransfer pays 5 USDC to a fresh address by a same-currency
// transfer, broadcast with ethers and submitted, and returns it confirmed.
func confirmTransfer(t *testing.T, tr *fxTrader) transferView {
	t.Helper()
	payee := newEthKey(t).Address
	v := tr.mustCreate(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":"5","recipient":%q,"memo":"webhook e2e"}`, payee.Hex()))
	hash, status := tr.sendTx(t, tr.wallet, signingTx(t, v.Signing), 0)
	require.Equal(t, 1, status, "transfer tx %s", hash)
	sub := tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"tx_hash":%q}`, hash))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	return tr.awaitTransfer(t, v.ID, "confirmed", 60*time.Second)
}

// settleAMMOrder swaps 10 USDC for EURC on the AMM (quote, accept, sign,
// submit) and returns the order settled.
func settleAMMOrder(t *testing.T, tr *fxTrader) orderView {
	t.Helper()
	q := tr.quote(t, "USDC", "EURC", "10")
	resp, o := tr.accept(t, q.pick(t, "amm").ID, "")
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	sub := tr.submit(t, o.OrderID, fmt.Sprintf(`{"signature":%q}`, tr.signTyped(t, o.Signing)))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	return tr.await(t, o.OrderID, "settled", 60*time.Second)
}

// payLink creates a 15 USDC link and has a stranger pay it in full with a
// plain ERC-20 transfer; it returns the link paid.
func payLink(t *testing.T, tr *fxTrader) linkView {
	t.Helper()
	l := tr.createLink(t, `{"currency":"USDC","amount":"15","description":"webhook e2e"}`)
	payer := newEthKey(t)
	tr.srv.faucet(t, payer.Address, "USDC", "15")
	erc20Transfer(t, tr.rpc, tr.chainID, payer, tr.tokens["USDC"], common.HexToAddress(l.ReceiveAddress), units(15))
	return tr.awaitLink(t, l.ID, "paid", 60*time.Second)
}

// sameBytes requires the delivered body and the GET body to be the same
// bytes, showing both otherwise.
func sameBytes(t *testing.T, delivered string, got []byte, what string) {
	t.Helper()
	require.True(t, bytes.Equal([]byte(delivered), got), "%s: GET /events/{id} is not byte for byte the delivered body\ndelivered: %q\nGET:       %q", what, delivered, got)
}

// TestWebhookReceiverFixture checks the fixture on its own, without fxd:
// the receiver serves the test certificate (trusted through the test CA,
// for 127.0.0.1), standardwebhooks verifies a delivery signed exactly as
// CONTRACT.md says (v1,base64 HMAC-SHA256(key, id.timestamp.body), secret
// whsec_<base64 key>) and refuses it with another secret, each path answers
// as documented, and a receiver comes back on its port after a kill.
func TestWebhookReceiverFixture(t *testing.T) {
	t.Parallel()
	tlsf := makeHookTLS(t)
	r := startReceiver(t, tlsf, 0)
	key := make([]byte, 32)
	_, err := rand.Read(key)
	require.NoError(t, err)
	secret := "whsec_" + base64.StdEncoding.EncodeToString(key)
	other := "whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 32))
	r.addSecret(t, secret)
	r.addSecret(t, other)
	r.addSecret(t, secret) // known already: no change

	caPEM, err := os.ReadFile(tlsf.CAFile)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(caPEM))
	hc := &http.Client{
		Timeout:       3 * time.Second,
		Transport:     &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	t.Cleanup(hc.CloseIdleConnections)
	const id = "evt_fixture"
	body := `{"id":"evt_fixture","type":"webhook.test","created_at":"2026-01-01T00:00:00Z","api_version":"1.0.0","data":{"object":{"endpoint_id":"wh_fixture"}}}`
	post := func(r *hookReceiver, path string) (int, error) {
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		mac := hmac.New(sha256.New, key)
		mac.Write([]byte(id + "." + ts + "." + body))
		req, err := http.NewRequest("POST", r.url(path), strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("webhook-id", id)
		req.Header.Set("webhook-timestamp", ts)
		req.Header.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
		resp, err := hc.Do(req)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}

	st, err := post(r, "/ok/a")
	require.NoError(t, err)
	require.Equal(t, 200, st)
	q := r.await(t, "the request on /ok/a", 10*time.Second, onPath("/ok/a"))
	require.Equal(t, body, q.Body)
	require.Equal(t, map[string]bool{secret: true, other: false}, q.Verified)
	requireSigned(t, q, secret)

	for path, want := range map[string]int{"/fail/x": 500, "/status/503/x": 503, "/redirect/x": 302, "/nothing": 404} {
		st, err := post(r, path)
		require.NoError(t, err, path)
		require.Equal(t, want, st, path)
	}
	for i, want := range []int{500, 500, 200, 200} {
		st, err := post(r, "/flaky/2/x")
		require.NoError(t, err)
		require.Equal(t, want, st, "request %d on /flaky/2/x", i+1)
	}
	_, err = post(r, "/hang/x")
	require.Error(t, err, "/hang never answers")
	require.Nil(t, r.await(t, "the request on /hang/x", 10*time.Second, onPath("/hang/x")).Status)
	require.Empty(t, r.requests(func(q hookRequest) bool { return strings.HasPrefix(q.Path, "/ok/from-redirect") }))

	port := r.Port
	r.Kill()
	_, err = post(r, "/ok/down")
	require.Error(t, err, "a killed receiver is down")
	r2 := startReceiver(t, tlsf, port)
	require.Equal(t, port, r2.Port)
	st, err = post(r2, "/ok/b")
	require.NoError(t, err)
	require.Equal(t, 200, st)
	require.Empty(t, r2.await(t, "the request on /ok/b", 10*time.Second, onPath("/ok/b")).Verified, "a new receiver knows no secret yet")
}
