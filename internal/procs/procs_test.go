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

func TestServingIgnoresLaterChanges(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	t.Setenv("GOMAXPROCS", "")

	want, fromEnv := Serving()
	require.False(t, fromEnv)
	require.Equal(t, before+1, want)
	for _, set := range []int{1, before + 1, 5} {
		runtime.GOMAXPROCS(set)
		n, _ := Serving()
		require.Equal(t, want, n, "after GOMAXPROCS(%d)", set)
		n, _ = Tune() // twice in a row is still one more than the default
		require.Equal(t, want, n)
		require.Equal(t, want, runtime.GOMAXPROCS(0))
	}
}
