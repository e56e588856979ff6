package domain

// Currency is one supported stablecoin. Its token address and chain id come
// from the chain package at run time; the symbol set and decimals are fixed
// by the environment.
type Currency struct {
	Symbol   string
	Decimals int
}

// Currencies is the test environment's supported set (SPEC.md: USDC, USDT,
// EURC), in the order GET /currencies lists them.
var Currencies = []Currency{{"USDC", 6}, {"USDT", 6}, {"EURC", 6}}

// CurrencyBySymbol returns the currency or 400 unsupported_asset. Symbols
// are matched exactly: "usdc" is not a symbol we serve.
func CurrencyBySymbol(symbol string) (Currency, *Error) {
	for _, c := range Currencies {
		if c.Symbol == symbol {
			return c, nil
		}
	}
	return Currency{}, ErrUnsupportedAsset(symbol)
}

// RequiredCurrency is CurrencyBySymbol for a request's required field:
// absent (or empty) is 400 invalid_request naming the field (CONTRACT.md:
// a missing field), not unsupported_asset (a currency not served).
func RequiredCurrency(field, symbol string) (Currency, *Error) {
	if symbol == "" {
		return Currency{}, ErrInvalid("%s is required", field)
	}
	return CurrencyBySymbol(symbol)
}

// DecimalsOf is a currency's decimals: 6 for every currency served, and for
// an unknown symbol read from an old log.
func DecimalsOf(symbol string) int {
	if c, err := CurrencyBySymbol(symbol); err == nil {
		return c.Decimals
	}
	return 6
}
