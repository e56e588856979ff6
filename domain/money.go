package domain

import (
	"math/big"
	"strconv"
	"strings"
)

// Money crosses the API as a decimal string in currency units and lives
// everywhere else as an integer in base units. These two functions are the
// only conversions, and neither touches floating point.

// maxAmountDigits bounds the integer part we parse (far above any supply).
const maxAmountDigits = 30

// ParseAmount reads "1250.5" with at most decimals fractional digits into
// base units. Refused: signs, exponents, leading zeros ("01"), a bare ".",
// too many decimals, zero when positive is required.
func ParseAmount(field, s string, decimals int) (*big.Int, *Error) {
	whole, frac, hasDot := strings.Cut(s, ".")
	switch {
	case whole == "" || len(whole) > maxAmountDigits || !allDigits(whole):
		return nil, ErrInvalid("%s must be a decimal string such as \"1250.50\"", field)
	case len(whole) > 1 && whole[0] == '0':
		return nil, ErrInvalid("%s has a leading zero", field)
	case hasDot && (frac == "" || !allDigits(frac)):
		return nil, ErrInvalid("%s must be a decimal string such as \"1250.50\"", field)
	case len(frac) > decimals:
		return nil, ErrInvalid("%s has more than %d decimals", field, decimals)
	}
	v, ok := new(big.Int).SetString(whole+frac+strings.Repeat("0", decimals-len(frac)), 10)
	if !ok {
		return nil, ErrInvalid("%s is not a number", field)
	}
	if v.Sign() <= 0 {
		return nil, ErrInvalid("%s must be greater than zero", field)
	}
	return v, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatAmount renders base units as a decimal string in currency units,
// without trailing fractional zeros ("1250.5", "3", "0.000001"). Amounts
// that fit 64 bits (every amount of a 6-decimal currency up to 18
// trillion units) skip big.Int's text and the string steps: this runs
// for every amount of every answer, the quote path's included.
func FormatAmount(v *big.Int, decimals int) string {
	if v.Sign() >= 0 && v.IsUint64() && decimals >= 0 {
		var digits [20]byte
		var out [48]byte
		return string(AppendUnits(out[:0], strconv.AppendUint(digits[:0], v.Uint64(), 10), decimals))
	}
	return formatBig(v, decimals)
}

// AppendUnits appends base-unit digits (non-negative, decimal) in currency
// units, as FormatAmount renders them ("1250.5", "3", "0.000001"; no digits reads as "0").
func AppendUnits(dst, digits []byte, decimals int) []byte {
	if len(digits) == 0 {
		return append(dst, '0')
	}
	if len(digits) <= decimals {
		dst = append(dst, '0')
	} else {
		dst = append(dst, digits[:len(digits)-decimals]...)
		digits = digits[len(digits)-decimals:]
	}
	pad := decimals - len(digits)
	end := len(digits)
	for end > 0 && digits[end-1] == '0' {
		end--
	}
	if end == 0 {
		return dst
	}
	dst = append(dst, '.')
	for ; pad > 0; pad-- {
		dst = append(dst, '0')
	}
	return append(dst, digits[:end]...)
}

// formatBig is FormatAmount for any integer.
func formatBig(v *big.Int, decimals int) string {
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).String()
	if len(digits) <= decimals {
		digits = strings.Repeat("0", decimals-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-decimals], strings.TrimRight(digits[len(digits)-decimals:], "0")
	out := whole
	if frac != "" {
		out += "." + frac
	}
	if neg {
		out = "-" + out
	}
	return out
}
