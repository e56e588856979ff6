package fx

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/domain"
)

func bigOf(t *testing.T, s string) *big.Int {
	t.Helper()
	v, ok := new(big.Int).SetString(s, 10)
	require.True(t, ok, s)
	return v
}

// TestFormatRatio: the same text as amm.FormatRate of the fraction, on
// the 64-bit path and beyond it.
func TestFormatRatio(t *testing.T) {
	for _, c := range []struct {
		num, den, want string
	}{
		{"91953080", "100000000", "0.91953080"},
		{"92123456", "100000000", "0.92123456"},
		{"2", "3", "0.66666666"},
		{"1", "100000000", "0.00000001"},
		{"1", "100000001", "0.00000000"},
		{"0", "5", "0.00000000"},
		{"7", "0", "0"},
		{"100000000", "1", "100000000.00000000"},
		{"18446744073709551615", "1", "18446744073709551615.00000000"},
		{"18446744073709551615", "3", "6148914691236517205.00000000"},
		{"18446744073709551616", "7", "2635249153387078802.28571428"},
		{"123456789012345678901234567890", "1000000", "123456789012345678901234.56789000"},
	} {
		t.Run(c.num+"/"+c.den, func(t *testing.T) {
			num, den := bigOf(t, c.num), bigOf(t, c.den)
			require.Equal(t, c.want, formatRatio(num, den))
			if den.Sign() != 0 {
				require.Equal(t, amm.FormatRate(new(big.Rat).SetFrac(num, den), rateDecimals), formatRatio(num, den))
			}
		})
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20_000 {
		num, den := new(big.Int).SetUint64(r.Uint64()>>r.IntN(64)), new(big.Int).SetUint64(1+r.Uint64()>>r.IntN(64))
		require.Equal(t, amm.FormatRate(new(big.Rat).SetFrac(num, den), rateDecimals), formatRatio(num, den), "%s/%s", num, den)
	}
}

// TestAppendFixed lays out every width around the point.
func TestAppendFixed(t *testing.T) {
	for _, c := range []struct {
		v        uint64
		decimals int
		want     string
	}{
		{0, 8, "0.00000000"},
		{7, 8, "0.00000007"},
		{12345678, 8, "0.12345678"},
		{123456789, 8, "1.23456789"},
		{18446744073709551615, 8, "184467440737.09551615"},
		{5, 1, "0.5"},
		{50, 1, "5.0"},
		{1, 19, "0.0000000000000000001"},
	} {
		require.Equal(t, c.want, string(appendFixed([]byte("x"), c.v, c.decimals))[1:], "%d/%d", c.v, c.decimals)
	}
}

// plainQuotes is QuotesView without its methods: what encoding/json
// writes by reflection.
type plainQuotes QuotesView

// TestAppendJSONIsEncodingJSON: the answer's bytes are encoding/json's,
// for plain values and for strings it must escape.
func TestAppendJSONIsEncodingJSON(t *testing.T) {
	p := "maker1"
	odd := `m<a>k&e"r\` + "\u2028\x01é\xff"
	full := QuoteView{ID: "q_1", Route: domain.RouteRFQ, Firm: true, Provider: &p, Taker: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		FromCurrency: "USDC", ToCurrency: "EURC", AmountIn: "100", AmountOut: "92.123456", Rate: "0.92123456", ExpiresAt: "2027-01-15T08:00:30Z"}
	indicative := full
	indicative.Route, indicative.Firm, indicative.Provider = domain.RouteAMM, false, nil
	strange := full
	strange.Provider, strange.ID, strange.Taker = &odd, odd, ""
	for _, c := range []struct {
		name string
		v    QuotesView
	}{
		{"answer", QuotesView{Quotes: []QuoteView{indicative, full, full}, BestQuoteID: "q_1"}},
		{"one quote", QuotesView{Quotes: []QuoteView{indicative}, BestQuoteID: "q_1"}},
		{"escaped strings", QuotesView{Quotes: []QuoteView{strange}, BestQuoteID: odd}},
		{"empty", QuotesView{Quotes: []QuoteView{}}},
		{"zero", QuotesView{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			want, err := json.Marshal(plainQuotes(c.v))
			require.NoError(t, err)
			got := c.v.AppendJSON(nil)
			require.Equal(t, string(want), string(got))
			if c.name != "escaped strings" {
				require.LessOrEqual(t, len(got), c.v.size(), "one allocation")
				require.Greater(t, len(got)+8, c.v.size(), "of about the answer's size")
			}
			require.Equal(t, "prefix"+string(want), string(c.v.AppendJSON([]byte("prefix"))))
		})
	}
}

// TestUnitRate: a rate is in currency units, whatever each side's
// decimals (every currency served has 6 today).
func TestUnitRate(t *testing.T) {
	e := func(n int64, exp int) *big.Int {
		return new(big.Int).Mul(big.NewInt(n), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil))
	}
	for _, c := range []struct {
		name       string
		out, in    *big.Int
		fromD, toD int
		want       string
	}{
		{"6 → 6", e(92, 4), e(1, 6), 6, 6, "0.92000000"},
		{"6 → 18: 1 in, 2 out", e(2, 18), e(1, 6), 6, 18, "2.00000000"},
		{"18 → 6: 4 in, 1 out", e(1, 6), e(4, 18), 18, 6, "0.25000000"},
	} {
		require.Equal(t, c.want, unitRate(c.out, c.in, c.fromD, c.toD), c.name)
	}
}
