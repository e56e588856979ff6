package domain

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseAmount(t *testing.T) {
	ok := map[string]string{"1": "1000000", "1250.5": "1250500000", "1250.50": "1250500000", "0.000001": "1", "0.1": "100000", "10": "10000000"}
	for in, want := range ok {
		v, err := ParseAmount("amount", in, 6)
		require.Nil(t, err, in)
		require.Equal(t, want, v.String(), in)
	}
	for _, in := range []string{"", "0", "0.0", "-1", "+1", "1e6", "01", "1.", ".5", "1.0000001", "1,5", " 1", "1 ", "0x10", "١"} {
		_, err := ParseAmount("amount", in, 6)
		require.NotNil(t, err, in)
		require.Equal(t, CodeInvalidRequest, err.Code, in)
	}
}

// TestFormatAmount: the 64-bit path and the big one give the same text.
func TestFormatAmount(t *testing.T) {
	for _, c := range []struct {
		v        string
		decimals int
		want     string
	}{
		{"0", 6, "0"},
		{"1", 6, "0.000001"},
		{"10", 6, "0.00001"},
		{"1000000", 6, "1"},
		{"100000000", 6, "100"},
		{"91953080", 6, "91.95308"},
		{"1250500000", 6, "1250.5"},
		{"123456", 0, "123456"},
		{"5", 18, "0.000000000000000005"},
		{"5", 30, "0.000000000000000000000000000005"},
		{"18446744073709551615", 6, "18446744073709.551615"},
		{"18446744073709551616", 6, "18446744073709.551616"},
		{"123456789012345678901234567890", 6, "123456789012345678901234.56789"},
		{"-1500000", 6, "-1.5"},
	} {
		t.Run(c.v, func(t *testing.T) {
			v, ok := new(big.Int).SetString(c.v, 10)
			require.True(t, ok)
			require.Equal(t, c.want, FormatAmount(v, c.decimals))
			require.Equal(t, c.want, formatBig(v, c.decimals))
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		v, d := new(big.Int).SetUint64(r.Uint64()>>r.IntN(64)), r.IntN(19)
		require.Equal(t, formatBig(v, d), FormatAmount(v, d), "%s, %d decimals", v, d)
	}
}

func FuzzAmountRoundTrip(f *testing.F) {
	for _, s := range []string{"1", "1250.5", "0.000001", "99999999.999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseAmount("amount", s, 6)
		if err != nil {
			return
		}
		back, err := ParseAmount("amount", FormatAmount(v, 6), 6)
		require.Nil(t, err)
		require.Equal(t, v, back)
	})
}
