package pay

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
)

// SubmitTransfer is POST /transfers/{id}/submit: a cross-currency
// transfer's signature is verified off-chain and the relay's pre-flight
// run before anything is relayed; a same-currency transfer's tx_hash is
// looked up and its Transfer log checked field by field and claimed.
func (d *Desk) SubmitTransfer(ctx context.Context, acct, id string, req SubmitRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	if req.TxHash != nil {
		// A claim and the transfer's own write are two entities' writes:
		// under the transfer's lock no other submit or watcher job claims
		// for it in between, so a claim is never left with a transfer
		// that confirmed with another log.
		unlock := d.claims.lock(id)
		defer unlock()
	}
	t, err := d.Transfer(ctx, acct, id)
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Refuse(domain.ErrNotFound("transfer")), nil
	}
	if err != nil {
		return domain.Outcome{}, err
	}
	cctx, cancel := context.WithTimeout(ctx, chainTimeout)
	defer cancel()
	var cmd domain.Command
	switch {
	case (req.Signature == nil) == (req.TxHash == nil):
		return domain.Refuse(domain.ErrInvalid("send exactly one of signature (cross-currency) or tx_hash (same currency)")), nil
	case req.Signature != nil:
		c := domain.SubmitTransferSignature{Signature: *req.Signature}
		if t.Gasless != nil && t.State == domain.TransferAccepted {
			// Still permitted, as at accept: a permission revoked since
			// stops the relay. A same-currency tx_hash is not checked:
			// the payer's money has already moved.
			if derr := d.checkPay(ctx, acct, t); derr != nil {
				return domain.Refuse(derr), nil
			}
			c.Verified = d.cfg.Leg.Verify(t.Gasless, c.Signature)
			if c.Verified {
				if c.Preflight, err = d.cfg.Leg.Preflight(cctx, t.Gasless, c.Signature, domain.DecimalsOf(t.FromCurrency)); err != nil {
					return d.chainUnavailable(err), nil
				}
			}
		}
		cmd = c
	case !t.WantsTx():
		cmd = domain.SubmitTransferTx{TxHash: *req.TxHash, Status: domain.TxUnchecked} // Decide refuses: wrong kind or state
	default:
		c, err := d.checkTx(ctx, t, *req.TxHash)
		if err != nil {
			return d.chainUnavailable(err), nil
		}
		cmd = c
	}
	return d.e.Exec(ctx, id, domain.Request{Cmd: cmd, Idem: idem})
}

// checkTx looks a same-currency transfer's tx up: pending while not mined;
// verified when mined with a Transfer log of the exact token, from the
// source wallet, to the recipient, of the exact amount, which this
// transfer could claim; else the refusal. An error means the chain could
// not be read.
func (d *Desk) checkTx(ctx context.Context, t *domain.Transfer, txHash string) (domain.SubmitTransferTx, error) {
	cmd := domain.SubmitTransferTx{TxHash: txHash, Status: domain.TxPending}
	raw, err := hexutil.Decode(txHash)
	if err != nil || len(raw) != 32 {
		return cmd, nil // Decide refuses the malformed hash
	}
	// The look-up is the chain's (chainTimeout); the claim is a write of
	// the request's own time.
	lctx, cancel := context.WithTimeout(ctx, chainTimeout)
	rcpt, st, err := verify.Lookup(lctx, d.cfg.Chain, common.BytesToHash(raw))
	cancel()
	if err != nil || st == verify.Pending {
		return cmd, err
	}
	idx, refusal, err := d.claimLog(ctx, t, rcpt, st)
	if err != nil {
		return cmd, err
	}
	cmd.Status, cmd.LogIndex, cmd.Refusal = domain.TxVerified, idx, refusal
	return cmd, nil
}
