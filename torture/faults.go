package torture

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"time"
)

// Fault kinds, drawn from the run's seed.
const (
	faultKillLoad     = "kill_load"     // kill -9 at a random moment of the load
	faultKillRecovery = "kill_recovery" // kill -9, and again during the next start's recovery
	faultKillFlush    = "kill_flush"    // kill -9 the moment a snapshot flush writes its sstable
	faultPause        = "pause"         // SIGSTOP past the client deadline, then SIGCONT
)

// faultMix is the weight of each kind.
var faultMix = []struct {
	kind   string
	weight int
}{{faultKillLoad, 50}, {faultKillRecovery, 18}, {faultKillFlush, 18}, {faultPause, 14}}

// Fault timing.
const (
	minGap    = 300 * time.Millisecond
	flushWait = 12 * time.Second // a flush comes every 5 s under writes
)

// faultStats counts what the scheduler did.
type faultStats struct {
	Kills          int           `json:"kills"`
	KillsLoad      int           `json:"kills_at_load"`
	KillsRecovery  int           `json:"kills_during_recovery"`
	KillsFlush     int           `json:"kills_during_flush"`
	FlushFallbacks int           `json:"flush_waits_without_flush"`
	Pauses         int           `json:"pauses"`
	Paused         time.Duration `json:"paused_ns"`
	Starts         int           `json:"starts"`
	SlowestStart   time.Duration `json:"slowest_start_ns"`
	WALVerifies    int           `json:"wal_verifies"`
	WALFailures    int           `json:"wal_verify_failures"`
	WALTornTails   int           `json:"wal_torn_tails"`
}

func pickFault(rng *rand.Rand) string {
	total := 0
	for _, f := range faultMix {
		total += f.weight
	}
	n := rng.IntN(total)
	for _, f := range faultMix {
		if n < f.weight {
			return f.kind
		}
		n -= f.weight
	}
	return faultKillLoad
}

// faultLoop injects faults until loadEnd and at least MinKills kills,
// spreading the kills over the phase, and checks after every one. The
// kinds and the relative moments come from rng (the seed); the absolute
// gaps also depend on how long restarts take here.
func (h *harness) faultLoop(ctx context.Context, rng *rand.Rand, loadEnd time.Time) error {
	overhead := 3 * time.Second // a restart and its checks; learnt as the run goes
	// Every kind comes once early (in an order of the seed's), so even a
	// short run has them all; then they are drawn by weight.
	var first []string
	for _, f := range faultMix {
		first = append(first, f.kind)
	}
	rng.Shuffle(len(first), func(i, j int) { first[i], first[j] = first[j], first[i] })
	for n := 0; ctx.Err() == nil; n++ {
		kills := h.faultsSnapshot().Kills
		need := max(0, h.cfg.MinKills-kills)
		left := time.Until(loadEnd)
		if left <= 0 && need == 0 {
			return nil
		}
		kind, frac := pickFault(rng), 0.5+rng.Float64()
		if n < len(first) {
			kind = first[n]
		}
		gap := minGap
		switch {
		case left > 0 && need > 0:
			gap = max(minGap, time.Duration(float64(left/time.Duration(need+1)-overhead)*frac))
		case left > 0:
			gap = time.Duration(float64(4*time.Second) * frac)
		}
		sleep(ctx, gap)
		began := time.Now()
		if err := h.inject(ctx, kind, rng); err != nil {
			return err
		}
		injected := time.Since(began)
		h.checkAfterFault(ctx, rng)
		f := h.faultsSnapshot()
		h.cfg.Logf("torture: fault %d %s after %s: back in %s, checked in %s (kills %d: %d load, %d recovery, %d flush; pauses %d)",
			n+1, kind, gap.Round(time.Millisecond), injected.Round(time.Millisecond), (time.Since(began) - injected).Round(time.Millisecond),
			f.Kills, f.KillsLoad, f.KillsRecovery, f.KillsFlush, f.Pauses)
		overhead = (overhead*3 + time.Since(began)) / 4
	}
	return ctx.Err()
}

// inject runs one fault and brings the server back.
func (h *harness) inject(ctx context.Context, kind string, rng *rand.Rand) error {
	switch kind {
	case faultPause:
		d := h.cfg.ClientTimeout + time.Second + time.Duration(rng.IntN(2000))*time.Millisecond
		if err := h.srv.pause(ctx, d); err != nil {
			return err
		}
		h.count(func(f *faultStats) { f.Pauses++; f.Paused += d })
		return nil
	case faultKillFlush:
		if err := h.killAtFlush(ctx); err != nil {
			return err
		}
	default:
		if err := h.killNow(); err != nil {
			return err
		}
	}
	h.verifyWAL(ctx, true)
	if kind == faultKillRecovery {
		if err := h.killInRecovery(rng); err != nil {
			return err
		}
	}
	return h.restart()
}

func (h *harness) count(f func(*faultStats)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(&h.faults)
}

func (h *harness) faultsSnapshot() faultStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.faults
}

// killNow kills the server wherever it is.
func (h *harness) killNow() error {
	serving, err := h.srv.kill()
	if err != nil {
		return err
	}
	h.count(func(f *faultStats) {
		f.Kills++
		if serving {
			f.KillsLoad++
		} else {
			f.KillsRecovery++
		}
	})
	return nil
}

// killAtFlush kills the server the moment a new sstable appears in the
// snapshot store's directory (see flushwatch.go); without one within
// flushWait it kills it anyway, as a kill at load.
func (h *harness) killAtFlush(ctx context.Context) error {
	w, err := watchSST(filepath.Join(h.srv.dataDir, "state"))
	if err != nil {
		return err
	}
	defer w.Close()
	select {
	case <-w.Created():
		if _, err := h.srv.kill(); err != nil {
			return err
		}
		h.count(func(f *faultStats) { f.Kills++; f.KillsFlush++ })
		return nil
	case <-time.After(flushWait):
		h.count(func(f *faultStats) { f.FlushFallbacks++ })
	case <-ctx.Done():
	}
	return h.killNow()
}

// killInRecovery starts the server and kills it again within the time a
// start took last (so mostly while it replays the log, before it
// listens).
func (h *harness) killInRecovery(rng *rand.Rand) error {
	if _, _, err := h.srv.spawn(); err != nil {
		return err
	}
	took := h.srv.startTook()
	time.Sleep(time.Duration(rng.Int64N(int64(took) + 1)))
	return h.killNow()
}

// restart starts the next generation and waits until it serves.
func (h *harness) restart() error {
	began := time.Now()
	if err := h.srv.start(); err != nil {
		return err
	}
	took := time.Since(began)
	h.count(func(f *faultStats) {
		f.Starts++
		f.SlowestStart = max(f.SlowestStart, took)
	})
	return nil
}
