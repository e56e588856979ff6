package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/buildinfo"
)

func TestMachineCommit(t *testing.T) {
	for _, tc := range []struct {
		name          string
		m             Machine
		commit, bench string
	}{
		{"checkout only", Machine{GitCommit: "0123456789abcdef0123"}, "0123456789ab", ""},
		{"dirty checkout", Machine{GitCommit: "0123456789abcdef0123", GitDirty: true}, "0123456789ab+dirty", ""},
		{"the checkout's binary", Machine{GitCommit: "0123456789abcdef0123", GitDirty: true,
			FXD: &buildinfo.Info{Version: "0123456-dirty", Commit: "0123456789ab"}}, "0123456789ab+dirty", ""},
		{"the checkout's binary, clean", Machine{GitCommit: "0123456789abcdef0123", GitDirty: true,
			FXD: &buildinfo.Info{Version: "0123456", Commit: "0123456789ab"}}, "0123456789ab", ""},
		{"another commit's binary (A/B)", Machine{GitCommit: "0123456789abcdef0123",
			FXD: &buildinfo.Info{Version: "b3511ac", Commit: "b3511ac390ca"}}, "b3511ac390ca", "0123456789ab"},
		{"another commit's binary, dirty checkout", Machine{GitCommit: "0123456789abcdef0123", GitDirty: true,
			FXD: &buildinfo.Info{Version: "b3511ac", Commit: "b3511ac390ca"}}, "b3511ac390ca", "0123456789ab+dirty"},
		{"no git", Machine{FXD: &buildinfo.Info{Version: "v1", Commit: "b3511ac390ca"}}, "b3511ac390ca", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.commit, tc.m.Commit())
			require.Equal(t, tc.bench, tc.m.BenchCommit())
		})
	}
}

// TestMachineInfoReadsTheBinary runs a stand-in binary that answers
// `version` as fxd does, and one that does not.
func TestMachineInfoReadsTheBinary(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
		return p
	}
	ok := script("fxd", `[ "$1" = version ] && echo '{"version":"b3511ac","commit":"b3511ac390ca","go_version":"go1.26.8"}'`)
	require.Equal(t, &buildinfo.Info{Version: "b3511ac", Commit: "b3511ac390ca", GoVersion: "go1.26.8"}, MachineInfo(ok).FXD)
	plain := script("plain", `echo '{"version":"dev","commit":"unknown"}'`)
	require.Nil(t, MachineInfo(plain).FXD, "a plain go build names no commit")
	require.Nil(t, MachineInfo(script("broken", "exit 1")).FXD)
	require.Nil(t, MachineInfo("").FXD)
}
