package domain

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAttemptCursor: the cursor a deliveries page cut inside a delivery
// hands out reads back; anything else is not that form.
func TestAttemptCursor(t *testing.T) {
	id, n, ok := SplitAttemptCursor(AttemptCursor("dlv_1", 3))
	require.True(t, ok)
	require.Equal(t, "dlv_1", id)
	require.Equal(t, 3, n)
	for _, s := range []string{"dlv_1", "dlv_1:", "dlv_1:0", "dlv_1:-1", "dlv_1:01", "dlv_1:+1", "dlv_1:x", ":1", ""} {
		_, _, ok := SplitAttemptCursor(s)
		require.False(t, ok, "%q", s)
	}
	id, n, ok = SplitAttemptCursor("a:b:2")
	require.True(t, ok, "the last colon splits")
	require.Equal(t, "a:b", id)
	require.Equal(t, 2, n)
}
