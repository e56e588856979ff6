package verify

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

// erc20 reads allowance and balanceOf; TestToken's ABI has the standard
// ERC-20 signatures, so it reads any ERC-20 (USDC, EURC on a testnet).
var erc20 = mustABI(fxbind.TestTokenMetaData)

// Shortfall is one thing a Permit2 pull of Required would fail on: the
// owner's allowance for Spender (Permit2), or the owner's balance (Spender
// unused), of Token, which is Actual.
type Shortfall struct {
	Token, Spender common.Address
	Actual         *big.Int
	Required       *big.Int
}

// Issues are what keeps a Permit2-pulled transfer from going through; nil
// means nothing is short. Both may be set: the user is told everything to
// fix at once rather than one thing per failed attempt.
type Issues struct {
	Allowance *Shortfall
	Balance   *Shortfall
}

// OK reports that nothing is short.
func (i Issues) OK() bool { return i.Allowance == nil && i.Balance == nil }

// Check is the relay's pre-flight of a Permit2 pull of amount of token from
// owner: the ERC-20 allowance(owner, permit2) and balanceOf(owner) must each
// cover amount. The chain's own refusal would name only the first problem
// (the allowance), as a revert; this names both, before anything is sent.
// An error means the chain could not be read (or token is not an ERC-20).
func Check(ctx context.Context, b Backend, token, owner, permit2 common.Address, amount *big.Int) (Issues, error) {
	if amount == nil || amount.Sign() < 0 {
		return Issues{}, errors.New("verify: check: amount must be a non-negative integer")
	}
	allowed, err := readUint(ctx, b, token, "allowance", owner, permit2)
	if err != nil {
		return Issues{}, err
	}
	balance, err := readUint(ctx, b, token, "balanceOf", owner)
	if err != nil {
		return Issues{}, err
	}
	var is Issues
	if allowed.Cmp(amount) < 0 {
		is.Allowance = &Shortfall{Token: token, Spender: permit2, Actual: allowed, Required: new(big.Int).Set(amount)}
	}
	if balance.Cmp(amount) < 0 {
		is.Balance = &Shortfall{Token: token, Actual: balance, Required: new(big.Int).Set(amount)}
	}
	return is, nil
}

// readUint eth_calls a uint256 view of token.
func readUint(ctx context.Context, b Backend, token common.Address, method string, args ...any) (*big.Int, error) {
	data, err := erc20.Pack(method, args...)
	if err != nil {
		panic("verify: pack " + method + ": " + err.Error())
	}
	out, err := call(ctx, b, ethereum.CallMsg{To: &token, Data: data})
	if err != nil {
		return nil, fmt.Errorf("verify: %s of token %s: %w", method, token.Hex(), err)
	}
	vals, err := erc20.Unpack(method, out)
	if err != nil {
		// An account without code answers an empty result.
		return nil, fmt.Errorf("verify: %s of token %s: not an ERC-20 answer: %w", method, token.Hex(), err)
	}
	v, ok := vals[0].(*big.Int)
	if !ok {
		return nil, fmt.Errorf("verify: %s of token %s: answer is %T", method, token.Hex(), vals[0])
	}
	return v, nil
}

// Simulate runs the call from → to with data (eth_call, pending block, see
// call) to learn whether it would revert, without spending gas or a nonce.
// A revert is a *Revert with its decoded reason; any other error (the chain
// unreachable) is returned wrapped, for the caller to retry.
func Simulate(ctx context.Context, b Backend, from, to common.Address, data []byte) error {
	_, err := call(ctx, b, ethereum.CallMsg{From: from, To: &to, Data: data})
	if err == nil {
		return nil
	}
	if rd, ok := Data(err); ok {
		return &Revert{Data: rd, Reason: Decode(rd)}
	}
	return fmt.Errorf("verify: simulate call to %s: %w", to.Hex(), err)
}

// MinedRevertReason names why a mined tx (from → to with data) reverted:
// prefix, then the decoded revert of the same call simulated again, since
// a receipt carries no revert data. The state the tx met is gone, so this
// is what the chain says now (the same call usually fails the same way);
// when it no longer reverts, or the chain does not answer, prefix alone.
// Bounded as Reason is.
func MinedRevertReason(ctx context.Context, b Backend, prefix string, from, to common.Address, data []byte) string {
	var rev *Revert
	if err := Simulate(ctx, b, from, to, data); errors.As(err, &rev) {
		return CutReason(prefix + ": " + rev.Reason)
	}
	return CutReason(prefix)
}
