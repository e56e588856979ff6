package domain

import (
	"math/big"
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
// without trailing fractional zeros ("1250.5", "3", "0.000001").
func FormatAmount(v *big.Int, decimals int) string {
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
