package fx

import (
	"encoding/json"
	"math/big"
	"math/bits"
	"slices"
	"strconv"

	"github.com/fxd-labs/fxd/chain/amm"
)

// The quote answer is written without reflection and without a string per
// intermediate step: every quote of one request shares its amount_in,
// taker and expires_at, and amounts that fit 64 bits (every amount of the
// 6-decimal currencies up to 18 trillion units) are rendered with integer
// arithmetic. The bytes are exactly encoding/json's (wire_test.go).

// rateScale is 10^rateDecimals.
const rateScale = 100_000_000

// formatRatio renders num/den with rateDecimals decimals, rounded down,
// as amm.FormatRate does ("0" when den is zero). ⌊num·10⁸/den⌋ is the same
// whether or not the fraction is reduced first, so when num and den fit
// 64 bits and the result does too, one 128-by-64-bit division gives it.
func formatRatio(num, den *big.Int) string {
	if den.Sign() == 0 {
		return "0"
	}
	if num.Sign() >= 0 && den.Sign() > 0 && num.IsUint64() && den.IsUint64() {
		hi, lo := bits.Mul64(num.Uint64(), rateScale)
		if d := den.Uint64(); hi < d {
			scaled, _ := bits.Div64(hi, lo, d)
			var buf [32]byte
			return string(appendFixed(buf[:0], scaled, rateDecimals))
		}
	}
	return amm.FormatRate(new(big.Rat).SetFrac(num, den), rateDecimals)
}

// unitRate is out/in in currency units: the base units' ratio scaled by
// the two currencies' decimals (equal for every currency served, so the
// hot path pays nothing for it).
func unitRate(out, in *big.Int, fromDecimals, toDecimals int) string {
	if fromDecimals == toDecimals {
		return formatRatio(out, in)
	}
	ten := big.NewInt(10)
	num := new(big.Int).Mul(out, new(big.Int).Exp(ten, big.NewInt(int64(fromDecimals)), nil))
	den := new(big.Int).Mul(in, new(big.Int).Exp(ten, big.NewInt(int64(toDecimals)), nil))
	return formatRatio(num, den)
}

// appendFixed appends v/10^decimals with exactly decimals (1 to 19)
// digits after the point and at least one before it, as amm.FormatRate
// lays them out.
func appendFixed(dst []byte, v uint64, decimals int) []byte {
	var buf [40]byte
	n := len(strconv.AppendUint(buf[20:20], v, 10))
	start := 20
	for ; n+20-start <= decimals; start-- {
		buf[start-1] = '0'
	}
	digits := buf[start : 20+n]
	dst = append(dst, digits[:len(digits)-decimals]...)
	dst = append(dst, '.')
	return append(dst, digits[len(digits)-decimals:]...)
}

// AppendJSON appends v as encoding/json marshals it: the same fields in the
// same order, provider omitted when nil, strings escaped the same way. It
// grows dst once, enough for the answer unless a string needs escaping.
func (v *QuotesView) AppendJSON(dst []byte) []byte {
	dst = slices.Grow(dst, v.size())
	dst = append(dst, `{"quotes":`...)
	if v.Quotes == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range v.Quotes {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = v.Quotes[i].appendJSON(dst)
		}
		dst = append(dst, ']')
	}
	dst = append(dst, `,"best_quote_id":`...)
	dst = appendString(dst, v.BestQuoteID)
	return append(dst, '}')
}

// quoteKeysBytes bounds what appendJSON writes of a quote besides its
// values: keys, quotes, braces, a comma and the longer firm.
const quoteKeysBytes = len(`{"id":"","route":"","firm":false,"taker":"","from_currency":"","to_currency":"","amount_in":"","amount_out":"","rate":"","expires_at":""},`)

// size bounds the length of v's JSON when no string needs escaping.
func (v *QuotesView) size() int {
	n := len(`{"quotes":null,"best_quote_id":""}`) + len(v.BestQuoteID)
	for i := range v.Quotes {
		q := &v.Quotes[i]
		n += quoteKeysBytes + len(q.ID) + len(q.Route) + len(q.Taker) + len(q.FromCurrency) + len(q.ToCurrency) +
			len(q.AmountIn) + len(q.AmountOut) + len(q.Rate) + len(q.ExpiresAt)
		if q.Provider != nil {
			n += len(`,"provider":""`) + len(*q.Provider)
		}
	}
	return n
}

func (v *QuoteView) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"id":`...)
	dst = appendString(dst, v.ID)
	dst = append(dst, `,"route":`...)
	dst = appendString(dst, v.Route)
	dst = append(dst, `,"firm":`...)
	dst = strconv.AppendBool(dst, v.Firm)
	if v.Provider != nil {
		dst = append(dst, `,"provider":`...)
		dst = appendString(dst, *v.Provider)
	}
	for _, f := range [...]struct{ key, val string }{
		{`,"taker":`, v.Taker}, {`,"from_currency":`, v.FromCurrency}, {`,"to_currency":`, v.ToCurrency},
		{`,"amount_in":`, v.AmountIn}, {`,"amount_out":`, v.AmountOut}, {`,"rate":`, v.Rate}, {`,"expires_at":`, v.ExpiresAt},
	} {
		dst = append(dst, f.key...)
		dst = appendString(dst, f.val)
	}
	return append(dst, '}')
}

// appendString appends s as a JSON string. Printable ASCII other than the
// characters encoding/json escapes (quote, backslash, and <, >, & for
// HTML safety) is copied as is; anything else is encoding/json's to write.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, err := json.Marshal(s)
			if err != nil {
				panic("fx: marshal string: " + err.Error()) // a string always marshals
			}
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}
