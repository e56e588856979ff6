package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/buildinfo"
)

func TestWriteIndex(t *testing.T) {
	dir := t.TempDir()
	old := &Report{Date: "2026-01-01", Started: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		Machine: Machine{CPUModel: "AMD EPYC", NumCPU: 2, GitCommit: "0123456789abcdef"},
		Rows:    []Row{{Name: "fxd reads / floor reads", Value: "0.967", Result: "PASS"}, {Name: "quote POST /fx/quotes @ 1,000/s", Value: "p99 1.09 ms"}}}
	newer := &Report{Date: "2026-01-02", Started: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC),
		Machine:  Machine{CPUModel: "Intel|Xeon", NumCPU: 4, GitCommit: "fedcba", GitDirty: true, FXD: &buildinfo.Info{Version: "b3511ac", Commit: "b3511ac390ca"}},
		Settings: Settings{Only: "quotes"}}
	for _, r := range []*Report{newer, old} {
		_, err := r.Save(dir)
		require.NoError(t, err)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "2026-01-03.json"), []byte("{"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "torture-2026-01-04.json"), []byte(`{"seed":1}`), 0o644))
	require.NoError(t, WriteIndex(dir))
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	require.Contains(t, lines[len(lines)-3], "| 2026-01-03.json | 0001-01-01 00:00 | — | — |", "unreadable first (no start time)")
	require.Contains(t, lines[len(lines)-2], "| 2026-01-01.json | 2026-01-01 00:00 | 0123456789ab | AMD EPYC, 2 CPU | 0.967 PASS | — |")
	require.Contains(t, lines[len(lines)-2], "| p99 1.09 ms |")
	require.Contains(t, lines[len(lines)-1], "| 2026-01-02-quotes.json | 2026-01-02 00:00 | b3511ac390ca | Intel\\|Xeon, 4 CPU |", "the binary's commit, not the checkout's")
	require.NotContains(t, string(b), "torture-", "a torture summary is no bench report")
}
