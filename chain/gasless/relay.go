package gasless

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
)

// Outcome is what the chain made of a relayed leg: executed (TxHash,
// AmountOut from its verified log) or not (Reason decoded from our
// contracts' ABIs; TxHash empty when the chain refused it before broadcast).
type Outcome struct {
	TxHash    string
	Success   bool
	AmountOut *big.Int
	Reason    string
}

// Relay executes the signed leg with the gas-only key and waits for its
// outcome. It is safe to run again after a restart: a leg the router
// already executed is found by its event and reported, never sent twice,
// and Permit2's single-use nonce refuses a second execution anyway. An
// error means try again later (chain unreachable, relayer busy, a relay of
// this leg still pending).
func (l *Leg) Relay(ctx context.Context, t *domain.GaslessTerms, sig string) (Outcome, error) {
	if out, done, err := l.executed(ctx, t); done || err != nil {
		return out, err
	}
	raw, err := relaySig(sig)
	if err != nil {
		return Outcome{Reason: err.Error()}, nil
	}
	tx, err := l.Relayer.Send(ctx, l.Router, calldata(t, raw), 0)
	var revert rpc.DataError
	switch {
	case errors.As(err, &revert):
		return l.refused(ctx, t, err)
	case err != nil && tx == nil:
		return Outcome{}, err // busy or unreachable: try again
	}
	l.Logger.Info("gasless leg relayed", "order_hash", OrderHash(t).Hex(), "tx", tx.Hash().Hex())
	rcpt, err := l.Relayer.Wait(ctx, tx)
	if err != nil {
		return Outcome{}, err
	}
	for _, lg := range rcpt.Logs {
		if out, err := Executed(t, *lg, l.Router); err == nil {
			return Outcome{TxHash: tx.Hash().Hex(), Success: true, AmountOut: out}, nil
		}
	}
	// Reverted. Another transaction (before a restart) may have executed it.
	if out, done, err := l.executed(ctx, t); done || err != nil {
		return out, err
	}
	return Outcome{TxHash: tx.Hash().Hex(), Reason: l.minedRevertReason(ctx, t, raw)}, nil
}

// refused is the outcome of a relay the chain refused at its estimate:
//
//   - the leg's Permit2 nonce spent in a mined block, yet no execution of
//     the leg found (read after the nonce, so a relay of ours mined
//     meanwhile shows): something else used the nonce (the signer
//     cancelled it with invalidateUnorderedNonces after the pre-flight
//     passed, or while the service was down). The leg can never execute,
//     so it fails with the decoded reason (InvalidNonce()) instead of
//     being tried again for ever;
//   - spent in the pending state only: a relay sent before a restart may
//     still be pending, and the estimate reverts for that reason alone.
//     Wait for it to be mined (an error: try again later);
//   - otherwise the revert is the leg's own reason.
func (l *Leg) refused(ctx context.Context, t *domain.GaslessTerms, estimate error) (Outcome, error) {
	mined, err := l.nonceSpent(ctx, t, false)
	if err != nil {
		return Outcome{}, err
	}
	if mined {
		if out, done, err := l.executed(ctx, t); done || err != nil {
			return out, err
		}
		return Outcome{Reason: verify.Reason("relay refused by the chain: the signature's Permit2 nonce was used by another transaction", estimate)}, nil
	}
	if pending, err := l.nonceSpent(ctx, t, true); err != nil || pending {
		return Outcome{}, errors.Join(err, errors.New("gasless: the leg's Permit2 nonce is spent by a pending relay"))
	}
	return Outcome{Reason: verify.Reason("relay refused by the chain", estimate)}, nil
}

// executed looks for an earlier execution of the leg.
func (l *Leg) executed(ctx context.Context, t *domain.GaslessTerms) (Outcome, bool, error) {
	lg, err := verify.Find(ctx, l.Chain, l.Router, TopicExecuted, OrderHash(t), logLookback)
	if err != nil || lg == nil {
		return Outcome{}, false, err
	}
	out, err := Executed(t, *lg, l.Router)
	if err != nil {
		return Outcome{}, false, err
	}
	return Outcome{TxHash: lg.TxHash.Hex(), Success: true, AmountOut: out}, true, nil
}

// minedRevertReason names why a mined relay reverted
// (verify.MinedRevertReason).
func (l *Leg) minedRevertReason(ctx context.Context, t *domain.GaslessTerms, sig []byte) string {
	return verify.MinedRevertReason(ctx, l.Chain, domain.ReasonRelayReverted, l.Relayer.Address(), l.Router, calldata(t, sig))
}

// nonceSpent reports whether the leg's Permit2 nonce is used in the
// pending state, or in the latest block (Permit2's unordered nonces: bit
// nonce%256 of word nonce/256 of the signer's bitmap). Nonces are 128
// random bits per leg, so a spent one means this leg's signature was
// executed or is about to be, or the signer cancelled the nonce.
func (l *Leg) nonceSpent(ctx context.Context, t *domain.GaslessTerms, pending bool) (bool, error) {
	p2, err := fxbind.NewPermit2Caller(l.Domain.Permit2, l.Chain)
	if err != nil {
		return false, err
	}
	word := new(big.Int).Rsh(t.Nonce, 8)
	bitmap, err := p2.NonceBitmap(&bind.CallOpts{Context: ctx, Pending: pending}, common.HexToAddress(t.Signer), word)
	if err != nil {
		return false, fmt.Errorf("gasless: nonceBitmap: %w", err)
	}
	return bitmap.Bit(int(new(big.Int).And(t.Nonce, big.NewInt(255)).Int64())) == 1, nil
}
