package bench

import (
	"bytes"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
	require.Equal(t, "0x"+strings.Repeat("0", 37)+"abc", v.Address)
	require.Equal(t, "USDC", v.Currency)
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
	r, err := RunWAL(t.TempDir(), 16, 100, 20*time.Millisecond, 200*time.Millisecond, nil)
	require.NoError(t, err)
	require.Positive(t, r.Appends)
	require.Zero(t, r.Errors, r.FirstError)
	require.GreaterOrEqual(t, r.LastIndex, uint64(r.Appends))
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
	rep := &Report{Date: "2026-01-02", Machine: MachineInfo(),
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
	path, err := rep.Save(t.TempDir())
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(path, "2026-01-02.json"))
	require.Equal(t, "1,234,567", commas(1234567))
	require.Equal(t, "-1,000", commas(-1000))
}
