package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestReplacedChainRefusesToStart: the embedded chain's dev genesis is the
// same on every start, so a data dir whose chain data was lost (or
// replaced) passes the genesis check with a new chain under it. The start
// then finds that the chain does not hold the last block the log recorded
// as processed, and refuses before the desks resume anything (which could
// relay the log's transactions again to the new chain).
func TestReplacedChainRefusesToStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := startServer(t, dir)
	srv.faucet(t, newEthKey(t).Address, "USDC", "1") // a few blocks for the watcher to process
	time.Sleep(3 * time.Second)                      // it polls every 500 ms and records its progress
	srv.Stop(t)
	dump := runCLI(t, "wal", "dump", "--data-dir", dir)
	require.Equal(t, 0, dump.Code, dump.Stderr)
	require.Contains(t, dump.Stdout, "watch_block", "the watcher recorded its progress")

	require.NoError(t, os.RemoveAll(filepath.Join(dir, "chain")))
	again := spawnServer(t, dir)
	select {
	case <-again.exited:
	case <-time.After(startDeadline):
		t.Fatalf("fxd serve on a replaced chain did not exit within %v; stderr:\n%s", startDeadline, tail(again.Stderr(), 8<<10))
	}
	require.Error(t, again.waitErr, "exit status")
	logs := again.Stderr()
	require.Contains(t, logs, "does not hold the last block this data dir processed")
	require.Contains(t, logs, "refusing to start")
	require.NotContains(t, logs, `"chain watcher started"`, "nothing resumed on the new chain")
	require.NotContains(t, logs, `"stopped on a failure"`, "refused at start, not by the running watcher")
}
