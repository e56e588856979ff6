//go:build faultinject

package faultinject

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The tagged build reads name=value pairs (run: go test -tags faultinject).
// The environment is set by the test binary's parent in TestMain-less form:
// faults() reads it once, so this test sets it before the first Lookup.
func TestOnBuildReadsPairs(t *testing.T) {
	t.Setenv(Env, " a=1, b=, c ,d=x=y")
	for name, want := range map[string]string{"a": "1", "b": "", "c": "", "d": "x=y"} {
		v, ok := Lookup(name)
		require.True(t, ok, name)
		require.Equal(t, want, v, name)
	}
	_, ok := Lookup("e")
	require.False(t, ok)
}
