package domain

import (
	"math/big"
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

func TestFormatAmount(t *testing.T) {
	cases := map[string]string{"0": "0", "1": "0.000001", "1000000": "1", "1250500000": "1250.5", "-1500000": "-1.5", "123456789012345678901234567890": "123456789012345678901234.56789"}
	for in, want := range cases {
		v, _ := new(big.Int).SetString(in, 10)
		require.Equal(t, want, FormatAmount(v, 6), in)
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
