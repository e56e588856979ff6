package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/internal/repo"
	"github.com/fxd-labs/fxd/reqsig"
)

// exampleDeadline bounds one run of an example (or one build of it).
const exampleDeadline = 5 * time.Minute

// TestExamplesFirstTrade runs the two runnable examples, the Go program
// (examples/go/firsttrade) and the ethers script
// (examples/ethers/first-trade.mjs), to the end against the real binary
// set up as `make run` sets it up: a demo account and key whose files are
// in the data dir, found there by the examples' defaults. Both run on the
// one account, one after the other, as a user running `make example` and
// then the script would: the second links a second, non-primary wallet.
// Each must exit 0 and print every step in order, ending with its five
// ledger entries in their end states, which the API must confirm.
func TestExamplesFirstTrade(t *testing.T) {
	t.Parallel()
	root := repo.MustRoot(t)
	ethersDir := examplesEthersDir(t, root)
	goBin := buildGoExample(t, root)
	dir := t.TempDir()
	srv := startServer(t, dir)
	demo := makeRunDemoKey(t, srv)
	// The test reads with a key of its own: a request it signed with the
	// demo key in the second an example starts could be the example's
	// first request signed twice (a replay, across processes).
	check := srv.client(t, srv.createKey(t, demo.Account, "read"))
	args := []string{"--data-dir", dir, "--base-url", srv.BaseURL, "--rpc-url", srv.chainRPC(t)}

	t.Run("go", func(t *testing.T) {
		out := runExample(t, root, goBin, args...)
		requireExampleRun(t, check, out, true)
	})
	t.Run("ethers", func(t *testing.T) {
		out := runExample(t, root, "node", append([]string{filepath.Join(ethersDir, "first-trade.mjs")}, args...)...)
		requireExampleRun(t, check, out, false)
	})
}

// makeRunDemoKey does what scripts/run.sh does on a fresh data dir: an
// account "Demo account", a key with every scope whose PEM is
// <data-dir>/demo.pem, and the CLI's answer saved as <data-dir>/demo.json.
func makeRunDemoKey(t *testing.T, srv *server) apiKey {
	t.Helper()
	acct := srv.createAccount(t, "Demo account")
	pemFile := filepath.Join(srv.DataDir, "demo.pem")
	res := runCLI(t, "admin", "keys", "create", "--data-dir", srv.DataDir, "--account", acct,
		"--scopes", "read,trade,pay,wallets,webhooks", "--out", pemFile)
	require.Equal(t, 0, res.Code, "keys create: %s", res.Stderr)
	out := jsonLine(t, res.Stdout)
	require.NoError(t, os.WriteFile(filepath.Join(srv.DataDir, "demo.json"), []byte(res.Stdout), 0o600))
	pemBytes, err := os.ReadFile(pemFile)
	require.NoError(t, err)
	k := apiKey{Account: acct, File: pemFile}
	k.ID, _ = out["key_id"].(string)
	k.Priv, err = reqsig.ParsePrivateKeyPEM(pemBytes)
	require.NoError(t, err)
	return k
}

// buildGoExample compiles examples/go/firsttrade once, so the run's
// deadline is the run's.
func buildGoExample(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "firsttrade")
	ctx, cancel := context.WithTimeout(context.Background(), exampleDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-buildvcs=false", "-o", bin, "./examples/go/firsttrade")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go build ./examples/go/firsttrade:\n%s", out)
	return bin
}

// runExample runs one example to completion from the repository root and
// requires exit status 0; it returns stdout.
func runExample(t *testing.T, root, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), exampleDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = root
	cmd.Env = cleanEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	require.NoError(t, err, "%s %s\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), stdout.String(), stderr.String())
	t.Logf("%s:\n%s", filepath.Base(name), stdout.String())
	return stdout.String()
}

// exampleSteps are the first words of an example's lines, in order.
var exampleSteps = []string{"service", "wallet", "siwe", "faucet", "permit2", "fx-amm", "fx-rfq", "transfer", "transfer", "link",
	"ledger", "ledger", "ledger", "ledger", "ledger", "done"}

// recordID matches the ids of the records an example makes.
var recordID = regexp.MustCompile(`\b(?:ord|tr|pl)_[0-9A-Z]+\b`)

// requireExampleRun checks one example's output: every step in order, one
// ledger line per record it made (fx_amm and fx_rfq settled, two
// transfers confirmed, the link paid), each as the API has it, and its
// wallet linked to the account (the primary one if it was the first).
func requireExampleRun(t *testing.T, c *client.Client, out string, primary bool) {
	t.Helper()
	lines := scanLines(out)
	var steps []string
	for _, l := range lines {
		steps = append(steps, strings.Fields(l)[0])
	}
	require.Equal(t, exampleSteps, steps, "the steps, in order")

	ledger := map[string]client.Transaction{}
	for e, err := range c.AllTransactions(context.Background(), client.TransactionListParams{ListParams: client.ListParams{Limit: 200}}) {
		require.NoError(t, err)
		ledger[e.ReferenceID] = e
	}
	printed := map[string]bool{}
	var kinds []string
	for _, l := range lines {
		f := strings.Fields(l)
		if f[0] != "ledger" {
			for _, id := range recordID.FindAllString(l, -1) {
				printed[id] = true
			}
			continue
		}
		// ledger <type> <state> <amount_in> <from> -> <amount_out> <to> <reference_id>
		require.Len(t, f, 9, "ledger line %q", l)
		e, ok := ledger[f[8]]
		require.True(t, ok, "ledger line %q: no such entry in GET /transactions", l)
		out := "-" // the example's mark for an amount_out not known yet
		if e.AmountOut != nil {
			out = *e.AmountOut
		}
		require.Equal(t, []string{e.Type, e.State, e.AmountIn, e.FromCurrency, "->", out, e.ToCurrency},
			f[1:8], "ledger line %q against the API's entry", l)
		require.True(t, printed[f[8]], "ledger entry %s was not printed by an earlier step", f[8])
		kinds = append(kinds, e.Type+" "+e.State)
	}
	require.ElementsMatch(t, []string{"fx_amm settled", "fx_rfq settled", "transfer confirmed", "transfer confirmed", "payment_link paid"}, kinds)
	require.Len(t, printed, 5, "five records made: %v", printed)

	wallet := strings.Fields(lines[1])[1]
	acct, err := c.GetAccount(context.Background())
	require.NoError(t, err)
	linked := map[string]bool{}
	for _, w := range acct.Wallets {
		linked[w.Address] = w.Primary
	}
	isPrimary, ok := linked[wallet]
	require.True(t, ok, "the example's wallet %s is linked to the account: %v", wallet, linked)
	require.Equal(t, primary, isPrimary, "wallet %s primary", wallet)
}

// examplesEthersDir returns examples/ethers with its node_modules
// installed (npm ci from its lock file, once per test binary).
var (
	ethersOnce sync.Once
	ethersErr  error
)

func examplesEthersDir(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, "examples", "ethers")
	ethersOnce.Do(func() { ethersErr = npmCI(dir, "ethers/package.json") })
	if ethersErr != nil {
		t.Fatalf("examples/ethers: %v", ethersErr)
	}
	return dir
}

// npmCI installs dir's package-lock.json with `npm ci` unless
// node_modules already holds every file of want; node must be there to
// run the scripts. (e2e/js is installed the same way by jsDir.)
func npmCI(dir string, want ...string) error {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Errorf("node is required: %w", err)
	}
	installed := func() bool {
		for _, p := range want {
			if _, err := os.Stat(filepath.Join(dir, "node_modules", p)); err != nil {
				return false
			}
		}
		return true
	}
	if installed() {
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("npm is required to install %s: %w", dir, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), exampleDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if !installed() {
		return errors.New("npm ci in " + dir + " did not install " + strings.Join(want, ", "))
	}
	return nil
}
