package bench

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/reqsig"
)

// The FX quote path: POST /fx/quotes, and the accept that turns a quote
// into an order, each driven open loop at a fixed offered rate.
const (
	quotesPath = basePath + "/fx/quotes"
	quoteBody  = `{"from_currency":"USDC","to_currency":"EURC","amount":"100"}`

	// Quotes and accepts are "heavy": 30 a minute per key (they count as
	// writes too, where the 30 leave room). The budget of a key over one
	// phase stays below that.
	heavyLimit  = 30
	heavyBudget = heavyLimit - 2
	// quoteKeysPerAccount spreads the keys over accounts (each with one
	// wallet), as many customers would, rather than piling them on one.
	quoteKeysPerAccount = 25
	// quoteTTL is the quotes' life (CONTRACT.md): the accept phase must
	// accept each quote within it.
	quoteTTL = 30 * time.Second

	// Quote latency targets (the issue): on a 2-core machine.
	quoteP99TargetMs  = 2.0
	quoteP999TargetMs = 5.0
	// quoteCPUTargetUs is fxd's server CPU per quote (the issue).
	quoteCPUTargetUs = 150.0

	// lateSend is how late a send may be before it counts as late.
	lateSend = time.Millisecond
	// maxLead bounds how long before its slot a worker signs a request
	// (the signature carries a timestamp the server accepts within 30 s).
	maxLead = 5 * time.Second
	// openStartDelay lets the workers start before the first slot.
	openStartDelay = 50 * time.Millisecond
)

// OpenLoad is an open-loop load: request i is due at start + i/Rate,
// whatever became of the earlier ones, and its latency is measured from
// that scheduled time, so a slow answer that delays later sends is
// charged to them too (no coordinated omission). Workers claim slots in
// order, build and sign the slot's request, wait for its time and send it
// on a connection of their own; at most MaxInFlight requests are waiting
// or in flight, so a server stall of MaxInFlight/Rate seconds is absorbed
// before a send is late. A send more than 1 ms after its time is counted
// as late (it is still measured from its scheduled time).
type OpenLoad struct {
	Name     string
	Addr     string  // host:port
	Rate     float64 // requests offered per second
	Warmup   time.Duration
	Duration time.Duration // measured window: the slots due in it
	// MaxInFlight bounds the workers, so the requests waiting for their
	// time or awaiting their answer, and the connections.
	MaxInFlight int
	WantStatus  int
	// Request builds slot i's request into r (method, target, body, key;
	// r's buffers are the worker's to reuse). It returns false, with
	// r.Skip saying why, when there is no request for the slot (keys
	// spent, no quote to accept): the slot is counted as unsent.
	Request func(i int64, r *OpenReq) bool
	// OnAnswer, if set, gets every WantStatus answer's body (valid only
	// during the call), warm-up included.
	OnAnswer func(i int64, body []byte)
	// OnAnswerAt, if set, is OnAnswer with the times the request went out
	// and its answer was read.
	OnAnswerAt func(i int64, body []byte, sent, end time.Time)
	ServerPID  int       // for CPU accounting; 0 for none
	Progress   io.Writer // one line a second; nil for none
	// OnWindow, if set, is called as the window opens; the func it
	// returns as it closes.
	OnWindow func() func()
	// SlowOver, if set, counts the window's answers slower than this per
	// 100 ms of the window (by scheduled time), to line a tail up with
	// what else happened then (GC, blocks).
	SlowOver time.Duration
	// Prepare, if set instead of Request, builds slot i's whole request
	// into req (the worker's own, reset before each call), for requests
	// the API's signature does not cover: the webhook phase's floor posts
	// signed deliveries straight to its receiver.
	Prepare func(i int64, req *fasthttp.Request) bool
	// TLS, if set, makes the connections TLS with this configuration.
	TLS *tls.Config
}

// OpenReq is one slot's request.
type OpenReq struct {
	Method string
	Target []byte // path and query, base path included
	Body   []byte
	Key    *keyState
	Skip   string
}

// OpenResult is the outcome of an OpenLoad.
type OpenResult struct {
	Name        string  `json:"name"`
	OfferedRate float64 `json:"offered_rate_per_s"`
	Workers     int     `json:"workers"`
	WarmupS     float64 `json:"warmup_s"`
	WindowS     float64 `json:"window_s"`
	Slots       int64   `json:"slots"` // warm-up included
	WindowSlots int64   `json:"window_slots"`
	Sent        int64   `json:"sent"` // warm-up included
	OK          int64   `json:"ok"`   // WantStatus answers to window slots
	Rate        float64 `json:"ok_per_s"`
	// Latency is from each window slot's scheduled time to its answer
	// (WantStatus answers only); Service from the actual send; Lateness
	// from the scheduled time to the send (the generator's and the
	// machine's own jitter).
	Latency   Latency `json:"latency"`
	Service   Latency `json:"service_time"`
	Lateness  Latency `json:"send_lateness"`
	LateSends int64   `json:"late_sends"` // window slots sent > 1 ms late
	// WindowStart is the wall time of the first window slot; SlowPer100ms
	// the answers slower than SlowOverMs per 100 ms from there.
	WindowStart  time.Time `json:"window_start"`
	SlowOverMs   float64   `json:"slow_over_ms,omitempty"`
	SlowPer100ms []int64   `json:"slow_per_100ms,omitempty"`
	// Status counts every answer, warm-up included, as do the error counts.
	Status          map[string]int64 `json:"status"`
	TooMany         int64            `json:"status_429"`
	Unexpected      int64            `json:"unexpected_status"`
	TransportErrors int64            `json:"transport_errors"`
	Unsent          int64            `json:"unsent"`
	FirstProblem    string           `json:"first_problem,omitempty"`
	Keys            int              `json:"keys,omitempty"`
	Accounts        int              `json:"accounts,omitempty"`
	BudgetPerKey    int64            `json:"budget_per_key,omitempty"`
	// CPU during the window, per OK answer (µs) and in cores; the
	// generator's figure is this whole process.
	ServerCPUUs    float64 `json:"server_cpu_us_per_req,omitempty"`
	ServerCores    float64 `json:"server_cores,omitempty"`
	GeneratorCPUUs float64 `json:"generator_cpu_us_per_req"`
	GeneratorCores float64 `json:"generator_cores"`
	OtherCores     float64 `json:"other_cores"` // -1 where unknown

	// What rounds of one load merge from (mergeOpen): the histograms
	// behind Latency, Service and Lateness, and the window's CPU.
	lat, svc, lateness Hist
	use                cpuUse
	useSecs            float64
}

// Errors counts the slots that did not get WantStatus, warm-up included.
func (r *OpenResult) Errors() int64 { return r.Unexpected + r.TransportErrors + r.Unsent }

// Valid reports whether the offered load was sent in full and answered
// without a 429 (a 429 means the key budgets are wrong, not the server).
func (r *OpenResult) Valid() bool {
	return r != nil && r.OK > 0 && r.TooMany == 0 && r.Unsent == 0
}

// openSlots is the number of warm-up and window slots of a load.
func openSlots(rate float64, warmup, window time.Duration) (nWarm, nWin int64) {
	return int64(math.Round(rate * warmup.Seconds())), int64(math.Round(rate * window.Seconds()))
}

// sharedHist is a Hist recorded from many goroutines, with its maximum.
type sharedHist struct {
	h   Hist
	max atomic.Int64
}

func (s *sharedHist) record(v time.Duration) {
	n := max(int64(v), 0)
	s.h.RecordAtomic(n)
	for m := s.max.Load(); n > m && !s.max.CompareAndSwap(m, n); m = s.max.Load() {
	}
}

// summary is read once every recorder is done.
func (s *sharedHist) summary() Latency {
	s.h.max = s.max.Load()
	return s.h.Summary()
}

// openRun is the shared state of one OpenLoad.
type openRun struct {
	l           *OpenLoad
	start       time.Time
	interval    float64 // ns between slots
	nWarm, nAll int64
	next        atomic.Int64
	sent        atomic.Int64
	late        atomic.Int64
	bad         atomic.Int64
	lat, svc    sharedHist
	lateness    sharedHist
	slow        []int64 // per 100 ms of the window, atomically
	problem     atomic.Pointer[string]
}

func (o *openRun) due(i int64) time.Time {
	return o.start.Add(time.Duration(float64(i) * o.interval))
}

func (o *openRun) noteProblem(format string, args ...any) {
	if o.problem.Load() == nil {
		s := fmt.Sprintf(format, args...)
		o.problem.CompareAndSwap(nil, &s)
	}
}

// openWorker holds one worker's tallies.
type openWorker struct {
	ok, lateSends, unexpected, transport, unsent int64
	status                                       [600]int64
}

// RunOpen runs an open-loop load.
func RunOpen(l OpenLoad) (*OpenResult, error) {
	if l.Rate <= 0 || (l.Request == nil && l.Prepare == nil) {
		return nil, fmt.Errorf("bench: %s: rate %v, request func %v", l.Name, l.Rate, l.Request != nil || l.Prepare != nil)
	}
	nWarm, nWin := openSlots(l.Rate, l.Warmup, l.Duration)
	if nWin < 1 {
		return nil, fmt.Errorf("bench: %s: no slot in a %v window at %v/s", l.Name, l.Duration, l.Rate)
	}
	o := &openRun{l: &l, interval: 1e9 / l.Rate, nWarm: nWarm, nAll: nWarm + nWin}
	nw := int64(max(l.MaxInFlight, 1))
	nw = min(nw, max(1, int64(math.Ceil(l.Rate*maxLead.Seconds()))), o.nAll)
	hc := openClient(&l, int(nw))
	defer hc.CloseIdleConnections()

	if l.SlowOver > 0 {
		o.slow = make([]int64, (l.Duration+100*time.Millisecond-1)/(100*time.Millisecond)+1)
	}
	o.start = time.Now().Add(openStartDelay)
	workers := make([]*openWorker, nw)
	var wg sync.WaitGroup
	for i := range workers {
		w := &openWorker{}
		workers[i] = w
		wg.Add(1)
		go func() { defer wg.Done(); o.work(w, hc) }()
	}
	stopProgress := o.progress()

	winStart, winEnd := o.due(o.nWarm), o.due(o.nAll)
	time.Sleep(time.Until(winStart))
	srv0, _ := procCPU(l.ServerPID)
	gen0, sys0 := cputime.Self(), systemBusy()
	endWindow := func() {}
	if l.OnWindow != nil {
		endWindow = l.OnWindow()
	}
	t0 := time.Now()
	time.Sleep(time.Until(winEnd))
	t1 := time.Now()
	srv1, srvErr := procCPU(l.ServerPID)
	gen1, sys1 := cputime.Self(), systemBusy()
	endWindow()
	wg.Wait()
	stopProgress()

	res := o.result(workers, winStart)
	use := cpuUse{gen: gen1 - gen0, server: -1, sys: -1}
	if l.ServerPID > 0 && srvErr == nil {
		use.server = srv1 - srv0
	}
	if sys0 >= 0 && sys1 >= 0 {
		use.sys = sys1 - sys0
	}
	res.use, res.useSecs = use, t1.Sub(t0).Seconds()
	res.shareCPU()
	return res, nil
}

// openClient is an open loop's connections: exactly conns, no retries,
// targets sent as given.
func openClient(l *OpenLoad, conns int) *fasthttp.HostClient {
	return &fasthttp.HostClient{
		Addr:                      l.Addr,
		Name:                      "fxbench",
		MaxConns:                  conns,
		MaxConnWaitTimeout:        30 * time.Second,
		ReadTimeout:               30 * time.Second,
		WriteTimeout:              30 * time.Second,
		DisablePathNormalizing:    true,
		MaxIdemponentCallAttempts: 1,
		RetryIfErr:                func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		IsTLS:                     l.TLS != nil,
		TLSConfig:                 l.TLS,
	}
}

// result tallies the workers once they are done (CPU aside).
func (o *openRun) result(workers []*openWorker, winStart time.Time) *OpenResult {
	l := o.l
	nWin := o.nAll - o.nWarm
	res := &OpenResult{Name: l.Name, OfferedRate: l.Rate, Workers: len(workers), WarmupS: l.Warmup.Seconds(),
		WindowS: float64(nWin) / l.Rate, Slots: o.nAll, WindowSlots: nWin, Sent: o.sent.Load(),
		Latency: o.lat.summary(), Service: o.svc.summary(), Lateness: o.lateness.summary(), Status: map[string]int64{},
		WindowStart: winStart.UTC(), SlowOverMs: ms(int64(l.SlowOver)), SlowPer100ms: o.slow}
	res.lat, res.svc, res.lateness = o.lat.h, o.svc.h, o.lateness.h // summary() set their maxima
	for _, w := range workers {
		res.OK += w.ok
		res.LateSends += w.lateSends
		res.Unexpected += w.unexpected
		res.TransportErrors += w.transport
		res.Unsent += w.unsent
		addStatuses(res.Status, &w.status)
	}
	if res.TransportErrors > 0 {
		res.Status["transport_error"] = res.TransportErrors
	}
	res.TooMany = res.Status["429"]
	if p := o.problem.Load(); p != nil {
		res.FirstProblem = *p
	}
	res.Rate = float64(res.OK) / res.WindowS
	return res
}

// shareCPU derives the CPU figures from the window's CPU use.
func (r *OpenResult) shareCPU() {
	c := r.use.share(r.OK, r.useSecs)
	r.GeneratorCPUUs, r.GeneratorCores, r.ServerCPUUs, r.ServerCores, r.OtherCores = c.GenUs, c.GenCores, c.ServerUs, c.ServerCores, c.OtherCores
}

// work claims slots in order until none is left: it builds and signs the
// slot's request, waits for the slot's time, sends and records.
func (o *openRun) work(w *openWorker, hc *fasthttp.HostClient) {
	p := newPacer()
	defer p.close()
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.DisableNormalizing()
	var b openBufs
	b.msg = make([]byte, 0, 512)
	for {
		i := o.next.Add(1) - 1
		if i >= o.nAll {
			return
		}
		if skip, ok := o.build(i, req, &b); !ok {
			w.unsent++
			o.bad.Add(1)
			o.noteProblem("slot %d not sent: %s", i, skip)
			continue
		}
		due := o.due(i)
		p.until(due)
		sent := time.Now()
		err := hc.Do(req, resp)
		o.record(w, i, due, sent, time.Now(), req, resp, err)
	}
}

// openBufs are one worker's reused buffers.
type openBufs struct {
	r                    OpenReq
	method, ts, msg, sig []byte
}

// build makes slot i's request in req: the load's Prepare, or its Request
// signed with reqsig as the SDK signs. It returns why not when there is
// no request for the slot.
func (o *openRun) build(i int64, req *fasthttp.Request, b *openBufs) (string, bool) {
	l := o.l
	if l.Prepare != nil {
		req.Reset()
		req.Header.DisableNormalizing()
		if !l.Prepare(i, req) {
			return "no request for the slot", false
		}
		return "", true
	}
	r := &b.r
	r.Method, r.Target, r.Body, r.Key, r.Skip = "", r.Target[:0], r.Body[:0], nil, ""
	if !l.Request(i, r) || r.Key == nil {
		return r.Skip, false
	}
	b.method = append(b.method[:0], r.Method...)
	b.ts = strconv.AppendInt(b.ts[:0], time.Now().Unix(), 10)
	b.msg = reqsig.AppendCanonical(b.msg[:0], b.ts, b.method, r.Target, r.Body)
	b.sig = base64.StdEncoding.AppendEncode(b.sig[:0], ed25519.Sign(r.Key.priv, b.msg))
	req.Header.SetMethodBytes(b.method)
	req.Header.SetHost(l.Addr)
	req.SetRequestURIBytes(r.Target)
	req.URI().DisablePathNormalizing = true
	req.Header.SetBytesV(reqsig.HeaderKey, r.Key.id)
	req.Header.SetBytesV(reqsig.HeaderTimestamp, b.ts)
	req.Header.SetBytesV(reqsig.HeaderSignature, b.sig)
	if len(r.Body) > 0 {
		req.Header.SetContentType("application/json")
	} else {
		req.Header.Del("Content-Type")
	}
	req.SetBodyRaw(r.Body)
	return "", true
}

// record tallies slot i's outcome: its send's lateness, its status, and
// for a window slot answered as wanted its latency from the scheduled
// time and its service time.
func (o *openRun) record(w *openWorker, i int64, due, sent, end time.Time, req *fasthttp.Request, resp *fasthttp.Response, err error) {
	l := o.l
	measured := i >= o.nWarm
	o.sent.Add(1)
	if measured {
		late := sent.Sub(due)
		o.lateness.record(late)
		if late > lateSend {
			w.lateSends++
			o.late.Add(1)
		}
	}
	if err != nil {
		w.transport++
		o.bad.Add(1)
		o.noteProblem("%s %s: %v", req.Header.Method(), req.RequestURI(), err)
		return
	}
	st := resp.StatusCode()
	if st > 0 && st < len(w.status) {
		w.status[st]++
	}
	if st != l.WantStatus {
		w.unexpected++
		o.bad.Add(1)
		o.noteProblem("%s %s: status %d: %.200s", req.Header.Method(), req.RequestURI(), st, resp.Body())
		return
	}
	if l.OnAnswer != nil {
		l.OnAnswer(i, resp.Body())
	}
	if l.OnAnswerAt != nil {
		l.OnAnswerAt(i, resp.Body(), sent, end)
	}
	if measured {
		w.ok++
		lat := end.Sub(due)
		o.lat.record(lat)
		o.svc.record(end.Sub(sent))
		if o.slow != nil && lat > l.SlowOver {
			b := min(int(due.Sub(o.due(o.nWarm))/(100*time.Millisecond)), len(o.slow)-1)
			atomic.AddInt64(&o.slow[b], 1)
		}
	}
}

// progress prints a line a second until the returned func is called.
func (o *openRun) progress() func() {
	if o.l.Progress == nil {
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		last, lastT := int64(0), time.Now()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				n := o.sent.Load()
				phase := "warmup"
				if !now.Before(o.due(o.nWarm)) {
					phase = "measure"
				}
				p := ""
				if q := o.problem.Load(); q != nil {
					p = "  problem: " + *q
				}
				fmt.Fprintf(o.l.Progress, "  [%s] %-7s t=%4.1fs  sent=%-8d %7.0f req/s  late=%d errors=%d%s\n",
					o.l.Name, phase, now.Sub(o.start).Seconds(), n, float64(n-last)/now.Sub(lastT).Seconds(),
					o.late.Load(), o.bad.Load(), p)
				last, lastT = n, now
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// QuotePhase is the FX quote path phase: setup, the quote load, and the
// accept load with the quotes made for it.
type QuotePhase struct {
	Setup QuoteSetup `json:"setup"`
	// Quotes is fxd's quote load, its rounds merged; Floor the floor's,
	// merged; Rounds each round, in the order run (quoterounds.go).
	Quotes *OpenResult  `json:"quotes,omitempty"`
	Floor  *OpenResult  `json:"floor_quotes,omitempty"`
	Rounds []QuoteRound `json:"rounds,omitempty"`
	// QuoteBodyBytes is the size of fxd's answer the floor answers with.
	QuoteBodyBytes int         `json:"quote_body_bytes,omitempty"`
	Accepts        *OpenResult `json:"accepts,omitempty"`
	// AcceptQuotes made the quotes the accept load accepts, just before it
	// (at a higher rate, not measured against any target).
	AcceptQuotes *OpenResult `json:"accept_quotes,omitempty"`
	// AcceptedRoutes counts the routes of the quotes accepted (the best
	// quote of each answer).
	AcceptedRoutes map[string]int64 `json:"accepted_routes,omitempty"`
	PprofFile      string           `json:"pprof_file,omitempty"`
	Notes          []string         `json:"notes,omitempty"`
}

// QuoteSetup is what the phase created on fxd.
type QuoteSetup struct {
	Accounts        int     `json:"accounts"` // each with one registered wallet
	QuoteAccounts   int     `json:"quote_accounts"`
	QuoteKeys       int     `json:"quote_keys"`
	AcceptAccounts  int     `json:"accept_accounts"`
	AcceptQuoteKeys int     `json:"accept_quote_keys"` // per accept account
	AcceptKeys      int     `json:"accept_keys"`       // per accept account
	BudgetPerKey    int64   `json:"heavy_budget_per_key"`
	Seconds         float64 `json:"setup_s"`
}

// quoteRequest is POST /fx/quotes with the next key of ks.
func quoteRequest(ks *KeySet) func(int64, *OpenReq) bool {
	return uniquePOST(ks, quotesPath, quoteBody)
}

// uniquePOST is an open-loop request: POST path (with body, if any) with
// the next key of ks, made unique with a per-key `_r` query parameter (the
// contract lets servers ignore unknown ones), as the server refuses
// replays.
func uniquePOST(ks *KeySet, path, body string) func(int64, *OpenReq) bool {
	return func(_ int64, r *OpenReq) bool {
		k := ks.pick()
		if k == nil {
			r.Skip = "every key's budget is spent"
			return false
		}
		seq := k.seq.Add(1) - 1
		r.Method, r.Key = "POST", k
		r.Target = append(append(r.Target, path...), "?_r="...)
		r.Target = strconv.AppendUint(r.Target, seq, 10)
		r.Body = append(r.Body, body...)
		return true
	}
}

// quotePlan sizes the FX phase's keys: each key sends at most
// heavyBudget heavy requests over the phase.
type quotePlan struct {
	qKeys, nQA   int   // quote keys and the accounts they sit on
	nAA, perRole int   // accept accounts, and their keys per role (make the quote, accept it)
	aw, an       int64 // accept slots: warm-up and window
}

// planQuoteKeys is the plan for cfg's rates: the quote load's rounds
// (each with its own warm-up) and the probe that captures the floor's
// answer, and the accept load.
func planQuoteKeys(cfg Config) quotePlan {
	need := func(slots int64) int {
		return max(1, int(math.Ceil(float64(slots)*provisionMargin/heavyBudget)))
	}
	var p quotePlan
	qw, qn := openSlots(float64(cfg.QuoteRate), cfg.Warmup, roundWindow(cfg))
	p.qKeys = need(int64(phaseRounds(cfg))*(qw+qn) + 1)
	p.nQA = (p.qKeys + quoteKeysPerAccount - 1) / quoteKeysPerAccount
	if cfg.AcceptRate > 0 {
		p.aw, p.an = openSlots(float64(cfg.AcceptRate), cfg.Warmup, cfg.Duration)
		p.nAA = max(1, (2*need(p.aw+p.an)+quoteKeysPerAccount-1)/quoteKeysPerAccount)
		p.perRole = need((p.aw + p.an + int64(p.nAA) - 1) / int64(p.nAA))
	}
	return p
}

// runQuotePhase creates accounts with one wallet each and keys, then
// runs the quote load (in rounds with the floor) and the accept load
// against fx. It fills ph as it goes, so a failure leaves what was done.
func runQuotePhase(ctx context.Context, fx *FXD, cfg Config, dir string, ph *QuotePhase, onWindow func() func(), logw io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	inflight := cfg.QuoteInFlight
	if inflight <= 0 {
		inflight = defaultQuoteInFlight
	}
	p := planQuoteKeys(cfg)
	ph.Setup = QuoteSetup{Accounts: p.nQA + p.nAA, QuoteAccounts: p.nQA, QuoteKeys: p.qKeys, AcceptAccounts: p.nAA,
		AcceptQuoteKeys: p.perRole, AcceptKeys: p.perRole, BudgetPerKey: heavyBudget}
	say("== fx quotes: %d accounts with a wallet each; %d quote keys (%d accounts), %d accept accounts with 2×%d keys",
		p.nQA+p.nAA, p.qKeys, p.nQA, p.nAA, p.perRole)
	t := time.Now()
	keys, err := makeQuoteKeys(ctx, fx, cfg, dir, p, logw)
	if err != nil {
		return err
	}
	ph.Setup.Seconds = time.Since(t).Seconds()
	say("  setup took %.1fs", ph.Setup.Seconds)

	// The quote load, in rounds alternating with the floor.
	qks := NewKeySet(keys[:p.qKeys], heavyBudget)
	say("== fx quotes: POST /fx/quotes open loop at %d/s, %d round(s) of %v + %v alternating floor and fxd, up to %d waiting or in flight",
		cfg.QuoteRate, phaseRounds(cfg), cfg.Warmup, roundWindow(cfg), inflight)
	if err := runQuoteRounds(fx, cfg, dir, keys[:p.qKeys], qks, inflight, ph, onWindow, logw); err != nil {
		return err
	}
	ph.Quotes.Keys, ph.Quotes.Accounts, ph.Quotes.BudgetPerKey = p.qKeys, p.nQA, heavyBudget
	for _, r := range ph.Rounds {
		r.FXD.Keys, r.FXD.Accounts, r.FXD.BudgetPerKey = p.qKeys, p.nQA, heavyBudget
	}
	say("  quotes: %s; errors %d, late sends %d", latencyText(ph.Quotes.Latency), ph.Quotes.Errors(), ph.Quotes.LateSends)
	if p.nAA == 0 {
		return nil
	}
	return runAccepts(fx, cfg, p, keys[p.qKeys:], inflight, ph, logw)
}

// makeQuoteKeys creates the plan's accounts, one wallet each (SIWE) and
// its keys: the quote keys round robin over the quote accounts, then
// 2 × perRole keys on each accept account.
func makeQuoteKeys(ctx context.Context, fx *FXD, cfg Config, dir string, p quotePlan, logw io.Writer) ([]Key, error) {
	accts, err := fx.CreateAccounts(ctx, p.nQA+p.nAA, cfg.CLIParallel, "fxq", logw)
	if err != nil {
		return nil, fmt.Errorf("create accounts: %w", err)
	}
	var owners []string
	for j := range p.qKeys {
		owners = append(owners, accts[j%p.nQA])
	}
	for a := range p.nAA {
		for range 2 * p.perRole {
			owners = append(owners, accts[p.nQA+a])
		}
	}
	keys, err := fx.CreateKeys(ctx, owners, "trade,wallets", dir, cfg.CLIParallel, logw)
	if err != nil {
		return nil, fmt.Errorf("create keys: %w", err)
	}
	// One wallet per account, registered with the account's first key.
	first := map[string]Key{}
	for _, k := range keys {
		if _, ok := first[k.Account]; !ok {
			first[k.Account] = k
		}
	}
	base := "http://" + fx.Addr()
	if err := parallel(len(accts), 8, "wallets", logw, func(i int) error {
		_, err := registerWallet(ctx, base, first[accts[i]])
		return err
	}); err != nil {
		return nil, fmt.Errorf("register wallets: %w", err)
	}
	return keys, nil
}

// runAccepts makes the quotes to accept, then accepts them open loop at
// cfg.AcceptRate. Slot i's quote is made and accepted on accept account
// i mod nAA, with keys of their own for each (keys: the accept
// accounts' keys, 2 × perRole each).
func runAccepts(fx *FXD, cfg Config, p quotePlan, keys []Key, inflight int, ph *QuotePhase, logw io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	aRate := float64(cfg.AcceptRate)
	preKS, accKS := make([]*KeySet, p.nAA), make([]*KeySet, p.nAA)
	for a := range p.nAA {
		ks := keys[a*2*p.perRole : (a+1)*2*p.perRole]
		preKS[a], accKS[a] = NewKeySet(ks[:p.perRole], heavyBudget), NewKeySet(ks[p.perRole:], heavyBudget)
	}
	ids, err := makeAcceptQuotes(fx, cfg, p, preKS, inflight, ph, logw)
	if err != nil {
		return err
	}
	nAA := int64(p.nAA)
	say("== fx accepts: POST /fx/quotes/{id}/accept open loop at %.0f/s, %v + %v", aRate, cfg.Warmup, cfg.Duration)
	ph.Accepts, err = RunOpen(OpenLoad{Name: "fxd-accepts", Addr: fx.Addr(), Rate: aRate, Warmup: cfg.Warmup,
		Duration: cfg.Duration, MaxInFlight: inflight, WantStatus: 200, ServerPID: fx.PID(), Progress: logw,
		Request: func(i int64, r *OpenReq) bool {
			if i >= int64(len(ids)) || ids[i] == "" {
				r.Skip = "no quote to accept (its POST /fx/quotes failed)"
				return false
			}
			k := accKS[i%nAA].pick()
			if k == nil {
				r.Skip = "every key's budget is spent"
				return false
			}
			r.Method, r.Key = "POST", k
			r.Target = append(append(append(r.Target, quotesPath...), '/'), ids[i]...)
			r.Target = append(r.Target, "/accept"...)
			return true
		}})
	if err != nil {
		return err
	}
	ph.Accepts.Keys, ph.Accepts.Accounts, ph.Accepts.BudgetPerKey = p.nAA*p.perRole, p.nAA, heavyBudget
	say("  accepts: %s; errors %d, late sends %d", latencyText(ph.Accepts.Latency), ph.Accepts.Errors(), ph.Accepts.LateSends)
	return nil
}

// makeAcceptQuotes makes one quote per accept slot, faster than the
// accepts (not measured against any target), and returns each slot's
// best quote id ("" where its quote failed).
func makeAcceptQuotes(fx *FXD, cfg Config, p quotePlan, preKS []*KeySet, inflight int, ph *QuotePhase, logw io.Writer) ([]string, error) {
	nA, nAA := p.aw+p.an, int64(p.nAA)
	ids := make([]string, nA)
	var routeMu sync.Mutex
	routes := map[string]int64{}
	preRate := max(float64(cfg.AcceptRate), float64(cfg.QuoteRate)/2)
	preDur := time.Duration(float64(nA) / preRate * float64(time.Second))
	if age := preDur + cfg.Warmup + cfg.Duration; age > quoteTTL-2*time.Second {
		ph.Notes = append(ph.Notes, fmt.Sprintf("the accept load accepts quotes up to %.1fs old, near their %v life: expect quote_expired", age.Seconds(), quoteTTL))
	}
	preReq := make([]func(int64, *OpenReq) bool, nAA)
	for a := range preReq {
		preReq[a] = quoteRequest(preKS[a])
	}
	fmt.Fprintf(logw, "== fx accepts: making %d quotes to accept at %.0f/s\n", nA, preRate)
	var err error
	ph.AcceptQuotes, err = RunOpen(OpenLoad{Name: "fxd-accept-quotes", Addr: fx.Addr(), Rate: preRate, Duration: preDur,
		MaxInFlight: inflight, WantStatus: 200, ServerPID: fx.PID(),
		Request: func(i int64, r *OpenReq) bool { return preReq[i%nAA](i, r) },
		OnAnswer: func(i int64, body []byte) {
			best, route, ok := bestQuote(body)
			if !ok || i >= int64(len(ids)) {
				return
			}
			ids[i] = best
			if route != "" {
				routeMu.Lock()
				routes[route]++
				routeMu.Unlock()
			}
		}})
	ph.AcceptedRoutes = routes
	return ids, err
}

// bestQuote is a quote answer's best quote id and its route ("" when
// the best is not among the quotes); ok is false when it does not parse.
func bestQuote(body []byte) (id, route string, ok bool) {
	var v struct {
		Quotes []struct {
			ID    string `json:"id"`
			Route string `json:"route"`
		} `json:"quotes"`
		Best string `json:"best_quote_id"`
	}
	if json.Unmarshal(body, &v) != nil {
		return "", "", false
	}
	for _, q := range v.Quotes {
		if q.ID == v.Best {
			return v.Best, q.Route, true
		}
	}
	return v.Best, "", true
}

// registerWallet links a new Ethereum key to k's account by SIWE
// (EIP-4361): a challenge, signed with EIP-191 personal_sign, then POST
// /wallets. It returns the wallet's address.
func registerWallet(ctx context.Context, base string, k Key) (string, error) {
	if k.Priv == nil {
		return "", errors.New("register wallet: no key")
	}
	c, err := client.New(base, k.ID, k.Priv)
	if err != nil {
		return "", err
	}
	defer c.CloseIdleConnections()
	ek, err := crypto.GenerateKey()
	if err != nil {
		return "", err
	}
	addr := crypto.PubkeyToAddress(ek.PublicKey).Hex()
	body, _ := json.Marshal(map[string]string{"address": addr})
	r, err := c.Do(ctx, "POST", basePath+"/wallets/challenge", body, nil)
	if err != nil {
		return "", err
	}
	if r.Status != 200 {
		return "", fmt.Errorf("POST /wallets/challenge: %d %s", r.Status, r.Body)
	}
	var ch struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal(r.Body, &ch); err != nil || ch.Message == "" {
		return "", fmt.Errorf("POST /wallets/challenge: no message in %s", r.Body)
	}
	sig, err := crypto.Sign(accounts.TextHash([]byte(ch.Message)), ek)
	if err != nil {
		return "", err
	}
	sig[64] += 27 // personal_sign's v is 27 or 28
	body, _ = json.Marshal(map[string]string{"message": ch.Message, "signature": hexutil.Encode(sig)})
	r, err = c.Do(ctx, "POST", basePath+"/wallets", body, nil)
	if err != nil {
		return "", err
	}
	if r.Status != 201 {
		return "", fmt.Errorf("POST /wallets: %d %s", r.Status, r.Body)
	}
	return addr, nil
}

// pprofHook returns an OnWindow func that fetches a CPU profile of fx over
// the window from its admin listener into path.
func pprofHook(fx *FXD, window time.Duration, path string, ph *QuotePhase, fail func(string, error)) func() func() {
	return func() func() {
		done := make(chan error, 1)
		go func() { done <- fetchPprof(fx, window, path) }()
		return func() {
			if err := <-done; err != nil {
				fail("pprof", err)
				return
			}
			ph.PprofFile = path
		}
	}
}

// fetchPprof reads GET /debug/pprof/profile?seconds=N on the admin
// listener with the token from the data dir.
func fetchPprof(fx *FXD, window time.Duration, path string) error {
	secs := max(1, int(window.Round(time.Second)/time.Second))
	b, err := fx.adminDo(context.Background(), "GET", fmt.Sprintf("/debug/pprof/profile?seconds=%d", secs), nil, window+time.Minute)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
