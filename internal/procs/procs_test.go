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

	// Serving (and so Tune) is one more than the default however the
	// process set GOMAXPROCS since: Tune twice in a row is not two more.
	for _, set := range []int{1, before + 1, 5} {
		runtime.GOMAXPROCS(set)
		n, _ = Serving()
		require.Equal(t, before+1, n, "after GOMAXPROCS(%d)", set)
		require.Equal(t, set, runtime.GOMAXPROCS(0), "Serving changes nothing")
		n, _ = Tune()
		require.Equal(t, before+1, n)
		require.Equal(t, before+1, runtime.GOMAXPROCS(0))
	}

	runtime.GOMAXPROCS(before)
	t.Setenv("GOMAXPROCS", "7")
	n, fromEnv = Tune()
	require.True(t, fromEnv)
	require.Equal(t, before, n, "an operator's GOMAXPROCS is left alone")
	require.Equal(t, before, runtime.GOMAXPROCS(0))
}
