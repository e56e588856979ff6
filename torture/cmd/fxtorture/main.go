// Command fxtorture runs the torture harness (package torture) against an
// fxd binary: a seeded randomized workload over every write of the API,
// kill -9 at random moments (under load, during start-up recovery, during
// snapshot flushes), SIGSTOP pauses past the client deadline, hostile
// webhook receivers, and the history checks after every fault and at the
// end. It writes the summary to DIR/torture-<date>[-runN].json and prints
// a short table; it exits 1 when the run found a failure.
//
//	make torture DURATION=1h
//	go run ./torture/cmd/fxtorture -bin bin/fxd -duration 10m -out bench/results
//	go run ./torture/cmd/fxtorture -bin bin/fxd -seed 1234   # replay a seed
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fxd-labs/fxd/torture"
)

func main() {
	os.Exit(run())
}

func run() int {
	bin := flag.String("bin", "bin/fxd", "the fxd binary under test")
	duration := flag.Duration("duration", time.Hour, "load-and-faults phase (setup and the final checks come on top)")
	seed := flag.Uint64("seed", 0, "seed of every random decision; 0 picks one (printed)")
	out := flag.String("out", "bench/results", "directory of the summary JSON")
	minKills := flag.Int("min-kills", 0, "least kill -9s (default: 50, or one per 8 s of -duration if more)")
	workDir := flag.String("workdir", "", "data dir, logs and certificates (default: a temp dir, removed after a passing run)")
	accounts := flag.Int("accounts", 0, "accounts (default 3)")
	workers := flag.Int("workers", 0, "workers (keys, trading wallets) per account (default 2)")
	rssMiB := flag.Uint64("rss-mib", 1024, "bound on the server's resident memory, MiB, over the whole run")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "fxtorture: unexpected arguments %q\n", flag.Args())
		return 2
	}
	if *minKills == 0 {
		*minKills = max(50, int(*duration/(8*time.Second)))
	}
	dir, cleanup, err := workingDir(*workDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fxtorture:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
	}
	s, runErr := torture.Run(ctx, torture.Config{Bin: *bin, Seed: *seed, Duration: *duration, MinKills: *minKills,
		WorkDir: dir, Logf: logf, Accounts: *accounts, WorkersPerAccount: *workers, RSSLimit: *rssMiB << 20})
	path, err := writeSummary(*out, s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fxtorture:", err)
	}
	fmt.Print(s.Table())
	if path != "" {
		fmt.Printf("  summary: %s\n", path)
	}
	if runErr != nil {
		fmt.Fprintf(os.Stderr, "fxtorture: %v\n  work dir kept: %s\n", runErr, dir)
		return 1
	}
	cleanup()
	return 0
}

// workingDir is dir, or a fresh temp dir removed by cleanup.
func workingDir(dir string) (string, func(), error) {
	if dir != "" {
		return dir, func() {}, os.MkdirAll(dir, 0o700)
	}
	d, err := os.MkdirTemp("", "fxtorture-")
	return d, func() { _ = os.RemoveAll(d) }, err
}

// writeSummary writes s as DIR/torture-<date>.json, or -run2, -run3, …
// when that day already has one.
func writeSummary(dir string, s torture.Summary) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return "", err
	}
	date := time.Now().UTC().Format("2006-01-02")
	for n := 1; n < 1000; n++ {
		name := fmt.Sprintf("torture-%s.json", date)
		if n > 1 {
			name = fmt.Sprintf("torture-%s-run%d.json", date, n)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := f.Write(append(b, '\n')); err != nil {
			f.Close()
			return "", err
		}
		return path, f.Close()
	}
	return "", fmt.Errorf("fxtorture: no free summary name in %s", dir)
}
