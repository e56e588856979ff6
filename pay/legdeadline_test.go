package pay

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLegDeadline(t *testing.T) {
	created := time.Date(2026, 1, 1, 0, 0, 0, 400_000_000, time.UTC)
	expires := created.Add(time.Hour)
	for _, c := range []struct {
		name string
		at   time.Duration // after created
		want time.Time
	}{
		{"early: accept + 120 s", time.Minute, time.Date(2026, 1, 1, 0, 3, 0, 0, time.UTC)},
		{"fraction of a second rounds down", 10*time.Second + 700*time.Millisecond, time.Date(2026, 1, 1, 0, 2, 11, 0, time.UTC)},
		{"last minutes: capped at expires_at", 59 * time.Minute, time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)},
		{"exactly 120 s before expiry", 58 * time.Minute, time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)},
	} {
		got := legDeadline(created.Add(c.at), 120*time.Second, expires)
		require.Equal(t, c.want, got, c.name)
		require.False(t, got.After(expires), c.name)
	}
}
