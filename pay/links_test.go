package pay

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseFuture(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want string // "" for a 400
	}{
		{"2026-11-30T12:00:01Z", "2026-11-30T12:00:01Z"},
		{"2026-11-30T13:00:01+01:00", "2026-11-30T12:00:01Z"}, // shown in UTC
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"},
		{"2026-11-30T12:00:01.999Z", "2026-11-30T12:00:01Z"}, // applied as shown
		{"2026-11-30T12:00:00Z", ""},                         // not after now
		{"2026-11-30T12:00:00.9Z", ""},                       // whole seconds: not after now
		{"2026-11-30T9:00:00-05:00", ""},                     // one-digit hour: time.Parse takes it
		{"9999-12-31T23:00:00-01:00", ""},                    // year 10000 in UTC, which no RFC 3339 text shows
		{"tomorrow", ""},
	} {
		got, err := parseFuture("expires_at", tc.in, now)
		if tc.want == "" {
			require.NotNil(t, err, tc.in)
			require.Equal(t, 400, err.Status)
			continue
		}
		require.Nil(t, err, tc.in)
		require.Equal(t, tc.want, got.Format(time.RFC3339Nano))
	}
}
