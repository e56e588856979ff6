package torture

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"
)

// Receiver behaviours. The service must treat every answer but a 2xx
// within 10 s as a failure and try again; a delivery may therefore reach
// a receiver more than once, always with the same id and body.
const (
	recvGood  = "good"  // 200 at once
	recvSlow  = "slow"  // 200 after 1–6 s: slow, still within the deadline
	recvReset = "reset" // reads the request, then resets the connection
	recvLate  = "late"  // 200 after 11 s: after the 10 s deadline
)

// receiverKinds are every behaviour, good first.
var receiverKinds = []string{recvGood, recvSlow, recvReset, recvLate}

// Receiver limits.
const (
	maxHookBody   = 1 << 20 // one delivery's body
	maxHookEvents = 200_000 // (endpoint, event) pairs kept per receiver; beyond: counted only
	lateAnswer    = 11 * time.Second
	sigTolerance  = time.Hour // a retried delivery is signed afresh; only validity matters here
)

// hookEvent is what a receiver saw of one event at one endpoint.
type hookEvent struct {
	count    int
	hash     [sha256.Size]byte
	differs  bool // a later body was not the first's
	typ      string
	objectID string
	firstAt  time.Time
	// unverified holds deliveries that came before the endpoint's secret
	// was known (its create answer may arrive after the first delivery).
	unverified []signedBody
	badSig     int
	// noNew and noOld count deliveries a rotation's check refused (see
	// checkRotation).
	noNew, noOld int
}

type signedBody struct {
	id, ts, sig string
	body        []byte
}

// hookPath is one endpoint's path at a receiver.
type hookPath struct {
	// eras are the endpoint's secrets, the create's first, then one per
	// rotate-secret sent (secret "" until its answer is known).
	eras   []secretEra
	events map[string]*hookEvent // by webhook-id
}

// receiver is one HTTPS receiver with one behaviour, serving every
// endpoint registered at it under its own path.
type receiver struct {
	kind string
	url  string
	srv  *http.Server
	ln   net.Listener

	mu       sync.Mutex
	lateBy   time.Duration // how long a late receiver waits before its 2xx
	rng      *rand.Rand
	paths    map[string]*hookPath
	pairs    int
	overflow int
	requests int
	resets   int
	late     int
	slow     int
	rotated  int
}

// startReceiver serves kind on a fresh loopback port with cert.
func startReceiver(kind string, cert tls.Certificate, seed uint64) (*receiver, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("torture: receiver listen: %w", err)
	}
	r := &receiver{kind: kind, ln: ln, url: "https://" + ln.Addr().String(), paths: map[string]*hookPath{}, lateBy: lateAnswer,
		rng: rand.New(rand.NewPCG(seed, 0x7265636569766572))}
	r.srv = &http.Server{
		Handler:           r,
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		// HTTP/1.1 only: a reset needs the connection (no hijack on h2).
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
		// Resets and killed senders make handshake noise, not news.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go func() { _ = r.srv.ServeTLS(ln, "", "") }()
	return r, nil
}

// close stops the receiver.
func (r *receiver) close() { _ = r.srv.Close() }

// register makes path an endpoint's (its secret set once known).
func (r *receiver) register(path string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.paths[path] == nil {
		r.paths[path] = &hookPath{events: map[string]*hookEvent{}}
	}
}

// setSecret gives an endpoint's secret (its create's answer); deliveries
// that came before it are verified now.
func (r *receiver) setSecret(path, secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.paths[path]
	if p == nil {
		return
	}
	p.eras = append([]secretEra{{secret: secret, knownAt: time.Now()}}, p.eras...)
	for _, ev := range p.events {
		for _, sb := range ev.unverified {
			if len(p.verify(sb)) == 0 {
				ev.badSig++
			}
		}
		ev.unverified = nil
	}
}

// ServeHTTP records the delivery, then behaves as the receiver's kind.
func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(io.LimitReader(req.Body, maxHookBody))
	if err != nil {
		return
	}
	r.record(req.URL.Path, req.Header, body)
	switch r.kind {
	case recvReset:
		r.reset(w)
		return
	case recvSlow:
		r.wait(req, time.Second+time.Duration(r.intn(5000))*time.Millisecond, &r.slow)
	case recvLate:
		r.mu.Lock()
		d := r.lateBy
		r.mu.Unlock()
		r.wait(req, d, &r.late)
	}
	w.WriteHeader(http.StatusOK)
}

func (r *receiver) intn(n int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rng.IntN(n)
}

// wait sleeps d (or until the sender hangs up) and counts it.
func (r *receiver) wait(req *http.Request, d time.Duration, counter *int) {
	r.mu.Lock()
	*counter++
	r.mu.Unlock()
	select {
	case <-req.Context().Done():
	case <-time.After(d):
	}
}

// reset closes the connection with SO_LINGER 0: the sender reads a RST.
func (r *receiver) reset(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		return
	}
	r.mu.Lock()
	r.resets++ // before the reset: the sender may look as soon as it reads it
	r.mu.Unlock()
	if tc, ok := conn.(*tls.Conn); ok {
		if tcp, ok := tc.NetConn().(*net.TCPConn); ok {
			_ = tcp.SetLinger(0)
		}
	}
	_ = conn.Close()
}

// record keeps the delivery: count, body hash, type and object of its
// event, and whether its signature verifies with the endpoint's secret.
func (r *receiver) record(path string, h http.Header, body []byte) {
	id := h.Get("webhook-id")
	sb := signedBody{id: id, ts: h.Get("webhook-timestamp"), sig: h.Get("webhook-signature"), body: body}
	sum := compactHash(body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests++
	p := r.paths[path]
	if p == nil || id == "" {
		return // not ours: the checks find the event missing where it belongs
	}
	ev := p.events[id]
	if ev == nil {
		if r.pairs >= maxHookEvents {
			r.overflow++
			return
		}
		r.pairs++
		ev = &hookEvent{hash: sum, firstAt: time.Now()}
		ev.typ, ev.objectID = eventHead(body)
		p.events[id] = ev
	}
	ev.count++
	if ev.hash != sum {
		ev.differs = true
	}
	if !p.knowsSecret() {
		if len(ev.unverified) < 4 {
			ev.unverified = append(ev.unverified, sb)
		}
		return
	}
	ok := p.verify(sb)
	if len(ok) == 0 {
		ev.badSig++
		return
	}
	switch rotated, noNew, noOld := p.checkRotation(sb.ts, ok); {
	case noNew:
		ev.noNew++
	case noOld:
		ev.noOld++
	case rotated:
		r.rotated++
	}
}

// eventHead is an event body's type and the id of its data.object.
func eventHead(body []byte) (typ, objectID string) {
	var e struct {
		Type string `json:"type"`
		Data struct {
			Object struct {
				ID         string `json:"id"`
				OrderID    string `json:"order_id"`
				EndpointID string `json:"endpoint_id"`
			} `json:"object"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", ""
	}
	o := e.Data.Object
	switch {
	case o.OrderID != "":
		return e.Type, o.OrderID
	case o.EndpointID != "":
		return e.Type, o.EndpointID
	}
	return e.Type, o.ID
}

// seen returns a copy of what the receiver saw of event id at path (nil:
// never).
func (r *receiver) seen(path, id string) *hookEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.paths[path]
	if p == nil || p.events[id] == nil {
		return nil
	}
	c := *p.events[id]
	c.unverified = nil
	return &c
}

// receiverStats is the summary of one receiver.
type receiverStats struct {
	Kind          string `json:"kind"`
	Endpoints     int    `json:"endpoints"`
	Requests      int    `json:"requests"`
	Events        int    `json:"events"`
	Resets        int    `json:"resets,omitempty"`
	SlowAnswers   int    `json:"slow_answers,omitempty"`
	LateAnswers   int    `json:"late_answers,omitempty"`
	Overflow      int    `json:"overflow,omitempty"`
	Unverified    int    `json:"unverified,omitempty"`
	BadSignatures int    `json:"bad_signatures,omitempty"`
	// Rotated: deliveries signed after a rotation of their endpoint was
	// acknowledged, held to checkRotation.
	Rotated int `json:"deliveries_after_rotation,omitempty"`
}

func (r *receiver) stats() receiverStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := receiverStats{Kind: r.kind, Endpoints: len(r.paths), Requests: r.requests, Events: r.pairs,
		Resets: r.resets, SlowAnswers: r.slow, LateAnswers: r.late, Overflow: r.overflow, Rotated: r.rotated}
	for _, p := range r.paths {
		for _, ev := range p.events {
			s.Unverified += len(ev.unverified)
			s.BadSignatures += ev.badSig + ev.noNew + ev.noOld
		}
	}
	return s
}

// compactHash is the SHA-256 of a JSON body without insignificant
// whitespace (of the raw bytes when it is not JSON), so a delivery and
// the same event read back from GET /events compare equal.
func compactHash(body []byte) [sha256.Size]byte {
	var b bytes.Buffer
	if json.Compact(&b, body) != nil {
		return sha256.Sum256(body)
	}
	return sha256.Sum256(b.Bytes())
}
