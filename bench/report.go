package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Report is everything one fxbench run measured; it is saved as
// <out>/<YYYY-MM-DD>.json.
type Report struct {
	Date     string    `json:"date"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	Machine  Machine   `json:"machine"`
	Settings Settings  `json:"settings"`

	RateLimit []MicroResult `json:"ratelimit,omitempty"`
	WAL       *WALResult    `json:"wal,omitempty"`
	Sweep     []SweepPoint  `json:"conns_sweep,omitempty"`
	Setup     *Setup        `json:"setup,omitempty"`

	FloorReads  *LoadResult `json:"floor_reads,omitempty"`
	FXDReads    *LoadResult `json:"fxd_reads,omitempty"`
	FloorWrites *LoadResult `json:"floor_writes,omitempty"`
	FXDWrites   *LoadResult `json:"fxd_writes,omitempty"`
	ReadRatio   float64     `json:"read_ratio,omitempty"`
	WriteRatio  float64     `json:"write_ratio,omitempty"`

	Recovery *Recovery     `json:"recovery,omitempty"`
	Memory   *Memory       `json:"memory,omitempty"`
	FX       *QuotePhase   `json:"fx_quotes,omitempty"`
	Ledger   *LedgerPhase  `json:"ledger,omitempty"`
	Webhooks *WebhookPhase `json:"webhooks,omitempty"`
	Cluster  *ClusterPhase `json:"cluster,omitempty"`
	Profiles []Profile     `json:"profiles,omitempty"`
	// WritesBaseline is the last saved durable write result this run's
	// is reported against.
	WritesBaseline *Baseline `json:"writes_baseline,omitempty"`

	Rows   []Row    `json:"rows"`
	Errors []string `json:"errors,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// Settings are the knobs the run used.
type Settings struct {
	Quick         bool    `json:"quick"`
	Generator     string  `json:"generator"`
	Conns         int     `json:"conns"`
	ConnsSwept    bool    `json:"conns_swept"`
	Rounds        int     `json:"rounds"`
	WarmupS       float64 `json:"warmup_s"`
	DurationS     float64 `json:"duration_s"`
	WALGoroutines int     `json:"wal_goroutines"`
	WALPayload    int     `json:"wal_payload_bytes"`
	WALDurationS  float64 `json:"wal_duration_s"`
	MemAccounts   int     `json:"mem_accounts"`
	MemIdle       int     `json:"mem_idle_accounts,omitempty"`
	FloorProcess  bool    `json:"floor_separate_process"`
	Bin           string  `json:"bin"`
	QuoteRate     int     `json:"quote_rate_per_s"`
	AcceptRate    int     `json:"accept_rate_per_s"`
	QuoteInFlight int     `json:"quote_max_in_flight"`
	Only          string  `json:"only,omitempty"`
	ClusterNodes  int     `json:"cluster_nodes,omitempty"`
	// The ledger phase (absent: not run).
	LedgerRows     int `json:"ledger_rows,omitempty"`
	LedgerListRows int `json:"ledger_list_rows,omitempty"`
	LedgerRequests int `json:"ledger_requests_per_query,omitempty"`
	LedgerConns    int `json:"ledger_conns,omitempty"`
	LedgerWorkers  int `json:"ledger_setup_workers,omitempty"`
	// The webhook phase (absent: not run).
	WebhookRate     int `json:"webhook_test_rate_per_s,omitempty"`
	WebhookDrain    int `json:"webhook_backlog,omitempty"`
	WebhookDeadPile int `json:"webhook_dead_pending,omitempty"`
}

// SweepPoint is one connection count tried against the floor.
type SweepPoint struct {
	Conns int     `json:"conns"`
	Rate  float64 `json:"rate_per_s"`
	P99Ms float64 `json:"p99_ms"`
}

// Setup is what the bench created on fxd.
type Setup struct {
	Accounts        int     `json:"accounts"`
	Keys            int     `json:"keys"`
	KeysPerAccount  int     `json:"keys_per_account"`
	KeysForReads    int     `json:"keys_needed_reads"`
	KeysForWrites   int     `json:"keys_needed_writes"`
	ReadBudget      int64   `json:"read_budget_per_key"`
	WriteBudget     int64   `json:"write_budget_per_key"`
	KeySeconds      float64 `json:"key_creation_s"`
	KeysPerSecond   float64 `json:"keys_per_s"`
	AccountsSeconds float64 `json:"account_creation_s"`
	GetBodyBytes    int     `json:"get_account_body_bytes"`
	PostBodyBytes   int     `json:"post_contact_body_bytes"`
}

// Recovery is the restart measurement.
type Recovery struct {
	WALIndexBefore uint64     `json:"wal_index_before"`
	WALIndexAfter  uint64     `json:"wal_index_after"`
	ShutdownMs     float64    `json:"shutdown_ms"`
	RestartMs      float64    `json:"restart_to_listening_ms"`
	Recovered      *Recovered `json:"recovered_log_line,omitempty"`
	// ExtrapolatedMsPerMillion is RestartMs scaled linearly to a million
	// log records. It is an extrapolation, not a measurement: after SIGTERM
	// the snapshot store is synced, so the restart replays (almost) nothing
	// and its time is mostly fixed costs.
	ExtrapolatedMsPerMillion float64 `json:"extrapolated_restart_ms_per_million_records"`
	// ReplayMsPerMillion is measured only when the restart replayed records.
	ReplayMsPerMillion float64 `json:"replay_ms_per_million_records,omitempty"`
}

// Profile is the top of a perf profile of a server during a load phase.
type Profile struct {
	Phase  string   `json:"phase"`
	File   string   `json:"file"`
	Shares []Share  `json:"shares"`
	Top    []string `json:"top"`
}

// Row is one line of the printed table.
type Row struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Detail string `json:"detail,omitempty"`
	Target string `json:"target,omitempty"`
	Result string `json:"result,omitempty"` // PASS, FAIL, INVALID or empty
}

func commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func passFail(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func latencyText(l Latency) string {
	return fmt.Sprintf("p50 %.2f / p99 %.2f / p99.9 %.2f ms", l.P50Ms, l.P99Ms, l.P999Ms)
}

// loadRow describes a load result; want is the number of problems allowed
// (always 0: a 429 or an error makes the run invalid).
func loadRow(name string, r *LoadResult, unit string) Row {
	if r == nil {
		return Row{Name: name, Value: "not run", Result: "INVALID"}
	}
	d := []string{latencyText(r.Latency)}
	d = append(d, fmt.Sprintf("429s %d, other errors %d", r.TooMany, r.Unexpected-r.TooMany+r.Errors))
	if r.ServerCPUUs > 0 {
		d = append(d, fmt.Sprintf("server %.0f µs CPU/req (%.2f cores)", r.ServerCPUUs, r.ServerCores))
	}
	d = append(d, fmt.Sprintf("generator %.0f µs CPU/req", r.GeneratorCPUUs))
	if r.WritesPerFsync > 0 {
		d = append(d, fmt.Sprintf("%.1f writes/fsync", r.WritesPerFsync))
	}
	if r.OtherCores >= 0 {
		d = append(d, fmt.Sprintf("other work on the machine %.2f cores", r.OtherCores))
	}
	if r.Keys > 0 && r.Budget > 0 {
		d = append(d, fmt.Sprintf("%d keys", r.Keys))
	}
	if len(r.RoundRates) > 1 {
		rr := make([]string, len(r.RoundRates))
		for i, x := range r.RoundRates {
			rr[i] = commas(int64(x + 0.5))
		}
		d = append(d, "rounds "+strings.Join(rr, " / "))
	}
	if r.BudgetExhausted {
		d = append(d, fmt.Sprintf("KEYS SPENT: window cut to %.1f of %.1f s", r.Seconds, r.PlannedS))
	}
	row := Row{Name: name, Value: commas(int64(r.Rate+0.5)) + " " + unit, Detail: strings.Join(d, "; ")}
	if r.Budget > 0 { // an fxd phase: it must be clean
		row.Target = "0 × 429, 0 errors"
		row.Result = "PASS"
		if !r.Valid() {
			row.Result = "INVALID"
		}
	} else if r.OK == 0 || r.Unexpected+r.Errors > 0 {
		row.Result = "INVALID"
	}
	return row
}

// BuildRows makes the table from the results.
func (rep *Report) BuildRows() {
	var rows []Row
	for _, m := range rep.RateLimit {
		row := Row{Name: "ratelimit " + m.Name, Value: fmt.Sprintf("%.1f ns/op, %d allocs", m.NsPerOp, m.AllocsPerOp),
			Detail: fmt.Sprintf("testing.Benchmark, N=%s", commas(int64(m.N)))}
		if m.Target {
			row.Target = "≤ 200 ns, 0 allocs"
			row.Result = passFail(m.NsPerOp <= 200 && m.AllocsPerOp == 0)
		}
		rows = append(rows, row)
	}
	if w := rep.WAL; w != nil {
		d := fmt.Sprintf("%d goroutines × %d B", w.Goroutines, w.PayloadBytes)
		if w.GOMAXPROCS > 0 { // reports before it was recorded ran with fxbench's
			d += fmt.Sprintf(", GOMAXPROCS %d", w.GOMAXPROCS)
		}
		d += "; " + latencyText(w.Latency)
		if w.Batches >= 0 {
			d += fmt.Sprintf("; ≈%s fsyncs/s, %.0f appends/fsync", commas(int64(w.BatchesPerSec+0.5)), w.MeanBatch)
		}
		if w.Errors > 0 {
			d += fmt.Sprintf("; %d errors (%s)", w.Errors, w.FirstError)
		}
		rows = append(rows, Row{Name: "wal durable appends (in-process)", Value: commas(int64(w.Rate+0.5)) + " /s",
			Detail: d + " (the absolute rate is the disk's: the targets are the two rows below)"})
		if w.FloorFsyncsPerSec > 0 {
			v := fmt.Sprintf("%.3f", w.FsyncRatio)
			if lo, hi, ok := w.RatioSpread(); ok {
				v += fmt.Sprintf(" (%.2f–%.2f)", lo, hi) // each writer round over the floor round before it
			}
			rows = append(rows, Row{Name: "wal fsyncs / raw fsync floor", Value: v,
				Detail: fmt.Sprintf("medians: log %s fsyncs/s vs one goroutine's write+fdatasync of %.0f B on the same disk: %s /s%s",
					commas(int64(w.BatchesPerSec+0.5)), w.BatchBytes, commas(int64(w.FloorFsyncsPerSec+0.5)), w.RoundsText()),
				Target: "≥ 0.90", Result: passFail(w.FsyncRatio >= 0.9 && w.Errors == 0)})
		}
		if w.Batches > 0 {
			rows = append(rows, Row{Name: fmt.Sprintf("wal appends per fsync at %d appenders", w.Goroutines),
				Value: fmt.Sprintf("%.0f", w.MeanBatch) + w.MeanBatchSpread(), Target: "≥ 400", Result: passFail(w.MeanBatch >= 400)})
		}
	}
	if rep.FloorReads != nil {
		rows = append(rows, loadRow("floor GET (verify + static body)", rep.FloorReads, "req/s"))
	}
	if rep.FloorReads != nil || rep.FXDReads != nil {
		rows = append(rows, loadRow("fxd GET /account", rep.FXDReads, "req/s"))
	}
	if rep.ReadRatio > 0 {
		rows = append(rows, Row{Name: "fxd reads / floor reads", Value: fmt.Sprintf("%.3f", rep.ReadRatio),
			Detail: cpuRatio(rep.FloorReads, rep.FXDReads), Target: "≥ 0.90", Result: ratioResult(rep.ReadRatio, 0.90, rep.FXDReads)})
	}
	if rep.FloorWrites != nil {
		rows = append(rows, loadRow("floor POST (verify + static 201)", rep.FloorWrites, "req/s"))
	}
	if rep.FloorWrites != nil || rep.FXDWrites != nil {
		rows = append(rows, loadRow("fxd POST /contacts (fsynced)", rep.FXDWrites, "writes/s"))
	}
	if rep.WriteRatio > 0 {
		rows = append(rows, Row{Name: "fxd writes / floor POSTs", Value: fmt.Sprintf("%.3f", rep.WriteRatio),
			Detail: cpuRatio(rep.FloorWrites, rep.FXDWrites), Target: "≥ 0.70", Result: ratioResult(rep.WriteRatio, 0.70, rep.FXDWrites)})
	}
	if rep.FXDWrites != nil && rep.WritesBaseline != nil {
		rows = append(rows, writesBaselineRow("fxd POST /contacts vs last saved", rep.FXDWrites, rep.WritesBaseline))
	}
	if r := rep.Recovery; r != nil {
		d := fmt.Sprintf("wal_index %s; SIGTERM shutdown %.0f ms", commas(int64(r.WALIndexBefore)), r.ShutdownMs)
		if r.Recovered != nil {
			d += fmt.Sprintf("; recover replayed %s records in %d ms", commas(int64(r.Recovered.Replayed)), r.Recovered.TookMs)
		}
		if r.WALIndexAfter != r.WALIndexBefore {
			d += fmt.Sprintf("; WAL INDEX CHANGED to %d", r.WALIndexAfter)
		}
		rows = append(rows, Row{Name: "restart to 'listening on'", Value: fmt.Sprintf("%.0f ms", r.RestartMs), Detail: d})
		rows = append(rows, Row{Name: "restart, extrapolated (not measured)", Value: fmt.Sprintf("%.0f ms / 1M records", r.ExtrapolatedMsPerMillion),
			Detail: "restart time × 1e6 / wal_index; clean shutdown, so mostly fixed cost, not replay"})
		if r.ReplayMsPerMillion > 0 {
			rows = append(rows, Row{Name: "replay rate (measured)", Value: fmt.Sprintf("%.0f ms / 1M records", r.ReplayMsPerMillion)})
		}
	}
	if m := rep.Memory; m != nil {
		rows = append(rows, memoryRows(m)...)
	}
	if l := rep.Ledger; l != nil { // run before the quote phase
		rows = append(rows, ledgerRows(l)...)
	}
	if w := rep.Webhooks; w != nil {
		rows = append(rows, webhookRows(w, rep.WritesBaseline)...)
	}
	if c := rep.Cluster; c != nil {
		rows = append(rows, clusterRows(c)...) // clusterrows.go
	}
	if fx := rep.FX; fx != nil {
		rows = append(rows, quoteRows(fx, rep.Settings)...) // quoterounds.go
	}
	rep.Rows = rows
}

// exportRows describes an export: its rate and the server's RSS growth,
// judged against the targets or informational.
func exportRows(name string, e *ExportResult, judged bool) []Row {
	if e == nil {
		return nil
	}
	valid := e.Valid()
	res := func(ok bool) string {
		switch {
		case !valid:
			return "INVALID"
		case judged:
			return passFail(ok)
		}
		return ""
	}
	target := func(t string) string {
		if judged {
			return t
		}
		return ""
	}
	d := fmt.Sprintf("%s of %s rows + header, %.1f MiB in %.2fs (%.1f MiB/s), first byte after %.1f ms; server %.2f cores (%.2fs CPU, "+
		"%.2f µs/row), client %.2fs CPU", commas(e.Rows), commas(e.WantRows), float64(e.Bytes)/(1<<20), e.Seconds, e.MBPerSec, e.TTFBMs,
		e.ServerCores, e.ServerCPUSeconds, e.ServerCPUSeconds*1e6/float64(max(e.Rows, 1)), e.ClientCPUSeconds)
	if e.OtherCores >= 0 {
		d += fmt.Sprintf(", other work on the machine %.2f cores", e.OtherCores)
	}
	if !valid {
		d += fmt.Sprintf("; PROBLEM: status %d, header %v, newest first %v, %s", e.Status, e.HeaderOK, e.OrderOK, e.Error)
	}
	return []Row{
		{Name: fmt.Sprintf("%s, %s rows", name, commas(e.WantRows)), Value: commas(int64(e.RowsPerSec+0.5)) + " rows/s", Detail: d,
			Target: target("≥ " + commas(ledgerExportRowsTarget) + " rows/s"), Result: res(e.RowsPerSec >= ledgerExportRowsTarget)},
		{Name: name + ", server RSS growth", Value: fmt.Sprintf("%.1f MiB", float64(e.RSSGrowthBytes)/(1<<20)), Detail: rssDetail(e),
			Target: target(fmt.Sprintf("≤ %d MiB", ledgerExportRSSTarget>>20)), Result: res(e.RSSGrowthBytes <= ledgerExportRSSTarget)},
	}
}

// rssDetail explains the export's RSS growth: the samples, and what the
// Go heap did meanwhile (allocation churn collected by GC cycles, against
// growth of what stays live).
func rssDetail(e *ExportResult) string {
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	d := fmt.Sprintf("VmRSS %.1f MiB before, peak %.1f MiB (%d samples, every 10 ms); VmHWM %.1f → %.1f MiB",
		mib(e.RSSBeforeBytes), mib(e.RSSPeakBytes), e.RSSSamples, mib(e.HWMBeforeBytes), mib(e.HWMAfterBytes))
	if h := e.GoHeap; h != nil {
		d += fmt.Sprintf("; Go heap: %.0f B allocated per row, %d GC cycles during it; live heap %.1f MiB before, %.1f MiB after "+
			"(forced GCs outside the timed request); GC goal at the start %.1f MiB; heap sys %.1f → %.1f MiB",
			h.AllocBytesPerRow, h.GCCycles, mib(h.LiveBefore), mib(h.LiveAfter), mib(h.NextGCBefore), mib(h.HeapSysBefore), mib(h.HeapSysAfter))
	}
	return d
}

// ledgerRows describes the ledger phase: setup, the list loads against the
// p99 target, the export against its rate and memory targets.
func ledgerRows(l *LedgerPhase) []Row {
	var rows []Row
	if f := l.Fill; f != nil {
		what := "created"
		if f.Confirm {
			what = "created + confirmed"
		}
		rows = append(rows, Row{Name: "ledger setup (in-process engine)", Value: commas(int64(f.RowsPerSec+0.5)) + " rows/s",
			Detail: fmt.Sprintf("%s transfers %s, each durable, %d goroutines, %.1fs; %s log records/s, %.0f records/fsync; "+
				"%.0f µs CPU/row (%.2f cores); data dir %.0f MiB; fxd start %.0f ms, idle after %.1fs more",
				commas(int64(f.Rows)), what, f.Workers, f.Seconds, commas(int64(f.RecordsPerSec+0.5)), f.RecordsPerFsync,
				f.CPUUsPerRow, f.Cores, float64(f.DataDirBytes)/(1<<20), l.StartMs, l.SettleS)})
	}
	target := fmt.Sprintf("p99 ≤ %g ms", ledgerListP99TargetMs)
	listRow := func(name string, r *ListResult, parts []ListResult, judged bool) Row {
		row := Row{Name: name, Value: "not run", Result: "INVALID"}
		if judged {
			row.Target = target
		}
		if r == nil {
			return row
		}
		d := []string{latencyText(r.Latency), fmt.Sprintf("%s requests, %s/s", commas(r.OK), commas(int64(r.Rate+0.5)))}
		if r.ServerCPUUs > 0 {
			d = append(d, fmt.Sprintf("server %.0f µs CPU/req", r.ServerCPUUs))
		}
		d = append(d, fmt.Sprintf("generator %.0f µs CPU/req", r.GeneratorCPUUs), fmt.Sprintf("%.0f B/answer", r.BodyBytes))
		if r.OtherCores >= 0 {
			d = append(d, fmt.Sprintf("other work on the machine %.2f cores", r.OtherCores))
		}
		for _, p := range parts {
			d = append(d, fmt.Sprintf("%s: p99 %.2f ms, %.0f µs CPU/req", p.Name, p.Latency.P99Ms, p.ServerCPUUs))
		}
		if r.Problems > 0 {
			d = append(d, fmt.Sprintf("%d bad answers, first: %s", r.Problems, r.FirstProblem))
		}
		row.Value, row.Detail = fmt.Sprintf("p99 %.2f ms", r.Latency.P99Ms), strings.Join(d, "; ")
		switch {
		case !r.Valid():
			row.Result = "INVALID"
		case judged:
			row.Result = passFail(r.Latency.P99Ms <= ledgerListP99TargetMs)
		default:
			row.Result = ""
		}
		return row
	}
	pick := func(conns int) []ListResult {
		var out []ListResult
		for _, r := range l.Runs {
			if r.Conns == conns && !strings.HasPrefix(r.Name, "deep page of the export") {
				out = append(out, r)
			}
		}
		return out
	}
	entries := commas(int64(l.ListEntries))
	if l.Sequential != nil || l.Concurrent != nil {
		rows = append(rows, listRow(fmt.Sprintf("ledger GET /transactions limit=%d, %s entries, sequential", ledgerPageLimit, entries),
			l.Sequential, pick(1), true))
		conc := 0
		if l.Concurrent != nil {
			conc = l.Concurrent.Conns
		}
		rows = append(rows, listRow(fmt.Sprintf("ledger GET /transactions limit=%d, %s entries, %d concurrent", ledgerPageLimit, entries, conc),
			l.Concurrent, pick(conc), true))
	}
	if l.LongLedger != nil {
		rows = append(rows, listRow(fmt.Sprintf("ledger GET /transactions deep pages, %s entries", commas(int64(l.ExportEntries))),
			l.LongLedger, nil, false))
	}
	if l.Fill != nil && l.Export == nil {
		rows = append(rows, Row{Name: "ledger export", Value: "not run", Result: "INVALID"})
	}
	rows = append(rows, exportRows("ledger export GET /transactions/export", l.Export, true)...)
	rows = append(rows, exportRows("ledger export again, after the list load", l.ExportAgain, false)...)
	return rows
}

// openRow describes an open-loop result. With target, it is judged
// against the quote latency targets (p99 ≤ 2 ms, p99.9 ≤ 5 ms, no errors);
// without, it is informational, and INVALID only when requests failed.
func openRow(name string, r *OpenResult, target bool) Row {
	row := Row{Name: name, Value: "not run", Result: "INVALID"}
	if target {
		row.Target = fmt.Sprintf("p99 ≤ %g ms, p99.9 ≤ %g ms", quoteP99TargetMs, quoteP999TargetMs)
	}
	if r == nil {
		return row
	}
	d := []string{latencyText(r.Latency) + " (from the scheduled send)",
		fmt.Sprintf("errors %d (429s %d, other statuses %d, transport %d, unsent %d)",
			r.Errors(), r.TooMany, r.Unexpected-r.TooMany, r.TransportErrors, r.Unsent),
		fmt.Sprintf("late sends %d of %d (> 1 ms; lateness p99 %.2f / p99.9 %.2f ms)",
			r.LateSends, r.WindowSlots, r.Lateness.P99Ms, r.Lateness.P999Ms),
		fmt.Sprintf("service time p99 %.2f / p99.9 %.2f / max %.2f ms", r.Service.P99Ms, r.Service.P999Ms, r.Service.MaxMs),
		fmt.Sprintf("%s OK/s in %.0fs", commas(int64(r.Rate+0.5)), r.WindowS)}
	if r.ServerCPUUs > 0 {
		d = append(d, fmt.Sprintf("server %.0f µs CPU/req (%.2f cores)", r.ServerCPUUs, r.ServerCores))
	}
	d = append(d, fmt.Sprintf("generator %.0f µs CPU/req", r.GeneratorCPUUs))
	if r.OtherCores >= 0 {
		d = append(d, fmt.Sprintf("other work on the machine %.2f cores", r.OtherCores))
	}
	if r.Keys > 0 {
		d = append(d, fmt.Sprintf("%d keys on %d accounts", r.Keys, r.Accounts))
	}
	if r.FirstProblem != "" {
		d = append(d, "first problem: "+r.FirstProblem)
	}
	row.Value, row.Detail = fmt.Sprintf("p99 %.2f ms", r.Latency.P99Ms), strings.Join(d, "; ")
	switch {
	case !r.Valid():
		row.Result = "INVALID"
	case target:
		row.Result = passFail(r.Errors() == 0 && r.Latency.P99Ms <= quoteP99TargetMs && r.Latency.P999Ms <= quoteP999TargetMs)
	case r.Errors() > 0:
		row.Result = "INVALID"
	default:
		row.Result = ""
	}
	return row
}

// cpuRatio compares server CPU per request, which other work on the
// machine disturbs less than throughput does.
func cpuRatio(floor, fxd *LoadResult) string {
	if floor == nil || fxd == nil || floor.ServerCPUUs <= 0 || fxd.ServerCPUUs <= 0 {
		return "throughput ratio"
	}
	return fmt.Sprintf("throughput ratio; server CPU/req ratio %.3f (floor %.0f µs, fxd %.0f µs)",
		floor.ServerCPUUs/fxd.ServerCPUUs, floor.ServerCPUUs, fxd.ServerCPUUs)
}

func ratioResult(ratio, target float64, fxd *LoadResult) string {
	if !fxd.Valid() {
		return "INVALID"
	}
	return passFail(ratio >= target)
}

// PrintTable writes the rows as an aligned table.
func (rep *Report) PrintTable(w io.Writer) {
	head := Row{Name: "MEASUREMENT", Value: "VALUE", Target: "TARGET", Result: "RESULT", Detail: "DETAIL"}
	rows := append([]Row{head}, rep.Rows...)
	wn, wv, wt, wr := 0, 0, 0, 0
	for _, r := range rows {
		wn = max(wn, utf8.RuneCountInString(r.Name))
		wv = max(wv, utf8.RuneCountInString(r.Value))
		wt = max(wt, utf8.RuneCountInString(r.Target))
		wr = max(wr, utf8.RuneCountInString(r.Result))
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-utf8.RuneCountInString(s)) }
	lpad := func(s string, n int) string { return strings.Repeat(" ", n-utf8.RuneCountInString(s)) + s }
	for i, r := range rows {
		v := lpad(r.Value, wv)
		if i == 0 {
			v = pad(r.Value, wv)
		}
		fmt.Fprintf(w, "%s  %s  %s  %s  %s\n", pad(r.Name, wn), v, pad(r.Target, wt), pad(r.Result, wr), r.Detail)
		if i == 0 {
			fmt.Fprintln(w, strings.Repeat("-", wn+wv+wt+wr+8+6))
		}
	}
	m := rep.Machine
	commit := m.Commit()
	if b := m.BenchCommit(); b != "" {
		commit += " (bench at " + b + ")"
	}
	fmt.Fprintf(w, "\n%s/%s, %d CPU (%s), %s, commit %s, load avg %s → %s\n", m.GOOS, m.GOARCH, m.NumCPU, m.CPUModel,
		m.GoVersion, commit, m.LoadAvgStart, m.LoadAvgEnd)
	if wl := rep.WAL; wl != nil && wl.FloorFsyncsPerSec > 0 {
		fmt.Fprintf(w, "disk (the bench's temp dir): raw write + fdatasync of %.0f B, one goroutine: %s /s (median of the log phase's floor rounds)\n",
			wl.BatchBytes, commas(int64(wl.FloorFsyncsPerSec+0.5)))
	}
	s := rep.Settings
	if s.Only == "" {
		fmt.Fprintf(w, "generator %s, %d conns; each load phase: %d round(s) alternating floor and fxd, each %.1fs warm-up + %.1fs measured\n",
			s.Generator, s.Conns, s.Rounds, s.WarmupS, s.DurationS/float64(max(s.Rounds, 1)))
	}
	if rep.FX != nil {
		fmt.Fprintf(w, "FX quote phase: open loop at a fixed offered rate, %d round(s) alternating the floor and fxd, each %.1fs warm-up + %.1fs measured, "+
			"latency from each request's scheduled send time; up to %d requests waiting or in flight; keys within 28 heavy requests each\n",
			s.Rounds, s.WarmupS, s.DurationS/float64(max(s.Rounds, 1)), s.QuoteInFlight)
	}
	if l := rep.Ledger; l != nil && l.Fill != nil {
		fmt.Fprintf(w, "ledger phase: %s + %s transfers written in-process through the engine, then served by fxd; list runs closed loop, "+
			"%d measured requests per query (after %d unmeasured), latency from send to the whole answer; export read by one "+
			"streaming client on loopback\n", commas(int64(l.ExportEntries)), commas(int64(l.ListEntries)), s.LedgerRequests, ledgerListWarmup)
	}
	if wh := rep.Webhooks; wh != nil && wh.Tests != nil {
		fmt.Fprintf(w, "webhook phase: a fresh fxd delivering to an HTTPS receiver in fxbench (every signature checked with webhook/sign.Verify); "+
			"one account with a healthy endpoint and a dead one (port closed, enabled again every %v); POST /webhooks/{id}/test open loop "+
			"at %s/s in %d round(s) alternating a floor (fxbench posting signed copies to the receiver) and fxd, each %.1fs + %.1fs, "+
			"lag from the client reading the 202 to the receiver's answer; then a backlog made while the receiver "+
			"held its answers, drained\n", webhookReenableEvery, commas(int64(s.WebhookRate)), max(len(wh.Rounds), 1),
			wh.Tests.WarmupS/float64(max(len(wh.Rounds), 1)), wh.Tests.WindowS/float64(max(len(wh.Rounds), 1)))
		for _, p := range wh.PprofFiles {
			fmt.Fprintf(w, "webhook phase CPU profile of fxd: %s\n", p)
		}
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	for _, e := range rep.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
}

// Save writes the report as dir/<date>.json (<date>-<only>.json for a run
// of selected phases) and returns the path.
func (rep *Report) Save(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return "", err
	}
	name := rep.Date
	if rep.Settings.Only != "" {
		name += "-" + rep.Settings.Only
	}
	// A second run on the same day is kept beside the first, not over it:
	// the saved runs are the history a regression is read from.
	path := filepath.Join(dir, name+".json")
	for i := 2; fileExists(path); i++ {
		path = filepath.Join(dir, fmt.Sprintf("%s-run%d.json", name, i))
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}

// writesBaselineRow reports durable writes against the last saved
// results: throughput, judged within webhookWritesTolerance, and CPU per
// request, the steadier comparison on a shared machine.
func writesBaselineRow(name string, cur *LoadResult, b *Baseline) Row {
	row := Row{Name: name, Value: "not run", Target: fmt.Sprintf("≥ %.2f × last saved", webhookWritesTolerance), Result: "INVALID"}
	if cur == nil || b == nil || b.FXDWrites == nil || b.FXDWrites.Rate <= 0 {
		return row
	}
	old := b.FXDWrites
	ratio := cur.Rate / old.Rate
	d := fmt.Sprintf("%s writes/s now vs %s in %s (%s, commit %s; %d conns, %.0fs measured)", commas(int64(cur.Rate+0.5)),
		commas(int64(old.Rate+0.5)), b.File, b.Date, b.Commit, old.Conns, old.Seconds)
	if cur.ServerCPUUs > 0 && old.ServerCPUUs > 0 {
		d += fmt.Sprintf("; server CPU/req %.0f µs now vs %.0f µs (%.3f ×)", cur.ServerCPUUs, old.ServerCPUUs, cur.ServerCPUUs/old.ServerCPUUs)
	}
	if cur.OtherCores >= 0 {
		d += fmt.Sprintf("; other work on the machine %.2f cores now, %.2f then", cur.OtherCores, old.OtherCores)
	}
	row.Value, row.Detail = fmt.Sprintf("%.3f ×", ratio), d
	row.Result = passFail(ratio >= webhookWritesTolerance)
	if cur.Budget > 0 && !cur.Valid() {
		row.Result = "INVALID"
	}
	return row
}

// webhookRows describes the webhook phase: the API side of the open loop,
// the deliveries it made (rate and lag, judged), the backlog drain, and
// the durable writes on the same fxd against the last saved results.
func webhookRows(w *WebhookPhase, b *Baseline) []Row {
	var rows []Row
	s := w.Setup
	if s.Keys > 0 {
		d := fmt.Sprintf("1 account, %d keys (webhooks scope: %d for the open loop, %d for the backlog), endpoints %s (healthy) and %s (dead), "+
			"retry schedule %s; %d tests left pending on the dead endpoint (%d attempts held, then its port closed)",
			s.Keys, s.TestKeys, s.DrainKeys, s.Healthy, s.Dead, s.Schedule, s.DeadPile, s.DeadHeld)
		if s.WritesKeys > 0 {
			d += fmt.Sprintf("; %d accounts, %d keys for the durable writes", s.WritesAccounts, s.WritesKeys)
		}
		rows = append(rows, Row{Name: "webhook setup", Value: fmt.Sprintf("%.1f s", s.Seconds), Detail: d})
	}
	if w.Tests != nil {
		rows = append(rows, webhookAPIRow(w)) // webhookrounds.go
	}
	rows = append(rows, webhookFloorRows(w)...)
	dead := "dead endpoint: not measured"
	deadRetried := false
	if dd := w.Dead; dd != nil {
		var errs []string
		for e, n := range dd.Errors {
			errs = append(errs, fmt.Sprintf("%s × %s", commas(n), e))
		}
		sort.Strings(errs)
		dead = fmt.Sprintf("dead endpoint: %s attempts in the window, %s during the drain, %s in all (%s), %d succeeded; enabled again %d times "+
			"(%d errors), %s at the end", commas(dd.AttemptsWindow), commas(dd.AttemptsDrain), commas(dd.Attempts), strings.Join(errs, ", "),
			dd.Succeeded, dd.Reenables, dd.ReenableErrors, dd.State) + deadRoundsText(dd)
		deadRetried = deadRetriedEveryRound(dd) || s.DeadPile == 0
	}
	if d := w.Delivery; d != nil {
		valid := d.Valid(w.Tests)
		detail := []string{fmt.Sprintf("%s of %s window events delivered (missing %d, not in the deliveries list %d) in a %.0fs window",
			commas(d.Delivered), commas(d.WindowEvents), d.Missing, d.Unjoined, d.WindowS),
			fmt.Sprintf("receiver saw %s/s during the window", commas(int64(d.ReceiverRate+0.5))),
			fmt.Sprintf("last arrival %.3fs after the window", d.LastArrivalS),
			receiverText(d.Receiver)}
		if d.ServerCPUUs > 0 {
			detail = append(detail, fmt.Sprintf("server %.0f µs CPU/event, its API request included (%.2f cores)", d.ServerCPUUs, d.ServerCores))
		}
		detail = append(detail, fmt.Sprintf("fxbench (load + receiver) %.0f µs CPU/event", d.GeneratorCPUUs))
		if d.OtherCores >= 0 {
			detail = append(detail, fmt.Sprintf("other work on the machine %.2f cores", d.OtherCores))
		}
		detail = append(detail, fmt.Sprintf("server's attempt duration p50 %.0f / p99 %.0f ms, %d failed attempts", d.Attempt.P50Ms, d.Attempt.P99Ms, d.FailedAttempts))
		rateSpr, lagSpr, rateRounds, lagFloor := webhookRoundsDetail(w)
		row := Row{Name: fmt.Sprintf("webhook deliveries, healthy endpoint, %s/s offered", commas(int64(d.OfferedRate))),
			Value: commas(int64(d.Rate+0.5)) + " /s" + rateSpr, Detail: strings.Join(detail, "; ") + rateRounds,
			Target: "≥ " + commas(int64(webhookRateTarget)) + " /s", Result: "INVALID"}
		if valid {
			row.Result = passFail(d.Rate >= webhookRateTarget)
		}
		rows = append(rows, row)
		lagDetail := []string{latencyText(d.Lag) + ", max " + fmt.Sprintf("%.2f ms", d.Lag.MaxMs) + " (from the client reading the 202)",
			fmt.Sprintf("from the POST's send: p50 %.2f / p99 %.2f / max %.2f ms", d.LagFromSend.P50Ms, d.LagFromSend.P99Ms, d.LagFromSend.MaxMs),
			fmt.Sprintf("%d arrived before their 202 was read (lag 0)", d.BeforeReply), dead}
		if !deadRetried {
			lagDetail = append(lagDetail, "THE DEAD ENDPOINT DID NOT RETRY DURING THE WINDOW")
		}
		lrow := Row{Name: "webhook lag, healthy endpoint, dead one retrying", Value: fmt.Sprintf("p99 %.2f ms", d.Lag.P99Ms) + lagSpr,
			Detail: strings.Join(lagDetail, "; ") + lagFloor, Target: fmt.Sprintf("p99 ≤ %g ms", webhookLagP99TargetMs), Result: "INVALID"}
		if valid && deadRetried {
			lrow.Result = passFail(d.Lag.P99Ms <= webhookLagP99TargetMs)
		}
		rows = append(rows, lrow)
	}
	if dr := w.Drain; dr != nil {
		detail := []string{fmt.Sprintf("%s tests made in %.1fs through the API (%s/s closed loop, %d conns, p99 %.2f ms; %d other answers) while the "+
			"receiver held its answers for %.1fs", commas(dr.Created), dr.Create.Seconds, commas(int64(dr.Create.Rate+0.5)), dr.Create.Conns,
			dr.Create.Latency.P99Ms, dr.Create.Unexpected+dr.Create.Errors, dr.HeldS),
			fmt.Sprintf("%s delivered in %.2fs after it let go, the first after %.1f ms%s", commas(dr.Delivered), dr.DrainS, dr.FirstArrivalMs, drainShape(dr.Timeline)),
			receiverText(dr.Receiver)}
		if dr.ServerCPUUs > 0 {
			detail = append(detail, fmt.Sprintf("server %.0f µs CPU/delivery (%.2f cores)", dr.ServerCPUUs, dr.ServerCores))
		}
		detail = append(detail, fmt.Sprintf("fxbench (receiver) %.0f µs CPU/delivery", dr.GeneratorCPUUs))
		if dr.OtherCores >= 0 {
			detail = append(detail, fmt.Sprintf("other work on the machine %.2f cores", dr.OtherCores))
		}
		if !dr.Complete() {
			detail = append(detail, fmt.Sprintf("ONLY %s OF %s ARRIVED within %v: the rate is over those", commas(dr.Delivered), commas(dr.Created), webhookDrainWait))
		}
		row := Row{Name: "webhook backlog drain (delivery capacity)", Value: commas(int64(dr.Rate+0.5)) + " /s", Detail: strings.Join(detail, "; "),
			Target: "≥ " + commas(int64(webhookRateTarget)) + " /s", Result: "INVALID"}
		if dr.Valid() {
			row.Result = passFail(dr.Complete() && dr.Rate >= webhookRateTarget)
		}
		rows = append(rows, row)
	}
	if w.Writes != nil {
		rows = append(rows, loadRow("fxd POST /contacts (fsynced), webhook phase's fxd", w.Writes, "writes/s"))
		if b != nil {
			rows = append(rows, writesBaselineRow("fxd POST /contacts vs last saved", w.Writes, b))
		}
	}
	return rows
}

// receiverText describes what the receiver checked.
func receiverText(r Receiver) string {
	t := fmt.Sprintf("receiver: %s requests, %s signatures verified, %d bad signatures, %d bad bodies, %d duplicates",
		commas(r.Requests), commas(r.Verified), r.BadSignatures, r.BadBodies, r.Duplicates)
	if r.HeldTooLong > 0 {
		t += fmt.Sprintf(", %d held past the limit", r.HeldTooLong)
	}
	if r.FirstProblem != "" {
		t += ", first problem: " + r.FirstProblem
	}
	return t
}

// drainShape summarizes a drain's timeline: the most arrivals in one
// sample interval and how many intervals saw none, which tells a steady
// drain from one that moves in bursts.
func drainShape(tl []DrainSample) string {
	if len(tl) < 3 {
		return ""
	}
	most, idle := int64(0), 0
	for i := 1; i < len(tl); i++ {
		d := tl[i].Arrived - tl[i-1].Arrived
		most = max(most, d)
		if d == 0 && tl[i].Arrived > 0 {
			idle++
		}
	}
	return fmt.Sprintf(" (per %v: at most %s arrivals, %d intervals with none)", webhookSampleEvery, commas(most), idle)
}

// memoryRows are the memory phase's rows (memory.go).
func memoryRows(m *Memory) []Row {
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	rows := []Row{{Name: "memory per account (RSS delta)", Value: fmt.Sprintf("%.1f KiB", m.BytesPerAccount/1024),
		Detail: fmt.Sprintf("%d accounts, %s; RSS %.1f → %.1f MiB", m.Accounts, m.What, mib(m.RSSBeforeBytes), mib(m.RSSAfterBytes))}}
	if m.HeapAfterBytes > 0 {
		rows = append(rows, Row{Name: "memory per account (live heap after GC)", Value: fmt.Sprintf("%.1f KiB", m.HeapBytesPerAccount/1024),
			Detail: fmt.Sprintf("%d accounts; HeapAlloc after runtime.GC less the log's tail segment %.1f → %.1f MiB (tail %.1f MiB, bounded by the segment size)",
				m.Accounts, mib(m.HeapBeforeBytes), mib(m.HeapAfterBytes), mib(m.WALTailBytes)),
			Target: "≤ 8 KiB", Result: passFail(m.HeapBytesPerAccount <= 8<<10)})
	}
	if i := m.Idle; i != nil {
		rows = append(rows, Row{Name: "memory per idle account (live heap after GC)", Value: fmt.Sprintf("%.0f B / key", i.HeapBytesPerKey),
			Detail: fmt.Sprintf("the second %s of %s accounts with 1 key each, idle past --passivate-after %gs, %d actors left; "+
				"with the tables' high-water after the burst (peak %s actors active): %.0f B / key; log tail %.1f MiB",
				commas(int64(i.Accounts-i.Accounts/2)), commas(int64(i.Accounts)), m.PassivateAfterS, i.ActiveAfter,
				commas(i.PeakActive), i.TotalHeapBytesPerKey, mib(i.After.WALTail)),
			Target: "≤ 200 B / key", Result: passFail(i.HeapBytesPerKey <= 200)})
		rows = append(rows, Row{Name: "memory per idle account (RSS after GC)", Value: fmt.Sprintf("%.0f B / key", i.RSSBytesPerKey),
			Detail: fmt.Sprintf("%s accounts with 1 key each (%.0f created and passivated per second); RSS %.1f → %.1f MiB",
				commas(int64(i.Accounts)), i.CreatePerSec, mib(i.Before.RSS), mib(i.After.RSS))})
	}
	return rows
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
