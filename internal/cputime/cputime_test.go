package cputime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSelfGrows: spinning for a while shows up as CPU time.
func TestSelfGrows(t *testing.T) {
	before := Self()
	require.Positive(t, before)
	x := uint64(1)
	for Self() == before {
		for i := 0; i < 1_000_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	require.NotZero(t, x)
	require.Greater(t, Self(), before)
}
