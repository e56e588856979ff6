package bench

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"math"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/webhook"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// The webhook delivery phase (fxbench -only webhooks): a fresh fxd, started
// with the test environment's webhook flags, delivers to an HTTPS receiver
// in this process. One account has two endpoints: a healthy one (the
// receiver, answering 200) and a dead one (a closed loopback port: every
// attempt is refused, and after 10 consecutive failures the server
// disables it; the phase enables it again every webhookReenableEvery, so
// it retries all through the measurement).
//
// Only webhook.test events can be made without the chain, one per POST
// /webhooks/{id}/test, a write (120 a minute per key): the phase offers
// them open loop at a fixed rate through as many keys of the account as
// the window needs, and measures each event from the API's 202 to its
// arrival at the receiver. Then the receiver holds its answers while a
// backlog of tests is made as fast as the API takes them, and lets go: the
// rate at which the backlog drains is the delivery pipeline's capacity.

const (
	webhooksPath = basePath + "/webhooks"

	// The targets, on the 2-core bench machine.
	webhookRateTarget     = 2000.0 // deliveries/s
	webhookLagP99TargetMs = 250.0

	defaultWebhookRate     = 2000
	defaultWebhookDrain    = 10_000
	defaultWebhookDeadPile = 200

	// defaultWebhookSchedule is --webhook-retry-schedule: short waits, so
	// the dead endpoint's deliveries fall due again within the phase (12
	// waits: a delivery fails after 13 attempts). WebhookScheduleServer
	// passes none: the server's default (10 s, 1 m, …).
	defaultWebhookSchedule = "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s,1s"
	WebhookScheduleServer  = "default"
	// webhookReenableEvery is how often the phase enables the dead
	// endpoint again (PATCH {"state":"enabled"}): each time it retries
	// until MaxConsecutiveFailures disable it.
	webhookReenableEvery = 500 * time.Millisecond
	// webhookCtlKeys sign the phase's own requests (registration,
	// re-enabling, lists), within their per-key limits.
	webhookCtlKeys = 4
	// webhookWarmTests are sent one by one before the loads, to open the
	// sender's connections and check the whole path once.
	webhookWarmTests = 5
	// The drain: the receiver holds every delivery (16 in flight, the
	// server's per-endpoint bound) while the backlog is made, for at most
	// webhookDrainCreateMax; an attempt times out after 10 s
	// (webhook.AttemptTimeout), so the receiver lets go after
	// webhookHoldMax whatever happens.
	webhookDrainCreateMax = 6 * time.Second
	webhookHoldMax        = 8 * time.Second
	webhookDrainConns     = 64
	// webhookDeliverWait bounds the wait for every delivery of the open
	// loop to arrive; webhookDrainWait the drain's (its rate is measured
	// over what arrived by then).
	webhookDeliverWait = 60 * time.Second
	webhookDrainWait   = 30 * time.Second
	// The drain's timeline: a sample every webhookSampleEvery, at most
	// webhookMaxSamples.
	webhookSampleEvery = 250 * time.Millisecond
	webhookMaxSamples  = 400
	// webhookWritesTolerance is how far below the last saved durable
	// writes/s a run may fall and count as unchanged (the spread of
	// saved full runs on the shared bench machine is a few per cent).
	webhookWritesTolerance = 0.90
	receiverPath           = "/hook"
)

// WebhookPhase is the webhook delivery phase.
type WebhookPhase struct {
	Setup WebhookSetup `json:"setup"`
	// Tests is the API side of the open loop: POST /webhooks/{id}/test
	// to the healthy endpoint at the offered rate.
	// Tests and Delivery merge fxd's rounds; Floor merges the floor's
	// (the bench posting signed deliveries straight to the receiver);
	// Rounds holds each round, in the order run (webhookrounds.go).
	Tests    *OpenResult      `json:"tests,omitempty"`
	Delivery *WebhookDelivery `json:"delivery,omitempty"`
	Floor    *WebhookLoop     `json:"floor,omitempty"`
	Rounds   []WebhookRound   `json:"rounds,omitempty"`
	Drain    *WebhookDrain    `json:"drain,omitempty"`
	Dead     *WebhookDead     `json:"dead,omitempty"`
	// Writes is POST /contacts on this phase's fxd, as the suite's
	// durable write phase runs it (-only webhooks; the full run has its
	// own).
	Writes     *LoadResult `json:"writes,omitempty"`
	PprofFiles []string    `json:"pprof_files,omitempty"`
	Notes      []string    `json:"notes,omitempty"`
}

// WebhookSetup is what the phase made.
type WebhookSetup struct {
	Account        string  `json:"account"`
	Keys           int     `json:"keys"` // webhooks scope, all on Account
	TestKeys       int     `json:"test_keys"`
	DrainKeys      int     `json:"drain_keys"`
	Healthy        string  `json:"healthy_endpoint"`
	Dead           string  `json:"dead_endpoint"`
	Schedule       string  `json:"retry_schedule"`
	DeadPile       int     `json:"dead_pending_made"` // tests made on the dead endpoint before it died
	DeadHeld       int     `json:"dead_attempts_held"`
	WritesAccounts int     `json:"writes_accounts,omitempty"`
	WritesKeys     int     `json:"writes_keys,omitempty"`
	Seconds        float64 `json:"setup_s"`
}

// WebhookDelivery is the open loop seen from the receiver.
type WebhookDelivery struct {
	OfferedRate  float64 `json:"offered_rate_per_s"`
	WindowS      float64 `json:"window_s"`
	WindowEvents int64   `json:"window_events"` // 202s to window slots
	Delivered    int64   `json:"delivered"`     // of them, arrived at the receiver
	Missing      int64   `json:"missing"`
	Unjoined     int64   `json:"unjoined"` // 202s whose delivery the deliveries list lacks
	// Rate is Delivered / WindowS: the deliveries/s the pipeline
	// sustained for the offered rate. ReceiverRate counts every arrival at
	// the receiver within the window, whatever its event.
	Rate         float64 `json:"delivered_per_s"`
	ReceiverRate float64 `json:"receiver_arrivals_per_s"`
	// Lag is from the client reading the 202 (after the event's commit)
	// to the receiver answering; LagFromSend from the POST going out
	// (before the commit): the true lag lies between them. BeforeReply
	// counts deliveries that arrived before the client read the 202
	// (lag 0).
	Lag         Latency `json:"lag_from_202"`
	LagFromSend Latency `json:"lag_from_send"`
	BeforeReply int64   `json:"arrived_before_202"`
	// BySecond is the lag from the 202 per second of the window (by the
	// 202's time), to line a tail up with what else happened then.
	BySecond []SecondLag `json:"lag_by_second,omitempty"`
	// LastArrivalS is how long after the window's last slot the last of
	// its events arrived.
	LastArrivalS float64 `json:"last_arrival_after_window_s"`
	// Attempt is the server's own duration_ms of the healthy endpoint's
	// attempts (GET /webhooks/{id}/deliveries); FailedAttempts its non-2xx.
	Attempt        Latency  `json:"attempt_duration_server"`
	FailedAttempts int64    `json:"failed_attempts"`
	Receiver       Receiver `json:"receiver"`
	// CPU over the window per window event delivered: the server's covers
	// its API request and its delivery; this process's the load, the
	// receiver and its TLS.
	ServerCPUUs    float64 `json:"server_cpu_us_per_event,omitempty"`
	ServerCores    float64 `json:"server_cores,omitempty"`
	GeneratorCPUUs float64 `json:"generator_cpu_us_per_event"`
	OtherCores     float64 `json:"other_cores"`
}

// Valid reports whether every event of the window was answered and
// delivered, each once checked for its signature and body.
func (d *WebhookDelivery) Valid(tests *OpenResult) bool {
	return d != nil && tests != nil && tests.Valid() && tests.Errors() == 0 && d.Delivered > 0 && d.Missing == 0 &&
		d.Unjoined == 0 && d.Receiver.BadSignatures == 0 && d.Receiver.BadBodies == 0
}

// WebhookDrain is the backlog drain.
type WebhookDrain struct {
	// Create made the backlog: POST /webhooks/{id}/test closed loop, while
	// the receiver held the 16 attempts in flight.
	Create    *LoadResult `json:"create,omitempty"`
	Created   int64       `json:"created"`
	HeldS     float64     `json:"held_s"`
	Delivered int64       `json:"delivered"`
	// DrainS is from the receiver letting go to the last arrival.
	DrainS         float64  `json:"drain_s"`
	Rate           float64  `json:"delivered_per_s"`
	FirstArrivalMs float64  `json:"first_arrival_ms"`
	Receiver       Receiver `json:"receiver"`
	// Timeline samples the drain every webhookSampleEvery from the
	// receiver letting go: arrivals so far and fxd's webhook gauges.
	Timeline       []DrainSample `json:"timeline,omitempty"`
	ServerCPUUs    float64       `json:"server_cpu_us_per_delivery,omitempty"`
	ServerCores    float64       `json:"server_cores,omitempty"`
	GeneratorCPUUs float64       `json:"generator_cpu_us_per_delivery"`
	OtherCores     float64       `json:"other_cores"`
}

// Valid reports whether the backlog was made and some of it delivered,
// every delivery checked, none held past the attempts' timeout: a rate
// was measured. Whether all arrived (within webhookDrainWait) is
// Complete.
func (d *WebhookDrain) Valid() bool {
	return d != nil && d.Created > 0 && d.Delivered > 0 && d.Receiver.BadSignatures == 0 &&
		d.Receiver.BadBodies == 0 && d.Receiver.HeldTooLong == 0
}

// Complete reports whether the whole backlog arrived.
func (d *WebhookDrain) Complete() bool { return d != nil && d.Created > 0 && d.Delivered >= d.Created }

// DrainSample is one point of the drain's timeline: seconds since the
// receiver let go, the backlog's events arrived so far, and fxd's
// fxd_webhook_* gauges (admin /metrics) at that moment.
type DrainSample struct {
	T       float64          `json:"t_s"`
	Arrived int64            `json:"arrived"`
	Gauges  map[string]int64 `json:"gauges,omitempty"`
}

// scrapeWebhookGauges reads fxd's fxd_webhook_* metrics from its admin
// listener.
func scrapeWebhookGauges(fx *FXD) (map[string]int64, error) {
	// A sample that waits longer than this is worth less than the next.
	b, err := fx.adminDo(context.Background(), "GET", "/metrics", nil, 2*time.Second)
	if err != nil {
		return nil, err
	}
	return parseSamples(b, "fxd_webhook_"), nil
}

// parseSamples picks the unlabelled samples whose names start with prefix
// out of a Prometheus text exposition, keyed by name without the prefix.
// Values are parsed as floats: client_golang writes 1e6 and more in
// exponent form ("6.8157456e+07").
func parseSamples(b []byte, prefix string) map[string]int64 {
	out := map[string]int64{}
	for _, line := range strings.Split(string(b), "\n") {
		name, v, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || !strings.HasPrefix(name, prefix) {
			continue
		}
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			out[strings.TrimPrefix(name, prefix)] = int64(f)
		}
	}
	return out
}

// WebhookDead is what the dead endpoint did.
type WebhookDead struct {
	Reenables      int `json:"reenables"`
	ReenableErrors int `json:"reenable_errors"`
	// Attempts counts its attempts during the open loop's window and the
	// drain (by their `at`, whole seconds, so ±1 s at the edges), and over
	// the whole phase.
	AttemptsWindow int64 `json:"attempts_in_window"`
	// AttemptsByRound splits AttemptsWindow by fxd's rounds. The dead
	// endpoint is not enabled again during the floor's rounds, so its
	// pending deliveries last through fxd's.
	AttemptsByRound []int64          `json:"attempts_in_window_by_round,omitempty"`
	AttemptsDrain   int64            `json:"attempts_in_drain"`
	Attempts        int64            `json:"attempts_total"`
	Errors          map[string]int64 `json:"errors"` // attempts per error text
	Succeeded       int64            `json:"succeeded"`
	State           string           `json:"state_at_end"`
	FirstProblem    string           `json:"first_problem,omitempty"`
}

// Receiver is what the HTTPS receiver saw.
type Receiver struct {
	Requests      int64  `json:"requests"`
	Duplicates    int64  `json:"duplicates"` // the same event again (at-least-once)
	Verified      int64  `json:"signatures_verified"`
	BadSignatures int64  `json:"bad_signatures"`
	BadBodies     int64  `json:"bad_bodies"`
	HeldTooLong   int64  `json:"held_too_long,omitempty"`
	FirstProblem  string `json:"first_problem,omitempty"`
}

func (r Receiver) minus(o Receiver) Receiver {
	return Receiver{Requests: r.Requests - o.Requests, Duplicates: r.Duplicates - o.Duplicates, Verified: r.Verified - o.Verified,
		BadSignatures: r.BadSignatures - o.BadSignatures, BadBodies: r.BadBodies - o.BadBodies, HeldTooLong: r.HeldTooLong - o.HeldTooLong,
		FirstProblem: r.FirstProblem}
}

// Baseline is the durable write result of the last saved full report.
type Baseline struct {
	File      string      `json:"file"`
	Date      string      `json:"date"`
	Commit    string      `json:"commit,omitempty"`
	FXDWrites *LoadResult `json:"fxd_writes"`
}

// LoadBaseline finds, in a results directory, the newest report (by its
// start time) of a full run (not -quick) that measured durable writes;
// nil if there is none.
func LoadBaseline(dir string) (*Baseline, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var best *Baseline
	var bestT time.Time
	for _, f := range files {
		b, started, err := readBaseline(f)
		if err != nil || b == nil {
			continue
		}
		if best == nil || started.After(bestT) {
			best, bestT = b, started
		}
	}
	return best, nil
}

// LoadBaselineFile reads the durable writes of one saved report.
func LoadBaselineFile(path string) (*Baseline, error) {
	b, _, err := readBaseline(path)
	if err == nil && b == nil {
		err = fmt.Errorf("%s: no durable write result of a full run", path)
	}
	return b, err
}

// readBaseline reads a saved report: nil if it is a -quick run or holds
// no durable write result.
func readBaseline(path string) (*Baseline, time.Time, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, time.Time{}, err
	}
	var r struct {
		Date     string    `json:"date"`
		Started  time.Time `json:"started"`
		Machine  Machine   `json:"machine"`
		Settings struct {
			Quick bool `json:"quick"`
		} `json:"settings"`
		FXDWrites *LoadResult `json:"fxd_writes"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	if r.FXDWrites == nil || r.FXDWrites.Rate <= 0 || r.Settings.Quick {
		return nil, r.Started, nil
	}
	return &Baseline{File: filepath.Base(path), Date: r.Date, Commit: r.Machine.Commit(), FXDWrites: r.FXDWrites}, r.Started, nil
}

// webhookKeyPlan sizes the key sets of the phase: the open loop's slots
// and the drain's backlog within the per-key write budget, and the
// dead endpoint's pending tests.
func webhookKeyPlan(rate float64, warmup, window time.Duration, drain, pile int) (test, drainK, pileK int) {
	nw, nm := openSlots(rate, warmup, window)
	test = max(1, int(math.Ceil(float64(nw+nm)*provisionMargin/writeBudget)))
	if drain > 0 {
		drainK = (drain + writeBudget - 1) / writeBudget
	}
	if pile > 0 {
		pileK = (pile + writeBudget - 1) / writeBudget
	}
	return test, drainK, pileK
}

// makeReceiverCert makes a CA and a leaf certificate for 127.0.0.1 signed
// by it: the CA's PEM for --webhook-ca, the leaf for the receiver.
func makeReceiverCert() (caPEM []byte, leaf tls.Certificate, err error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, leaf, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "fxbench webhook test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(7 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, leaf, err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, leaf, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, leaf, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(7 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, leaf, err
	}
	caPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	leaf = tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	leaf.Leaf, err = x509.ParseCertificate(der)
	return caPEM, leaf, err
}

// hookReceiver is the HTTPS receiver of the healthy endpoint: it answers
// 200 and records each event's first arrival, after checking the
// signature (sign.Verify, as a receiver would) and the body. While held,
// it keeps its answers until let go (at most holdMax).
type hookReceiver struct {
	srv    *http.Server
	ln     net.Listener
	secret atomic.Pointer[string]

	mu       sync.Mutex
	first    map[string]time.Time // event id → first arrival
	arrivals []time.Time          // every request, in order
	last     time.Time
	st       Receiver

	gate     chan struct{} // non-nil while held
	gateDone time.Time

	// sample is the first delivery that passed every check, and its
	// event id: the webhook floor posts copies of it.
	sample   []byte
	sampleID string
}

// startReceiver serves HTTPS with cert on a loopback port (HTTP/1.1, as
// the server's delivery client speaks it).
func startReceiver(cert tls.Certificate) (*hookReceiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &hookReceiver{ln: ln, first: map[string]time.Time{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+receiverPath, r.handle)
	r.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){}, ErrorLog: nil}
	tl := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	go func() { _ = r.srv.Serve(tl) }()
	return r, nil
}

func (r *hookReceiver) url() string { return "https://" + r.ln.Addr().String() + receiverPath }

func (r *hookReceiver) close() { _ = r.srv.Close() }

// hold makes the receiver keep its answers until release (or holdMax).
func (r *hookReceiver) hold(holdMax time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gate == nil {
		r.gate, r.gateDone = make(chan struct{}), time.Now().Add(holdMax)
	}
}

// release lets the held answers go.
func (r *hookReceiver) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gate != nil {
		close(r.gate)
		r.gate = nil
	}
}

func (r *hookReceiver) handle(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, 1<<20))
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	r.mu.Lock()
	gate, until := r.gate, r.gateDone
	r.mu.Unlock()
	if gate != nil {
		t := time.NewTimer(time.Until(until))
		select {
		case <-gate:
		case <-t.C:
			r.mu.Lock()
			r.st.HeldTooLong++
			r.mu.Unlock()
		}
		t.Stop()
	}
	now := time.Now()
	id := req.Header.Get("webhook-id")
	problem := ""
	badSig, badBody := false, false
	if s := r.secret.Load(); s == nil {
		badSig, problem = true, "no secret to verify with"
	} else if err := sign.Verify(*s, id, req.Header.Get("webhook-timestamp"), req.Header.Get("webhook-signature"), body, now, 0); err != nil {
		badSig, problem = true, "signature: "+err.Error()
	}
	if !testEventBody(body, id) {
		badBody = true
		if problem == "" {
			problem = fmt.Sprintf("body %.200s for webhook-id %q", body, id)
		}
	}
	r.mu.Lock()
	r.st.Requests++
	r.arrivals = append(r.arrivals, now)
	r.last = now
	if badSig {
		r.st.BadSignatures++
	} else {
		r.st.Verified++
	}
	if badBody {
		r.st.BadBodies++
	}
	if problem != "" && r.st.FirstProblem == "" {
		r.st.FirstProblem = problem
	}
	if _, seen := r.first[id]; seen {
		r.st.Duplicates++
	} else if id != "" {
		r.first[id] = now
	}
	if r.sample == nil && !badSig && !badBody && id != "" {
		r.sample, r.sampleID = bytes.Clone(body), id // one body, ≤ 1 MiB
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// testEventBody reports whether body is the webhook.test event id, as
// fxd renders it.
func testEventBody(body []byte, id string) bool {
	var ev struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		APIVersion string `json:"api_version"`
		Data       struct {
			Object struct {
				EndpointID string `json:"endpoint_id"`
			} `json:"object"`
		} `json:"data"`
	}
	return json.Unmarshal(body, &ev) == nil && ev.ID == id && ev.Type == domain.EventWebhookTest && ev.Data.Object.EndpointID != "" &&
		ev.APIVersion == domain.WebhookAPIVersion
}

// sampleBody returns the first delivery that passed every check and its
// event id (nil before one has).
func (r *hookReceiver) sampleBody() ([]byte, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sample, r.sampleID
}

// stats returns the receiver's counters, its distinct events and its
// last arrival.
func (r *hookReceiver) stats() (Receiver, int, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.st, len(r.first), r.last
}

// arrivalsIn counts the requests that arrived in [from, to).
func (r *hookReceiver) arrivalsIn(from, to time.Time) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := int64(0)
	for _, t := range r.arrivals {
		if !t.Before(from) && t.Before(to) {
			n++
		}
	}
	return n
}

// arrival returns an event's first arrival.
func (r *hookReceiver) arrival(id string) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.first[id]
	return t, ok
}

// waitDistinct waits until the receiver has seen n distinct events or
// until max; it reports whether it got there.
func (r *hookReceiver) waitDistinct(n int, maxWait time.Duration) bool {
	deadline := time.Now().Add(maxWait)
	for {
		_, d, _ := r.stats()
		if d >= n {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// holdListener accepts TCP connections and never answers: the dead
// endpoint's port while its pending tests are made, so they stay pending
// (their attempts hang in the TLS handshake) until it is closed.
type holdListener struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startHold() (*holdListener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	h := &holdListener{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			h.mu.Lock()
			h.conns = append(h.conns, c)
			h.mu.Unlock()
		}
	}()
	return h, nil
}

func (h *holdListener) held() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// close closes the port and every connection: the attempts in flight fail
// and later ones are refused.
func (h *holdListener) close() {
	_ = h.ln.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.conns {
		_ = c.Close()
	}
	h.conns = nil
}

// ctlClients sign the phase's own requests, round robin over a few keys.
type ctlClients struct {
	cs   []*client.Client
	next atomic.Uint64
}

func newCtlClients(addr string, keys []Key) (*ctlClients, error) {
	c := &ctlClients{}
	for _, k := range keys {
		cl, err := client.New("http://"+addr, k.ID, k.Priv, client.WithTimeout(30*time.Second))
		if err != nil {
			return nil, err
		}
		c.cs = append(c.cs, cl)
	}
	return c, nil
}

func (c *ctlClients) close() {
	for _, cl := range c.cs {
		cl.CloseIdleConnections()
	}
}

// do sends a request and checks its status.
func (c *ctlClients) do(ctx context.Context, method, target string, body []byte, want int) ([]byte, error) {
	cl := c.cs[c.next.Add(1)%uint64(len(c.cs))]
	r, err := cl.Do(ctx, method, target, body, nil)
	if err != nil {
		return nil, err
	}
	if r.Status != want {
		return r.Body, fmt.Errorf("%s %s: %d %.300s", method, target, r.Status, r.Body)
	}
	return r.Body, nil
}

// attemptRow is a row of GET /webhooks/{id}/deliveries, as the server
// renders it.
type attemptRow = domain.AttemptView

// listAttempts reads every attempt row of an endpoint.
func (c *ctlClients) listAttempts(ctx context.Context, ep string) ([]attemptRow, error) {
	var out []attemptRow
	after := ""
	for {
		target := webhooksPath + "/" + ep + "/deliveries?limit=" + strconv.Itoa(domain.MaxPageLimit)
		if after != "" {
			target += "&starting_after=" + after
		}
		b, err := c.do(ctx, "GET", target, nil, 200)
		if err != nil {
			return out, err
		}
		var page struct {
			Data       []attemptRow `json:"data"`
			HasMore    bool         `json:"has_more"`
			NextCursor *string      `json:"next_cursor"`
		}
		if err := json.Unmarshal(b, &page); err != nil {
			return out, fmt.Errorf("deliveries page: %w", err)
		}
		out = append(out, page.Data...)
		if !page.HasMore || page.NextCursor == nil || *page.NextCursor == "" {
			return out, nil
		}
		after = *page.NextCursor
	}
}

// hookSlot is one open-loop test: its delivery and when it went out and
// its 202 was read.
type hookSlot struct {
	dlv        string
	sent, recv time.Time
}

// SecondLag is the lag of the events whose 202 was read in one second of
// the window.
type SecondLag struct {
	Round  int     `json:"round,omitempty"` // in a merged result: the round (from 1)
	Second int     `json:"second"`
	Events int64   `json:"events"`
	P50Ms  float64 `json:"p50_ms"`
	P99Ms  float64 `json:"p99_ms"`
	MaxMs  float64 `json:"max_ms"`
}

// lagBySecond is webhookLags's lag from the 202 per second since start.
func lagBySecond(slots []hookSlot, start time.Time, dlvEvent map[string]string, arrival func(string) (time.Time, bool)) []SecondLag {
	var hs []Hist
	for _, s := range slots {
		at, ok := arrival(dlvEvent[s.dlv])
		if s.dlv == "" || !ok {
			continue
		}
		i := max(0, int(s.recv.Sub(start)/time.Second))
		for len(hs) <= i {
			hs = append(hs, Hist{})
		}
		hs[i].Record(int64(max(at.Sub(s.recv), 0)))
	}
	out := make([]SecondLag, len(hs))
	for i := range hs {
		l := hs[i].Summary()
		out[i] = SecondLag{Second: i, Events: l.Count, P50Ms: l.P50Ms, P99Ms: l.P99Ms, MaxMs: l.MaxMs}
	}
	return out
}

// webhookLags joins the window's tests to their events' arrivals: slot →
// delivery (the 202) → event (the deliveries list) → first arrival.
func webhookLags(slots []hookSlot, dlvEvent map[string]string, arrival func(string) (time.Time, bool)) (lag, fromSend Hist, events, delivered, missing, unjoined, before int64, last time.Time) {
	for _, s := range slots {
		if s.dlv == "" {
			continue
		}
		events++
		ev, ok := dlvEvent[s.dlv]
		if !ok {
			unjoined++
			continue
		}
		at, ok := arrival(ev)
		if !ok {
			missing++
			continue
		}
		delivered++
		if at.After(last) {
			last = at
		}
		d := at.Sub(s.recv)
		if d < 0 {
			before++
			d = 0
		}
		lag.Record(int64(d))
		fromSend.Record(int64(max(at.Sub(s.sent), 0)))
	}
	return
}

// deadCounts tallies the dead endpoint's attempt rows: errors, and the
// attempts whose `at` (whole seconds) falls in each span, widened by 1 s.
func deadCounts(rows []attemptRow, spans [][2]time.Time) (errs map[string]int64, ok int64, in []int64) {
	errs = map[string]int64{}
	in = make([]int64, len(spans))
	for _, r := range rows {
		switch {
		case r.StatusCode != nil && *r.StatusCode >= 200 && *r.StatusCode < 300:
			ok++
		case r.Error != nil:
			errs[errorKind(*r.Error)]++
		case r.StatusCode != nil:
			errs["status "+strconv.Itoa(*r.StatusCode)]++
		}
		at, err := time.Parse(time.RFC3339, r.At)
		if err != nil {
			continue
		}
		for i, s := range spans {
			if !at.Before(s[0].Truncate(time.Second)) && !at.After(s[1]) {
				in[i]++
			}
		}
	}
	return errs, ok, in
}

// errorKind shortens an attempt's error to its kind: the text after the
// last ": " (addresses and ports differ from row to row).
func errorKind(e string) string {
	if i := strings.LastIndex(e, ": "); i >= 0 && i+2 < len(e) {
		return e[i+2:]
	}
	return e
}

// createWebhookKey runs `fxd webhook-key create --out path`.
func createWebhookKey(ctx context.Context, bin, path string) error {
	ctx, cancel := context.WithTimeout(ctx, adminTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "webhook-key", "create", "--out", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("fxd webhook-key create: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var v struct {
		File string `json:"file"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.File == "" {
		return fmt.Errorf("fxd webhook-key create: %q", out)
	}
	return nil
}

// runWebhookPhase runs the phase on a fresh fxd with a data dir under
// dir. withWrites adds the suite's durable write load (POST /contacts) on
// the same fxd, first, for the comparison with the last saved results.
// It fills ph as it goes, so a failure leaves what was done.
func runWebhookPhase(ctx context.Context, cfg Config, dir string, ph *WebhookPhase, withWrites bool, logw io.Writer) (err error) {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	note := func(format string, args ...any) { ph.Notes = append(ph.Notes, fmt.Sprintf(format, args...)) }
	setupStart := time.Now()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	rate := float64(cfg.WebhookRate)
	// Every round of the open loop has its own warm-up.
	testK, drainK, pileK := webhookKeyPlan(rate, time.Duration(phaseRounds(cfg))*cfg.Warmup, cfg.Duration, cfg.WebhookDrain, cfg.WebhookDeadPile)
	nkeys := webhookCtlKeys + testK + drainK + pileK
	if nkeys > domain.MaxKeysPerAccount {
		return fmt.Errorf("%.0f tests/s for %v + %v and a backlog of %d need %d keys on one account, more than its %d: lower -webhook-rate, "+
			"-duration or -webhook-drain", rate, cfg.Warmup, cfg.Duration, cfg.WebhookDrain, nkeys, domain.MaxKeysPerAccount)
	}

	// The receiver's certificate, the master key, the receiver, the dead
	// endpoint's port, and fxd.
	caPEM, cert, err := makeReceiverCert()
	if err != nil {
		return fmt.Errorf("receiver certificate: %w", err)
	}
	caFile, keyFile := filepath.Join(dir, "webhook-ca.pem"), filepath.Join(dir, "webhook-master.key")
	if err := os.WriteFile(caFile, caPEM, 0o644); err != nil {
		return err
	}
	if err := createWebhookKey(ctx, cfg.Bin, keyFile); err != nil {
		return err
	}
	recv, err := startReceiver(cert)
	if err != nil {
		return fmt.Errorf("receiver: %w", err)
	}
	defer recv.close()
	hold, err := startHold()
	if err != nil {
		return err
	}
	defer hold.close()
	schedule := cfg.WebhookSchedule
	if schedule == "" {
		schedule = defaultWebhookSchedule
	}
	flags := []string{"--webhook-allow-loopback", "--webhook-ca", caFile, "--webhook-master-key-file", keyFile}
	if schedule != WebhookScheduleServer {
		flags = append(flags, "--webhook-retry-schedule", schedule)
	}
	say("== webhooks: starting a fresh %s %s", cfg.Bin, strings.Join(flags, " "))
	fx, err := StartFXD(cfg.Bin, filepath.Join(dir, "data"), filepath.Join(dir, "fxd-webhooks.log"), flags...)
	if err != nil {
		return err
	}
	defer func() {
		if _, serr := fx.Stop(30 * time.Second); serr != nil && err == nil {
			err = fmt.Errorf("stop fxd: %w", serr)
		}
	}()
	say("  fxd pid %d listening on %s (ready after %v); receiver %s", fx.PID(), fx.Addr(), fx.Ready.Round(time.Millisecond), recv.url())

	// One account; keys with the webhooks scope.
	acct, err := fx.CreateAccount(ctx, "webhooks")
	if err != nil {
		return err
	}
	say("== webhooks: %d keys on one account (%d for the open loop, %d for the backlog, %d for the dead endpoint's tests, %d control)",
		nkeys, testK, drainK, pileK, webhookCtlKeys)
	owners := make([]string, nkeys)
	for i := range owners {
		owners[i] = acct
	}
	keys, err := fx.CreateKeys(ctx, owners, "webhooks", filepath.Join(dir, "keys"), cfg.CLIParallel, logw)
	if err != nil {
		return fmt.Errorf("create keys: %w", err)
	}
	ctlKeys, rest := keys[:webhookCtlKeys], keys[webhookCtlKeys:]
	testKeys, rest := rest[:testK], rest[testK:]
	drainKeys, pileKeys := rest[:drainK], rest[drainK:]
	ph.Setup = WebhookSetup{Account: acct, Keys: nkeys, TestKeys: testK, DrainKeys: drainK, Schedule: schedule}
	ctl, err := newCtlClients(fx.Addr(), ctlKeys)
	if err != nil {
		return err
	}
	defer ctl.close()

	// The two endpoints.
	register := func(url, desc string) (id, secret string, err error) {
		body, _ := json.Marshal(map[string]any{"url": url, "events": []string{"*"}, "description": desc})
		b, err := ctl.do(ctx, "POST", webhooksPath, body, 201)
		if err != nil {
			return "", "", err
		}
		var v struct {
			ID     string `json:"id"`
			Secret string `json:"secret"`
			State  string `json:"state"`
		}
		if err := json.Unmarshal(b, &v); err != nil || v.ID == "" || !strings.HasPrefix(v.Secret, "whsec_") || v.State != "enabled" {
			return "", "", fmt.Errorf("POST /webhooks: unexpected answer %.300s", b)
		}
		return v.ID, v.Secret, nil
	}
	healthy, secret, err := register(recv.url(), "fxbench healthy receiver")
	if err != nil {
		return err
	}
	recv.secret.Store(&secret)
	dead, _, err := register("https://"+hold.ln.Addr().String()+"/dead", "fxbench dead receiver")
	if err != nil {
		return err
	}
	ph.Setup.Healthy, ph.Setup.Dead = healthy, dead
	testTarget := func(ep string) string { return webhooksPath + "/" + ep + "/test" }
	endpointState := func(ep string) (string, error) {
		b, err := ctl.do(ctx, "GET", webhooksPath+"/"+ep, nil, 200)
		if err != nil {
			return "", err
		}
		var v struct {
			State string `json:"state"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return "", err
		}
		return v.State, nil
	}

	// The whole path once, a few times.
	if err := warmWebhooks(ctx, ctl, recv, testTarget(healthy), fx.LogPath); err != nil {
		return err
	}

	// The dead endpoint's pending tests: made while its port accepts and
	// never answers, so their attempts hang; then the port closes, every
	// attempt fails, and 10 failures disable it.
	if cfg.WebhookDeadPile > 0 {
		say("== webhooks: %d tests on the dead endpoint, then its port closes", cfg.WebhookDeadPile)
		if err := pileDead(ctx, fx.Addr(), pileKeys, cfg.WebhookDeadPile, testTarget(dead)); err != nil {
			return err
		}
		want := min(cfg.WebhookDeadPile, webhook.MaxInFlight)
		for t := time.Now(); hold.held() < want && time.Since(t) < 5*time.Second; {
			time.Sleep(10 * time.Millisecond)
		}
		ph.Setup.DeadPile, ph.Setup.DeadHeld = cfg.WebhookDeadPile, hold.held()
	}
	hold.close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s, err := endpointState(dead)
		if err != nil {
			return err
		}
		if s == "disabled" {
			break
		}
		if cfg.WebhookDeadPile == 0 || time.Now().After(deadline) {
			note("the dead endpoint was %s, not disabled, when the load began", s)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The suite's durable writes on this fxd, first: POST /contacts, as
	// the full run measures them, for the comparison with the last saved
	// results.
	if withWrites {
		if err := webhookWrites(ctx, fx, cfg, dir, ph, logw); err != nil {
			return fmt.Errorf("durable writes: %w", err)
		}
	}
	ph.Setup.Seconds = time.Since(setupStart).Seconds()

	// The dead endpoint retries all along: enabled again and again.
	dd := &WebhookDead{}
	ph.Dead = dd
	pauseReenable, stopReenable := reenableDead(ctx, ctl, dead, dd)
	defer stopReenable()

	// The open loop, in rounds alternating with the floor.
	target := testTarget(healthy)
	inflight := cfg.QuoteInFlight
	if inflight <= 0 {
		inflight = defaultQuoteInFlight
	}
	wr := &hookPhase{cfg: cfg, fx: fx, recv: recv, ctl: ctl, healthy: healthy, target: target, tks: NewKeySet(testKeys, writeBudget),
		rate: rate, inflight: inflight, ph: ph, logw: logw, note: note, pauseDead: pauseReenable}
	if wr.floor, err = newHookFloor(recv, caPEM, secret); err != nil {
		note("no webhook floor rounds: %v", err)
	}
	say("== webhooks: open loop at %.0f/s in %d round(s) of %v + %v alternating floor and fxd; dead endpoint enabled again every %v",
		rate, phaseRounds(cfg), cfg.Warmup, roundWindow(cfg), webhookReenableEvery)
	windows, err := wr.run(ctx)
	if err != nil {
		return err
	}

	// The drain: a backlog made while the receiver holds its answers.
	var drainSpan [2]time.Time
	if cfg.WebhookDrain > 0 && len(drainKeys) > 0 {
		if drainSpan, err = wr.drain(drainKeys); err != nil {
			return err
		}
	}
	stopReenable()

	// The dead endpoint's attempts.
	drows, err := ctl.listAttempts(ctx, dead)
	if err != nil {
		return fmt.Errorf("list the dead endpoint's deliveries: %w", err)
	}
	// fxd's windows, then the drain.
	spans := append(windows, drainSpan)
	var errs map[string]int64
	var in []int64
	errs, dd.Succeeded, in = deadCounts(drows, spans)
	dd.Errors, dd.Attempts = errs, int64(len(drows))
	for _, n := range in[:len(windows)] {
		dd.AttemptsWindow += n
	}
	if len(windows) > 1 {
		dd.AttemptsByRound = in[:len(windows)]
	}
	if ph.Drain != nil {
		dd.AttemptsDrain = in[len(windows)]
	}
	if s, err := endpointState(dead); err == nil {
		dd.State = s
	}
	say("  dead endpoint: %d attempts in all, %d in the window, enabled again %d times; errors %v", dd.Attempts, dd.AttemptsWindow, dd.Reenables, dd.Errors)
	return nil
}

// drain makes a backlog of tests (signed with keys) while the receiver
// holds its answers, lets go, and measures the rate at which it arrives;
// it returns the drain's span.
func (w *hookPhase) drain(keys []Key) ([2]time.Time, error) {
	cfg, fx, recv := w.cfg, w.fx, w.recv
	dr := &WebhookDrain{}
	w.ph.Drain = dr
	st0, n0, _ := recv.stats()
	w.say("== webhooks: backlog of up to %d tests made while the receiver holds (at most %v), then let go", cfg.WebhookDrain, webhookDrainCreateMax)
	holdStart := time.Now()
	recv.hold(webhookHoldMax)
	dks := NewKeySet(keys, writeBudget)
	dks.budget = int64((cfg.WebhookDrain + len(keys) - 1) / len(keys))
	var err error
	dr.Create, err = RunLoad(Load{Name: "webhook-backlog-tests", Addr: fx.Addr(), Method: "POST", Path: w.target, WantStatus: 202,
		Keys: dks, Conns: webhookDrainConns, Duration: webhookDrainCreateMax, Gen: GenRaw, ServerPID: fx.PID(), Progress: w.logw})
	if err != nil {
		recv.release()
		return [2]time.Time{}, err
	}
	dr.Created = dr.Create.Status["202"]
	pprofDone := w.drainPprof(dr.Created)
	srv0, _ := procCPU(fx.PID())
	gen0, sys0 := cputime.Self(), systemBusy()
	t0 := time.Now()
	dr.HeldS = t0.Sub(holdStart).Seconds()
	recv.release()
	stopSampling := w.sampleDrain(dr, t0, n0)
	ok := recv.waitDistinct(n0+int(dr.Created), webhookDrainWait)
	t1 := time.Now()
	stopSampling()
	srv1, srvErr := procCPU(fx.PID())
	gen1, sys1 := cputime.Self(), systemBusy()
	st1, n1, lastAt := recv.stats()
	dr.Receiver, dr.Delivered = st1.minus(st0), int64(n1-n0)
	if !ok {
		w.note("only %d of the %d backlog tests arrived within %v of the receiver letting go", dr.Delivered, dr.Created, webhookDrainWait)
	}
	if dr.DrainS = lastAt.Sub(t0).Seconds(); dr.DrainS > 0 {
		dr.Rate = float64(dr.Delivered) / dr.DrainS
	}
	if first := recv.firstArrivalAfter(t0); !first.IsZero() {
		dr.FirstArrivalMs = ms(int64(first.Sub(t0)))
	}
	use := cpuUse{gen: gen1 - gen0, server: -1, sys: -1}
	if srvErr == nil {
		use.server = srv1 - srv0
	}
	if sys0 >= 0 && sys1 >= 0 {
		use.sys = sys1 - sys0
	}
	c := use.share(dr.Delivered, t1.Sub(t0).Seconds())
	dr.GeneratorCPUUs, dr.ServerCPUUs, dr.ServerCores, dr.OtherCores = c.GenUs, c.ServerUs, c.ServerCores, c.OtherCores
	pprofDone()
	w.say("  backlog: %d tests made in %.1fs (%.0f/s through the API); drained %d in %.2fs: %.0f deliveries/s, server %.0f µs CPU/delivery (%.2f cores)",
		dr.Created, dr.Create.Seconds, dr.Create.Rate, dr.Delivered, dr.DrainS, dr.Rate, dr.ServerCPUUs, dr.ServerCores)
	return [2]time.Time{t0, lastAt}, nil
}

// drainPprof starts a CPU profile of fxd over the drain of created tests
// (with -webhook-pprof); the func it returns waits for it.
func (w *hookPhase) drainPprof(created int64) func() {
	if w.cfg.WebhookPprofDir == "" {
		return func() {}
	}
	secs := time.Duration(min(10, max(1, int(math.Ceil(float64(created)/webhookRateTarget))))) * time.Second
	path, _ := filepath.Abs(filepath.Join(w.cfg.WebhookPprofDir, "fxd-webhooks-drain-"+time.Now().Format("20060102-150405")+".pprof"))
	done := make(chan error, 1)
	go func() { done <- fetchPprof(w.fx, secs, path) }()
	return func() {
		if err := <-done; err != nil {
			w.note("pprof of the drain: %v", err)
			return
		}
		w.ph.PprofFiles = append(w.ph.PprofFiles, path)
	}
}

// sampleDrain samples the drain's timeline every webhookSampleEvery from
// t0 (arrivals beyond n0, fxd's webhook gauges), at most
// webhookMaxSamples, until the returned func is called.
func (w *hookPhase) sampleDrain(dr *WebhookDrain, t0 time.Time, n0 int) func() {
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tk := time.NewTicker(webhookSampleEvery)
		defer tk.Stop()
		for {
			_, n, _ := w.recv.stats()
			g, _ := scrapeWebhookGauges(w.fx)
			if len(dr.Timeline) < webhookMaxSamples {
				dr.Timeline = append(dr.Timeline, DrainSample{T: time.Since(t0).Seconds(), Arrived: int64(n - n0), Gauges: g})
			}
			select {
			case <-stop:
				return
			case <-tk.C:
			}
		}
	}()
	return func() { close(stop); <-stopped }
}

// warmWebhooks sends a few tests to the healthy endpoint one by one and
// waits for them: the sender's connections open, and the whole path is
// checked once before any load.
func warmWebhooks(ctx context.Context, ctl *ctlClients, recv *hookReceiver, target, fxdLog string) error {
	for range webhookWarmTests {
		b, err := ctl.do(ctx, "POST", target, nil, 202)
		if err != nil {
			return err
		}
		if !bytes.Contains(b, []byte(`"delivery_id":"dlv_`)) {
			return fmt.Errorf("POST /webhooks/{id}/test: no delivery_id in %.200s", b)
		}
	}
	if !recv.waitDistinct(webhookWarmTests, 30*time.Second) {
		st, n, _ := recv.stats()
		return fmt.Errorf("the receiver got %d of %d warm-up tests within 30 s (%+v; fxd log %s)", n, webhookWarmTests, st, fxdLog)
	}
	if st, _, _ := recv.stats(); st.BadSignatures+st.BadBodies > 0 {
		return fmt.Errorf("the receiver refused the warm-up tests: %s", st.FirstProblem)
	}
	return nil
}

// pileDead makes n tests on the dead endpoint (target), writeBudget per
// key of keys.
func pileDead(ctx context.Context, addr string, keys []Key, n int, target string) error {
	pile := make([]*client.Client, len(keys))
	for i, k := range keys {
		c, err := client.New("http://"+addr, k.ID, k.Priv)
		if err != nil {
			return err
		}
		pile[i] = c
		defer c.CloseIdleConnections()
	}
	return parallel(n, 8, "dead endpoint tests", nil, func(i int) error {
		r, err := pile[i/writeBudget].Do(ctx, "POST", target, nil, nil)
		if err != nil {
			return err
		}
		if r.Status != 202 {
			return fmt.Errorf("POST /webhooks/{dead}/test: %d %.200s", r.Status, r.Body)
		}
		return nil
	})
}

// reenableDead enables the dead endpoint again every webhookReenableEvery,
// counting in dd, while not paused (pause(true); the endpoint then
// disables itself after its next failures and stays so), until stop is
// called (once or more).
func reenableDead(ctx context.Context, ctl *ctlClients, dead string, dd *WebhookDead) (pause func(bool), stop func()) {
	var paused atomic.Bool
	stopc, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(webhookReenableEvery)
		defer t.Stop()
		for {
			select {
			case <-stopc:
				return
			case <-t.C:
			}
			if paused.Load() {
				continue
			}
			_, err := ctl.do(ctx, "PATCH", webhooksPath+"/"+dead, []byte(`{"state":"enabled"}`), 200)
			dd.Reenables++
			if err != nil {
				dd.ReenableErrors++
				if dd.FirstProblem == "" {
					dd.FirstProblem = err.Error()
				}
			}
		}
	}()
	return paused.Store, sync.OnceFunc(func() { close(stopc); <-stopped })
}

// firstArrivalAfter is the first request at or after t.
func (r *hookReceiver) firstArrivalAfter(t time.Time) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := sort.Search(len(r.arrivals), func(i int) bool { return !r.arrivals[i].Before(t) })
	if i < len(r.arrivals) {
		return r.arrivals[i]
	}
	return time.Time{}
}

// webhookWrites runs the suite's durable write load, POST /contacts,
// closed loop, on fx: accounts and keys as the full run provisions them,
// for the rate the last saved results measured (with headroom).
func webhookWrites(ctx context.Context, fx *FXD, cfg Config, dir string, ph *WebhookPhase, logw io.Writer) error {
	est := float64(fallbackRatePerSec)
	if b := cfg.Baseline; b != nil && b.FXDWrites != nil && b.FXDWrites.Rate > 0 {
		est = 1.5 * b.FXDWrites.Rate
	}
	n := int(math.Ceil(est * (cfg.Warmup + cfg.Duration).Seconds() * provisionMargin / writeBudget))
	n = min(max(n, 1), cfg.MaxKeys)
	perAcct := min(maxKeysPerAccount, (maxContactsPerAcct-writeKeysPerAcctRoom)/writeBudget)
	nacct := (n + perAcct - 1) / perAcct
	fmt.Fprintf(logw, "== webhooks: durable writes on this fxd: %d accounts, %d keys (read,pay)\n", nacct, n)
	accts, err := fx.CreateAccounts(ctx, nacct, cfg.CLIParallel, "wh-writes", logw)
	if err != nil {
		return err
	}
	owners := make([]string, n)
	for i := range owners {
		owners[i] = accts[i%nacct]
	}
	keys, err := fx.CreateKeys(ctx, owners, "read,pay", filepath.Join(dir, "writekeys"), cfg.CLIParallel, logw)
	if err != nil {
		return err
	}
	ph.Setup.WritesAccounts, ph.Setup.WritesKeys = nacct, n
	conns := cfg.Conns
	if conns <= 0 {
		conns = defaultConns
	}
	fmt.Fprintf(logw, "== fxd-writes (webhooks fxd): %d conns, %v + %v\n", conns, cfg.Warmup, cfg.Duration)
	ph.Writes, err = RunLoad(Load{Name: "fxd-writes-webhooks-fxd", Addr: fx.Addr(), Method: "POST", Path: contactsPath, WantStatus: 201,
		Body: contactBody, Keys: NewKeySet(keys, writeBudget), Conns: conns, Warmup: cfg.Warmup, Duration: cfg.Duration, Gen: cfg.Gen,
		Progress: logw, ServerPID: fx.PID()})
	return err
}

// allListed reports whether every test delivery the open loop made is in
// the deliveries list rows.
func allListed(slots []hookSlot, rows []attemptRow) bool {
	listed := make(map[string]bool, len(rows))
	for _, r := range rows {
		listed[r.ID] = true
	}
	for _, s := range slots {
		if s.dlv != "" && !listed[s.dlv] {
			return false
		}
	}
	return true
}
