package domain

import (
	"fmt"
	"math/big"

	"google.golang.org/protobuf/encoding/protowire"
)

// GaslessTerms is the gasless leg of an AMM order or a cross-currency
// transfer: the RelayRouter GaslessOrder the caller signs (Permit2 witness)
// and the relayer executes. It is kept typed on the row, so the chain side
// never parses the API's signing JSON back. Addresses are EIP-55, amounts
// base units; the order of fields is the signed type's.
type GaslessTerms struct {
	Signer       string
	TokenIn      string
	TokenOut     string
	AmountIn     *big.Int
	MinAmountOut *big.Int
	Recipient    string // the signer for FX, the payee for a transfer
	Pool         string
	Deadline     *big.Int // unix seconds
	Nonce        *big.Int // Permit2 unordered nonce
}

// valid reports a broken invariant: terms the host built must be whole.
func (g *GaslessTerms) valid() error {
	for _, a := range []string{g.Signer, g.TokenIn, g.TokenOut, g.Recipient, g.Pool} {
		if _, err := NormalizeAddress("address", a); err != nil {
			return fmt.Errorf("gasless terms: %s", err.Message)
		}
	}
	for _, v := range []*big.Int{g.AmountIn, g.MinAmountOut, g.Deadline, g.Nonce} {
		if v == nil || v.Sign() < 0 || len(v.String()) > maxBaseUnitDigits {
			return fmt.Errorf("gasless terms: a number is missing or out of range")
		}
	}
	return nil
}

func marshalGasless(dst []byte, g *GaslessTerms) []byte {
	dst = appendString(dst, 1, g.Signer)
	dst = appendString(dst, 2, g.TokenIn)
	dst = appendString(dst, 3, g.TokenOut)
	dst = appendAmount(dst, 4, g.AmountIn)
	dst = appendAmount(dst, 5, g.MinAmountOut)
	dst = appendString(dst, 6, g.Recipient)
	dst = appendString(dst, 7, g.Pool)
	dst = appendAmount(dst, 8, g.Deadline)
	return appendAmount(dst, 9, g.Nonce)
}

func unmarshalGasless(b []byte) (*GaslessTerms, error) {
	g := &GaslessTerms{}
	err := walk(b, func(num protowire.Number, v value) error {
		var err error
		switch num {
		case 1:
			g.Signer = string(v.b)
		case 2:
			g.TokenIn = string(v.b)
		case 3:
			g.TokenOut = string(v.b)
		case 4:
			g.AmountIn, err = parseBaseUnits(v.b)
		case 5:
			g.MinAmountOut, err = parseBaseUnits(v.b)
		case 6:
			g.Recipient = string(v.b)
		case 7:
			g.Pool = string(v.b)
		case 8:
			g.Deadline, err = parseBaseUnits(v.b)
		case 9:
			g.Nonce, err = parseBaseUnits(v.b)
		}
		return err
	})
	if err == nil {
		err = g.valid()
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCodec, err)
	}
	return g, nil
}

// RFQTerms are the chain terms of an RFQ order: the maker's signed quote
// (RfqEscrow.Quote) and the funding's execution id and quote hash, which
// the escrow's logs are keyed by. Kept typed on the row, as GaslessTerms.
type RFQTerms struct {
	Maker, Taker      string // EIP-55
	TokenIn, TokenOut string
	AmountIn          *big.Int
	AmountOut         *big.Int
	Expiry            *big.Int
	Salt              *big.Int
	ExecutionID       string // 0x bytes32
	QuoteHash         string // 0x bytes32
}

func marshalRFQ(dst []byte, r *RFQTerms) []byte {
	dst = appendString(dst, 1, r.Maker)
	dst = appendString(dst, 2, r.Taker)
	dst = appendString(dst, 3, r.TokenIn)
	dst = appendString(dst, 4, r.TokenOut)
	dst = appendAmount(dst, 5, r.AmountIn)
	dst = appendAmount(dst, 6, r.AmountOut)
	dst = appendAmount(dst, 7, r.Expiry)
	dst = appendAmount(dst, 8, r.Salt)
	dst = appendString(dst, 9, r.ExecutionID)
	return appendString(dst, 10, r.QuoteHash)
}

func unmarshalRFQ(b []byte) (*RFQTerms, error) {
	r := &RFQTerms{}
	err := walk(b, func(num protowire.Number, v value) error {
		var err error
		switch num {
		case 1:
			r.Maker = string(v.b)
		case 2:
			r.Taker = string(v.b)
		case 3:
			r.TokenIn = string(v.b)
		case 4:
			r.TokenOut = string(v.b)
		case 5:
			r.AmountIn, err = parseBaseUnits(v.b)
		case 6:
			r.AmountOut, err = parseBaseUnits(v.b)
		case 7:
			r.Expiry, err = parseBaseUnits(v.b)
		case 8:
			r.Salt, err = parseBaseUnits(v.b)
		case 9:
			r.ExecutionID = string(v.b)
		case 10:
			r.QuoteHash = string(v.b)
		}
		return err
	})
	if err == nil && (r.AmountIn == nil || r.AmountOut == nil || r.Expiry == nil || r.Salt == nil || len(r.ExecutionID) != 66 || len(r.QuoteHash) != 66) {
		err = fmt.Errorf("rfq terms are incomplete")
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errCodec, err)
	}
	return r, nil
}
