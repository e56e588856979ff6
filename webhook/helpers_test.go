package webhook

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/webhook/screen"
	"github.com/fxd-labs/fxd/webhook/secret"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// Deadlines of the polls: generous, since they bound waiting, they do not
// assert timing.
const (
	waitFor  = 15 * time.Second
	pollTick = 5 * time.Millisecond
)

// shortSchedule is n waits of 50 ms (12 reach the 10 failures that
// disable an endpoint before the schedule is spent).
func shortSchedule(n int) []time.Duration {
	s := make([]time.Duration, n)
	for i := range s {
		s[i] = 50 * time.Millisecond
	}
	return s
}

func quietLogger() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }

// testSealer is a sealer under a fixed test master key.
func testSealer(t *testing.T) *secret.Sealer {
	t.Helper()
	key := sha256.Sum256([]byte("fxd webhook desk tests"))
	s, err := secret.NewSealer(key[:])
	require.NoError(t, err)
	return s
}

// --- TLS ---------------------------------------------------------------

var (
	certOnce sync.Once
	certPair tls.Certificate
	certPool *x509.CertPool
	certErr  error
)

// receiverCert is a self-signed certificate for the receivers: loopback
// IPs and the fake names the resolver tests use. Its pool is the desk's
// RootCAs.
func receiverCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	certOnce.Do(func() {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			certErr = err
			return
		}
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(1),
			Subject:               pkix.Name{CommonName: "fxd webhook test receiver"},
			NotBefore:             time.Now().Add(-time.Hour),
			NotAfter:              time.Now().Add(24 * time.Hour),
			KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
			ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
			BasicConstraintsValid: true,
			IsCA:                  true,
			DNSNames:              []string{"hooks.test", "good.test", "localhost"},
			IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
		if err != nil {
			certErr = err
			return
		}
		leaf, err := x509.ParseCertificate(der)
		if err != nil {
			certErr = err
			return
		}
		certPair = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}
		certPool = x509.NewCertPool()
		certPool.AddCert(leaf)
	})
	require.NoError(t, certErr)
	return certPair, certPool
}

// --- receiver ----------------------------------------------------------

// hit is one request a receiver got.
type hit struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
	At     time.Time
}

// receiver is a real TLS webhook receiver on loopback that records every
// request and answers with status (settable), or with a custom handler.
type receiver struct {
	srv    *httptest.Server
	status atomic.Int32
	// before, when set, runs first; it may block (a hanging receiver).
	before func(w http.ResponseWriter, r *http.Request) bool

	mu   sync.Mutex
	hits []hit
}

func newReceiver(t *testing.T, status int) *receiver {
	t.Helper()
	cert, _ := receiverCert(t)
	rc := &receiver{}
	rc.status.Store(int32(status))
	rc.srv = httptest.NewUnstartedServer(http.HandlerFunc(rc.serve))
	rc.srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}}
	rc.srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	rc.srv.StartTLS()
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.hits = append(rc.hits, hit{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, At: time.Now()})
	before := rc.before
	rc.mu.Unlock()
	if before != nil && before(w, r) {
		return
	}
	w.WriteHeader(int(rc.status.Load()))
}

// URL is the receiver's https URL on 127.0.0.1, with a path.
func (rc *receiver) URL() string { return rc.srv.URL + "/hooks" }

// port is the receiver's TCP port.
func (rc *receiver) port() string {
	_, p, _ := net.SplitHostPort(strings.TrimPrefix(rc.srv.URL, "https://"))
	return p
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.hits)
}

func (rc *receiver) got() []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.hits...)
}

// hitsFor are the requests that carried event evt.
func (rc *receiver) hitsFor(evt string) []hit {
	var out []hit
	for _, h := range rc.got() {
		if h.Header.Get("webhook-id") == evt {
			out = append(out, h)
		}
	}
	return out
}

// waitHits waits until the receiver got at least n requests.
func (rc *receiver) waitHits(t *testing.T, n int) []hit {
	t.Helper()
	require.Eventually(t, func() bool { return rc.count() >= n }, waitFor, pollTick, "receiver: want %d requests, got %d", n, rc.count())
	return rc.got()
}

// --- resolver ----------------------------------------------------------

// fakeResolver answers names from a table it can change; an unknown name
// does not exist. It never touches the network.
type fakeResolver struct {
	mu    sync.Mutex
	names map[string][]netip.Addr
}

func newFakeResolver() *fakeResolver { return &fakeResolver{names: map[string][]netip.Addr{}} }

func (r *fakeResolver) set(name string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		out[i] = netip.MustParseAddr(a)
	}
	r.names[name] = out
}

func (r *fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if a, ok := r.names[host]; ok {
		return append([]netip.Addr(nil), a...), nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// --- engine and desk ---------------------------------------------------

// harness is a real engine (WAL and Pebble on a temp dir) with a desk.
type harness struct {
	t    *testing.T
	dir  string
	cfg  Config // as given, without Engine
	e    *actors.Engine
	d    *Desk
	acct string

	// stopDesk stops the desk once (Stop twice panics: see the report);
	// closeAll stops it and closes the engine, once.
	stopDesk, closeAll func()
}

// newHarness opens an engine and a desk on a fresh dir, with an account.
// cfg.Policy, cfg.RootCAs, cfg.Logger and cfg.Sealer are filled when
// unset (noSealer keeps Sealer nil).
func newHarness(t *testing.T, cfg Config, noSealer bool) *harness {
	t.Helper()
	_, pool := receiverCert(t)
	cfg.Policy.AllowLoopback = true
	if cfg.RootCAs == nil {
		cfg.RootCAs = pool
	}
	if cfg.Logger == nil {
		cfg.Logger = quietLogger()
	}
	if cfg.Sealer == nil && !noSealer {
		cfg.Sealer = testSealer(t)
	}
	h := &harness{t: t, dir: t.TempDir(), cfg: cfg}
	h.open()
	h.acct = h.newAccount("webhooks")
	return h
}

// open opens the engine and the desk on h.dir: hooks before Recover,
// Start after.
func (h *harness) open() {
	h.t.Helper()
	h.openOn(actors.Config{DataDir: h.dir, Logger: quietLogger()})
}

// openOn is open with the engine's configuration (a cluster node's: see
// openClusterNode).
func (h *harness) openOn(ecfg actors.Config) {
	t := h.t
	t.Helper()
	e, err := actors.Open(ecfg)
	require.NoError(t, err)
	cfg := h.cfg
	cfg.Engine = e
	d := New(cfg)
	d.AddHooks(e)
	require.NoError(t, e.Recover())
	require.NoError(t, d.Start(context.Background()))
	h.e, h.d = e, d
	var stopOnce, closeOnce sync.Once
	stop := func() { stopOnce.Do(d.Stop) }
	h.stopDesk = stop
	h.closeAll = func() {
		closeOnce.Do(func() {
			stop()
			require.NoError(t, e.Close())
		})
	}
	t.Cleanup(h.closeAll)
}

// restart stops the desk, closes the engine, runs between (if any) while
// both are down, and opens both again on the same dir.
func (h *harness) restart(between ...func()) {
	h.t.Helper()
	h.closeAll()
	for _, f := range between {
		f()
	}
	h.open()
}

func (h *harness) newAccount(name string) string {
	h.t.Helper()
	out, err := h.e.CreateAccount(context.Background(), domain.CreateAccount{Name: name, KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(h.t, err)
	require.Equal(h.t, 201, out.Reply.Status, "%s", out.Reply.Body)
	var a struct{ ID string }
	require.NoError(h.t, json.Unmarshal(out.Reply.Body, &a))
	require.NotEmpty(h.t, a.ID)
	return a.ID
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// created is POST /webhooks's answer.
type created struct {
	ID        string   `json:"id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	State     string   `json:"state"`
	Secret    string   `json:"secret"`
	CreatedAt string   `json:"created_at"`
}

// createEndpoint registers url for acct (events nil: all) and returns the
// answer, requiring a 201.
func (h *harness) createEndpoint(acct, url string, events ...string) created {
	h.t.Helper()
	req := EndpointRequest{URL: url}
	if events != nil {
		req.Events = &events
	}
	out, err := h.d.CreateEndpoint(ctxT(h.t), acct, req, nil)
	require.NoError(h.t, err)
	require.Equal(h.t, 201, out.Reply.Status, "%s", out.Reply.Body)
	var c created
	require.NoError(h.t, json.Unmarshal(out.Reply.Body, &c))
	require.True(h.t, strings.HasPrefix(c.Secret, sign.SecretPrefix), "secret %q", c.Secret)
	return c
}

// setState is PATCH /webhooks/{id} {"state":…}, requiring a 200.
func (h *harness) setState(acct, id, state string) {
	h.t.Helper()
	out, err := h.d.UpdateEndpoint(ctxT(h.t), acct, id, EndpointUpdate{State: &state}, nil)
	require.NoError(h.t, err)
	require.Equal(h.t, 200, out.Reply.Status, "%s", out.Reply.Body)
}

// sendTest is POST /webhooks/{id}/test, requiring a 202; it returns the
// delivery id.
func (h *harness) sendTest(acct, id string) string {
	h.t.Helper()
	out, err := h.d.TestEndpoint(ctxT(h.t), acct, id, nil)
	require.NoError(h.t, err)
	require.Equal(h.t, 202, out.Reply.Status, "%s", out.Reply.Body)
	var v domain.TestDeliveryView
	require.NoError(h.t, json.Unmarshal(out.Reply.Body, &v))
	require.True(h.t, strings.HasPrefix(v.DeliveryID, "dlv_"), "delivery id %q", v.DeliveryID)
	return v.DeliveryID
}

// endpoint reads the endpoint's committed row.
func (h *harness) endpoint(id string) *domain.Endpoint {
	h.t.Helper()
	r, err := h.e.Row(ctxT(h.t), domain.KindEndpoint, id, "")
	require.NoError(h.t, err)
	return r.(*domain.Endpoint)
}

// event reads the event's committed row.
func (h *harness) event(id string) *domain.WebhookEvent {
	h.t.Helper()
	r, err := h.e.Row(ctxT(h.t), domain.KindEvent, id, "")
	require.NoError(h.t, err)
	return r.(*domain.WebhookEvent)
}

// delivery finds delivery dlv of endpoint ep in the store's index and
// returns its event's row and the delivery.
func (h *harness) delivery(ep, dlv string) (*domain.WebhookEvent, *domain.Delivery) {
	h.t.Helper()
	ctx := ctxT(h.t)
	var evt string
	require.NoError(h.t, h.e.Deliveries(ctx, ep, "", 1<<20, func(ref snapshot.DeliveryRef) error {
		if ref.Delivery == dlv {
			evt = ref.Event
		}
		return nil
	}))
	require.NotEmpty(h.t, evt, "delivery %s of %s not indexed", dlv, ep)
	w := h.event(evt)
	d := w.Delivery(dlv)
	require.NotNil(h.t, d)
	return w, d
}

// waitDelivery polls delivery dlv of endpoint ep until cond holds.
func (h *harness) waitDelivery(ep, dlv string, what string, cond func(*domain.Delivery) bool) *domain.Delivery {
	h.t.Helper()
	var last *domain.Delivery
	require.Eventually(h.t, func() bool {
		_, last = h.delivery(ep, dlv)
		return cond(last)
	}, waitFor, pollTick, "delivery %s: %s; last %+v", dlv, what, last)
	return last
}

// deliveryOf returns the id of the delivery of event evt to endpoint ep.
func deliveryOf(t *testing.T, w *domain.WebhookEvent, ep string) string {
	t.Helper()
	for _, d := range w.Deliveries {
		if d.Endpoint == ep {
			return d.ID
		}
	}
	t.Fatalf("event %s has no delivery to %s", w.ID, ep)
	return ""
}

// errorCode reads the code of an error answer.
func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Message string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	return e.Error.Code
}

// verify checks a received request as a Standard Webhooks receiver does.
func verify(secret string, hh hit) error {
	return sign.Verify(secret, hh.Header.Get("webhook-id"), hh.Header.Get("webhook-timestamp"),
		hh.Header.Get("webhook-signature"), hh.Body, time.Now(), 0)
}

// fireTransfer creates a same-currency transfer of acct and confirms it
// with a verified tx, the real path that bears a transfer.confirmed event
// in the transfer's record; it returns the event id.
func (h *harness) fireTransfer(acct string, n int) string {
	h.t.Helper()
	ctx := ctxT(h.t)
	id := h.e.NewID("tr_", acct)
	out, err := h.e.Create(ctx, id, domain.Request{Cmd: domain.CreateTransfer{ID: id, Account: acct, FromCurrency: "USDC", Currency: "USDC",
		Amount: big.NewInt(int64(n + 1)), Recipient: "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		SourceWallet: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", Signing: []byte(`{}`)}})
	require.NoError(h.t, err)
	require.Equal(h.t, 201, out.Reply.Status, "%s", out.Reply.Body)
	tx := fmt.Sprintf("0x%064x", n+1)
	out, err = h.e.Exec(ctx, id, domain.Request{Cmd: domain.SubmitTransferTx{TxHash: tx, Status: domain.TxVerified}})
	require.NoError(h.t, err)
	require.Equal(h.t, 200, out.Reply.Status, "%s", out.Reply.Body)
	r, err := h.e.Row(ctx, domain.KindTransfer, id, acct)
	require.NoError(h.t, err)
	tr := r.(*domain.Transfer)
	require.Equal(h.t, domain.TransferConfirmed, tr.State)
	require.NotEmpty(h.t, tr.EventID)
	return tr.EventID
}

// waitFannedOut waits until event evt is fanned out and returns its row.
func (h *harness) waitFannedOut(evt string) *domain.WebhookEvent {
	h.t.Helper()
	var w *domain.WebhookEvent
	require.Eventually(h.t, func() bool {
		r, err := h.e.Row(ctxT(h.t), domain.KindEvent, evt, "")
		if err != nil {
			return false
		}
		w = r.(*domain.WebhookEvent)
		return w.FannedOut
	}, waitFor, pollTick, "event %s not fanned out", evt)
	return w
}

var _ screen.Resolver = (*fakeResolver)(nil)
