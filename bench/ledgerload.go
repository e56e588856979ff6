package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/reqsig"
)

// ListQuery is one kind of GET /transactions request.
type ListQuery struct {
	Name string `json:"name"`
	// Example is one target of the kind, for the report.
	Example string `json:"example"`
	// Target appends the target (path and query, base path included, no
	// _r) of one request, drawing what varies (a cursor) from rng.
	Target func(rng *mrand.Rand, dst []byte) []byte `json:"-"`
	// Want is the number of entries every answer must hold.
	Want int `json:"want_entries"`
	// Check, if set, checks one answer in full (the first of a run).
	Check func(target string, body []byte) error `json:"-"`
}

// ListLoad is a closed loop of GET /transactions: Conns workers send
// Warmup unmeasured requests, then N measured ones, each answer checked
// for status 200 and Want entries.
type ListLoad struct {
	Name      string
	Addr      string
	Keys      *KeySet
	Conns     int
	Warmup, N int
	Query     ListQuery
	ServerPID int
	Seed      uint64
}

// ListResult is the outcome of a ListLoad (or of several, merged).
type ListResult struct {
	Name      string  `json:"name"`
	Query     string  `json:"query,omitempty"`
	Conns     int     `json:"conns"`
	Requests  int64   `json:"requests"` // measured
	OK        int64   `json:"ok"`       // measured, status 200 with the entries wanted
	Seconds   float64 `json:"measured_s"`
	Rate      float64 `json:"rate_per_s"`
	Latency   Latency `json:"latency"`
	BodyBytes float64 `json:"mean_body_bytes"`
	// Status counts every answer, warm-up included; Problems every answer
	// that was not a 200 with Want entries (transport errors included).
	Status       map[string]int64 `json:"status"`
	Problems     int64            `json:"problems"`
	FirstProblem string           `json:"first_problem,omitempty"`
	// CPU per measured request (µs) and cores used in the window; the
	// generator's figure is this whole process.
	ServerCPUUs    float64 `json:"server_cpu_us_per_req,omitempty"`
	ServerCores    float64 `json:"server_cores,omitempty"`
	GeneratorCPUUs float64 `json:"generator_cpu_us_per_req"`
	OtherCores     float64 `json:"other_cores"`

	hist      Hist
	bodyBytes int64
	serverCPU time.Duration
	genCPU    time.Duration
	sysCPU    time.Duration
}

// Valid reports whether every answer was right.
func (r *ListResult) Valid() bool {
	return r != nil && r.OK > 0 && r.Problems == 0 && r.OK == r.Requests
}

// entryMark starts every entry of a list answer (and nothing else: the
// envelope's fields and reference_id differ).
var entryMark = []byte(`{"id":"`)

// listWorker holds one list worker's tallies.
type listWorker struct {
	hist      Hist
	ok        int64
	errors    int64
	bodyBytes int64
	status    [600]int64
}

// RunList runs one list load.
func RunList(l ListLoad) (*ListResult, error) {
	if l.Conns < 1 || l.Keys == nil || l.Keys.Len() == 0 || l.Query.Target == nil {
		return nil, fmt.Errorf("bench: %s: conns %d, keys or target missing", l.Name, l.Conns)
	}
	hc := &fasthttp.HostClient{
		Addr: l.Addr, Name: "fxbench", MaxConns: l.Conns, MaxConnWaitTimeout: 30 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, DisablePathNormalizing: true,
		MaxIdemponentCallAttempts: 1,
		RetryIfErr:                func(*fasthttp.Request, int, error) (bool, bool) { return false, false },
	}
	defer hc.CloseIdleConnections()
	res := &ListResult{Name: l.Name, Conns: l.Conns, Requests: int64(l.N), Status: map[string]int64{}}
	var problems atomic.Int64
	var problem atomic.Pointer[string]
	note := func(format string, args ...any) {
		problems.Add(1)
		s := fmt.Sprintf(format, args...)
		problem.CompareAndSwap(nil, &s)
	}
	var checked atomic.Bool
	// pass sends n requests from Conns workers; measured ones are recorded.
	pass := func(n int, measured bool, seed uint64) []*listWorker {
		var next atomic.Int64
		workers := make([]*listWorker, l.Conns)
		var wg sync.WaitGroup
		for w := range workers {
			workers[w] = &listWorker{}
			wg.Add(1)
			go func(wk *listWorker, rng *mrand.Rand) {
				defer wg.Done()
				req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
				defer fasthttp.ReleaseRequest(req)
				defer fasthttp.ReleaseResponse(resp)
				req.Header.DisableNormalizing()
				var target, ts, msg, sig []byte
				method := []byte("GET")
				for next.Add(1) <= int64(n) {
					k := l.Keys.pick()
					if k == nil {
						note("every key's read budget is spent")
						return
					}
					seq := k.seq.Add(1) - 1
					target = l.Query.Target(rng, target[:0])
					target = append(target, "&_r="...)
					target = strconv.AppendUint(target, seq, 10)
					ts, msg, sig = k.sign(req, l.Addr, method, target, nil, ts, msg, sig)
					start := time.Now()
					err := hc.Do(req, resp)
					lat := time.Since(start)
					if err != nil {
						wk.errors++
						note("GET %s: %v", target, err)
						continue
					}
					st := resp.StatusCode()
					if st > 0 && st < len(wk.status) {
						wk.status[st]++
					}
					body := resp.Body()
					if st != 200 {
						note("GET %s: status %d: %.200s", target, st, body)
						continue
					}
					if got := bytes.Count(body, entryMark); got != l.Query.Want {
						note("GET %s: %d entries, want %d: %.200s", target, got, l.Query.Want, body)
						continue
					}
					if l.Query.Check != nil && checked.CompareAndSwap(false, true) {
						if err := l.Query.Check(string(target), body); err != nil {
							note("GET %s: %v", target, err)
							continue
						}
					}
					if measured {
						wk.ok++
						wk.hist.Record(int64(lat))
						wk.bodyBytes += int64(len(body))
					}
				}
			}(workers[w], mrand.New(mrand.NewPCG(seed, uint64(w))))
		}
		wg.Wait()
		return workers
	}
	tally := func(ws []*listWorker) {
		for _, w := range ws {
			addStatuses(res.Status, &w.status)
			if w.errors > 0 {
				res.Status["transport_error"] += w.errors
			}
		}
	}
	tally(pass(l.Warmup, false, l.Seed))
	srv0, _ := procCPU(l.ServerPID)
	gen0, sys0 := cputime.Self(), systemBusy()
	t0 := time.Now()
	ws := pass(l.N, true, l.Seed+1)
	res.Seconds = time.Since(t0).Seconds()
	srv1, srvErr := procCPU(l.ServerPID)
	gen1, sys1 := cputime.Self(), systemBusy()
	tally(ws)
	for _, w := range ws {
		res.OK += w.ok
		res.hist.Merge(&w.hist)
		res.bodyBytes += w.bodyBytes
	}
	res.Problems = problems.Load()
	if p := problem.Load(); p != nil {
		res.FirstProblem = *p
	}
	res.genCPU, res.serverCPU, res.sysCPU = gen1-gen0, -1, -1
	if l.ServerPID > 0 && srvErr == nil {
		res.serverCPU = srv1 - srv0
	}
	if sys0 >= 0 && sys1 >= 0 {
		res.sysCPU = sys1 - sys0
	}
	res.finish()
	return res, nil
}

func (r *ListResult) finish() {
	r.Latency = r.hist.Summary()
	r.Rate, r.BodyBytes = 0, 0
	if r.Seconds > 0 {
		r.Rate = float64(r.OK) / r.Seconds
	}
	if r.OK > 0 && r.Seconds > 0 {
		r.BodyBytes = float64(r.bodyBytes) / float64(r.OK)
	}
	c := cpuUse{r.genCPU, r.serverCPU, r.sysCPU}.share(r.OK, r.Seconds)
	r.GeneratorCPUUs, r.ServerCPUUs, r.ServerCores, r.OtherCores = c.GenUs, c.ServerUs, c.ServerCores, c.OtherCores
}

// MergeLists combines list results: counts, windows and CPU add up,
// histograms merge.
func MergeLists(name string, rs ...*ListResult) *ListResult {
	out := &ListResult{Name: name, Status: map[string]int64{}}
	n := 0
	for _, r := range rs {
		if r == nil {
			continue
		}
		if n == 0 {
			out.Conns = r.Conns
		} else if out.Conns != r.Conns {
			out.Conns = -1
		}
		n++
		out.Requests += r.Requests
		out.OK += r.OK
		out.Seconds += r.Seconds
		out.bodyBytes += r.bodyBytes
		out.Problems += r.Problems
		for k, v := range r.Status {
			out.Status[k] += v
		}
		if out.FirstProblem == "" {
			out.FirstProblem = r.FirstProblem
		}
		out.hist.Merge(&r.hist)
		out.genCPU += r.genCPU
		out.serverCPU = addKnown(out.serverCPU, r.serverCPU)
		out.sysCPU = addKnown(out.sysCPU, r.sysCPU)
	}
	if n == 0 {
		return nil
	}
	out.finish()
	return out
}

// addKnown adds durations where -1 means unknown.
func addKnown(a, b time.Duration) time.Duration {
	if a < 0 || b < 0 {
		return -1
	}
	return a + b
}

// listCheck returns a Check for a list answer: Want entries, newest first,
// below the request's cursor, and all matching typ and currency (when
// set).
func listCheck(want int, typ, currency string) func(string, []byte) error {
	return func(target string, body []byte) error {
		var v struct {
			Data []struct {
				ID           string `json:"id"`
				Type         string `json:"type"`
				FromCurrency string `json:"from_currency"`
				ToCurrency   string `json:"to_currency"`
			} `json:"data"`
			HasMore bool `json:"has_more"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			return err
		}
		if len(v.Data) != want {
			return fmt.Errorf("%d entries, want %d", len(v.Data), want)
		}
		cursor := ""
		if i := bytes.Index([]byte(target), []byte("starting_after=")); i >= 0 {
			cursor = target[i+len("starting_after="):]
			if j := bytes.IndexByte([]byte(cursor), '&'); j >= 0 {
				cursor = cursor[:j]
			}
		}
		prev := cursor
		for i, e := range v.Data {
			if prev != "" && e.ID >= prev {
				return fmt.Errorf("entry %d (%s) is not older than %s", i, e.ID, prev)
			}
			prev = e.ID
			if typ != "" && e.Type != typ {
				return fmt.Errorf("entry %s has type %s", e.ID, e.Type)
			}
			if currency != "" && e.FromCurrency != currency && e.ToCurrency != currency {
				return fmt.Errorf("entry %s is %s→%s, not %s", e.ID, e.FromCurrency, e.ToCurrency, currency)
			}
		}
		return nil
	}
}

// ExportResult is one GET /transactions/export read to its end.
type ExportResult struct {
	Status     int     `json:"status"`
	Rows       int64   `json:"rows"` // data rows, header excluded
	WantRows   int64   `json:"want_rows"`
	HeaderOK   bool    `json:"header_ok"`
	OrderOK    bool    `json:"newest_first"`
	Bytes      int64   `json:"bytes"`
	TTFBMs     float64 `json:"time_to_first_byte_ms"`
	Seconds    float64 `json:"seconds"`
	RowsPerSec float64 `json:"rows_per_s"`
	MBPerSec   float64 `json:"mib_per_s"`
	// Server RSS (VmRSS) just before the request and its highest sample
	// during it (every 10 ms), and the growth between them; VmHWM (the
	// process's lifetime peak) before and after.
	RSSBeforeBytes   int64   `json:"rss_before_bytes"`
	RSSPeakBytes     int64   `json:"rss_peak_bytes"`
	RSSGrowthBytes   int64   `json:"rss_growth_bytes"`
	HWMBeforeBytes   int64   `json:"vmhwm_before_bytes"`
	HWMAfterBytes    int64   `json:"vmhwm_after_bytes"`
	RSSSamples       int     `json:"rss_samples"`
	ServerCPUSeconds float64 `json:"server_cpu_s"`
	ServerCores      float64 `json:"server_cores"`
	ClientCPUSeconds float64 `json:"client_cpu_s"`
	OtherCores       float64 `json:"other_cores"`
	Error            string  `json:"error,omitempty"`
	// Go runtime figures of the server before and after the export (from
	// its admin pprof endpoint, read outside the timed request): what it
	// allocated per row, how many GC cycles ran, and the heap's goal.
	GoHeap *ExportGoHeap `json:"go_heap,omitempty"`
}

// ExportGoHeap is the server's runtime.MemStats around an export: the
// live heap (after a forced GC) before and after it, and meanwhile.
type ExportGoHeap struct {
	AllocBytesPerRow float64 `json:"alloc_bytes_per_row"`
	GCCycles         int64   `json:"gc_cycles"`
	LiveBefore       int64   `json:"live_heap_before_bytes"`
	LiveAfter        int64   `json:"live_heap_after_bytes"`
	NextGCBefore     int64   `json:"gc_goal_before_bytes"`
	HeapSysBefore    int64   `json:"heap_sys_before_bytes"`
	HeapSysAfter     int64   `json:"heap_sys_after_bytes"`
}

// Valid reports whether the export was read whole and right.
func (r *ExportResult) Valid() bool {
	return r != nil && r.Error == "" && r.Status == 200 && r.HeaderOK && r.OrderOK && r.Rows == r.WantRows
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// RunExport sends one signed GET target (the export, with its query) as
// key k, reads the CSV to its end with encoding/csv and samples the
// server's RSS meanwhile.
func RunExport(ctx context.Context, addr string, k Key, target string, pid int, wantRows int64) *ExportResult {
	res := &ExportResult{WantRows: wantRows}
	fail := func(err error) *ExportResult {
		if res.Error == "" {
			res.Error = err.Error()
		}
		return res
	}
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+addr+target, nil)
	if err != nil {
		return fail(err)
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req.Header.Set(reqsig.HeaderKey, k.ID)
	req.Header.Set(reqsig.HeaderTimestamp, ts)
	req.Header.Set(reqsig.HeaderSignature, reqsig.Sign(k.Priv, ts, "GET", target, nil))
	tr := &http.Transport{DisableCompression: true, ReadBufferSize: 64 << 10, MaxIdleConns: 1}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}

	// The sampler runs from just before the request until the body's end.
	if pid > 0 {
		res.RSSBeforeBytes, _ = procRSS(pid)
		hwm, _ := procStatusField(fmt.Sprintf("/proc/%d/status", pid), "VmHWM")
		res.HWMBeforeBytes = hwm * 1024
	}
	res.RSSPeakBytes = res.RSSBeforeBytes
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	if pid > 0 {
		sampler.Add(1)
		go func() {
			defer sampler.Done()
			t := time.NewTicker(10 * time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					if v, err := procRSS(pid); err == nil {
						res.RSSPeakBytes = max(res.RSSPeakBytes, v)
						res.RSSSamples++
					}
				}
			}
		}()
	}
	srv0, _ := procCPU(pid)
	gen0, sys0 := cputime.Self(), systemBusy()
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		close(stop)
		sampler.Wait()
		return fail(err)
	}
	res.TTFBMs = float64(time.Since(start).Microseconds()) / 1000
	res.Status = resp.StatusCode
	cr := &countingReader{r: resp.Body}
	if resp.StatusCode == 200 {
		err = readLedgerCSV(bufio.NewReaderSize(cr, 256<<10), res)
	} else {
		b, _ := io.ReadAll(io.LimitReader(cr, 1<<10))
		err = fmt.Errorf("status %d: %s", resp.StatusCode, b)
	}
	_ = resp.Body.Close()
	d := time.Since(start)
	srv1, srvErr := procCPU(pid)
	gen1, sys1 := cputime.Self(), systemBusy()
	close(stop)
	sampler.Wait()
	if pid > 0 {
		if v, err := procRSS(pid); err == nil {
			res.RSSPeakBytes = max(res.RSSPeakBytes, v)
		}
		hwm, _ := procStatusField(fmt.Sprintf("/proc/%d/status", pid), "VmHWM")
		res.HWMAfterBytes = hwm * 1024
	}
	res.Bytes, res.Seconds = cr.n, d.Seconds()
	res.RowsPerSec = float64(res.Rows) / d.Seconds()
	res.MBPerSec = float64(res.Bytes) / (1 << 20) / d.Seconds()
	res.RSSGrowthBytes = res.RSSPeakBytes - res.RSSBeforeBytes
	res.ClientCPUSeconds = (gen1 - gen0).Seconds()
	res.OtherCores = -1
	if pid > 0 && srvErr == nil {
		res.ServerCPUSeconds = (srv1 - srv0).Seconds()
		res.ServerCores = res.ServerCPUSeconds / d.Seconds()
		if sys0 >= 0 && sys1 >= 0 {
			res.OtherCores = max(0, (sys1-sys0-(srv1-srv0)-(gen1-gen0)).Seconds()/d.Seconds())
		}
	}
	if err != nil {
		return fail(err)
	}
	return res
}

// readLedgerCSV reads the export: the header, then rows of its width,
// newest first; it counts them into res.
func readLedgerCSV(r io.Reader, res *ExportResult) error {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = len(domain.LedgerCSVHeader)
	head, err := cr.Read()
	if err != nil {
		return fmt.Errorf("export header: %w", err)
	}
	res.HeaderOK = slices.Equal(head, domain.LedgerCSVHeader[:])
	if !res.HeaderOK {
		return fmt.Errorf("export header is %q", head)
	}
	res.OrderOK = true
	prev := ""
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("export row %d: %w", res.Rows+1, err)
		}
		res.Rows++
		if id := rec[0]; prev != "" && id >= prev {
			res.OrderOK = false
		} else {
			prev = id
		}
	}
}
