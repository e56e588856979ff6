// Command fxbench is fxd's benchmark suite (`make bench`).
//
//	fxbench -bin bin/fxd -out bench/results [-quick] [-duration 10s] [-conns N] [-keys N]
//	        [-quote-rate 1000] [-accept-rate 100] [-ledger-rows 1000000] [-webhook-rate 2000]
//	        [-only quotes|ledger|webhooks]
//
// It starts the real binary on a temp data dir, creates accounts and keys
// with its CLI, and measures authenticated reads and durable writes against
// a floor server (signature check and a static answer) under the same load
// generator, plus the log writer, the rate limiter, restart time and memory
// per account, the ledger (GET /transactions and its CSV export, on a data
// dir filled in-process with a million transfers), webhook delivery (an
// HTTPS receiver in this process, one healthy and one dead endpoint on one
// account: deliveries/s and lag at a fixed offered rate of test events, and
// the drain rate of a backlog), and last the FX quote path: POST
// /fx/quotes and quote accepts, open loop at fixed offered rates. Durable
// writes are also reported against the last saved results in -out (or
// -baseline). Progress goes to stderr, the table to stdout, and the whole
// report to <out>/<YYYY-MM-DD>.json (<YYYY-MM-DD>-<only>.json with -only).
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/fxd-labs/fxd/bench"
)

func main() {
	floorServe := flag.String("floor-serve", "", "internal: serve the floor server described by this JSON file")
	bin := flag.String("bin", "bin/fxd", "fxd binary to benchmark")
	out := flag.String("out", "bench/results", "directory for <YYYY-MM-DD>.json")
	quick := flag.Bool("quick", false, "short runs (smoke test)")
	duration := flag.Duration("duration", 0, "measured window of each load phase (default 10s, -quick 2s)")
	warmup := flag.Duration("warmup", 0, "warm-up before each window (default 2s, -quick 0.5s)")
	conns := flag.Int("conns", -1, "concurrent connections (default 256; 0: sweep against the floor and pick)")
	rounds := flag.Int("rounds", 0, "rounds alternating floor and fxd per load phase (default 2, -quick 1)")
	keys := flag.Int("keys", 0, "create at least this many fxd keys (0: as many as the floor's rates need)")
	maxKeys := flag.Int("max-keys", 0, "create at most this many fxd keys (default 20000)")
	gen := flag.String("gen", bench.GenRaw, "load generator: raw (reqsig + fasthttp, reused requests) or sdk (client.Client.Do)")
	walG := flag.Int("wal-goroutines", 0, "goroutines appending to the log (default 1024)")
	walD := flag.Duration("wal-duration", 0, "log writer window (default 5s, -quick 1s)")
	memAccounts := flag.Int("mem-accounts", -1, "memory phase: active accounts with a key and a contact (default 2000, -quick 100; 0 skips the phase)")
	memIdle := flag.Int("mem-idle-accounts", -1, "memory phase: accounts with a key left idle past passivation (default 100000, -quick 2000; 0 skips)")
	memPprof := flag.String("mem-pprof", "", "memory phase: save fxd's heap profiles (after a GC) after each step into this directory")
	cliPar := flag.Int("cli-parallel", 0, "concurrent `fxd admin` processes during setup (default 12)")
	inproc := flag.Bool("floor-inprocess", false, "run the floor in this process instead of its own")
	perfDir := flag.String("perf", "", "record a perf profile of each server during each load window into this directory")
	keep := flag.Bool("keep", false, "keep the temp data dir")
	strict := flag.Bool("strict", false, "exit 2 when a target is missed or a phase is invalid")
	quoteRate := flag.Int("quote-rate", -1, "POST /fx/quotes offered per second, open loop (default 1000, -quick 100; 0 skips the FX phase)")
	acceptRate := flag.Int("accept-rate", -1, "quote accepts offered per second, open loop (default 100, -quick 20; 0 skips them)")
	quoteInFlight := flag.Int("quote-inflight", 0, "most FX requests waiting for their time or in flight (default 256)")
	quotePprof := flag.String("quote-pprof", "", "save a CPU profile of fxd (admin pprof) over the quote window into this directory")
	only := flag.String("only", "", "run only these phases: quotes (the FX quote phase on a fresh fxd), ledger (the ledger phase), webhooks (the webhook delivery phase on a fresh fxd) wal (the in-process log writer), memory (the memory phase on a fresh fxd) or cluster (the cluster phase)")
	webhookRate := flag.Int("webhook-rate", -1, "webhook phase: POST /webhooks/{id}/test offered per second, open loop (default 2000, -quick 500; 0 skips the phase)")
	webhookDrain := flag.Int("webhook-drain", -1, "webhook phase: tests in the backlog drained after the open loop (default 10000, -quick 2000; 0 skips the drain)")
	webhookDead := flag.Int("webhook-dead-pending", -1, "webhook phase: tests left pending on the dead endpoint (default 200, -quick 50)")
	webhookWrites := flag.Bool("webhook-writes", true, "with -only webhooks: also run the durable write load (POST /contacts) on the phase's fxd, for the comparison with the last saved results")
	webhookPprof := flag.String("webhook-pprof", "", "webhook phase: save CPU profiles of fxd (admin pprof) over the open loop's window and the drain into this directory")
	webhookSchedule := flag.String("webhook-retry-schedule", "", "webhook phase: fxd's --webhook-retry-schedule (default 12 × 1s; \"default\": the server's own, 10s,1m,…)")
	baseline := flag.String("baseline", "", "report durable writes against this saved report (default: the newest full report in -out)")
	ledgerRows := flag.Int("ledger-rows", -1, "ledger phase: transfers on the exported account (default 1000000, -quick 100000; 0 skips the phase)")
	ledgerListRows := flag.Int("ledger-list-rows", 0, "ledger phase: transfers on the account the list queries page (default 100000, -quick 20000)")
	ledgerRequests := flag.Int("ledger-requests", 0, "ledger phase: measured GET /transactions per query and concurrency (default 2000, -quick 300)")
	ledgerConns := flag.Int("ledger-conns", 0, "ledger phase: concurrency of the concurrent list runs (default 4)")
	ledgerWorkers := flag.Int("ledger-workers", 0, "ledger phase: goroutines creating transfers in-process (default 256)")
	ledgerPprof := flag.String("ledger-pprof", "", "ledger phase: save CPU profiles of fxd (admin pprof) over a repeated export and list run into this directory")
	clusterNodes := flag.Int("cluster-nodes", -1, "cluster phase: `fxd serve --cluster-*` nodes on this machine against a single node (default 3; 0 skips the phase)")
	flag.Parse()

	if *floorServe != "" {
		if err := bench.FloorMain(*floorServe); err != nil {
			fmt.Fprintln(os.Stderr, "fxbench floor:", err)
			os.Exit(1)
		}
		return
	}

	cfg := bench.DefaultConfig(*quick)
	cfg.Bin, cfg.Gen, cfg.Keys, cfg.PerfDir, cfg.KeepData = *bin, *gen, *keys, *perfDir, *keep
	if *conns >= 0 {
		cfg.Conns = *conns
	}
	if *rounds > 0 {
		cfg.Rounds = *rounds
	}
	cfg.Log = os.Stderr
	setDur(&cfg.Duration, *duration)
	setDur(&cfg.Warmup, *warmup)
	setDur(&cfg.WALDuration, *walD)
	if *maxKeys > 0 {
		cfg.MaxKeys = *maxKeys
	}
	if *walG > 0 {
		cfg.WALGoroutines = *walG
	}
	if *memAccounts >= 0 {
		cfg.MemAccounts = *memAccounts
	}
	if *memIdle >= 0 {
		cfg.MemIdleAccounts = *memIdle
	}
	cfg.MemPprof = *memPprof
	if *cliPar > 0 {
		cfg.CLIParallel = *cliPar
	}
	if *quoteRate >= 0 {
		cfg.QuoteRate = *quoteRate
	}
	if *acceptRate >= 0 {
		cfg.AcceptRate = *acceptRate
	}
	if *quoteInFlight > 0 {
		cfg.QuoteInFlight = *quoteInFlight
	}
	cfg.QuotePprofDir, cfg.Only = *quotePprof, *only
	if *ledgerRows >= 0 {
		cfg.LedgerRows = *ledgerRows
	}
	if *ledgerListRows > 0 {
		cfg.LedgerListRows = *ledgerListRows
	}
	if *ledgerRequests > 0 {
		cfg.LedgerRequests = *ledgerRequests
	}
	if *ledgerConns > 0 {
		cfg.LedgerConns = *ledgerConns
	}
	if *ledgerWorkers > 0 {
		cfg.LedgerWorkers = *ledgerWorkers
	}
	cfg.LedgerPprofDir = *ledgerPprof
	if *clusterNodes >= 0 {
		cfg.ClusterNodes = *clusterNodes
	}
	if *webhookRate >= 0 {
		cfg.WebhookRate = *webhookRate
	}
	if *webhookDrain >= 0 {
		cfg.WebhookDrain = *webhookDrain
	}
	if *webhookDead >= 0 {
		cfg.WebhookDeadPile = *webhookDead
	}
	cfg.WebhookWrites, cfg.WebhookPprofDir, cfg.WebhookSchedule = *webhookWrites, *webhookPprof, *webhookSchedule
	// The last saved results, read before this run saves its own.
	if *baseline != "" {
		b, err := bench.LoadBaselineFile(*baseline)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fxbench: -baseline:", err)
			os.Exit(1)
		}
		cfg.Baseline = b
	} else if b, err := bench.LoadBaseline(*out); err == nil && b != nil {
		cfg.Baseline = b
	}
	if !*inproc {
		exe, err := os.Executable()
		if err != nil {
			fmt.Fprintln(os.Stderr, "fxbench:", err)
			os.Exit(1)
		}
		cfg.FloorExe = exe
	}

	rep, err := bench.Run(cfg)
	if rep != nil {
		fmt.Println()
		rep.PrintTable(os.Stdout)
		if path, serr := rep.Save(*out); serr != nil {
			fmt.Fprintln(os.Stderr, "fxbench: save:", serr)
		} else {
			fmt.Fprintln(os.Stderr, "fxbench: report saved to", path)
			if ierr := bench.WriteIndex(*out); ierr != nil {
				fmt.Fprintln(os.Stderr, "fxbench: index:", ierr)
			}
		}
		for _, p := range rep.Profiles {
			fmt.Printf("\nperf profile of the server, %s (%s):\n", p.Phase, p.File)
			for _, s := range p.Shares {
				if s.Percent >= 0.5 {
					fmt.Printf("  %5.1f%%  %s\n", s.Percent, s.Category)
				}
			}
			fmt.Println("  hottest symbols (self):")
			for _, l := range p.Top[:min(len(p.Top), 12)] {
				fmt.Println("    " + l)
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fxbench:", err)
		os.Exit(1)
	}
	if *strict {
		for _, r := range rep.Rows {
			if r.Result == "FAIL" || r.Result == "INVALID" {
				os.Exit(2)
			}
		}
	}
}

func setDur(dst *time.Duration, v time.Duration) {
	if v > 0 {
		*dst = v
	}
}
