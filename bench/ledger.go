package bench

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/big"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/reqsig"
)

// The ledger phase (fxbench -only ledger): GET /transactions and its CSV
// export against an account with a long ledger. Its data is written
// in-process, through the engine (the HTTP limits would allow a key 120
// writes a minute), into a data dir the real binary then serves.

const (
	transactionsPath = basePath + "/transactions"
	exportPath       = transactionsPath + "/export"

	// The targets, on the 2-core bench machine.
	ledgerListP99TargetMs   = 5.0
	ledgerExportRowsTarget  = 200_000  // rows/s
	ledgerExportRSSTarget   = 64 << 20 // bytes of server RSS growth
	ledgerPageLimit         = 50
	defaultLedgerRows       = 1_000_000
	defaultLedgerListRows   = 100_000
	defaultLedgerRequests   = 2_000
	defaultLedgerConns      = 4
	defaultLedgerWorkers    = 256
	ledgerListWarmup        = 100 // unmeasured requests before each list run
	ledgerPassivateAfter    = 2 * time.Second
	ledgerMaxCursorsPerAcct = 100_000
)

// LedgerFillConfig says what FillLedger writes.
type LedgerFillConfig struct {
	DataDir string
	// Rows is the number of transfers (one ledger entry each) per account
	// to create; one account per element.
	Rows []int
	// Keys is the number of read keys per account (same length as Rows).
	Keys []int
	// Workers is how many goroutines create transfers at once (group
	// commit batches them); default 256.
	Workers int
	// Confirm moves every transfer to confirmed (its tx_hash verified, an
	// end state) right after its create, as a ledger mostly is: finished
	// records. Without it the transfers stay created, so live, and fxd's
	// payments desk would resume (up to 100,000 of) them at start.
	Confirm  bool
	Progress io.Writer // nil for none
}

// LedgerAccount is an account FillLedger made.
type LedgerAccount struct {
	ID   string
	Rows int
	Keys []Key
	// Cursors are ids of its entries, newest first: all of them, or every
	// n-th for a ledger longer than 100,000 (CursorStride n), to page from.
	Cursors      []string
	CursorStride int
}

// LedgerFillResult is what FillLedger made and how fast.
type LedgerFillResult struct {
	Accounts []LedgerAccount `json:"-"`
	Rows     int             `json:"rows"`
	Workers  int             `json:"workers"`
	Confirm  bool            `json:"confirmed"`
	// Seconds is the time to create (and confirm) every transfer, each
	// durable (fsynced, group-committed) before the next of its goroutine.
	Seconds         float64 `json:"seconds"`
	RowsPerSec      float64 `json:"rows_per_s"`
	RecordsPerSec   float64 `json:"log_records_per_s"` // creates + confirms
	LogRecords      uint64  `json:"log_records"`
	LogBatches      uint64  `json:"log_batches"` // fsyncs
	RecordsPerFsync float64 `json:"records_per_fsync"`
	CPUUsPerRow     float64 `json:"cpu_us_per_row"` // this process (engine and callers)
	Cores           float64 `json:"cores"`
	CloseSeconds    float64 `json:"close_s"` // engine close (store sync)
	DataDirBytes    int64   `json:"data_dir_bytes"`
}

// ledgerSigning is the signing object of the bench's same-currency
// transfers: an erc20_transfer shaped like the one the payments desk
// builds (transfer(recipient, amount) on the token).
var ledgerSigning = []byte(`{"type":"erc20_transfer","tx":{"chainId":31337,"to":"0x5FbDB2315678afecb367f032d93F642f64180aa3",` +
	`"data":"0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000f4240","value":"0"}}`)

// ledgerCurrency is the currency of transfer j of account a: the first
// account (the export's) cycles USDC, USDT, EURC; the others alternate
// USDC and EURC, so a currency filter skips every other entry.
func ledgerCurrency(a, j int) string {
	if a == 0 {
		return []string{"USDC", "USDT", "EURC"}[j%3]
	}
	return []string{"USDC", "EURC"}[j%2]
}

// ledgerAddress is a 0x address made from n.
func ledgerAddress(n uint64) string { return fmt.Sprintf("0x%040x", n) }

// ledgerTxHash is a tx hash unique to the transfer id.
func ledgerTxHash(id string) string {
	h := sha256.Sum256([]byte(id))
	return "0x" + hex.EncodeToString(h[:])
}

// ledgerMemo is transfer j's memo; one in ten holds a comma and quotes,
// which CSV must quote.
func ledgerMemo(j int) string {
	if j%10 == 0 {
		return `invoice ` + strconv.Itoa(j) + `, "net 30"`
	}
	return "invoice " + strconv.Itoa(j)
}

// FillLedger opens an engine on a fresh data dir, creates the accounts,
// their read keys and their transfers, and closes it: fxd serve then
// finds a recovered store (and binds its chain on first start, as on any
// new data dir).
func FillLedger(ctx context.Context, c LedgerFillConfig) (*LedgerFillResult, error) {
	if len(c.Keys) != len(c.Rows) {
		return nil, errors.New("bench: ledger fill: Rows and Keys differ in length")
	}
	if c.Workers <= 0 {
		c.Workers = defaultLedgerWorkers
	}
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actors.Config{DataDir: c.DataDir, Logger: quiet, PassivateAfter: ledgerPassivateAfter})
	if err != nil {
		return nil, err
	}
	closed := false
	defer func() {
		if !closed {
			_ = e.Close()
		}
	}()
	if err := e.Recover(); err != nil {
		return nil, err
	}
	res := &LedgerFillResult{Workers: c.Workers, Confirm: c.Confirm}
	type span struct{ acct, first int }
	var spans []span
	total := 0
	for a, n := range c.Rows {
		out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: fmt.Sprintf("bench-ledger-%d", a), KYC: domain.KYCApproved, Swap: true, Pay: true})
		if err != nil {
			return nil, err
		}
		var v struct{ ID string }
		if out.Err != nil || json.Unmarshal(out.Reply.Body, &v) != nil || v.ID == "" {
			return nil, fmt.Errorf("bench: ledger fill: create account: %d %s", out.Reply.Status, out.Reply.Body)
		}
		la := LedgerAccount{ID: v.ID, Rows: n, CursorStride: max(1, (n+ledgerMaxCursorsPerAcct-1)/ledgerMaxCursorsPerAcct)}
		for range c.Keys[a] {
			pub, priv, err := ed25519.GenerateKey(rand.Reader)
			if err != nil {
				return nil, err
			}
			id := e.NewID("svc_"+e.Env()+"_", v.ID)
			out, err := e.Exec(ctx, v.ID, domain.Request{Cmd: domain.CreateKey{KeyID: id, PublicKey: pub, Scopes: domain.ScopeRead}})
			if err != nil {
				return nil, err
			}
			if out.Reply.Status != 201 {
				return nil, fmt.Errorf("bench: ledger fill: create key: %d %s", out.Reply.Status, out.Reply.Body)
			}
			la.Keys = append(la.Keys, Key{ID: id, Account: v.ID, Priv: priv})
		}
		la.Cursors = make([]string, (n+la.CursorStride-1)/la.CursorStride)
		res.Accounts = append(res.Accounts, la)
		spans = append(spans, span{acct: a, first: total})
		total += n
	}
	res.Rows = total
	idx0, batches0 := e.LastIndex(), e.LogBatches()
	source := make([]string, len(c.Rows))
	for a := range source {
		source[a] = ledgerAddress(uint64(0xfeed0000 + a))
	}
	cpu0 := cputime.Self()
	start := time.Now()
	err = parallel(total, c.Workers, "ledger transfers", c.Progress, func(i int) error {
		k := len(spans) - 1
		for spans[k].first > i {
			k--
		}
		a, j := spans[k].acct, i-spans[k].first
		la := &res.Accounts[a]
		cur := ledgerCurrency(a, j)
		id := e.NewID(domain.KindTransfer.Prefix(), la.ID)
		out, err := e.Create(ctx, id, domain.Request{Cmd: domain.CreateTransfer{
			ID: id, Account: la.ID, FromCurrency: cur, Currency: cur,
			Amount:    big.NewInt(int64(1_000_000 + (j*7919)%1_000_000_000)),
			Recipient: ledgerAddress(uint64(j + 1)), SourceWallet: source[a], Memo: ledgerMemo(j),
			Signing: ledgerSigning,
		}})
		if err != nil {
			return fmt.Errorf("create transfer: %w", err)
		}
		if out.Reply.Status != 201 {
			return fmt.Errorf("create transfer: %d %s", out.Reply.Status, out.Reply.Body)
		}
		if c.Confirm {
			out, err = e.Exec(ctx, id, domain.Request{Cmd: domain.SubmitTransferTx{TxHash: ledgerTxHash(id), Status: domain.TxVerified, LogIndex: uint64(j % 7)}})
			if err != nil {
				return fmt.Errorf("confirm transfer: %w", err)
			}
			if out.Reply.Status != 200 {
				return fmt.Errorf("confirm transfer: %d %s", out.Reply.Status, out.Reply.Body)
			}
			if err := fanOutToNobody(ctx, e, out.Events); err != nil {
				return err
			}
		}
		if j%la.CursorStride == 0 {
			la.Cursors[j/la.CursorStride] = id // distinct slots: no lock
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("bench: ledger fill: %w", err)
	}
	d := time.Since(start)
	cpu := cputime.Self() - cpu0
	res.CPUUsPerRow, res.Cores = cpu.Seconds()*1e6/float64(total), cpu.Seconds()/d.Seconds()
	res.Seconds = d.Seconds()
	res.RowsPerSec = float64(total) / d.Seconds()
	res.LogRecords, res.LogBatches = e.LastIndex()-idx0, e.LogBatches()-batches0
	res.RecordsPerSec = float64(res.LogRecords) / d.Seconds()
	if res.LogBatches > 0 {
		res.RecordsPerFsync = float64(res.LogRecords) / float64(res.LogBatches)
	}
	for a := range res.Accounts {
		// Newest first, as the ledger lists them (ids sort by creation).
		slices.SortFunc(res.Accounts[a].Cursors, func(x, y string) int { return cmp.Compare(y, x) })
	}
	t := time.Now()
	closed = true
	if err := e.Close(); err != nil {
		return res, err
	}
	res.CloseSeconds = time.Since(t).Seconds()
	res.DataDirBytes = dirSize(c.DataDir)
	return res, nil
}

// dirSize is the bytes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// ledgerKeyCount is how many read keys carry total requests within the
// per-key budget, with a margin.
func ledgerKeyCount(total int) int {
	return max(4, int(float64(total)*1.5/readBudget)+1)
}

// LedgerPhase is the ledger phase: its data, the list loads and the
// export.
type LedgerPhase struct {
	Fill *LedgerFillResult `json:"setup,omitempty"`
	// ListEntries is the length of the ledger the judged list queries page
	// through; ExportEntries that of the one exported.
	ListEntries   int `json:"list_account_entries"`
	ExportEntries int `json:"export_account_entries"`
	ListKeys      int `json:"list_keys"`
	ExportKeys    int `json:"export_account_keys"`
	// StartMs is fxd's start on the filled data dir until "listening on";
	// SettleS the wait after it until fxd's CPU use fell below 5 % of a
	// core (store compactions, first-start chain binding).
	StartMs    float64      `json:"fxd_start_to_listening_ms"`
	SettleS    float64      `json:"settle_s"`
	Recovered  *Recovered   `json:"recovered_log_line,omitempty"`
	Queries    []ListQuery  `json:"queries"`
	Runs       []ListResult `json:"runs"`
	Sequential *ListResult  `json:"list_sequential,omitempty"` // the judged queries, merged
	Concurrent *ListResult  `json:"list_concurrent,omitempty"`
	LongLedger *ListResult  `json:"list_long_ledger,omitempty"` // deep pages of the export's account
	// Export is the judged export, on the server just started; ExportAgain
	// the same after the list load (informational).
	Export      *ExportResult `json:"export,omitempty"`
	ExportAgain *ExportResult `json:"export_after_list,omitempty"`
	ExportQuery string        `json:"export_target"`
	PprofFiles  []string      `json:"pprof_files,omitempty"`
	Notes       []string      `json:"notes,omitempty"`
}

// ledgerQueries are the list queries: on the list account (judged) the
// first page, a page at a random cursor, and a filtered page at a random
// cursor; on the export's account a page at a random cursor.
func ledgerQueries(list, long *LedgerAccount) (judged []ListQuery, other ListQuery) {
	page := transactionsPath + "?limit=" + strconv.Itoa(ledgerPageLimit)
	cursor := func(a *LedgerAccount, room int) func(*mrand.Rand) string {
		// A cursor with at least room entries older than it.
		n := max(1, len(a.Cursors)-(room+a.CursorStride-1)/a.CursorStride)
		return func(rng *mrand.Rand) string { return a.Cursors[rng.IntN(n)] }
	}
	deep := cursor(list, 2*ledgerPageLimit)
	filt := cursor(list, 4*ledgerPageLimit)
	longC := cursor(long, 2*ledgerPageLimit)
	const filter = "&type=transfer&currency=USDC"
	judged = []ListQuery{
		{Name: "first page", Example: page, Want: ledgerPageLimit, Check: listCheck(ledgerPageLimit, "", ""),
			Target: func(_ *mrand.Rand, dst []byte) []byte { return append(dst, page...) }},
		{Name: "deep page", Example: page + "&starting_after=" + list.Cursors[len(list.Cursors)/2], Want: ledgerPageLimit,
			Check: listCheck(ledgerPageLimit, "", ""),
			Target: func(rng *mrand.Rand, dst []byte) []byte {
				return append(append(append(dst, page...), "&starting_after="...), deep(rng)...)
			}},
		{Name: "deep page, type+currency filter", Example: page + filter + "&starting_after=" + list.Cursors[len(list.Cursors)/2],
			Want: ledgerPageLimit, Check: listCheck(ledgerPageLimit, domain.LedgerTransfer, "USDC"),
			Target: func(rng *mrand.Rand, dst []byte) []byte {
				return append(append(append(append(dst, page...), filter...), "&starting_after="...), filt(rng)...)
			}},
	}
	other = ListQuery{Name: "deep page of the export's account", Example: page + "&starting_after=" + long.Cursors[len(long.Cursors)/2],
		Want: ledgerPageLimit, Check: listCheck(ledgerPageLimit, "", ""),
		Target: func(rng *mrand.Rand, dst []byte) []byte {
			return append(append(append(dst, page...), "&starting_after="...), longC(rng)...)
		}}
	return judged, other
}

// waitIdle waits until the process uses less than limit cores over 1 s
// windows, twice running, or until max; it returns how long it waited.
func waitIdle(pid int, limit float64, maxWait time.Duration) time.Duration {
	start := time.Now()
	calm := 0
	for time.Since(start) < maxWait && calm < 2 {
		c0, err := procCPU(pid)
		time.Sleep(time.Second)
		c1, err1 := procCPU(pid)
		if err != nil || err1 != nil {
			break
		}
		if (c1 - c0).Seconds() < limit {
			calm++
		} else {
			calm = 0
		}
	}
	return time.Since(start)
}

// saveLedgerKeys writes each account's first key as PEM and an index
// (accounts.json), so a kept data dir (-keep) can be driven by hand.
func saveLedgerKeys(dir string, accts []LedgerAccount) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	type entry struct {
		Account string `json:"account"`
		Entries int    `json:"entries"`
		KeyID   string `json:"key_id"`
		PEM     string `json:"pem"`
	}
	var idx []entry
	for _, a := range accts {
		if len(a.Keys) == 0 {
			continue
		}
		pem, err := reqsig.MarshalPrivateKeyPEM(a.Keys[0].Priv)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, a.Keys[0].ID+".pem")
		if err := os.WriteFile(path, pem, 0o600); err != nil {
			return err
		}
		idx = append(idx, entry{Account: a.ID, Entries: a.Rows, KeyID: a.Keys[0].ID, PEM: path})
	}
	b, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "accounts.json"), b, 0o600)
}

// fanOutToNobody does for the transfer.confirmed event a confirmation
// was born with what a serving fxd's webhook desk does for an account
// without endpoints: the event's fan-out record, with no deliveries.
// Without it the served data dir would hold every event as not fanned
// out, and fxd would spend the ledger phase fanning them out.
func fanOutToNobody(ctx context.Context, e *actors.Engine, events []domain.Event) error {
	for i := range events {
		w := events[i].WebhookEvent
		if w == nil || w.FannedOut {
			continue
		}
		out, err := e.Create(ctx, w.ID, domain.Request{Cmd: domain.FanOut{Event: w}})
		if err != nil {
			return fmt.Errorf("fan out %s: %w", w.ID, err)
		}
		if out.Err != nil {
			return fmt.Errorf("fan out %s: %s", w.ID, out.Err.Message)
		}
	}
	return nil
}

// fetchMemStats reads the runtime.MemStats figures ("# Name = 123") that
// fxd's admin GET /debug/pprof/heap?debug=1 ends with; with gc, after a
// GC the handler runs first (HeapAlloc is then the live heap).
func fetchMemStats(fx *FXD, gc bool) (map[string]int64, error) {
	b, err := fx.adminGet("/debug/pprof/heap?debug=1&gc=" + map[bool]string{true: "1", false: "0"}[gc])
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "# "), " = ")
		if !ok {
			continue
		}
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			out[k] = n
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if _, ok := out["TotalAlloc"]; !ok {
		return nil, errors.New("GET /debug/pprof/heap?debug=1: no MemStats")
	}
	return out, nil
}

// runLedgerPhase fills a data dir, serves it with the real binary and runs
// the list loads and the export against it. It fills ph as it goes.
func runLedgerPhase(ctx context.Context, cfg Config, dir string, ph *LedgerPhase, logw io.Writer) error {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	nReq := max(cfg.LedgerRequests, 1)
	conc := max(cfg.LedgerConns, 1)
	perRun := nReq + ledgerListWarmup
	runs := 2 // sequential and concurrent
	if cfg.LedgerPprofDir != "" {
		runs++ // a profiled repeat
	}
	// The list account's keys carry 3 queries; the export account's one
	// query and the exports.
	ph.ListKeys, ph.ExportKeys = ledgerKeyCount(3*runs*perRun), ledgerKeyCount(runs*perRun+4)
	ph.ListEntries, ph.ExportEntries = cfg.LedgerListRows, cfg.LedgerRows
	dataDir := filepath.Join(dir, "data")
	say("== ledger: %s transfers on one account (export) and %s on another (list), created through the engine in-process, %d at a time",
		commas(int64(cfg.LedgerRows)), commas(int64(cfg.LedgerListRows)), cfg.LedgerWorkers)
	fill, err := FillLedger(ctx, LedgerFillConfig{DataDir: dataDir, Rows: []int{cfg.LedgerRows, cfg.LedgerListRows},
		Keys: []int{ph.ExportKeys, ph.ListKeys}, Workers: cfg.LedgerWorkers, Confirm: true, Progress: logw})
	ph.Fill = fill
	if err != nil {
		return err
	}
	say("  %s transfers created and confirmed in %.1fs (%.0f rows/s, %.0f log records/s, %.0f records/fsync); data dir %.0f MiB",
		commas(int64(fill.Rows)), fill.Seconds, fill.RowsPerSec, fill.RecordsPerSec, fill.RecordsPerFsync, float64(fill.DataDirBytes)/(1<<20))
	long, list := &fill.Accounts[0], &fill.Accounts[1]
	if err := saveLedgerKeys(filepath.Join(dir, "keys"), fill.Accounts); err != nil {
		return err
	}

	say("== ledger: starting %s on the filled data dir", cfg.Bin)
	fx, err := StartFXD(cfg.Bin, dataDir, filepath.Join(dir, "fxd-ledger.log"))
	if err != nil {
		return err
	}
	defer func() { _ = fx.Kill() }()
	ph.StartMs = float64(fx.Ready.Microseconds()) / 1000
	if r, err := fx.RecoveredLine(); err == nil {
		ph.Recovered = r
	}
	ph.SettleS = waitIdle(fx.PID(), 0.05, time.Minute).Seconds()
	say("  fxd pid %d listening on %s after %.0f ms; idle after another %.1fs", fx.PID(), fx.Addr(), ph.StartMs, ph.SettleS)

	// The export of the long ledger with the key kept for it, first, on
	// the freshly started server: its RSS then shows what the export's
	// allocations cost a heap that has not already grown for other work.
	export := func(query string) *ExportResult {
		// A GC first, so every export starts from the same state: the
		// live heap, and a GC goal GOGC above it.
		ms0, err0 := fetchMemStats(fx, true)
		time.Sleep(200 * time.Millisecond)
		e := RunExport(ctx, fx.Addr(), long.Keys[0], exportPath+query, fx.PID(), int64(cfg.LedgerRows))
		ms1, err1 := fetchMemStats(fx, false)
		ms2, err2 := fetchMemStats(fx, true) // what stays live after it
		if err := errors.Join(err0, err1, err2); err != nil {
			ph.Notes = append(ph.Notes, fmt.Sprintf("ledger: no Go heap figures around the export: %v", err))
		} else if e.Rows > 0 {
			e.GoHeap = &ExportGoHeap{AllocBytesPerRow: float64(ms1["TotalAlloc"]-ms0["TotalAlloc"]) / float64(e.Rows),
				GCCycles: ms1["NumGC"] - ms0["NumGC"], LiveBefore: ms0["HeapAlloc"], LiveAfter: ms2["HeapAlloc"],
				NextGCBefore: ms0["NextGC"], HeapSysBefore: ms0["HeapSys"], HeapSysAfter: ms1["HeapSys"]}
		}
		say("  %s rows, %.1f MiB in %.2fs: %.0f rows/s (%.1f MiB/s); server RSS %.1f → peak %.1f MiB (+%.1f MiB); server %.2f cores, client %.2fs CPU%s",
			commas(e.Rows), float64(e.Bytes)/(1<<20), e.Seconds, e.RowsPerSec, e.MBPerSec, float64(e.RSSBeforeBytes)/(1<<20),
			float64(e.RSSPeakBytes)/(1<<20), float64(e.RSSGrowthBytes)/(1<<20), e.ServerCores, e.ClientCPUSeconds,
			map[bool]string{true: "", false: "; PROBLEM: " + e.Error}[e.Valid()])
		return e
	}
	ph.ExportQuery = exportPath
	say("== ledger: GET %s of %s entries on the fresh server, read to the end with encoding/csv", exportPath, commas(int64(cfg.LedgerRows)))
	ph.Export = export("")

	judged, other := ledgerQueries(list, long)
	ph.Queries = append(append([]ListQuery{}, judged...), other)
	listKS, longKS := NewKeySet(list.Keys, readBudget), NewKeySet(long.Keys[1:], readBudget)
	run := func(q ListQuery, ks *KeySet, c int, seed uint64) *ListResult {
		mode := "sequential"
		if c > 1 {
			mode = fmt.Sprintf("%d concurrent", c)
		}
		name := q.Name + ", " + mode
		r, err := RunList(ListLoad{Name: name, Addr: fx.Addr(), Keys: ks, Conns: c, Warmup: ledgerListWarmup, N: nReq,
			Query: q, ServerPID: fx.PID(), Seed: seed})
		if err != nil {
			ph.Notes = append(ph.Notes, err.Error())
			return nil
		}
		r.Query = q.Example
		say("  %-55s %s; %.0f req/s, server %.0f µs CPU/req%s", name, latencyText(r.Latency), r.Rate, r.ServerCPUUs,
			map[bool]string{true: "", false: "; PROBLEMS: " + r.FirstProblem}[r.Valid()])
		ph.Runs = append(ph.Runs, *r)
		return r
	}
	say("== ledger: GET /transactions?limit=%d, %d measured requests per query, sequential then %d concurrent", ledgerPageLimit, nReq, conc)
	var seq, par, longRuns []*ListResult
	for i, q := range judged {
		seq = append(seq, run(q, listKS, 1, uint64(10+i)))
	}
	for i, q := range judged {
		par = append(par, run(q, listKS, conc, uint64(20+i)))
	}
	longRuns = append(longRuns, run(other, longKS, 1, 30), run(other, longKS, conc, 31))
	ph.Sequential = MergeLists("sequential", seq...)
	ph.Concurrent = MergeLists(fmt.Sprintf("%d concurrent", conc), par...)
	ph.LongLedger = MergeLists("long ledger", longRuns...)

	// The export again, on a server whose heap the list load has grown:
	// informational.
	time.Sleep(time.Second)
	say("== ledger: the export again, after the list load")
	ph.ExportAgain = export("?_r=1")
	e := ph.ExportAgain

	if cfg.LedgerPprofDir != "" {
		stamp := time.Now().Format("20060102-150405")
		profile := func(what string, window time.Duration, load func()) {
			path, _ := filepath.Abs(filepath.Join(cfg.LedgerPprofDir, "fxd-ledger-"+what+"-"+stamp+".pprof"))
			done := make(chan error, 1)
			go func() { done <- fetchPprof(fx, window, path) }()
			time.Sleep(100 * time.Millisecond)
			load()
			if err := <-done; err != nil {
				ph.Notes = append(ph.Notes, "pprof "+what+": "+err.Error())
				return
			}
			ph.PprofFiles = append(ph.PprofFiles, path)
			say("  CPU profile of fxd over a repeated %s: %s", what, path)
		}
		if cfg.LedgerRows > 0 {
			w := time.Duration(e.Seconds*float64(time.Second)) + 2*time.Second
			profile("export", w, func() {
				r := RunExport(ctx, fx.Addr(), long.Keys[0], exportPath+"?_r=2", fx.PID(), int64(cfg.LedgerRows))
				say("  (profiled export: %.0f rows/s)", r.RowsPerSec)
			})
		}
		mean := 1.0
		if seq[1] != nil {
			mean = max(seq[1].Latency.MeanMs, 0.1)
		}
		est := time.Duration(float64(nReq+ledgerListWarmup)*mean*float64(time.Millisecond)) + time.Second
		profile("list", est, func() {
			if run(judged[1], listKS, 1, 40) != nil {
				ph.Runs = ph.Runs[:len(ph.Runs)-1] // a profiled repeat: not reported
			}
		})
	}
	if _, err := fx.Stop(30 * time.Second); err != nil {
		return fmt.Errorf("stop fxd: %w", err)
	}
	return nil
}
