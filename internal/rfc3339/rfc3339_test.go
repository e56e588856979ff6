package rfc3339

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // RFC3339Nano in UTC; "" for a refusal
	}{
		{"2026-11-30T03:04:05Z", "2026-11-30T03:04:05Z"},
		{"2026-11-30T03:04:05.123456789Z", "2026-11-30T03:04:05.123456789Z"},
		{"2026-11-30T03:04:05+01:00", "2026-11-30T02:04:05Z"},
		{"2026-11-30T03:04:05-05:30", "2026-11-30T08:34:05Z"},
		{"0000-01-01T00:00:00Z", "0000-01-01T00:00:00Z"},
		{"9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"},
		{"2026-11-30t03:04:05z", "2026-11-30T03:04:05Z"}, // section 5.6's note
		{"2026-11-30t03:04:05.5+01:00", "2026-11-30T02:04:05.5Z"},
		{"2026-11-30T03:04:05z", "2026-11-30T03:04:05Z"},
		// time.Parse takes these; RFC 3339 does not.
		{"2026-11-30T3:04:05Z", ""},
		{"0000-01-01T0:00:00+01:00", ""},
		// Valid text whose instant is outside 0000..9999 in UTC.
		{"0000-01-01T00:00:00+01:00", ""},
		{"9999-12-31T23:00:00-01:00", ""},
		// Plainly wrong.
		{"", ""},
		{"2026-11-30", ""},
		{"2026-11-30T03:04:05", ""},
		{"2026-11-30 03:04:05Z", ""},
		{"2026-11-30x03:04:05Z", ""},
		{"2026-11-30T03:04:05x", ""},
		{"2026-11-30T03:04:05+01:0z", ""},
		{"2026-11-30T03:04:05+0100", ""},
		{"2026-13-30T03:04:05Z", ""},
		{"2026-11-30T24:00:00Z", ""},
		{"２026-11-30T03:04:05Z", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := Parse(tc.in)
			if tc.want == "" {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got.Format(time.RFC3339Nano))
			require.Equal(t, time.UTC, got.Location())
		})
	}
}

// Every time Parse accepts prints as RFC 3339 in UTC, and that text reads
// back as the same instant: what fxd shows and signs can be read again.
func FuzzParse(f *testing.F) {
	f.Add("2026-11-30T03:04:05.5+01:00")
	f.Add("0000-01-01T0:00:00+01:00")
	f.Add("9999-12-31T23:00:00-01:00")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(got.Format(time.RFC3339Nano))
		require.NoError(t, err)
		require.True(t, got.Equal(again))
	})
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-30T3:04:05Z":        "not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, then Z or ±HH:MM)",
		"2026-13-30T03:04:05Z":       "not an RFC 3339 date-time: month out of range",
		"2026-11-30T03:04:05+0100":   "not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, then Z or ±HH:MM)",
		"9999-12-31T23:00:00-01:00":  "outside the years 0000 to 9999 in UTC",
		"2026-11-30T03:04:05Zsecret": "not an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, then Z or ±HH:MM)",
	} {
		_, err := Parse(in)
		require.EqualError(t, err, want, in)
	}
}
