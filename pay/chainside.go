package pay

import (
	"context"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/jobs"
)

// tracked is one live transfer as the chain side sees it.
type tracked struct{ t *domain.Transfer }

// trackedKeys: a cross-currency transfer is matched by its leg's order
// hash (the router's event key).
func trackedKeys(tr *tracked) []common.Hash {
	if tr.t.Gasless != nil {
		return []common.Hash{gasless.OrderHash(tr.t.Gasless)}
	}
	return nil
}

// jobKind names the one piece of chain work a transfer needs next.
type jobKind int

const (
	jobNone    jobKind = iota
	jobExpire          // created or accepted, past its expiry
	jobRelay           // cross-currency, signed: relay the leg until mined
	jobConfirm         // same-currency, submitted: find the tx mined, verify and claim its log
)

// nextJob decides what the transfer needs at now. It is pure, so it is
// table-tested without a chain.
func nextJob(t *domain.Transfer, now time.Time) jobKind {
	switch {
	case (t.State == domain.TransferCreated || t.State == domain.TransferAccepted) && now.After(t.ExpiresAt.Add(expiryGrace)):
		return jobExpire
	case t.State == domain.TransferSubmitted && t.Cross():
		return jobRelay
	case t.State == domain.TransferSubmitted:
		return jobConfirm
	}
	return jobNone
}

// next is the driver's Next: the job the transfer needs now, or nil.
func (d *Desk) next(tr *tracked, now time.Time) jobs.Job[tracked] {
	switch nextJob(tr.t, now) {
	case jobExpire:
		return func(ctx context.Context, tr *tracked) error { return d.exec(ctx, tr.t.ID, domain.ExpireTransfer{}) }
	case jobRelay:
		return d.relay
	case jobConfirm:
		return d.confirm
	}
	return nil
}

// relay executes the signed leg and reports its outcome.
func (d *Desk) relay(ctx context.Context, tr *tracked) error {
	out, err := d.cfg.Leg.Relay(ctx, tr.t.Gasless, tr.t.Signature)
	if err != nil {
		return err
	}
	return d.exec(ctx, tr.t.ID, domain.TransferMined{TxHash: out.TxHash, Success: out.Success, AmountOut: out.AmountOut, Reason: out.Reason})
}

// confirm finishes a same-currency transfer submitted before its tx was
// mined: nothing while it is pending; confirmed with its claimed log; failed
// when the tx reverted or holds no log that can confirm it.
func (d *Desk) confirm(ctx context.Context, tr *tracked) error {
	rcpt, st, err := verify.Lookup(ctx, d.cfg.Chain, common.HexToHash(tr.t.TxHash))
	if err != nil || st == verify.Pending {
		return err
	}
	unlock := d.claims.lock(tr.t.ID)
	defer unlock()
	t, err := d.Transfer(ctx, tr.t.Account, tr.t.ID)
	if err != nil {
		return err
	}
	if t.State != domain.TransferSubmitted || t.TxHash != tr.t.TxHash {
		return nil // a submit confirmed it meanwhile (perhaps with another tx)
	}
	idx, refusal, err := d.claimLog(ctx, t, rcpt, st)
	if err != nil {
		return err
	}
	if refusal != nil {
		return d.exec(ctx, tr.t.ID, domain.TransferMined{TxHash: tr.t.TxHash, Reason: verify.CutReason(refusal.Message)})
	}
	return d.exec(ctx, tr.t.ID, domain.TransferMined{TxHash: tr.t.TxHash, Success: true, LogIndex: idx})
}

// claimLog finds, in a mined receipt, the Transfer log that pays the
// transfer (exact token, from the source wallet, to the recipient, exact
// value) and claims it for the transfer in the tx's claim entity: one log
// confirms at most one transfer, ever. The refusal is 400
// transfer_not_verified (reverted, or no such log and no log of the tx
// confirmed another transfer) or 409 tx_already_used (every such log, or
// with none such some log of the tx, confirmed another transfer).
func (d *Desk) claimLog(ctx context.Context, t *domain.Transfer, rcpt *types.Receipt, st verify.Status) (uint64, *domain.Error, error) {
	if st == verify.Reverted {
		return 0, domain.ErrTransferNotVerified("%s", d.revertReason(ctx, t, rcpt.TxHash)), nil
	}
	token := d.cfg.Tokens[t.Currency]
	from, to := common.HexToAddress(t.SourceWallet), common.HexToAddress(t.Recipient)
	var refusal *domain.Error
	for _, tl := range verify.FindTransfers(rcpt, token, to) {
		if tl.From != from || tl.Value.Cmp(t.Amount) != 0 {
			continue
		}
		refused, err := d.cfg.Claims.Claim(ctx, domain.ClaimID(rcpt.TxHash.Hex()), domain.ClaimLog{
			TxHash: rcpt.TxHash.Hex(), LogIndex: uint64(tl.LogIndex), By: t.ID})
		if err != nil {
			return 0, nil, fmt.Errorf("pay: claim %s: %w", rcpt.TxHash.Hex(), err)
		}
		if refused == nil {
			return uint64(tl.LogIndex), nil, nil
		}
		refusal = refused // claimed by another transfer: try the next log
	}
	if refusal != nil {
		return 0, refusal, nil
	}
	// Nothing here pays this transfer: if the tx confirmed another one, the
	// hash is "already used" (409); else it never paid this (400).
	used, err := d.cfg.Claims.Claim(ctx, domain.ClaimID(rcpt.TxHash.Hex()), domain.ClaimLog{
		TxHash: rcpt.TxHash.Hex(), By: t.ID, Probe: true})
	if err != nil {
		return 0, nil, fmt.Errorf("pay: probe claims of %s: %w", rcpt.TxHash.Hex(), err)
	}
	if used != nil {
		return 0, used, nil
	}
	// Without the tx hash (the caller's own, and the transfer's tx_hash): a
	// watcher's failure_reason keeps this whole within its 200 runes.
	return 0, domain.ErrTransferNotVerified("the transaction holds no Transfer of %s %s from %s to %s",
		domain.FormatAmount(t.Amount, domain.DecimalsOf(t.Currency)), t.Currency, t.SourceWallet, t.Recipient), nil
}

// revertReason names why the transfer's tx h reverted: its call, from the
// source wallet, decoded as the relayer's reverts are
// (verify.MinedRevertReason); the bare fact when the tx cannot be read.
func (d *Desk) revertReason(ctx context.Context, t *domain.Transfer, h common.Hash) string {
	prefix := fmt.Sprintf("transaction %s reverted", h.Hex())
	tx, _, err := d.cfg.Chain.TransactionByHash(ctx, h)
	if err != nil || tx.To() == nil {
		return prefix
	}
	return verify.MinedRevertReason(ctx, d.cfg.Chain, prefix, common.HexToAddress(t.SourceWallet), *tx.To(), tx.Data())
}
