package wallet

import (
	"fmt"
	"math/big"
	"strings"
)

// Units is a decimal amount in currency units as base units ("25.5" of a
// 6-decimal token is 25500000): what typed data and the chain speak. An
// amount with more decimals than the token has, a negative one or one
// that is not a plain decimal is an error. No floating point.
func Units(amount string, decimals int) (*big.Int, error) {
	if amount == "" || strings.ContainsAny(amount, "eE/+-") {
		return nil, fmt.Errorf("wallet: amount %q is not a plain decimal", amount)
	}
	r, ok := new(big.Rat).SetString(amount)
	if !ok || r.Sign() < 0 {
		return nil, fmt.Errorf("wallet: amount %q is not a decimal", amount)
	}
	r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)))
	if !r.IsInt() {
		return nil, fmt.Errorf("wallet: amount %q has more than %d decimals", amount, decimals)
	}
	return new(big.Int).Set(r.Num()), nil
}

// Decimal is base units as a decimal amount in currency units, without
// trailing zeros ("25500000" of a 6-decimal token is "25.5").
func Decimal(units *big.Int, decimals int) string {
	neg := units.Sign() < 0
	s := new(big.Int).Abs(units).String()
	if len(s) <= decimals {
		s = strings.Repeat("0", decimals-len(s)+1) + s
	}
	whole, frac := s[:len(s)-decimals], strings.TrimRight(s[len(s)-decimals:], "0")
	if frac != "" {
		whole += "." + frac
	}
	if neg {
		whole = "-" + whole
	}
	return whole
}
