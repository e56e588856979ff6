package faultinject

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// In the normal build (the one `make test` runs) no fault is ever set,
// whatever the environment says.
func TestOffBuildSeesNoFault(t *testing.T) {
	if Enabled {
		t.Skip("built with -tags faultinject: the on-build test covers it")
	}
	t.Setenv(Env, "wal-write-enospc-after=1")
	_, ok := Lookup("wal-write-enospc-after")
	require.False(t, ok)
}
