package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fxd-labs/fxd/client"
)

// API paths the bench drives (test environment base path).
const (
	basePath     = "/public/v1"
	accountPath  = basePath + "/account"
	contactsPath = basePath + "/contacts"
)

// CONTRACT.md per-key limits, less a margin, are the per-key budgets of
// the fxd phases; contacts are capped per account (domain limits).
const (
	readLimit            = 600
	writeLimit           = 120
	readBudget           = readLimit - 10
	writeBudget          = writeLimit - 2
	maxKeysPerAccount    = 1000
	maxContactsPerAcct   = 10_000
	provisionMargin      = 1.1
	defaultMaxKeys       = 20_000
	floorKeyCount        = 256
	defaultCLIParallel   = 12
	fallbackRatePerSec   = 20_000
	writeKeysPerAcctRoom = 100 // contacts left free per account
	defaultQuoteInFlight = 256
	// defaultConns is where the floor server stops gaining throughput on
	// the 2-core bench machine (see doc.go, "Connections").
	defaultConns = 256
)

// Phase selections for Config.Only.
const (
	OnlyAll      = ""
	OnlyQuotes   = "quotes"
	OnlyLedger   = "ledger"
	OnlyWebhooks = "webhooks"
	OnlyWal      = "wal"
	OnlyMemory   = "memory"
	OnlyCluster  = "cluster"
)

// Config configures Run.
type Config struct {
	Bin      string        // the fxd binary
	Warmup   time.Duration // per load phase, before the measured window
	Duration time.Duration // measured window of each load phase
	Conns    int           // concurrent connections/workers; 0 sweeps
	Keys     int           // at least this many fxd keys (0: as the load needs)
	MaxKeys  int           // at most this many (0: 20,000)
	Gen      string        // GenRaw or GenSDK
	Quick    bool
	// Rounds splits each load phase's window into rounds that alternate
	// floor and fxd (floor, fxd, fxd, floor, ...), each with its warm-up.
	Rounds int

	MicroTime     time.Duration // testing.Benchmark time per case
	WALGoroutines int
	WALPayload    int
	WALDuration   time.Duration
	MemAccounts   int // active accounts of the memory phase; 0 skips the phase
	// MemIdleAccounts more accounts with a key each are left idle past
	// passivation in the memory phase (0 skips that step); MemPprof, if
	// set, receives fxd's heap profiles after each step.
	MemIdleAccounts int
	MemPprof        string
	CLIParallel     int // concurrent `fxd admin` processes

	// FloorExe, if set, runs the floor as `FloorExe -floor-serve FILE`, a
	// process of its own; empty runs it in this process.
	FloorExe string
	// PerfDir, if set, records a perf profile of each server during each
	// load phase's window into this directory.
	PerfDir  string
	KeepData bool
	Log      io.Writer // progress; nil for none

	// The FX quote path, last (after every other phase, on a fresh server): POST /fx/quotes open loop at QuoteRate
	// per second, then POST /fx/quotes/{id}/accept at AcceptRate, each for
	// Warmup + Duration. QuoteRate 0 skips the phase, AcceptRate 0 the
	// accepts. QuoteInFlight bounds the requests waiting for their time or
	// in flight (default 256).
	QuoteRate     int
	AcceptRate    int
	QuoteInFlight int
	// QuotePprofDir, if set, receives a CPU profile of fxd (from its admin
	// listener's pprof) over the quote load's window.
	QuotePprofDir string
	// Only selects phases: OnlyAll, OnlyQuotes (start fxd, run the FX
	// quote phase, stop), OnlyLedger (the ledger phase), OnlyWebhooks
	// (the webhook delivery phase) or OnlyWal (the in-process log writer).
	Only string

	// The webhook delivery phase (webhooks.go), on a fresh fxd of its
	// own: POST /webhooks/{id}/test open loop at WebhookRate per second
	// for Warmup + Duration (0 skips the phase), then a backlog of
	// WebhookDrain tests drained (0 skips the drain); WebhookDeadPile
	// tests wait on the dead endpoint. WebhookWrites adds, with -only
	// webhooks, the durable write load (POST /contacts) on that fxd.
	// WebhookPprofDir, if set, receives CPU profiles of fxd over the open
	// loop's window and the drain.
	WebhookRate     int
	WebhookDrain    int
	WebhookDeadPile int
	WebhookWrites   bool
	WebhookPprofDir string
	// WebhookSchedule is fxd's --webhook-retry-schedule in the phase
	// ("": 1 s waits; "default": the server's own schedule). The sender
	// looks for due retries at a fraction of its shortest wait, so it
	// bears on the lag too.
	WebhookSchedule string
	// Baseline is the last saved results' durable writes, which this
	// run's are reported against (nil: none).
	Baseline *Baseline

	// The ledger phase (ledger.go), on a data dir of its own: LedgerRows
	// transfers on the account exported (0 skips the phase),
	// LedgerListRows on the account the judged list queries page through,
	// created in-process by LedgerWorkers goroutines; LedgerRequests
	// measured GET /transactions per query, sequential and at
	// LedgerConns concurrent. LedgerPprofDir, if set, receives CPU
	// profiles of fxd over a repeated export and list run.
	LedgerRows     int
	LedgerListRows int
	LedgerRequests int
	LedgerConns    int
	LedgerWorkers  int
	LedgerPprofDir string

	// ClusterNodes is the cluster phase's node count (cluster.go; 0
	// skips the phase): that many `fxd serve --cluster-*` on this
	// machine against a single node, in alternating write rounds.
	ClusterNodes int
}

// DefaultConfig returns the full run's settings, or the smoke test's.
func DefaultConfig(quick bool) Config {
	c := Config{
		Warmup: 2 * time.Second, Duration: 10 * time.Second, Gen: GenRaw, Rounds: 2, Conns: defaultConns,
		MicroTime: time.Second, WALGoroutines: 1024, WALPayload: 100, WALDuration: 5 * time.Second,
		MemAccounts: 2000, MemIdleAccounts: 100_000, CLIParallel: defaultCLIParallel, MaxKeys: defaultMaxKeys, Quick: quick,
		QuoteRate: 1000, AcceptRate: 100, QuoteInFlight: defaultQuoteInFlight,
		LedgerRows: defaultLedgerRows, LedgerListRows: defaultLedgerListRows, LedgerRequests: defaultLedgerRequests,
		LedgerConns: defaultLedgerConns, LedgerWorkers: defaultLedgerWorkers,
		WebhookRate: defaultWebhookRate, WebhookDrain: defaultWebhookDrain, WebhookDeadPile: defaultWebhookDeadPile, WebhookWrites: true,
		ClusterNodes: defaultClusterNodes,
	}
	if quick {
		c.Warmup, c.Duration, c.Rounds = 500*time.Millisecond, 2*time.Second, 1
		c.MicroTime, c.WALDuration, c.MemAccounts, c.MemIdleAccounts = 200*time.Millisecond, time.Second, 100, 2000
		c.QuoteRate, c.AcceptRate = 100, 20
		c.LedgerRows, c.LedgerListRows, c.LedgerRequests = 100_000, 20_000, 300
		c.WebhookRate, c.WebhookDrain, c.WebhookDeadPile = 500, 2_000, 50
	}
	return c
}

// Run runs the whole suite against cfg.Bin and returns the report; errors
// of single phases are recorded in Report.Errors and the run goes on where
// it can.
func Run(cfg Config) (*Report, error) {
	if cfg.Bin == "" {
		return nil, errors.New("bench: no fxd binary (-bin)")
	}
	if cfg.MaxKeys == 0 {
		cfg.MaxKeys = defaultMaxKeys
	}
	if cfg.CLIParallel == 0 {
		cfg.CLIParallel = defaultCLIParallel
	}
	if cfg.QuoteInFlight <= 0 {
		cfg.QuoteInFlight = defaultQuoteInFlight
	}
	switch cfg.Only {
	case OnlyAll, OnlyQuotes, OnlyLedger, OnlyWebhooks, OnlyWal, OnlyMemory, OnlyCluster:
	default:
		return nil, fmt.Errorf("bench: unknown -only %q (want %q, %q, %q, %q, %q or %q)", cfg.Only, OnlyQuotes, OnlyLedger, OnlyWebhooks, OnlyWal, OnlyMemory, OnlyCluster)
	}
	if cfg.Only == OnlyCluster && cfg.ClusterNodes <= 0 {
		return nil, errors.New("bench: -only cluster with -cluster-nodes 0")
	}
	if cfg.ClusterNodes != 0 && cfg.ClusterNodes < 3 {
		return nil, fmt.Errorf("bench: -cluster-nodes %d: 0 (skip) or at least 3 (streams keep three replicas)", cfg.ClusterNodes)
	}
	if cfg.Only == OnlyMemory && cfg.MemAccounts <= 0 {
		return nil, errors.New("bench: -only memory with -mem-accounts 0")
	}
	if cfg.Only == OnlyWebhooks && cfg.WebhookRate <= 0 {
		return nil, errors.New("bench: -only webhooks with a webhook rate of 0")
	}
	if cfg.WebhookRate > 0 && (cfg.WebhookDrain < 0 || cfg.WebhookDeadPile < 0) {
		return nil, fmt.Errorf("bench: -webhook-drain %d, -webhook-dead-pile %d: 0 or more", cfg.WebhookDrain, cfg.WebhookDeadPile)
	}
	if cfg.Only == OnlyQuotes && cfg.QuoteRate <= 0 {
		return nil, errors.New("bench: -only quotes with a quote rate of 0")
	}
	if cfg.LedgerRows > 0 {
		if cfg.LedgerWorkers <= 0 {
			cfg.LedgerWorkers = defaultLedgerWorkers
		}
		if cfg.LedgerRequests <= 0 {
			cfg.LedgerRequests = defaultLedgerRequests
		}
		if cfg.LedgerConns <= 0 {
			cfg.LedgerConns = defaultLedgerConns
		}
		if cfg.LedgerListRows < 4*ledgerPageLimit {
			return nil, fmt.Errorf("bench: -ledger-list-rows %d: at least %d", cfg.LedgerListRows, 4*ledgerPageLimit)
		}
		if cfg.LedgerRows < 4*ledgerPageLimit {
			return nil, fmt.Errorf("bench: -ledger-rows %d: 0 (skip) or at least %d", cfg.LedgerRows, 4*ledgerPageLimit)
		}
	}
	if cfg.Only == OnlyLedger && cfg.LedgerRows <= 0 {
		return nil, errors.New("bench: -only ledger with -ledger-rows 0")
	}
	if cfg.Only == OnlyQuotes || cfg.Only == OnlyWebhooks || cfg.Only == OnlyWal || cfg.Only == OnlyMemory || cfg.Only == OnlyCluster {
		cfg.LedgerRows = 0 // not run: not reported in the settings
	}
	if cfg.Only == OnlyQuotes || cfg.Only == OnlyLedger || cfg.Only == OnlyWal || cfg.Only == OnlyMemory || cfg.Only == OnlyCluster {
		cfg.WebhookRate = 0
	}
	if cfg.Only == OnlyLedger || cfg.Only == OnlyWebhooks || cfg.Only == OnlyWal || cfg.Only == OnlyMemory || cfg.Only == OnlyCluster {
		cfg.QuoteRate, cfg.AcceptRate = 0, 0
	}
	if cfg.Only != OnlyAll && cfg.Only != OnlyCluster {
		cfg.ClusterNodes = 0
	}
	logw := cfg.Log
	if logw == nil {
		logw = io.Discard
	}
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	rep := &Report{
		Date: time.Now().Format("2006-01-02"), Started: time.Now().UTC(), Machine: MachineInfo(cfg.Bin),
		Settings: Settings{Quick: cfg.Quick, Generator: cfg.Gen, Conns: cfg.Conns, ConnsSwept: cfg.Conns == 0,
			Rounds: max(cfg.Rounds, 1), WarmupS: cfg.Warmup.Seconds(), DurationS: cfg.Duration.Seconds(), WALGoroutines: cfg.WALGoroutines,
			WALPayload: cfg.WALPayload, WALDurationS: cfg.WALDuration.Seconds(), MemAccounts: cfg.MemAccounts, MemIdle: cfg.MemIdleAccounts,
			FloorProcess: cfg.FloorExe != "", Bin: cfg.Bin, QuoteRate: cfg.QuoteRate, AcceptRate: cfg.AcceptRate,
			QuoteInFlight: cfg.QuoteInFlight, Only: cfg.Only, ClusterNodes: cfg.ClusterNodes},
		WritesBaseline: cfg.Baseline,
	}
	if cfg.WebhookRate > 0 {
		rep.Settings.WebhookRate, rep.Settings.WebhookDrain, rep.Settings.WebhookDeadPile = cfg.WebhookRate, cfg.WebhookDrain, cfg.WebhookDeadPile
	}
	if cfg.LedgerRows > 0 {
		rep.Settings.LedgerRows, rep.Settings.LedgerListRows, rep.Settings.LedgerRequests = cfg.LedgerRows, cfg.LedgerListRows, cfg.LedgerRequests
		rep.Settings.LedgerConns, rep.Settings.LedgerWorkers = cfg.LedgerConns, cfg.LedgerWorkers
	}
	fail := func(what string, err error) {
		rep.Errors = append(rep.Errors, what+": "+err.Error())
		say("!! %s: %v", what, err)
	}
	defer func() {
		rep.Finished = time.Now().UTC()
		rep.Machine.LoadAvgEnd = loadAvg()
		other := 0.0
		for _, r := range []*LoadResult{rep.FloorReads, rep.FXDReads, rep.FloorWrites, rep.FXDWrites} {
			if r != nil {
				other = max(other, r.OtherCores)
			}
		}
		if rep.FX != nil {
			for _, r := range []*OpenResult{rep.FX.Quotes, rep.FX.Accepts} {
				if r != nil {
					other = max(other, r.OtherCores)
				}
			}
			rep.Notes = append(rep.Notes, rep.FX.Notes...)
		}
		if l := rep.Ledger; l != nil {
			for _, r := range []*ListResult{l.Sequential, l.Concurrent} {
				if r != nil {
					other = max(other, r.OtherCores)
				}
			}
			if l.Export != nil {
				other = max(other, l.Export.OtherCores)
			}
			rep.Notes = append(rep.Notes, l.Notes...)
		}
		if w := rep.Webhooks; w != nil {
			if w.Tests != nil {
				other = max(other, w.Tests.OtherCores)
			}
			if w.Drain != nil {
				other = max(other, w.Drain.OtherCores)
			}
			if w.Writes != nil {
				other = max(other, w.Writes.OtherCores)
			}
			rep.Notes = append(rep.Notes, w.Notes...)
		}
		if other > 0.25 || busy(rep.Machine.LoadAvgStart, rep.Machine.NumCPU) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the machine was busy with other work (load avg %s at the start; up to %.2f of %d cores "+
				"used by other processes during a load window): throughputs and their ratios are noisy; server CPU per request "+
				"is the steadier comparison", rep.Machine.LoadAvgStart, other, rep.Machine.NumCPU))
		}
		rep.BuildRows()
	}()
	tmp, err := os.MkdirTemp("", "fxbench-")
	if err != nil {
		return rep, err
	}
	if cfg.KeepData {
		say("data kept in %s", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	var perf *perfRecorder
	if cfg.PerfDir != "" {
		if err := os.MkdirAll(cfg.PerfDir, 0o755); err != nil {
			return rep, err
		}
		perf = &perfRecorder{dir: cfg.PerfDir}
	}

	profiled := func(phase string, pid int) func() func() {
		if perf == nil || pid <= 0 {
			return nil
		}
		return func() func() {
			stop := perf.start(phase, pid)
			return func() {
				p, err := stop()
				if err != nil {
					fail("perf "+phase, err)
				} else if p != nil {
					rep.Profiles = append(rep.Profiles, *p)
				}
			}
		}
	}
	// 12. The FX quote path, on srv (a fresh server if srv is nil): last,
	// so that its accounts, quotes and orders disturb no other phase.
	quotePhase := func(srv *FXD) {
		if cfg.QuoteRate <= 0 {
			return
		}
		if srv == nil {
			say("== starting a fresh %s for the FX quote phase", cfg.Bin)
			var err error
			if srv, err = StartFXD(cfg.Bin, filepath.Join(tmp, "data-fx"), filepath.Join(tmp, "fxd-fx.log")); err != nil {
				fail("fx quotes: start fxd", err)
				return
			}
			defer func() { _ = srv.Kill() }()
			say("  fxd pid %d listening on %s (ready after %v)", srv.PID(), srv.Addr(), srv.Ready.Round(time.Millisecond))
		}
		rep.FX = &QuotePhase{}
		var hooks []func() func()
		if h := profiled("fxd-quotes", srv.PID()); h != nil {
			hooks = append(hooks, h)
		}
		if cfg.QuotePprofDir != "" {
			path, _ := filepath.Abs(filepath.Join(cfg.QuotePprofDir, "fxd-quotes-"+time.Now().Format("20060102-150405")+".pprof"))
			hooks = append(hooks, pprofHook(srv, roundWindow(cfg), path, rep.FX, fail)) // the first fxd round's window
		}
		var onWindow func() func()
		if len(hooks) > 0 {
			onWindow = func() func() {
				var stops []func()
				for _, h := range hooks {
					stops = append(stops, h())
				}
				return func() {
					for _, s := range stops {
						s()
					}
				}
			}
		}
		if err := runQuotePhase(context.Background(), srv, cfg, filepath.Join(tmp, "fxkeys"), rep.FX, onWindow, logw); err != nil {
			fail("fx quotes", err)
		}
	}
	// The ledger: its own data dir, filled in-process, and its own fxd.
	ledgerPhase := func() {
		if cfg.LedgerRows <= 0 {
			return
		}
		dir := filepath.Join(tmp, "ledger")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			fail("ledger", err)
			return
		}
		if !cfg.KeepData {
			defer os.RemoveAll(dir) // a million rows take disk the later phases may want
		}
		rep.Ledger = &LedgerPhase{}
		if err := runLedgerPhase(context.Background(), cfg, dir, rep.Ledger, logw); err != nil {
			fail("ledger", err)
		}
	}
	// The webhook delivery phase: its own data dir and fxd. withWrites
	// adds the durable write load on that fxd (when no other phase
	// measured durable writes).
	webhookPhase := func(withWrites bool) {
		if cfg.WebhookRate <= 0 {
			return
		}
		dir := filepath.Join(tmp, "webhooks")
		if !cfg.KeepData {
			defer os.RemoveAll(dir)
		}
		rep.Webhooks = &WebhookPhase{}
		if err := runWebhookPhase(context.Background(), cfg, dir, rep.Webhooks, withWrites, logw); err != nil {
			fail("webhooks", err)
		}
	}
	// The log writer, in-process.
	walPhase := func() {
		say("== wal: %d goroutines appending %d-byte payloads for %v", cfg.WALGoroutines, cfg.WALPayload, cfg.WALDuration)
		walWarm := min(time.Second, cfg.WALDuration/4)
		var err error
		if rep.WAL, err = RunWAL(filepath.Join(tmp, "wal"), cfg.WALGoroutines, cfg.WALPayload, walWarm, cfg.WALDuration, logw); err != nil {
			fail("wal", err)
		}
		_ = os.RemoveAll(filepath.Join(tmp, "wal"))
	}
	// Memory per account, on a data dir and an fxd of its own (with a
	// short passivation).
	memoryPhase := func() {
		if cfg.MemAccounts <= 0 {
			return
		}
		say("== memory: %d accounts with one key and one contact each, then idle; %d idle accounts with one key",
			cfg.MemAccounts, cfg.MemIdleAccounts)
		dir := filepath.Join(tmp, "memory")
		if !cfg.KeepData {
			defer os.RemoveAll(dir)
		}
		var err error
		if rep.Memory, err = runMemoryPhase(context.Background(), cfg, dir, logw); err != nil {
			fail("memory", err)
		}
	}
	// The cluster against a single node, on data dirs and servers of its
	// own; writeRate (the single node's, measured before; 0 if not) sizes
	// its keys.
	clusterPhase := func(writeRate float64) {
		if cfg.ClusterNodes <= 0 {
			return
		}
		dir := filepath.Join(tmp, "cluster")
		if !cfg.KeepData {
			defer os.RemoveAll(dir)
		}
		rep.Cluster = &ClusterPhase{}
		if err := runClusterPhase(context.Background(), cfg, dir, writeRate, rep.Cluster, profiled, logw); err != nil {
			fail("cluster", err)
		}
	}
	if cfg.Only == OnlyWal {
		walPhase()
		return rep, nil
	}
	if cfg.Only == OnlyCluster {
		clusterPhase(0)
		return rep, nil
	}
	if cfg.Only == OnlyMemory {
		memoryPhase()
		return rep, nil
	}
	if cfg.Only == OnlyLedger {
		ledgerPhase()
		return rep, nil
	}
	if cfg.Only == OnlyWebhooks {
		webhookPhase(cfg.WebhookWrites)
		return rep, nil
	}
	if cfg.Only == OnlyQuotes {
		say("== starting %s on a temp data dir (FX quote phase only)", cfg.Bin)
		fx, err := StartFXD(cfg.Bin, filepath.Join(tmp, "data"), filepath.Join(tmp, "fxd-1.log"))
		if err != nil {
			return rep, err
		}
		defer func() { _ = fx.Kill() }()
		say("  fxd pid %d listening on %s (ready after %v)", fx.PID(), fx.Addr(), fx.Ready.Round(time.Millisecond))
		quotePhase(fx)
		if _, err := fx.Stop(30 * time.Second); err != nil {
			fail("stop fxd", err)
		}
		return rep, nil
	}

	// 1. Rate limiter micro-benchmarks.
	say("== ratelimit Limiter.Allow (testing.Benchmark, %v per case)", cfg.MicroTime)
	SetBenchTime(cfg.MicroTime)
	rep.RateLimit = RunRateLimit()
	for _, m := range rep.RateLimit {
		say("  %-50s %8.1f ns/op %d allocs/op", m.Name, m.NsPerOp, m.AllocsPerOp)
	}

	// 2. The log writer, in-process, before any server runs.
	walPhase()

	// 3. fxd, and what its answers look like.
	say("== starting %s on a temp data dir", cfg.Bin)
	dataDir := filepath.Join(tmp, "data")
	fx, err := StartFXD(cfg.Bin, dataDir, filepath.Join(tmp, "fxd-1.log"))
	if err != nil {
		return rep, err
	}
	defer func() { _ = fx.Kill() }()
	say("  fxd pid %d listening on %s (ready after %v)", fx.PID(), fx.Addr(), fx.Ready.Round(time.Millisecond))
	ctx := context.Background()
	getBody, postBody, err := probe(ctx, fx, filepath.Join(tmp, "probe"))
	if err != nil {
		return rep, fmt.Errorf("probe: %w", err)
	}
	rep.Setup = &Setup{GetBodyBytes: len(getBody), PostBodyBytes: len(postBody), ReadBudget: readBudget, WriteBudget: writeBudget}

	// 4. The floor, with fxd's own answers as its static bodies; until
	// fxd's keys exist (step 5), under keys of its own, for the sweep and
	// the calibration that sizes them.
	calKeys, _, err := NewFloorKeys(floorKeyCount)
	if err != nil {
		return rep, err
	}
	fl, err := launchFloor(cfg, tmp, calKeys, getBody, postBody)
	if err != nil {
		return rep, fmt.Errorf("floor: %w", err)
	}
	defer func() { fl.stop() }()
	floorLoad := func(name, method, path string, want int) Load {
		l := Load{Name: name, Addr: fl.addr, Method: method, Path: path, WantStatus: want, Keys: fl.keys,
			Conns: cfg.Conns, Warmup: cfg.Warmup, Duration: cfg.Duration, Gen: cfg.Gen, Progress: logw,
			ServerPID: fl.pid}
		if method == "POST" {
			l.Body = contactBody
		}
		return l
	}
	if cfg.Conns == 0 {
		say("== conns sweep against the floor (GET)")
		rep.Sweep, cfg.Conns = sweep(floorLoad("floor-sweep", "GET", accountPath, 200), cfg.Quick, logw)
		rep.Settings.Conns = cfg.Conns
		say("  chose %d conns", cfg.Conns)
	}
	// Calibrate: the floor's rates bound fxd's, so they size the keys.
	say("== calibrating: floor GET and POST, %d conns", cfg.Conns)
	// The estimate is the larger of the rate measured and the rate the
	// machine's CPUs would allow at the CPU per request measured (the rate
	// on an idle machine), so a busy moment does not under-provision.
	calib := func(method, path string, want int) float64 {
		l := floorLoad("floor-calibrate", method, path, want)
		l.Conns, l.Progress = cfg.Conns, nil
		l.Warmup, l.Duration = 300*time.Millisecond, time.Second
		if cfg.Quick {
			l.Warmup, l.Duration = 200*time.Millisecond, 500*time.Millisecond
		}
		r, err := RunLoad(l)
		if err != nil || r.Rate <= 0 {
			return fallbackRatePerSec
		}
		est := r.Rate
		if us := r.ServerCPUUs + r.GeneratorCPUUs; us > 0 {
			est = max(est, float64(rep.Machine.NumCPU)*1e6/us)
		}
		say("  floor %s: %.0f req/s measured, %.0f µs CPU/req (server + generator): planning for %.0f req/s",
			method, r.Rate, r.ServerCPUUs+r.GeneratorCPUUs, est)
		return est
	}
	estR, estW := calib("GET", accountPath, 200), calib("POST", contactsPath, 201)

	// 5. Keys enough for those rates on enough accounts for the contacts.
	rounds := max(cfg.Rounds, 1)
	phase := (time.Duration(rounds)*cfg.Warmup + cfg.Duration).Seconds()
	needR := int(math.Ceil(estR * phase * provisionMargin / readBudget))
	needW := int(math.Ceil(estW * phase * provisionMargin / writeBudget))
	nkeys := max(needR, needW, cfg.Keys, 1)
	if nkeys > cfg.MaxKeys {
		rep.Notes = append(rep.Notes, fmt.Sprintf("the floor's rates call for %d keys; capped at %d (-max-keys): a phase may run out of key budget", nkeys, cfg.MaxKeys))
		nkeys = cfg.MaxKeys
	}
	perAcct := min(maxKeysPerAccount, (maxContactsPerAcct-writeKeysPerAcctRoom)/writeBudget)
	nacct := (nkeys + perAcct - 1) / perAcct
	perAcct = (nkeys + nacct - 1) / nacct
	say("== creating %d accounts and %d keys (read,pay) via the CLI, %d at a time (reads need %d keys, writes %d)",
		nacct, nkeys, cfg.CLIParallel, needR, needW)
	t := time.Now()
	accts, err := fx.CreateAccounts(ctx, nacct, cfg.CLIParallel, "bench", logw)
	if err != nil {
		return rep, fmt.Errorf("create accounts: %w", err)
	}
	rep.Setup.AccountsSeconds = time.Since(t).Seconds()
	owners := make([]string, nkeys)
	for i := range owners {
		owners[i] = accts[i%nacct]
	}
	t = time.Now()
	keys, err := fx.CreateKeys(ctx, owners, "read,pay", filepath.Join(tmp, "keys"), cfg.CLIParallel, logw)
	if err != nil {
		return rep, fmt.Errorf("create keys: %w", err)
	}
	rep.Setup.Accounts, rep.Setup.Keys, rep.Setup.KeysPerAccount = nacct, nkeys, perAcct
	rep.Setup.KeysForReads, rep.Setup.KeysForWrites = needR, needW
	rep.Setup.KeySeconds = time.Since(t).Seconds()
	rep.Setup.KeysPerSecond = float64(nkeys) / rep.Setup.KeySeconds
	say("  %d keys in %.1fs (%.0f/s)", nkeys, rep.Setup.KeySeconds, rep.Setup.KeysPerSecond)

	// The measured floor serves fxd's keys, in the same rotation, so both
	// servers verify under the same keys (doc.go, "Method").
	fl.stop()
	if fl, err = launchFloor(cfg, tmp, keys, getBody, postBody); err != nil {
		return rep, fmt.Errorf("floor: %w", err)
	}

	// 6, 7. Floor and fxd in alternating rounds (floor, fxd, fxd, floor,
	// ...), so that drift in what else the machine does hits both alike.
	// Reads and writes are separate rate-limit classes: one key set each.
	fxdReadKeys, fxdWriteKeys := NewKeySet(keys, readBudget), NewKeySet(keys, writeBudget)
	fxdLoad := func(name, method, path string, want int, ks *KeySet) Load {
		l := Load{Name: name, Addr: fx.Addr(), Method: method, Path: path, WantStatus: want, Keys: ks,
			Conns: cfg.Conns, Warmup: cfg.Warmup, Duration: cfg.Duration, Gen: cfg.Gen,
			Progress: logw, ServerPID: fx.PID()}
		if method == "POST" {
			l.Body = contactBody
		}
		return l
	}
	alternate := func(floor, fxd Load) (*LoadResult, *LoadResult) {
		return alternateLoads(cfg, floor, fxd, func(name string, l *Load) {
			l.OnWindow = chainWindows(l.OnWindow, profiled(name, l.ServerPID))
		}, say, fail)
	}
	rep.FloorReads, rep.FXDReads = alternate(
		floorLoad("floor-reads", "GET", accountPath, 200),
		fxdLoad("fxd-reads", "GET", accountPath, 200, fxdReadKeys))
	var writeBatches batchTally
	fxdWrites := fxdLoad("fxd-writes", "POST", contactsPath, 201, fxdWriteKeys)
	fxdWrites.OnWindow = writeBatches.window(fx)
	rep.FloorWrites, rep.FXDWrites = alternate(floorLoad("floor-writes", "POST", contactsPath, 201), fxdWrites)
	if rep.FXDWrites != nil {
		rep.FXDWrites.WritesPerFsync = writeBatches.mean()
	}
	fl.stop()
	if rep.FloorReads != nil && rep.FXDReads != nil && rep.FloorReads.Rate > 0 {
		rep.ReadRatio = rep.FXDReads.Rate / rep.FloorReads.Rate
	}
	if rep.FloorWrites != nil && rep.FXDWrites != nil && rep.FloorWrites.Rate > 0 {
		rep.WriteRatio = rep.FXDWrites.Rate / rep.FloorWrites.Rate
	}

	// 8. Restart after SIGTERM.
	say("== restart: SIGTERM, then start again on the same data dir")
	fx2, rec, err := restart(fx, filepath.Join(tmp, "fxd-2.log"))
	rep.Recovery = rec
	if err != nil {
		fail("restart", err)
		if fx2 != nil {
			_ = fx2.Kill()
		}
		memoryPhase()
		ledgerPhase()
		webhookPhase(false)
		clusterPhase(writeRate(rep.FXDWrites))
		quotePhase(nil)
		return rep, nil
	}
	defer func() { _ = fx2.Kill() }()
	say("  restarted in %.0f ms with wal_index %d", rec.RestartMs, rec.WALIndexAfter)

	if _, err := fx2.Stop(30 * time.Second); err != nil {
		fail("stop fxd", err)
	}
	// 9. Memory per account.
	memoryPhase()
	// 10. The ledger, on a data dir and an fxd of its own.
	ledgerPhase()
	// 11. Webhook delivery, on a data dir and an fxd of its own (durable
	// writes were measured above).
	time.Sleep(3 * time.Second)
	webhookPhase(rep.FXDWrites == nil)
	// 12. The cluster against a single node in the same minutes.
	time.Sleep(3 * time.Second)
	clusterPhase(writeRate(rep.FXDWrites))
	// The quote path runs on a fresh server, as with -only quotes: the
	// phases before leave thousands of accounts, keys and a full replay
	// cache behind, and processes of their own still winding down.
	time.Sleep(3 * time.Second)
	quotePhase(nil)
	return rep, nil
}

// writeRate is r's rate, 0 for none.
func writeRate(r *LoadResult) float64 {
	if r == nil {
		return 0
	}
	return r.Rate
}

// busy reports whether a 1-minute load average ("a b c") exceeds the CPUs.
func busy(loadavg string, cpus int) bool {
	f := strings.Fields(loadavg)
	if len(f) == 0 {
		return false
	}
	l, err := strconv.ParseFloat(f[0], 64)
	return err == nil && l > float64(cpus)+0.5
}

// probe makes one account and key and returns fxd's answers to GET
// /account and POST /contacts, which the floor then serves verbatim.
func probe(ctx context.Context, fx *FXD, dir string) (get, post []byte, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, err
	}
	acct, err := fx.CreateAccount(ctx, "bench-probe")
	if err != nil {
		return nil, nil, err
	}
	k, err := fx.CreateKey(ctx, acct, "read,pay", filepath.Join(dir, "probe.pem"))
	if err != nil {
		return nil, nil, err
	}
	c, err := client.New("http://"+fx.Addr(), k.ID, k.Priv)
	if err != nil {
		return nil, nil, err
	}
	defer c.CloseIdleConnections()
	r, err := c.Do(ctx, "GET", accountPath, nil, nil)
	if err != nil {
		return nil, nil, err
	}
	if r.Status != 200 {
		return nil, nil, fmt.Errorf("GET %s: %d %s", accountPath, r.Status, r.Body)
	}
	get = r.Body
	r, err = c.Do(ctx, "POST", contactsPath, contactBody(nil, 0), nil)
	if err != nil {
		return nil, nil, err
	}
	if r.Status != 201 {
		return nil, nil, fmt.Errorf("POST %s: %d %s", contactsPath, r.Status, r.Body)
	}
	return get, r.Body, nil
}

// contactBody is the POST /contacts body for sequence number seq (~100
// bytes; the name and address carry seq, so every body is unique per key).
// The address's first digit is 1, so seq 0 is not the zero address (which
// the service refuses).
func contactBody(dst []byte, seq uint64) []byte {
	dst = append(dst, `{"name":"bench contact `...)
	dst = strconv.AppendUint(dst, seq, 10)
	dst = append(dst, `","address":"0x1`...)
	const hexdig = "0123456789abcdef"
	for i := 38; i >= 0; i-- {
		dst = append(dst, hexdig[(seq>>(4*uint(i)))&0xf]) // shifts past 63 give 0
	}
	return append(dst, `","currency":"USDC"}`...)
}

// startFloor starts the floor as a process of its own (cfg.FloorExe) or
// in this process, and returns its address, its pid (0 in-process) and a
// stop function.
func startFloor(cfg Config, tmp string, fc *FloorConfig) (string, int, func(), error) {
	if cfg.FloorExe == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", 0, nil, err
		}
		srv := NewFloorServer(fc)
		go func() { _ = srv.Serve(ln) }()
		return ln.Addr().String(), 0, func() { _ = srv.Shutdown() }, nil
	}
	fc.Listen = "127.0.0.1:0"
	b, err := json.Marshal(fc)
	if err != nil {
		return "", 0, nil, err
	}
	path := filepath.Join(tmp, "floor.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return "", 0, nil, err
	}
	p, err := startProc("floor", cfg.FloorExe, []string{"-floor-serve", path}, filepath.Join(tmp, "floor.log"),
		[]string{"listening"}, 30*time.Second)
	if err != nil {
		return "", 0, nil, err
	}
	return p.Addrs["listening"], p.PID(), func() { _, _ = p.Stop(10 * time.Second) }, nil
}

// floorRun is a floor server the suite loads, and the keys it serves.
type floorRun struct {
	addr string
	pid  int
	keys *KeySet // without a budget: the floor has no rate limit
	stop func()  // idempotent
}

// launchFloor starts a floor that answers with fxd's bodies and serves
// keys.
func launchFloor(cfg Config, tmp string, keys []Key, getBody, postBody []byte) (*floorRun, error) {
	addr, pid, stop, err := startFloor(cfg, tmp, &FloorConfig{Keys: floorPubs(keys), GetBody: getBody, PostBody: postBody})
	if err != nil {
		return nil, err
	}
	return &floorRun{addr: addr, pid: pid, keys: NewKeySet(keys, 0), stop: sync.OnceFunc(stop)}, nil
}

// sweep runs short floor GET loads at several connection counts and picks
// the smallest within 3 % of the best rate.
func sweep(base Load, quick bool, logw io.Writer) ([]SweepPoint, int) {
	base.Warmup, base.Duration = 300*time.Millisecond, 1500*time.Millisecond
	if quick {
		base.Warmup, base.Duration = 200*time.Millisecond, 600*time.Millisecond
	}
	base.Progress, base.OnWindow = nil, nil
	var pts []SweepPoint
	best := 0.0
	for _, c := range []int{16, 32, 64, 128, 256} {
		l := base
		l.Conns = c
		l.Name = fmt.Sprintf("sweep-%d", c)
		r, err := RunLoad(l)
		if err != nil || r.OK == 0 {
			continue
		}
		pts = append(pts, SweepPoint{Conns: c, Rate: r.Rate, P99Ms: r.Latency.P99Ms})
		fmt.Fprintf(logw, "  %4d conns: %8.0f req/s  p99 %.2f ms\n", c, r.Rate, r.Latency.P99Ms)
		best = max(best, r.Rate)
	}
	for _, p := range pts {
		if p.Rate >= 0.97*best {
			return pts, p.Conns
		}
	}
	return pts, 64
}

// restart stops fx with SIGTERM and starts it again on the same data dir.
func restart(fx *FXD, logPath string) (*FXD, *Recovery, error) {
	rec := &Recovery{}
	h, err := fx.Health()
	if err != nil {
		return nil, rec, fmt.Errorf("health before stop: %w", err)
	}
	rec.WALIndexBefore = h.WALIndex
	d, err := fx.Stop(60 * time.Second)
	rec.ShutdownMs = float64(d.Microseconds()) / 1000
	if err != nil {
		return nil, rec, fmt.Errorf("stop: %w", err)
	}
	fx2, err := StartFXD(fx.Bin, fx.DataDir, logPath)
	if err != nil {
		return nil, rec, err
	}
	rec.RestartMs = float64(fx2.Ready.Microseconds()) / 1000
	if r, err := fx2.RecoveredLine(); err == nil {
		rec.Recovered = r
		if r.Replayed > 0 && r.TookMs > 0 {
			rec.ReplayMsPerMillion = float64(r.TookMs) * 1e6 / float64(r.Replayed)
		}
	}
	if h, err := fx2.Health(); err == nil {
		rec.WALIndexAfter = h.WALIndex
	} else {
		return fx2, rec, fmt.Errorf("health after restart: %w", err)
	}
	if rec.WALIndexBefore > 0 {
		rec.ExtrapolatedMsPerMillion = rec.RestartMs * 1e6 / float64(rec.WALIndexBefore)
	}
	return fx2, rec, nil
}
