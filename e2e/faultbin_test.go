package e2e

import (
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/faultinject"
	"github.com/fxd-labs/fxd/internal/repo"
)

// faultBinBuild builds, once and only when a test asks, fxd with the
// faultinject tag: the same binary plus the fault points of
// internal/faultinject, switched on through FXD_FAULTS.
var faultBinBuild = sync.OnceValues(func() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(binDir, "fxd-faults")
	build := exec.Command("go", "build", "-buildvcs=false", "-tags", "faultinject", "-o", bin, "./cmd/fxd")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string {
	return "go build -tags faultinject ./cmd/fxd: " + e.err.Error() + "\n" + e.out
}

// faultBin is the path of the faultinject build.
func faultBin(t testing.TB) string {
	t.Helper()
	bin, err := faultBinBuild()
	require.NoError(t, err)
	return bin
}

// spawnFaultServer starts the faultinject build with FXD_FAULTS=faults and
// returns at once (it may be meant to fail before it listens).
func spawnFaultServer(t testing.TB, dataDir, faults string, extraArgs ...string) *server {
	t.Helper()
	return spawnServerWith(t, spawnOpts{bin: faultBin(t), env: []string{faultinject.Env + "=" + faults}}, dataDir, extraArgs...)
}

// startFaultServer is startServer on the faultinject build.
func startFaultServer(t testing.TB, dataDir, faults string, extraArgs ...string) *server {
	t.Helper()
	s := awaitListening(t, spawnFaultServer(t, dataDir, faults, extraArgs...))
	if d := time.Until(time.Unix(s.Ready.Unix()+1, 0)); d > 0 {
		time.Sleep(d)
	}
	return s
}
