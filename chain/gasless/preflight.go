package gasless

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
)

// Issues is the accept answer's view of what stands in the way of the
// relay: the signer's ERC-20 allowance to Permit2 and balance of the input
// token, each against the leg's amount (CONTRACT.md `issues`). decimals
// renders the amounts in currency units. An error means the chain could
// not be read.
func (l *Leg) Issues(ctx context.Context, t *domain.GaslessTerms, decimals int) (domain.Issues, error) {
	is, err := verify.Check(ctx, l.Chain, common.HexToAddress(t.TokenIn), common.HexToAddress(t.Signer), l.Domain.Permit2, t.AmountIn)
	if err != nil {
		return domain.Issues{}, err
	}
	return IssuesOf(is, decimals), nil
}

// IssuesOf renders the shortfalls of a Permit2 pull (verify.Check) as an
// accept answer's issues, amounts in currency units of decimals: the one
// rendering of every Permit2-funded leg (gasless legs here, RFQ escrow
// fundings in fx).
func IssuesOf(is verify.Issues, decimals int) domain.Issues {
	var out domain.Issues
	if a := is.Allowance; a != nil {
		out.Allowance = &domain.AllowanceIssue{Token: a.Token.Hex(), Spender: a.Spender.Hex(),
			Actual: domain.FormatAmount(a.Actual, decimals), Required: domain.FormatAmount(a.Required, decimals)}
	}
	if b := is.Balance; b != nil {
		out.Balance = &domain.BalanceIssue{Token: b.Token.Hex(),
			Actual: domain.FormatAmount(b.Actual, decimals), Required: domain.FormatAmount(b.Required, decimals)}
	}
	return out
}

// Preflight is the check before a relay (CONTRACT.md): allowance, then
// balance, then a simulation of the exact relay call (eth_call from the
// relayer). A shortfall is 400 insufficient_allowance / insufficient_balance,
// any other revert 400 relay_would_revert with the decoded reason; nil when
// the relay would pass. The error is the chain being unreachable (503).
func (l *Leg) Preflight(ctx context.Context, t *domain.GaslessTerms, sig string, decimals int) (*domain.Error, error) {
	is, err := l.Issues(ctx, t, decimals)
	if err != nil {
		return nil, err
	}
	if a := is.Allowance; a != nil {
		return domain.ErrPreflight(domain.CodeInsufficientAllowance,
			"the allowance of %s for Permit2 %s is %s, the relay needs %s: approve Permit2 for the token, then submit again",
			t.Signer, a.Spender, a.Actual, a.Required), nil
	}
	if b := is.Balance; b != nil {
		return domain.ErrPreflight(domain.CodeInsufficientBalance, "the balance of %s is %s, the relay needs %s", t.Signer, b.Actual, b.Required), nil
	}
	raw, err := relaySig(sig)
	if err != nil {
		return domain.ErrBadSignature("%v", err), nil
	}
	err = verify.Simulate(ctx, l.Chain, l.Relayer.Address(), l.Router, calldata(t, raw))
	var rev *verify.Revert
	switch {
	case errors.As(err, &rev):
		return domain.ErrPreflight(domain.CodeRelayWouldRevert, "the relay would revert: %s", rev.Reason), nil
	case err != nil:
		return nil, err
	}
	return nil, nil
}
