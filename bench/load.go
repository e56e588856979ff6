package bench

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/reqsig"
)

// Generators.
const (
	// GenRaw signs with reqsig (the code the SDK signs with) and sends over
	// one shared fasthttp.HostClient with exactly Conns connections, reusing
	// one request and one response object per worker: one allocation per
	// request (the signature ed25519.Sign returns).
	GenRaw = "raw"
	// GenSDK sends every request through client.Client.Do, one Client per
	// key (the SDK's model), so it also measures the SDK's own overhead.
	GenSDK = "sdk"
)

// Key is an API key the generator signs with.
type Key struct {
	ID      string
	Account string
	Priv    ed25519.PrivateKey
}

// Load is one closed-loop load phase: Conns workers, each sending its next
// request as soon as the previous one is answered, for Warmup and then
// Duration (the measured window).
type Load struct {
	Name   string
	Addr   string // host:port
	Method string
	Path   string // request target without query, base path included
	// Body, if set, appends the body of the request with sequence number
	// seq to dst. The sequence is per key, so a body that includes it makes
	// every signed request unique (the server refuses replays).
	Body       func(dst []byte, seq uint64) []byte
	WantStatus int
	// Keys signs the requests. Its per-key budget and counters carry over
	// from one Load to the next that uses the same KeySet.
	Keys     *KeySet
	Conns    int
	Warmup   time.Duration
	Duration time.Duration
	Gen      string    // GenRaw (default) or GenSDK
	Progress io.Writer // one line a second; nil for none
	// ServerPID is the server's process, for CPU accounting; 0 for none
	// (an in-process server: its CPU is then part of the generator's).
	ServerPID int
	// OnWindow, if set, is called as the measured window opens; the func
	// it returns is called as the window closes (profilers hook in here).
	OnWindow func() func()
}

// LoadResult is the outcome of a Load (or of several, merged).
type LoadResult struct {
	Name       string  `json:"name"`
	Generator  string  `json:"generator"`
	Conns      int     `json:"conns"`
	Keys       int     `json:"keys"`
	Budget     int64   `json:"budget_per_key,omitempty"`
	WarmupS    float64 `json:"warmup_s"`
	PlannedS   float64 `json:"planned_s"`
	Seconds    float64 `json:"measured_s"`
	OK         int64   `json:"ok"` // WantStatus answers completed in the window
	Rate       float64 `json:"rate_per_s"`
	Latency    Latency `json:"latency"` // of the OK answers in the window
	Sent       int64   `json:"sent_total"`
	TooMany    int64   `json:"status_429"` // warm-up included
	Unexpected int64   `json:"unexpected_status"`
	Errors     int64   `json:"transport_errors"`
	// Status counts every answer, warm-up included.
	Status          map[string]int64 `json:"status"`
	FirstProblem    string           `json:"first_problem,omitempty"`
	BudgetExhausted bool             `json:"budget_exhausted"`
	// CPU per answered request in the window, in microseconds, and cores
	// used. The generator's figure is this whole process.
	ServerCPUUs    float64 `json:"server_cpu_us_per_req,omitempty"`
	ServerCores    float64 `json:"server_cores,omitempty"`
	GeneratorCPUUs float64 `json:"generator_cpu_us_per_req"`
	GeneratorCores float64 `json:"generator_cores"`
	// RoundRates are the rates of the rounds merged into this result.
	RoundRates []float64 `json:"round_rates,omitempty"`
	// WritesPerFsync is fxd's mean group commit in a durable-write phase's
	// windows (fxd_wal_batch_records), so that the phase's spread between
	// runs can be set against the size of its batches (each fsync costs
	// about 100 µs of CPU on the bench machine, shared by its batch).
	WritesPerFsync float64 `json:"writes_per_fsync,omitempty"`

	// OtherCores is the CPU the rest of the machine used during the
	// window (all busy CPU time less the server's and the generator's):
	// a measure of how noisy the numbers are. -1 where unknown.
	OtherCores float64 `json:"other_cores"`

	hist      Hist
	serverCPU time.Duration
	genCPU    time.Duration
	sysCPU    time.Duration
}

// Valid reports whether every request got the expected answer and the
// window, if the key budget cut it short, still ran at least half its
// planned length.
func (r *LoadResult) Valid() bool {
	return r != nil && r.OK > 0 && r.TooMany == 0 && r.Unexpected == 0 && r.Errors == 0 &&
		r.Seconds >= 0.5*r.PlannedS
}

const (
	phaseWarmup int32 = iota
	phaseMeasure
	phaseStop
)

// KeySet is the keys of one server with their use counters.
type KeySet struct {
	keys   []keyState
	next   atomic.Uint64
	budget int64
}

// NewKeySet returns the keys with a budget: the most requests sent with one
// key over every Load using the set (warm-ups included); 0 is unlimited.
// The budget keeps the load under the server's per-key rate limit: a
// worker that finds every key spent ends its Load early
// (LoadResult.BudgetExhausted).
func NewKeySet(keys []Key, budget int64) *KeySet {
	s := &KeySet{keys: make([]keyState, len(keys)), budget: budget}
	for i, k := range keys {
		s.keys[i] = keyState{id: []byte(k.ID), priv: k.Priv, key: k}
	}
	return s
}

// Len is the number of keys.
func (s *KeySet) Len() int { return len(s.keys) }

// Sent is the number of requests sent with the set so far.
func (s *KeySet) Sent() int64 {
	var n int64
	for i := range s.keys {
		n += min(s.keys[i].used.Load(), s.budget)
	}
	return n
}

// sign sets req's method, host, raw target and the three auth headers,
// signing with k now; ts, msg and sig are the caller's reused buffers,
// returned grown. The target is sent exactly as signed (no normalizing).
func (k *keyState) sign(req *fasthttp.Request, host string, method, target, body, ts, msg, sig []byte) ([]byte, []byte, []byte) {
	ts = strconv.AppendInt(ts[:0], time.Now().Unix(), 10)
	msg = reqsig.AppendCanonical(msg[:0], ts, method, target, body)
	sig = base64.StdEncoding.AppendEncode(sig[:0], ed25519.Sign(k.priv, msg))
	req.Header.SetMethodBytes(method)
	req.Header.SetHost(host)
	req.SetRequestURIBytes(target)
	req.URI().DisablePathNormalizing = true
	req.Header.SetBytesV(reqsig.HeaderKey, k.id)
	req.Header.SetBytesV(reqsig.HeaderTimestamp, ts)
	req.Header.SetBytesV(reqsig.HeaderSignature, sig)
	return ts, msg, sig
}

// keyState is a key with its use counters.
type keyState struct {
	id   []byte
	priv ed25519.PrivateKey
	key  Key
	used atomic.Int64
	seq  atomic.Uint64
	sdk  *client.Client
	_    [40]byte // keep hot counters of neighbouring keys apart
}

// pick returns the next key with budget left (round robin over all keys,
// so they are spent evenly), or nil when every key is spent.
func (s *KeySet) pick() *keyState {
	n := uint64(len(s.keys))
	for tries := uint64(0); tries < n; tries++ {
		k := &s.keys[s.next.Add(1)%n]
		if s.budget == 0 || k.used.Add(1) <= s.budget {
			return k
		}
	}
	return nil
}

// run is the shared state of one Load.
type run struct {
	l         *Load
	keys      *KeySet
	phase     atomic.Int32
	sent      atomic.Int64
	exhausted chan struct{}
	exOnce    sync.Once
	problem   atomic.Pointer[string]
}

func (r *run) pick() *keyState {
	k := r.keys.pick()
	if k == nil {
		r.exOnce.Do(func() { close(r.exhausted) })
	}
	return k
}

func (r *run) noteProblem(format string, args ...any) {
	if r.problem.Load() == nil {
		s := fmt.Sprintf(format, args...)
		r.problem.CompareAndSwap(nil, &s)
	}
}

// worker holds one worker's tallies; merged after the phase.
type worker struct {
	hist       Hist
	ok         int64
	status     [600]int64
	errors     int64
	unexpected int64
}

// record tallies one answer (status 0: transport error).
func (w *worker) record(r *run, status int, start time.Time, body []byte) {
	lat := time.Since(start)
	measuring := r.phase.Load() == phaseMeasure
	r.sent.Add(1)
	if status == 0 {
		w.errors++
		return
	}
	if status > 0 && status < len(w.status) {
		w.status[status]++
	}
	if status != r.l.WantStatus {
		w.unexpected++
		r.noteProblem("%s %s: status %d: %.200s", r.l.Method, r.l.Path, status, body)
		return
	}
	if measuring {
		w.ok++
		w.hist.Record(int64(lat))
	}
}

// RunLoad runs one load phase.
func RunLoad(l Load) (*LoadResult, error) {
	if l.Conns < 1 {
		return nil, fmt.Errorf("bench: %s: conns %d", l.Name, l.Conns)
	}
	if l.Keys == nil || l.Keys.Len() == 0 {
		return nil, fmt.Errorf("bench: %s: no keys", l.Name)
	}
	if l.Gen == "" {
		l.Gen = GenRaw
	}
	r := &run{l: &l, keys: l.Keys, exhausted: make(chan struct{})}
	var newWorker func(w *worker) func()
	switch l.Gen {
	case GenRaw:
		hc := &fasthttp.HostClient{
			Addr:                      l.Addr,
			Name:                      "fxbench",
			MaxConns:                  l.Conns,
			MaxConnWaitTimeout:        30 * time.Second,
			ReadTimeout:               30 * time.Second,
			WriteTimeout:              30 * time.Second,
			DisablePathNormalizing:    true,
			MaxIdemponentCallAttempts: 1,
			RetryIfErr:                func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
		}
		defer hc.CloseIdleConnections()
		newWorker = func(w *worker) func() { return func() { r.rawWorker(w, hc) } }
	case GenSDK:
		// Keys are picked round robin, so a key is rarely in use by two
		// workers at once; one spare connection per key covers that.
		perKey := (l.Conns+l.Keys.Len()-1)/l.Keys.Len() + 1
		for i := range l.Keys.keys {
			k := &l.Keys.keys[i]
			if k.sdk == nil {
				c, err := client.New("http://"+l.Addr, k.key.ID, k.key.Priv,
					client.WithMaxConns(perKey), client.WithTimeout(30*time.Second))
				if err != nil {
					return nil, err
				}
				k.sdk = c
			}
			defer k.sdk.CloseIdleConnections()
		}
		newWorker = func(w *worker) func() { return func() { r.sdkWorker(w) } }
	default:
		return nil, fmt.Errorf("bench: unknown generator %q (want %s or %s)", l.Gen, GenRaw, GenSDK)
	}

	workers := make([]*worker, l.Conns)
	var wg sync.WaitGroup
	for i := range workers {
		workers[i] = &worker{}
		fn := newWorker(workers[i])
		wg.Add(1)
		go func() { defer wg.Done(); fn() }()
	}
	stopProgress := r.progress()

	wait := func(d time.Duration) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.exhausted:
		}
	}
	wait(l.Warmup)
	srv0, _ := procCPU(l.ServerPID)
	gen0 := cputime.Self()
	sys0 := systemBusy()
	endWindow := func() {}
	if l.OnWindow != nil {
		endWindow = l.OnWindow()
	}
	t0 := time.Now()
	r.phase.Store(phaseMeasure)
	wait(l.Duration)
	r.phase.Store(phaseStop)
	t1 := time.Now()
	srv1, srvErr := procCPU(l.ServerPID)
	gen1 := cputime.Self()
	sys1 := systemBusy()
	endWindow()
	wg.Wait()
	stopProgress()

	res := &LoadResult{
		Name: l.Name, Generator: l.Gen, Conns: l.Conns, Keys: l.Keys.Len(), Budget: l.Keys.budget,
		WarmupS: l.Warmup.Seconds(), PlannedS: l.Duration.Seconds(), Seconds: t1.Sub(t0).Seconds(), Sent: r.sent.Load(),
		Status: map[string]int64{},
	}
	select {
	case <-r.exhausted:
		res.BudgetExhausted = true
	default:
	}
	for _, w := range workers {
		res.hist.Merge(&w.hist)
		res.OK += w.ok
		res.Errors += w.errors
		res.Unexpected += w.unexpected
		addStatuses(res.Status, &w.status)
	}
	if res.Errors > 0 {
		res.Status["transport_error"] = res.Errors
	}
	if p := r.problem.Load(); p != nil {
		res.FirstProblem = *p
	}
	res.genCPU = gen1 - gen0
	res.serverCPU = -1
	if l.ServerPID > 0 && srvErr == nil {
		res.serverCPU = srv1 - srv0
	}
	res.sysCPU = -1
	if sys0 >= 0 && sys1 >= 0 {
		res.sysCPU = sys1 - sys0
	}
	res.finish()
	return res, nil
}

// finish computes the derived figures.
func (res *LoadResult) finish() {
	res.TooMany = res.Status["429"]
	res.Latency = res.hist.Summary()
	res.Rate = 0
	if res.Seconds > 0 {
		res.Rate = float64(res.OK) / res.Seconds
	}
	c := cpuUse{res.genCPU, res.serverCPU, res.sysCPU}.share(res.OK, res.Seconds)
	res.GeneratorCPUUs, res.GeneratorCores, res.ServerCPUUs, res.ServerCores, res.OtherCores = c.GenUs, c.GenCores, c.ServerUs, c.ServerCores, c.OtherCores
}

// MergeResults combines the rounds of one phase: counts, windows and CPU
// add up, latency histograms merge.
func MergeResults(rs ...*LoadResult) *LoadResult {
	var out *LoadResult
	for _, r := range rs {
		if r == nil {
			continue
		}
		if out == nil {
			c := *r
			c.Status = map[string]int64{}
			for k, v := range r.Status {
				c.Status[k] = v
			}
			c.RoundRates = []float64{r.Rate}
			out = &c
			continue
		}
		out.WarmupS += r.WarmupS
		out.PlannedS += r.PlannedS
		out.Seconds += r.Seconds
		out.OK += r.OK
		out.Sent += r.Sent
		out.Unexpected += r.Unexpected
		out.Errors += r.Errors
		for k, v := range r.Status {
			out.Status[k] += v
		}
		if out.FirstProblem == "" {
			out.FirstProblem = r.FirstProblem
		}
		out.BudgetExhausted = out.BudgetExhausted || r.BudgetExhausted
		out.hist.Merge(&r.hist)
		out.genCPU += r.genCPU
		if out.sysCPU >= 0 && r.sysCPU >= 0 {
			out.sysCPU += r.sysCPU
		} else {
			out.sysCPU = -1
		}
		if out.serverCPU >= 0 && r.serverCPU >= 0 {
			out.serverCPU += r.serverCPU
		} else {
			out.serverCPU = -1
		}
		out.RoundRates = append(out.RoundRates, r.Rate)
	}
	if out != nil {
		out.finish()
	}
	return out
}

// progress prints a line a second until the returned func is called.
func (r *run) progress() func() {
	if r.l.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		start := time.Now()
		last := int64(0)
		lastT := start
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				n := r.sent.Load()
				phase := "warmup"
				if r.phase.Load() != phaseWarmup {
					phase = "measure"
				}
				p := ""
				if q := r.problem.Load(); q != nil {
					p = "  problem: " + *q
				}
				fmt.Fprintf(r.l.Progress, "  [%s] %-7s t=%4.1fs  requests=%-9d  %8.0f req/s%s\n",
					r.l.Name, phase, now.Sub(start).Seconds(), n, float64(n-last)/now.Sub(lastT).Seconds(), p)
				last, lastT = n, now
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// rawWorker signs with reqsig and sends with fasthttp, reusing its request,
// response and buffers.
func (r *run) rawWorker(w *worker, hc *fasthttp.HostClient) {
	l := r.l
	req := fasthttp.AcquireRequest()
	resp := fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.Header.DisableNormalizing()
	method := []byte(l.Method)
	var target, body, ts, msg, sig []byte
	msg = make([]byte, 0, 512)
	for r.phase.Load() != phaseStop {
		k := r.pick()
		if k == nil {
			return
		}
		seq := k.seq.Add(1) - 1
		target = append(target[:0], l.Path...)
		body = body[:0]
		if l.Body != nil {
			body = l.Body(body, seq)
		} else if seq > 0 {
			// What the SDK does for a request signed twice in a second;
			// here for every repeat, so the bytes never depend on timing.
			target = append(target, "?_r="...)
			target = strconv.AppendUint(target, seq, 10)
		}
		ts, msg, sig = k.sign(req, l.Addr, method, target, body, ts, msg, sig)
		if len(body) > 0 {
			req.Header.SetContentType("application/json")
		}
		req.SetBodyRaw(body)

		start := time.Now()
		err := hc.Do(req, resp)
		if err != nil {
			w.record(r, 0, start, nil)
			r.noteProblem("%s %s: %v", l.Method, l.Path, err)
			continue
		}
		w.record(r, resp.StatusCode(), start, resp.Body())
	}
}

// sdkWorker sends through the SDK (one Client, so one connection pool, per
// key). Its latency includes signing, which the SDK does inside Do.
func (r *run) sdkWorker(w *worker) {
	l := r.l
	ctx := context.Background()
	var body []byte
	for r.phase.Load() != phaseStop {
		k := r.pick()
		if k == nil {
			return
		}
		seq := k.seq.Add(1) - 1
		var b []byte
		if l.Body != nil {
			body = l.Body(body[:0], seq)
			b = body
		}
		start := time.Now()
		resp, err := k.sdk.Do(ctx, l.Method, l.Path, b, nil)
		if err != nil {
			w.record(r, 0, start, nil)
			r.noteProblem("%s %s: %v", l.Method, l.Path, err)
			continue
		}
		w.record(r, resp.Status, start, resp.Body)
	}
}

// addStatuses adds a worker's count per HTTP status to a report's map.
func addStatuses(dst map[string]int64, counts *[600]int64) {
	for s, n := range counts {
		if n > 0 {
			dst[strconv.Itoa(s)] += n
		}
	}
}
