// Package amm mirrors the pricing of chain/contracts/src/Pool.sol off chain,
// exactly, in integers: a constant-product (x·y = k) pool whose swap fee is
// taken from the input.
//
// AmountOut equals the contract's quote(tokenIn, amountIn) for every input,
// including where the contract reverts (unknown token, or a uint256 overflow
// in its checked arithmetic): there AmountOut returns an error. Mid and
// FormatRate give the pool's mid price as an exact rational and its decimal
// rendering for the API's rate field. Read loads a pool's state through the
// generated bindings.
//
// No floating point is used anywhere.
package amm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

// BPS is the basis-point denominator (Pool.BPS).
const BPS = 10_000

// MaxFeeBps is the highest fee Pool's constructor accepts (Pool.MAX_FEE_BPS).
const MaxFeeBps = 1_000

var (
	// ErrInvalidToken: the token is not one of the pool's pair (Pool reverts InvalidToken).
	ErrInvalidToken = errors.New("amm: token is not in the pair")
	// ErrInvalidAmount: an amount is nil, negative or wider than uint256.
	ErrInvalidAmount = errors.New("amm: amount is not a uint256")
	// ErrOverflow: the contract's checked uint256 arithmetic would overflow (it reverts).
	ErrOverflow = errors.New("amm: uint256 overflow (the pool reverts)")
	// ErrInvalidFee: the fee is above BPS (the contract's BPS - feeBps would underflow).
	ErrInvalidFee = errors.New("amm: fee above 10000 bps")
	// ErrEmptyPool: a reserve is zero, so there is no price.
	ErrEmptyPool = errors.New("amm: a reserve is empty")
	// ErrInvalidSlippage: slippage above 10000 bps.
	ErrInvalidSlippage = errors.New("amm: slippage above 10000 bps")
)

var (
	bpsBig     = big.NewInt(BPS)
	maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))
)

// Reserves is a pool's state: its sorted pair (Token0 < Token1), the reserves
// of each in base units, and the swap fee in basis points of the input.
type Reserves struct {
	Token0, Token1     common.Address
	Reserve0, Reserve1 *big.Int
	FeeBps             uint64
}

// Sides returns (reserveIn, reserveOut, tokenOut) for a swap of tokenIn, like
// Pool._sides; ErrInvalidToken if tokenIn is not in the pair.
func (r Reserves) Sides(tokenIn common.Address) (reserveIn, reserveOut *big.Int, tokenOut common.Address, err error) {
	switch tokenIn {
	case r.Token0:
		return r.Reserve0, r.Reserve1, r.Token1, nil
	case r.Token1:
		return r.Reserve1, r.Reserve0, r.Token0, nil
	}
	return nil, nil, common.Address{}, fmt.Errorf("%w: %s", ErrInvalidToken, tokenIn.Hex())
}

func isUint256(v *big.Int) bool { return v != nil && v.Sign() >= 0 && v.BitLen() <= 256 }

// AmountOut returns what Pool.quote(tokenIn, amountIn) returns at these
// reserves:
//
//	inWithFee = amountIn · (BPS − feeBps)
//	out       = ⌊inWithFee · reserveOut / (reserveIn · BPS + inWithFee)⌋
//
// and 0 when a reserve is empty. Where the contract reverts, AmountOut
// returns an error: ErrInvalidToken (tokenIn outside the pair), ErrOverflow
// (an intermediate exceeds 2²⁵⁶−1), ErrInvalidAmount (amountIn or a reserve
// is not a uint256) or ErrInvalidFee. The result is a new big.Int.
func (r Reserves) AmountOut(tokenIn common.Address, amountIn *big.Int) (*big.Int, error) {
	s, err := r.Side(tokenIn)
	if err != nil {
		return nil, err
	}
	return s.AmountOut(amountIn)
}

// Side is one direction of a pool at its reserves, prepared for quoting
// many amounts: what AmountOut derives from the reserves alone is computed
// once. It is read-only, so one Side serves concurrent quotes.
type Side struct {
	reserveOut   *big.Int
	reserveInBps *big.Int // reserveIn · BPS
	feeFactor    *big.Int // BPS − feeBps
	err          error    // AmountOut's answer for every valid amount (a bad reserve or fee)
	empty        bool     // a reserve is zero: every quote is 0
}

// Side prepares the quotes of tokenIn; ErrInvalidToken outside the pair.
func (r Reserves) Side(tokenIn common.Address) (Side, error) {
	reserveIn, reserveOut, _, err := r.Sides(tokenIn)
	if err != nil {
		return Side{}, err
	}
	s := Side{reserveOut: reserveOut}
	switch {
	case !isUint256(reserveIn) || !isUint256(reserveOut):
		s.err = ErrInvalidAmount
	case r.FeeBps > BPS:
		s.err = ErrInvalidFee
	case reserveIn.Sign() == 0 || reserveOut.Sign() == 0:
		s.empty = true
	default:
		s.feeFactor = new(big.Int).SetUint64(BPS - r.FeeBps)
		s.reserveInBps = new(big.Int).Mul(reserveIn, bpsBig)
	}
	return s, nil
}

// AmountOut is Reserves.AmountOut of the side's token: the same amount or
// the same error, in the same order of checks.
func (s *Side) AmountOut(amountIn *big.Int) (*big.Int, error) {
	switch {
	case !isUint256(amountIn):
		return nil, ErrInvalidAmount
	case s.err != nil:
		return nil, s.err
	case s.empty:
		return new(big.Int), nil
	}
	inWithFee := new(big.Int).Mul(amountIn, s.feeFactor)
	if inWithFee.BitLen() > 256 {
		return nil, ErrOverflow
	}
	num := new(big.Int).Mul(inWithFee, s.reserveOut)
	if num.BitLen() > 256 || s.reserveInBps.BitLen() > 256 {
		return nil, ErrOverflow
	}
	den := inWithFee.Add(inWithFee, s.reserveInBps)
	if den.BitLen() > 256 {
		return nil, ErrOverflow
	}
	return num.Quo(num, den), nil // both positive: Quo truncates = floor, as the EVM's DIV
}

// Apply returns the reserves after a swap of amountIn of tokenIn paying
// AmountOut, as Pool._swap leaves them (the fee stays in the pool). It
// fails where the swap would revert for its amounts (zero input or output).
func (r Reserves) Apply(tokenIn common.Address, amountIn *big.Int) (Reserves, *big.Int, error) {
	out, err := r.AmountOut(tokenIn, amountIn)
	if err != nil {
		return r, nil, err
	}
	if amountIn.Sign() == 0 {
		return r, nil, errors.New("amm: zero input")
	}
	if out.Sign() == 0 {
		return r, nil, errors.New("amm: zero output")
	}
	n := r
	if tokenIn == r.Token0 {
		n.Reserve0 = new(big.Int).Add(r.Reserve0, amountIn)
		n.Reserve1 = new(big.Int).Sub(r.Reserve1, out)
	} else {
		n.Reserve1 = new(big.Int).Add(r.Reserve1, amountIn)
		n.Reserve0 = new(big.Int).Sub(r.Reserve0, out)
	}
	if !isUint256(n.Reserve0) || !isUint256(n.Reserve1) {
		return r, nil, ErrOverflow
	}
	return n, out, nil
}

// MinAmountOut returns ⌊out · (BPS − slippageBps) / BPS⌋, the least output a
// signed order accepts for a slippage tolerance of slippageBps (50 = 0.5%).
// It errors for a nil or negative out or slippageBps > BPS.
func MinAmountOut(out *big.Int, slippageBps uint64) (*big.Int, error) {
	if out == nil || out.Sign() < 0 {
		return nil, ErrInvalidAmount
	}
	if slippageBps > BPS {
		return nil, ErrInvalidSlippage
	}
	m := new(big.Int).Mul(out, new(big.Int).SetUint64(BPS-slippageBps))
	return m.Quo(m, bpsBig), nil
}

// Mid returns the pool's mid price for tokenIn: units of the other token per
// unit of tokenIn, reserveOut / reserveIn, exactly, before fee and price
// impact. Both are base units; for tokens of equal decimals (USDC, USDT,
// EURC all have 6) this is also the price in whole tokens, otherwise scale by
// 10^(decimalsIn − decimalsOut). ErrEmptyPool if a reserve is zero.
func (r Reserves) Mid(tokenIn common.Address) (*big.Rat, error) {
	reserveIn, reserveOut, _, err := r.Sides(tokenIn)
	if err != nil {
		return nil, err
	}
	if reserveIn == nil || reserveOut == nil || reserveIn.Sign() <= 0 || reserveOut.Sign() <= 0 {
		return nil, ErrEmptyPool
	}
	return new(big.Rat).SetFrac(reserveOut, reserveIn), nil
}

// FormatRate renders rat as a decimal string with exactly decimals digits
// after the point, rounded down (toward −∞): FormatRate(23/25, 6) =
// "0.920000", FormatRate(2/3, 6) = "0.666666". decimals ≤ 0 gives the
// floored integer with no point. A nil rat formats as zero.
func FormatRate(rat *big.Rat, decimals int) string {
	if decimals < 0 {
		decimals = 0
	}
	scaled := new(big.Int)
	if rat != nil {
		scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
		num := new(big.Int).Mul(rat.Num(), scale)
		// Denom is positive; Div is Euclidean, i.e. floor for a positive divisor.
		scaled.Div(num, rat.Denom())
	}
	neg := scaled.Sign() < 0
	digits := new(big.Int).Abs(scaled).String()
	if decimals > 0 {
		if len(digits) <= decimals {
			digits = strings.Repeat("0", decimals-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-decimals] + "." + digits[len(digits)-decimals:]
	}
	if neg {
		return "-" + digits
	}
	return digits
}

// Read loads pool's token0, token1, feeBps and getReserves from the chain at
// the latest block.
func Read(ctx context.Context, backend bind.ContractCaller, pool common.Address) (Reserves, error) {
	return ReadAt(ctx, backend, pool, nil)
}

// ReadAt is Read at a given block (nil = latest), so that several pools can
// be read at one consistent height.
func ReadAt(ctx context.Context, backend bind.ContractCaller, pool common.Address, block *big.Int) (Reserves, error) {
	c, err := fxbind.NewPoolCaller(pool, backend)
	if err != nil {
		return Reserves{}, fmt.Errorf("amm: bind pool %s: %w", pool.Hex(), err)
	}
	opts := &bind.CallOpts{Context: ctx, BlockNumber: block}
	var r Reserves
	if r.Token0, err = c.Token0(opts); err != nil {
		return Reserves{}, fmt.Errorf("amm: pool %s token0: %w", pool.Hex(), err)
	}
	if r.Token1, err = c.Token1(opts); err != nil {
		return Reserves{}, fmt.Errorf("amm: pool %s token1: %w", pool.Hex(), err)
	}
	fee, err := c.FeeBps(opts)
	if err != nil {
		return Reserves{}, fmt.Errorf("amm: pool %s feeBps: %w", pool.Hex(), err)
	}
	if !fee.IsUint64() || fee.Uint64() > BPS {
		return Reserves{}, fmt.Errorf("amm: pool %s: %w (%s)", pool.Hex(), ErrInvalidFee, fee)
	}
	r.FeeBps = fee.Uint64()
	res, err := c.GetReserves(opts)
	if err != nil {
		return Reserves{}, fmt.Errorf("amm: pool %s getReserves: %w", pool.Hex(), err)
	}
	r.Reserve0, r.Reserve1 = res.Reserve0, res.Reserve1
	return r, nil
}
