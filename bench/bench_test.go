package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/internal/procs"
	"github.com/fxd-labs/fxd/reqsig"
)

// The pieces that need no fxd binary, each for a fraction of a second:
// this checks the code paths, not the numbers.

func TestHistQuantiles(t *testing.T) {
	var h Hist
	for v := int64(1); v <= 100_000; v++ {
		h.Record(v * 1000) // 1 µs .. 100 ms
	}
	for _, q := range []float64{0.5, 0.99, 0.999} {
		want := q * 100_000 * 1000
		got := float64(h.Quantile(q))
		require.InDelta(t, want, got, want/100, "q=%v", q) // within 1 %
	}
	require.Equal(t, int64(100_000_000), h.Quantile(1))
	var m Hist
	m.Merge(&h)
	m.Merge(&h)
	require.Equal(t, 2*h.Count(), m.Count())
	require.Equal(t, h.Quantile(0.5), m.Quantile(0.5))
	for _, v := range []int64{0, 1, 127, 128, 129, 1 << 20, 1<<40 + 12345, 1 << 62} {
		mid := bucketMid(bucketOf(v))
		if v < 1<<46 {
			require.InDelta(t, float64(v), float64(mid), float64(v)/100+1, "v=%d", v)
		}
	}
}

func TestContactBody(t *testing.T) {
	var v struct{ Name, Address, Currency string }
	require.NoError(t, json.Unmarshal(contactBody(nil, 0xabc), &v))
	require.Equal(t, "bench contact 2748", v.Name)
	require.Equal(t, "0x1"+strings.Repeat("0", 36)+"abc", v.Address)
	require.Equal(t, "USDC", v.Currency)
	require.NoError(t, json.Unmarshal(contactBody(nil, 0), &v))
	require.Equal(t, "0x1"+strings.Repeat("0", 39), v.Address, "seq 0 is not the zero address")
}

func TestRateLimitBench(t *testing.T) {
	SetBenchTime(20 * time.Millisecond)
	rs := RunRateLimit()
	require.Len(t, rs, 4)
	for _, r := range rs {
		require.Positive(t, r.N, r.Name)
		require.Positive(t, r.NsPerOp, r.Name)
	}
}

func TestWALBench(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	r, err := RunWAL(t.TempDir(), 16, 100, 20*time.Millisecond, 200*time.Millisecond, nil)
	require.NoError(t, err)
	serving, _ := procs.Serving()
	require.Equal(t, serving, r.GOMAXPROCS, "the phase runs as fxd serve would")
	require.Equal(t, before, runtime.GOMAXPROCS(0), "and gives fxbench its own back")
	require.Positive(t, r.Appends)
	require.Zero(t, r.Errors, r.FirstError)
	require.GreaterOrEqual(t, r.LastIndex, uint64(r.Appends))
	if r.Batches > 0 { // Linux: /proc/self/io
		require.Greater(t, r.BatchBytes, float64(100), "a batch holds at least one framed payload")
		require.Positive(t, r.FloorFsyncsPerSec, "the raw fsync floor ran on the same disk")
		require.InDelta(t, r.BatchesPerSec/r.FloorFsyncsPerSec, r.FsyncRatio, 1e-9)
	}
}

// TestFloorUnderLoad runs the load generator (both generators) against an
// in-process floor: signatures must verify, and a spent key budget must
// end the phase without a request over budget.
func TestFloorUnderLoad(t *testing.T) {
	keys, pubs, err := NewFloorKeys(4)
	require.NoError(t, err)
	cfg := &FloorConfig{Keys: pubs, GetBody: []byte(`{"id":"acct_x"}`), PostBody: []byte(`{"id":"ct_x"}`)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := NewFloorServer(cfg)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown() })

	var progress bytes.Buffer
	base := Load{Name: "floor", Addr: ln.Addr().String(), Method: "GET", Path: accountPath, WantStatus: 200,
		Conns: 4, Warmup: 50 * time.Millisecond, Duration: 250 * time.Millisecond, Progress: &progress}
	var rounds []*LoadResult
	for _, gen := range []string{GenRaw, GenSDK} {
		for _, post := range []bool{false, true} {
			l := base
			l.Gen, l.Keys = gen, NewKeySet(keys, 0)
			if post {
				l.Method, l.Path, l.WantStatus, l.Body = "POST", contactsPath, 201, contactBody
			}
			r, err := RunLoad(l)
			require.NoError(t, err)
			require.True(t, r.Valid(), "%s %s: %+v", gen, l.Method, r)
			require.Positive(t, r.Latency.P99Ms)
			rounds = append(rounds, r)
		}
	}
	m := MergeResults(rounds...)
	require.Equal(t, rounds[0].OK+rounds[1].OK+rounds[2].OK+rounds[3].OK, m.OK)
	require.Len(t, m.RoundRates, 4)

	// A budget of 5 requests per key: the phase ends early, flagged, and
	// no key sent more than 5.
	l := base
	l.Keys = NewKeySet(keys, 5)
	l.Duration = 5 * time.Second
	start := time.Now()
	r, err := RunLoad(l)
	require.NoError(t, err)
	require.Less(t, time.Since(start), 4*time.Second)
	require.True(t, r.BudgetExhausted)
	require.False(t, r.Valid())
	require.LessOrEqual(t, r.Sent, int64(5*len(keys)))
	require.Equal(t, int64(5*len(keys)), l.Keys.Sent())

	// A key the floor does not know is refused (401), and reported.
	other, _, err := NewFloorKeys(1)
	require.NoError(t, err)
	l = base
	l.Keys = NewKeySet(other, 0)
	l.Warmup, l.Duration = 0, 50*time.Millisecond
	r, err = RunLoad(l)
	require.NoError(t, err)
	require.False(t, r.Valid())
	require.Positive(t, r.Status["401"])
	require.Contains(t, r.FirstProblem, "401")
}

func TestReportTable(t *testing.T) {
	rep := &Report{Date: "2026-01-02", Machine: MachineInfo(""),
		RateLimit:   []MicroResult{{Name: "x", N: 10, NsPerOp: 50, Target: true}},
		WAL:         &WALResult{Goroutines: 1, PayloadBytes: 100, Rate: 400_000, Batches: -1},
		FloorReads:  &LoadResult{Rate: 1000, OK: 1000, ServerCPUUs: 80},
		FXDReads:    &LoadResult{Rate: 900, OK: 900, Budget: 10, ServerCPUUs: 100},
		ReadRatio:   0.9,
		FloorWrites: &LoadResult{Rate: 1000, OK: 1000},
		FXDWrites:   &LoadResult{Rate: 600, OK: 600, Budget: 10, Status: map[string]int64{"429": 1}, TooMany: 1, Unexpected: 1},
		WriteRatio:  0.6,
	}
	rep.BuildRows()
	var out bytes.Buffer
	rep.PrintTable(&out)
	s := out.String()
	require.Contains(t, s, "fxd reads / floor reads")
	require.Contains(t, s, "0.900")
	require.Contains(t, s, "INVALID") // the write phase saw a 429
	require.Contains(t, s, "400,000 /s")
	dir := t.TempDir()
	path, err := rep.Save(dir)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(path, "2026-01-02.json"))
	path, err = rep.Save(dir)
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(path, "2026-01-02-run2.json"), "a second run that day is kept beside the first")
	require.Equal(t, "1,234,567", commas(1234567))
	require.Equal(t, "-1,000", commas(-1000))
}

// slowServer answers every correctly signed, never replayed request 200
// after delay, with a quote list naming the request's number; others 401.
type slowServer struct {
	addr   string
	n      atomic.Int64
	bad    atomic.Int64
	mu     sync.Mutex
	seen   map[string]bool
	status func(n int64) int // nil: 200
}

func newSlowServer(t *testing.T, pubs map[string][]byte, delay time.Duration) *slowServer {
	t.Helper()
	s := &slowServer{seen: map[string]bool{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s.addr = ln.Addr().String()
	srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
		h := &ctx.Request.Header
		pub := pubs[string(h.Peek(reqsig.HeaderKey))]
		sig := string(h.Peek(reqsig.HeaderSignature))
		s.mu.Lock()
		replay := s.seen[sig]
		s.seen[sig] = true
		s.mu.Unlock()
		if pub == nil || replay || !reqsig.Verify(pub, h.Peek(reqsig.HeaderTimestamp), ctx.Method(), h.RequestURI(),
			ctx.Request.Body(), []byte(sig)) {
			s.bad.Add(1)
			ctx.SetStatusCode(401)
			return
		}
		n := s.n.Add(1)
		time.Sleep(delay)
		if s.status != nil {
			ctx.SetStatusCode(s.status(n))
		}
		fmt.Fprintf(ctx, `{"quotes":[{"id":"q_%d","route":"amm"}],"best_quote_id":"q_%d"}`, n, n)
	}}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown() })
	return s
}

// TestOpenLoop checks the open-loop scheduler against a server with a
// fixed handler delay: every slot is sent once, on schedule (the run
// cannot end before the last slot's time), latency includes the delay,
// and a server too slow for the offered rate shows as late sends and as
// latency from the scheduled time beyond the service time. Timings are
// only checked against generous bounds.
func TestOpenLoop(t *testing.T) {
	keys, pubs, err := NewFloorKeys(4)
	require.NoError(t, err)
	const delay = 2 * time.Millisecond
	srv := newSlowServer(t, pubs, delay)
	ks := NewKeySet(keys, 0)
	var answers atomic.Int64
	l := OpenLoad{Name: "open", Addr: srv.addr, Rate: 200, Warmup: 100 * time.Millisecond, Duration: 500 * time.Millisecond,
		MaxInFlight: 16, WantStatus: 200, Request: quoteRequest(ks),
		OnAnswer: func(_ int64, body []byte) {
			if bytes.Contains(body, []byte(`"best_quote_id":"q_`)) {
				answers.Add(1)
			}
		}}
	start := time.Now()
	r, err := RunOpen(l)
	took := time.Since(start)
	require.NoError(t, err)
	require.Equal(t, int64(120), r.Slots)
	require.Equal(t, int64(100), r.WindowSlots)
	require.Equal(t, int64(120), r.Sent)
	require.Equal(t, int64(120), srv.n.Load(), "the server saw each slot once")
	require.Zero(t, srv.bad.Load(), "signatures verify, no replays")
	require.Equal(t, int64(120), answers.Load())
	require.Equal(t, int64(100), r.OK)
	require.Zero(t, r.Errors(), r.FirstProblem)
	require.True(t, r.Valid())
	require.GreaterOrEqual(t, took, 119*5*time.Millisecond, "the last slot is due 595 ms after the first")
	require.Less(t, took, 20*time.Second)
	require.GreaterOrEqual(t, r.Latency.P50Ms, ms(int64(delay)))
	require.GreaterOrEqual(t, r.Service.P50Ms, ms(int64(delay)))
	require.GreaterOrEqual(t, r.Latency.MaxMs, r.Latency.P999Ms)
	require.Less(t, r.Latency.P50Ms, 5000.0)
	require.Equal(t, int64(100), r.Latency.Count)
	require.Equal(t, int64(100), r.Lateness.Count)
	require.InDelta(t, 200, r.Rate, 0.001)

	// Two workers against a 20 ms handler serve at most 100/s of the
	// 200/s offered: sends fall behind, and the latency from the
	// scheduled time exceeds the service time.
	slow := newSlowServer(t, pubs, 20*time.Millisecond)
	l.Addr, l.MaxInFlight, l.OnAnswer = slow.addr, 2, nil
	l.Warmup, l.Duration = 0, 300*time.Millisecond
	r, err = RunOpen(l)
	require.NoError(t, err)
	require.Equal(t, int64(60), r.Sent)
	require.Equal(t, 2, r.Workers)
	require.Positive(t, r.LateSends)
	require.Greater(t, r.Latency.MaxMs, r.Service.MaxMs)
	require.Greater(t, r.Lateness.MaxMs, 1.0)
}

// TestOpenLoopProblems: unsent slots (spent keys), 429s and other
// statuses are counted and make the result invalid or failed.
func TestOpenLoopProblems(t *testing.T) {
	keys, pubs, err := NewFloorKeys(2)
	require.NoError(t, err)
	srv := newSlowServer(t, pubs, 0)
	srv.status = func(n int64) int {
		switch n {
		case 3:
			return 429
		case 5:
			return 502
		}
		return 200
	}
	// One key (so no pick can miss a key with budget left) with a budget
	// of 20 for 30 slots: 10 unsent.
	r, err := RunOpen(OpenLoad{Name: "problems", Addr: srv.addr, Rate: 300, Duration: 100 * time.Millisecond,
		MaxInFlight: 4, WantStatus: 200, Request: quoteRequest(NewKeySet(keys[:1], 20))})
	require.NoError(t, err)
	require.Equal(t, int64(30), r.Slots)
	require.Equal(t, int64(20), r.Sent)
	require.Equal(t, int64(10), r.Unsent)
	require.Equal(t, int64(1), r.TooMany)
	require.Equal(t, int64(2), r.Unexpected)
	require.Equal(t, int64(18), r.OK)
	require.Equal(t, int64(12), r.Errors())
	require.False(t, r.Valid())
	require.NotEmpty(t, r.FirstProblem)

	_, err = RunOpen(OpenLoad{Name: "none", Rate: 0, Request: quoteRequest(NewKeySet(keys, 0))})
	require.Error(t, err)
}

func TestQuoteRequest(t *testing.T) {
	keys, _, err := NewFloorKeys(2)
	require.NoError(t, err)
	req := quoteRequest(NewKeySet(keys, 2))
	targets := map[string]bool{}
	var r OpenReq
	for i := range int64(4) {
		r = OpenReq{}
		require.True(t, req(i, &r))
		require.Equal(t, "POST", r.Method)
		require.JSONEq(t, quoteBody, string(r.Body))
		require.True(t, strings.HasPrefix(string(r.Target), quotesPath+"?_r="), string(r.Target))
		targets[string(r.Key.id)+" "+string(r.Target)] = true
	}
	require.Len(t, targets, 4, "each key's requests differ")
	r = OpenReq{}
	require.False(t, req(4, &r))
	require.NotEmpty(t, r.Skip)
}

func TestQuoteRows(t *testing.T) {
	good := &OpenResult{OK: 1000, WindowSlots: 1000, Rate: 1000, WindowS: 1,
		Latency: Latency{P50Ms: 0.5, P99Ms: 1.5, P999Ms: 4}, Status: map[string]int64{"200": 1000}}
	slow := *good
	slow.Latency.P999Ms = 6
	limited := *good
	limited.TooMany, limited.Unexpected = 1, 1
	failing := *good
	failing.Unexpected = 3
	for _, c := range []struct {
		r      *OpenResult
		target bool
		want   string
	}{
		{good, true, "PASS"}, {&slow, true, "FAIL"}, {&limited, true, "INVALID"}, {&failing, true, "FAIL"},
		{nil, true, "INVALID"}, {good, false, ""}, {&failing, false, "INVALID"},
	} {
		require.Equal(t, c.want, openRow("q", c.r, c.target).Result, "%+v %v", c.r, c.target)
	}
	rep := &Report{Date: "2026-01-02", Machine: MachineInfo(""),
		Settings: Settings{QuoteRate: 1000, AcceptRate: 100, Only: OnlyQuotes},
		FX:       &QuotePhase{Quotes: good, Accepts: &slow}}
	rep.BuildRows()
	var out bytes.Buffer
	rep.PrintTable(&out)
	s := out.String()
	require.Contains(t, s, "quote POST /fx/quotes @ 1,000/s")
	require.Contains(t, s, "accept POST /fx/quotes/{id}/accept @ 100/s")
	require.Contains(t, s, "p99 ≤ 2 ms, p99.9 ≤ 5 ms")
	path, err := rep.Save(t.TempDir())
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(path, "2026-01-02-quotes.json"), path)
}

func TestSharedHist(t *testing.T) {
	var h sharedHist
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range 1000 {
				h.record(time.Duration(g*1000+v) * time.Microsecond)
			}
		}()
	}
	wg.Wait()
	l := h.summary()
	require.Equal(t, int64(4000), l.Count)
	require.InDelta(t, 3.999, l.MaxMs, 1e-9)
	require.InDelta(t, 2.0, l.P50Ms, 0.02)
}

func TestCPUShare(t *testing.T) {
	s := cpuUse{gen: 2 * time.Second, server: 4 * time.Second, sys: 10 * time.Second}.share(1000, 5)
	require.Equal(t, cpuShare{GenUs: 2000, GenCores: 0.4, ServerUs: 4000, ServerCores: 0.8, OtherCores: 0.8}, s)
	s = cpuUse{gen: time.Second, server: -1, sys: -1}.share(10, 2)
	require.Equal(t, cpuShare{GenUs: 100_000, GenCores: 0.5, OtherCores: -1}, s, "unknown server and machine")
	s = cpuUse{gen: time.Second, server: time.Second, sys: time.Second}.share(10, 1)
	require.Zero(t, s.OtherCores, "never below zero")
	require.Equal(t, cpuShare{OtherCores: -1}, cpuUse{}.share(10, 0), "no window")
}
