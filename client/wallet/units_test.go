package wallet

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnits(t *testing.T) {
	for in, want := range map[string]string{"25": "25000000", "25.5": "25500000", "0.000001": "1", "1000": "1000000000", "0": "0"} {
		got, err := Units(in, 6)
		require.NoError(t, err, in)
		require.Equal(t, want, got.String(), in)
	}
	for _, in := range []string{"0.0000001", "-1", "abc", "", "1e3", "+1", "1/2"} {
		_, err := Units(in, 6)
		require.Error(t, err, in)
	}
}

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		units int64
		want  string
	}{
		{25_500_000, "25.5"}, {1, "0.000001"}, {0, "0"}, {1_000_000_000, "1000"}, {123_456_789, "123.456789"}, {-1_500_000, "-1.5"},
	} {
		got := Decimal(big.NewInt(tc.units), 6)
		require.Equal(t, tc.want, got, "%d", tc.units)
		if tc.units >= 0 {
			back, err := Units(got, 6)
			require.NoError(t, err)
			require.Equal(t, tc.units, back.Int64(), "round trip of %q", got)
		}
	}
}
