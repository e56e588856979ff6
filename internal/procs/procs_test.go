package procs

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTune(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })

	t.Setenv("GOMAXPROCS", "")
	n, fromEnv := Tune()
	require.False(t, fromEnv)
	require.Equal(t, before+1, n)
	require.Equal(t, before+1, runtime.GOMAXPROCS(0))

	runtime.GOMAXPROCS(before)
	t.Setenv("GOMAXPROCS", "7")
	n, fromEnv = Tune()
	require.True(t, fromEnv)
	require.Equal(t, before, n, "an operator's GOMAXPROCS is left alone")
	require.Equal(t, before, runtime.GOMAXPROCS(0))
}
