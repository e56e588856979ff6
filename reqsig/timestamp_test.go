package reqsig

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseTimestamp(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1795000000", 1795000000, true},
		{"0", 0, true},
		{"999999999999", 999999999999, true},
		{"1000000000000", 0, false}, // 13 digits
		{"", 0, false},
		{"+1795000000", 0, false},
		{"-1", 0, false},
		{" 1795000000", 0, false},
		{"1795000000 ", 0, false},
		{"01795000000", 0, false},
		{"00", 0, false},
		{"17950000.0", 0, false},
		{"1e9", 0, false},
		{"١٢٣", 0, false}, // non-ASCII digits
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, ok := ParseTimestamp([]byte(tc.in))
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, got)
		})
	}
}
