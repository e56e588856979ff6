package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/client"
)

// The memory phase runs on an fxd of its own, started with a short
// passivation so "idle past passivation" takes seconds, not minutes:
//
//  1. active: Accounts accounts, each with one key and one contact, their
//     actors in memory. Live heap after a GC and RSS, per account.
//  2. quiet: until every actor passivated and every rate-limit window of
//     step 1 expired and was swept (the baseline of step 3).
//  3. idle: IdleAccounts more accounts with one key each, created in two
//     halves, each half left idle past passivation. The second half's
//     growth, per key, is what one more passivated account costs; the
//     whole step's is that plus the high-water the tables of active
//     actors keep after a burst of activations (protoactor's process
//     registry is a Go map, which never shrinks).
//
// Every live-heap figure leaves out the log's tail segment, which the log
// library (tidwall/wal) holds in memory whole: it is bounded by the
// segment size, whatever the number of accounts, and fxd reports it
// (fxd_wal_tail_bytes); the report shows it beside.
const (
	memPassivateAfter = 10 * time.Second
	memQuiet          = 75 * time.Second // a rate-limit window, plus the server's 10 s sweep, plus margin
	memAdminParallel  = 32               // admin HTTP calls in flight while creating
	memContactPar     = 16
)

// Memory is what accounts cost in memory.
type Memory struct {
	Accounts        int     `json:"accounts"`
	RSSBeforeBytes  int64   `json:"rss_before_bytes"`
	RSSAfterBytes   int64   `json:"rss_after_bytes"`
	BytesPerAccount float64 `json:"bytes_per_account"`
	// Live heap after a GC (runtime.MemStats.HeapAlloc) less the log's
	// tail segment, before and after: what the accounts hold, without the
	// GC's headroom (GOGC multiplies it in RSS).
	HeapBeforeBytes     int64       `json:"heap_before_bytes,omitempty"`
	HeapAfterBytes      int64       `json:"heap_after_bytes,omitempty"`
	HeapBytesPerAccount float64     `json:"heap_bytes_per_account,omitempty"`
	WALTailBytes        int64       `json:"wal_tail_bytes"` // after step 1
	What                string      `json:"what"`
	PassivateAfterS     float64     `json:"passivate_after_s,omitempty"`
	Idle                *IdleMemory `json:"idle,omitempty"`
}

// IdleMemory is the cost of many accounts that are not calling: created
// with one key each, then left idle past passivation, in two halves.
type IdleMemory struct {
	Accounts     int     `json:"accounts"`
	CreatePerSec float64 `json:"created_per_s"` // accounts with their key, per second
	PeakActive   int64   `json:"peak_active_actors"`
	ActiveAfter  int64   `json:"active_actors_after"`
	// Before, Half and After are the readings before the step, after the
	// first half passivated and after the second.
	Before memPoint `json:"before"`
	Half   memPoint `json:"half"`
	After  memPoint `json:"after"`
	// HeapBytesPerKey is the second half's live-heap growth per key (one
	// more passivated account); TotalHeapBytesPerKey the whole step's, per
	// key (with the tables' high-water); RSSBytesPerKey the whole step's
	// RSS growth (after a GC) per key.
	HeapBytesPerKey      float64 `json:"heap_bytes_per_key"`
	TotalHeapBytesPerKey float64 `json:"total_heap_bytes_per_key"`
	RSSBytesPerKey       float64 `json:"rss_bytes_per_key"`
}

// runMemoryPhase starts an fxd on dir and measures active and idle
// accounts. cfg.MemPprof, if set, receives heap profiles after each step.
func runMemoryPhase(ctx context.Context, cfg Config, dir string, logw io.Writer) (*Memory, error) {
	say := func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	fx, err := StartFXD(cfg.Bin, filepath.Join(dir, "data"), filepath.Join(dir, "fxd.log"),
		"--passivate-after", memPassivateAfter.String())
	if err != nil {
		return nil, err
	}
	defer func() { _ = fx.Kill() }()
	base, err := settle(fx, 0, 0)
	if err != nil {
		return nil, err
	}
	saveHeap(fx, cfg.MemPprof, "start")
	m, err := activeAccounts(ctx, fx, cfg.MemAccounts, base, logw)
	if err != nil {
		return nil, err
	}
	m.PassivateAfterS = memPassivateAfter.Seconds()
	saveHeap(fx, cfg.MemPprof, "active")
	say("  %d active accounts: live heap %.1f KiB, RSS %.1f KiB per account (log tail %.1f MiB)", m.Accounts,
		m.HeapBytesPerAccount/1024, m.BytesPerAccount/1024, float64(m.WALTailBytes)/(1<<20))
	if cfg.MemIdleAccounts > 0 {
		say("  waiting %v for every actor to passivate and every rate-limit window to be swept", memQuiet)
		quiet, err := settle(fx, base.Active, memQuiet)
		if err != nil {
			return m, err
		}
		saveHeap(fx, cfg.MemPprof, "quiet")
		if m.Idle, err = idleAccounts(ctx, fx, cfg.MemIdleAccounts, quiet, logw); err != nil {
			return m, err
		}
		saveHeap(fx, cfg.MemPprof, "idle")
		say("  %d idle accounts: live heap %.0f B per key (with the tables' high-water %.0f B), RSS %.0f B per key",
			m.Idle.Accounts, m.Idle.HeapBytesPerKey, m.Idle.TotalHeapBytesPerKey, m.Idle.RSSBytesPerKey)
	}
	if _, err := fx.Stop(60 * time.Second); err != nil {
		return m, fmt.Errorf("stop: %w", err)
	}
	return m, nil
}

// activeAccounts creates n accounts with one key and one contact each and
// measures them while their actors are in memory.
func activeAccounts(ctx context.Context, fx *FXD, n int, base memPoint, logw io.Writer) (*Memory, error) {
	keys, err := accountsWithKeys(ctx, fx, n, "mem", logw)
	if err != nil {
		return nil, err
	}
	err = parallel(n, memContactPar, "contacts", logw, func(i int) error {
		c, err := client.New("http://"+fx.Addr(), keys[i].ID, keys[i].Priv, client.WithMaxConns(1))
		if err != nil {
			return err
		}
		defer c.CloseIdleConnections()
		r, err := c.Do(ctx, "POST", contactsPath, contactBody(nil, uint64(i)), nil)
		if err != nil {
			return err
		}
		if r.Status != 201 {
			return fmt.Errorf("POST %s: %d %s", contactsPath, r.Status, r.Body)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	now, err := measure(fx)
	if err != nil {
		return nil, err
	}
	return &Memory{Accounts: n, RSSBeforeBytes: base.RSS, RSSAfterBytes: now.RSS,
		BytesPerAccount: float64(now.RSS-base.RSS) / float64(n),
		HeapBeforeBytes: base.accounts(), HeapAfterBytes: now.accounts(), WALTailBytes: now.WALTail,
		HeapBytesPerAccount: float64(now.accounts()-base.accounts()) / float64(n),
		What:                "each with 1 key and 1 contact, actor active; RSS includes Go heap headroom"}, nil
}

// idleAccounts creates n accounts with one key each, in two halves, each
// measured once every actor passivated.
func idleAccounts(ctx context.Context, fx *FXD, n int, before memPoint, logw io.Writer) (*IdleMemory, error) {
	im := &IdleMemory{Accounts: n, Before: before}
	half := n / 2
	start := time.Now()
	for i, k := range []int{half, n - half} {
		peak, err := accountsWithKeysPeak(ctx, fx, k, fmt.Sprintf("idle%d", i), logw)
		if err != nil {
			return nil, err
		}
		im.PeakActive = max(im.PeakActive, peak)
		p, err := settle(fx, before.Active, 0)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			im.Half = p
		} else {
			im.After = p
		}
	}
	im.CreatePerSec = float64(n) / time.Since(start).Seconds() // includes the settling
	im.ActiveAfter = im.After.Active
	im.HeapBytesPerKey = float64(im.After.accounts()-im.Half.accounts()) / float64(n-half)
	im.TotalHeapBytesPerKey = float64(im.After.accounts()-before.accounts()) / float64(n)
	im.RSSBytesPerKey = float64(im.After.RSS-before.RSS) / float64(n)
	return im, nil
}

// memPoint is one reading of the server's memory.
type memPoint struct {
	RSS     int64 `json:"rss_bytes"`
	Heap    int64 `json:"heap_bytes"`     // HeapAlloc after a GC
	WALTail int64 `json:"wal_tail_bytes"` // the log's tail segment, held in memory by tidwall/wal
	Active  int64 `json:"active_actors"`
}

// accounts is the live heap less the log's tail segment.
func (p memPoint) accounts() int64 { return p.Heap - p.WALTail }

// measure forces a GC in fxd (the heap profile's gc=1) and reads its live
// heap, RSS, log tail and active actors.
func measure(fx *FXD) (memPoint, error) {
	ms, err := fetchMemStats(fx, true)
	if err != nil {
		return memPoint{}, err
	}
	rss, err := procRSS(fx.PID())
	if err != nil {
		return memPoint{}, err
	}
	g, err := gauges(fx, "fxd_active_accounts", "fxd_wal_tail_bytes")
	if err != nil {
		return memPoint{}, err
	}
	return memPoint{RSS: rss, Heap: ms["HeapAlloc"], Active: g[0], WALTail: g[1]}, nil
}

// settle waits until at most want actors are active (the rest passivated)
// and at least quiet has passed, then measures.
func settle(fx *FXD, want int64, quiet time.Duration) (memPoint, error) {
	start := time.Now()
	limit := 4*memPassivateAfter + quiet + 30*time.Second
	for {
		p, err := measure(fx)
		if err != nil {
			return p, err
		}
		if p.Active <= want && time.Since(start) >= quiet {
			time.Sleep(time.Second) // let the runtime return freed spans
			return measure(fx)
		}
		if time.Since(start) > limit {
			return p, fmt.Errorf("memory: %d actors still active after %v (want ≤ %d)", p.Active, limit, want)
		}
		time.Sleep(2 * time.Second)
	}
}

// accountsWithKeys creates n accounts named prefix-N, each with one key
// (scope pay) made here, through the admin HTTP API (what `fxd admin`
// does, without a process per call), memAdminParallel at a time.
func accountsWithKeys(ctx context.Context, fx *FXD, n int, prefix string, logw io.Writer) ([]Key, error) {
	keys := make([]Key, n)
	err := parallel(n, memAdminParallel, prefix+" accounts with a key", logw, func(i int) error {
		k, err := accountWithKey(ctx, fx, fmt.Sprintf("%s-%06d", prefix, i))
		keys[i] = k
		return err
	})
	return keys, err
}

// gauges reads unlabelled gauges from fxd's /metrics, 0 for one not there.
func gauges(fx *FXD, names ...string) ([]int64, error) {
	b, err := fx.adminGet("/metrics")
	if err != nil {
		return nil, err
	}
	samples := parseSamples(b, "")
	out := make([]int64, len(names))
	for i, name := range names {
		v, ok := samples[name]
		if !ok {
			return nil, fmt.Errorf("metric %s: not in /metrics", name)
		}
		out[i] = v
	}
	return out, nil
}

// accountsWithKeysPeak is accountsWithKeys, reporting the most actors
// active while it ran (sampled every half second).
func accountsWithKeysPeak(ctx context.Context, fx *FXD, n int, prefix string, logw io.Writer) (int64, error) {
	var peak atomic.Int64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if g, err := gauges(fx, "fxd_active_accounts"); err == nil && g[0] > peak.Load() {
					peak.Store(g[0])
				}
			}
		}
	}()
	_, err := accountsWithKeys(ctx, fx, n, prefix, logw)
	close(done)
	<-sampled
	return peak.Load(), err
}

// saveHeap writes fxd's heap profile (after a GC) to dir/heap-<what>.pprof
// when dir is set; a failure is printed, not fatal: the profile is for
// the reader, the figures are in the report.
func saveHeap(fx *FXD, dir, what string) {
	if dir == "" {
		return
	}
	b, err := fx.adminGet("/debug/pprof/heap?gc=1")
	if err == nil {
		if err = os.MkdirAll(dir, 0o755); err == nil {
			err = os.WriteFile(filepath.Join(dir, "heap-"+what+".pprof"), b, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench: heap profile %s: %v\n", what, err)
	}
}
