package torture

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// workerGrace is how long workers may take to finish the operation they
// are in once the load phase ends, before they are cancelled.
const workerGrace = 90 * time.Second

// retrySchedule is the webhook retry schedule of the run: quick, and long
// enough (11 waits, 12 attempts) that ten failures in a row disable an
// endpoint before its schedule is spent.
const retrySchedule = "1s,1s,2s,2s,2s,3s,3s,3s,3s,3s,3s"

// Run runs one torture: setup, then the workload and the faults for
// cfg.Duration (and until cfg.MinKills kills), then the end's checks. It
// returns the summary; the error says why it failed (a broken promise of
// the service, or a run that could not go on).
func Run(ctx context.Context, cfg Config) (Summary, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Summary{}, err
	}
	if cfg.Seed == 0 {
		cfg.Seed = randomSeed()
	}
	cfg.Logf("torture: seed %d; replay: %s", cfg.Seed, replayHint(cfg.Seed))
	began := time.Now()
	h := newHarness(cfg, cfg.Seed)
	master := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x746f727475726521))
	workSeeds := rand.New(rand.NewPCG(master.Uint64(), master.Uint64()))
	faultRNG := rand.New(rand.NewPCG(master.Uint64(), master.Uint64()))
	checkRNG := rand.New(rand.NewPCG(master.Uint64(), master.Uint64()))
	flags, err := h.prepare(master.Uint64())
	defer h.closeReceivers()
	if err != nil {
		return h.summarize(began, ""), err
	}
	if h.srv, err = newServer(cfg, flags); err != nil {
		return h.summarize(began, ""), err
	}
	rctx, stopRSS := context.WithCancel(ctx)
	h.rss = newRSSSampler(h.srv, cfg.RSSLimit)
	go h.rss.run(rctx)
	defer func() { stopRSS(); _, _ = h.srv.kill() }()
	walFinal, err := h.run(ctx, workSeeds, faultRNG, checkRNG)
	s := h.summarize(began, walFinal)
	if err == nil && !s.Passed {
		err = fmt.Errorf("torture: %d failures, the first: %s", s.FailureCount, s.Failures[0])
	}
	return s, err
}

// run is Run's body once the receivers and the server are ready.
func (h *harness) run(ctx context.Context, workSeeds, faultRNG, checkRNG *rand.Rand) (string, error) {
	cfg := h.cfg
	if err := h.restart(); err != nil {
		return "", err
	}
	setupBegan := time.Now()
	if err := h.setup(ctx, workSeeds); err != nil {
		return "", fmt.Errorf("torture: setup: %w", err)
	}
	cfg.Logf("torture: %d accounts, %d workers set up in %s; load and faults for %s (at least %d kills)",
		len(h.accounts), len(h.workers), time.Since(setupBegan).Round(time.Second), cfg.Duration, cfg.MinKills)
	stop := make(chan struct{})
	wctx, cancelWorkers := context.WithCancel(ctx)
	defer cancelWorkers()
	var wg sync.WaitGroup
	for _, w := range h.workers {
		wg.Add(1)
		go func() { defer wg.Done(); w.run(wctx, stop) }()
	}
	faultErr := h.faultLoop(ctx, faultRNG, time.Now().Add(cfg.Duration))
	close(stop)
	if !waitGroup(&wg, workerGrace) {
		cfg.Logf("torture: workers still busy after %s: cancelled", workerGrace)
		cancelWorkers()
		wg.Wait()
	}
	if faultErr != nil {
		return "", faultErr
	}
	f := h.faultsSnapshot()
	cfg.Logf("torture: faults over: %d kills (%d load, %d recovery, %d flush), %d pauses; checking",
		f.Kills, f.KillsLoad, f.KillsRecovery, f.KillsFlush, f.Pauses)
	h.finalChecks(ctx, checkRNG)
	return h.stopAndVerify(ctx)
}

// finalChecks: resolve what never got an answer, let the chain work
// finish, then every check over everything.
func (h *harness) finalChecks(ctx context.Context, rng *rand.Rand) {
	h.resolve(ctx)
	h.settle(ctx)
	for _, a := range h.accounts {
		if err := h.checkLists(ctx, a, true); err != nil {
			h.fail("account %d: lists: %v", a.idx, err)
		}
	}
	h.checkReplays(ctx, h.finalReplaySample(rng.IntN))
	h.checkPaths()
	h.checkChain(ctx)
	h.checkHooks(ctx)
	h.checkContactFields(ctx)
	if _, _, over := h.rss.result(); over != "" {
		h.fail("%s", over)
	}
}

// stopAndVerify stops the server cleanly and verifies its log.
func (h *harness) stopAndVerify(ctx context.Context) (string, error) {
	if err := h.srv.stop(); err != nil {
		h.fail("%v", err)
	}
	return h.verifyWAL(ctx, false), nil
}

// prepare starts the receivers (one per behaviour) with a fresh CA and
// writes the webhook master key; it returns the serve flags.
func (h *harness) prepare(seed uint64) ([]string, error) {
	if err := os.MkdirAll(h.cfg.WorkDir, 0o700); err != nil {
		return nil, err
	}
	caFile, keyFile := filepath.Join(h.cfg.WorkDir, "webhook-ca.pem"), filepath.Join(h.cfg.WorkDir, "webhook-master.key")
	cert, err := receiverTLS(caFile)
	if err != nil {
		return nil, err
	}
	if err := writeMasterKey(keyFile); err != nil {
		return nil, err
	}
	for i, kind := range receiverKinds {
		r, err := startReceiver(kind, cert, seed+uint64(i))
		if err != nil {
			return nil, err
		}
		h.recv[kind] = r
	}
	return []string{"--webhook-allow-loopback", "--webhook-ca", caFile, "--webhook-master-key-file", keyFile,
		"--webhook-retry-schedule", retrySchedule, "--order-deadline", "40s", "--rfq-settle-timeout", "6s",
		"--passivate-after", "10s"}, nil
}

func (h *harness) closeReceivers() {
	for _, r := range h.recv {
		r.close()
	}
}

// waitGroup waits for wg up to d; false when it had to stop waiting.
func waitGroup(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// randomSeed is a non-zero seed from the system's randomness.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	if s := binary.LittleEndian.Uint64(b[:]); s != 0 {
		return s
	}
	return 1
}
