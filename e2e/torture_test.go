package e2e

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/torture"
)

// The CI budget of the torture run: the load-and-faults phase, the kills
// it must reach (the phase runs on until it has them), and the deadline
// of the whole run (setup and the final checks included).
const (
	tortureCIDuration = 3 * time.Minute
	tortureCIKills    = 50
	tortureCIDeadline = 10 * time.Minute
	// tortureCISettle bounds the end's wait for chain work (orders expire
	// after 40 s, refunds follow a 6 s window), so a stuck record fails
	// the run within the budget.
	tortureCISettle = 2 * time.Minute
)

// TestTortureCI runs the torture harness (package torture) against the
// binary under test, CI-sized: a seeded random workload over every write
// of the API on several accounts at once, at least 50 kill -9s (at load,
// during start-up recovery, during snapshot flushes), SIGSTOP pauses past
// the client deadline and hostile webhook receivers, with the history
// checked after every fault and at the end. FXD_TORTURE_SEED=<n> replays
// a seed (the failure message names it).
func TestTortureCI(t *testing.T) {
	t.Parallel()
	var seed uint64
	if s := os.Getenv("FXD_TORTURE_SEED"); s != "" {
		var err error
		seed, err = strconv.ParseUint(s, 10, 64)
		require.NoError(t, err, "FXD_TORTURE_SEED")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), tortureCIDeadline)
	defer cancel()
	s, err := torture.Run(ctx, torture.Config{Bin: fxdBin, Seed: seed, Duration: tortureCIDuration,
		MinKills: tortureCIKills, WorkDir: dir, Logf: t.Logf, SettleTimeout: tortureCISettle})
	t.Logf("\n%s", s.Table())
	if err != nil {
		logServerTail(t, dir)
	}
	require.NoError(t, err, "replay: %s", s.Replay)
	f := s.Faults
	require.GreaterOrEqual(t, f.Kills, tortureCIKills)
	require.Positive(t, f.KillsLoad, "kills at load")
	require.Positive(t, f.KillsRecovery, "kills during recovery")
	require.Positive(t, f.KillsFlush, "kills during a snapshot flush")
	require.Positive(t, f.Pauses, "pauses")
	for _, r := range s.Receivers {
		require.Positive(t, r.Requests, "deliveries to the %s receiver", r.Kind)
	}
	require.Positive(t, s.Checks.AckedChecked)
	require.Positive(t, s.Checks.ReplaysIdentical)
	require.Positive(t, s.Checks.Deliveries)
	require.Positive(t, s.Checks.Balances)
}

// logServerTail logs the end of the last server log of a failed run.
func logServerTail(t *testing.T, workDir string) {
	logs, _ := filepath.Glob(filepath.Join(workDir, "logs", "fxd-*.log"))
	if len(logs) == 0 {
		return
	}
	sort.Strings(logs)
	b, err := os.ReadFile(logs[len(logs)-1])
	if err == nil {
		t.Logf("%s, last 8 KiB:\n%s", logs[len(logs)-1], tail(string(b), 8<<10))
	}
}
