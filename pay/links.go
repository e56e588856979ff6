package pay

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/actors"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/rfc3339"
)

// LinkRequest is the body of POST /payment-links (CONTRACT.md).
type LinkRequest struct {
	Currency     string  `json:"currency"`
	Amount       string  `json:"amount"`
	Description  *string `json:"description"`
	ExpiresAt    *string `json:"expires_at"`
	PayoutWallet *string `json:"payout_wallet"`
}

// LinkUpdate is the body of PATCH /payment-links/{id}.
type LinkUpdate struct {
	State string `json:"state"`
}

// PaySubmit is the body of POST /pay/{id}/submit.
type PaySubmit struct {
	TxHash string `json:"tx_hash"`
}

// CreateLink is POST /payment-links: the link's id is reserved first (under
// the Idempotency-Key), so its receive address, the CREATE2 address of a
// forwarder bound to the payout wallet, is derived from it before the link
// exists.
func (d *Desk) CreateLink(ctx context.Context, acct string, req LinkRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	if d.links.Len() >= MaxLiveLinks { // a passing condition: answered, never stored
		return domain.Refuse(domain.ErrUnavailable("%d payment links are live; retry later", MaxLiveLinks)), nil
	}
	r, out, err := d.e.Reserve(ctx, acct, domain.KindLink, idem)
	if r.ID == "" || err != nil {
		return out, err
	}
	id := r.ID
	info, err := d.e.AccountInfo(ctx, acct)
	if err != nil {
		return domain.Outcome{}, err
	}
	now := d.cfg.Clock().UTC()
	cmd := domain.CreateLink{ID: id, Account: acct, Currency: req.Currency, ChainID: d.cfg.ChainID.Uint64(),
		URL: strings.TrimRight(d.cfg.PublicBase, "/") + "/pay/" + id}
	if req.Description != nil {
		cmd.Description = *req.Description
	}
	cur, derr := domain.RequiredCurrency("currency", req.Currency)
	if derr == nil {
		cmd.Amount, derr = domain.ParseAmount("amount", req.Amount, cur.Decimals)
	}
	if derr == nil && req.ExpiresAt != nil {
		cmd.ExpiresAt, derr = parseFuture("expires_at", *req.ExpiresAt, now)
	}
	if derr == nil && !info.PayPermitted() {
		derr = domain.ErrNotPermitted(domain.MsgNotPermittedPay)
	}
	if derr == nil {
		cmd.PayoutWallet, derr = accountWallet(info, "payout_wallet", req.PayoutWallet, notOwnPayout)
	}
	if derr == nil {
		cctx, cancel := context.WithTimeout(ctx, chainTimeout)
		head, err := d.cfg.Chain.BlockNumber(cctx)
		cancel()
		if err != nil {
			return d.chainUnavailable(err), nil
		}
		cmd.FromBlock = head
		token := d.cfg.Tokens[req.Currency]
		cmd.TokenAddress = token.Hex()
		cmd.ReceiveAddress = fxbind.ForwarderAddress(d.cfg.Factory, fxbind.LinkSalt(id), common.HexToAddress(cmd.PayoutWallet)).Hex()
	}
	cmd.Refusal = derr
	return d.e.CreateReserved(ctx, r, domain.Request{Cmd: cmd, Idem: idem})
}

// parseFuture reads an RFC 3339 time that must be after now. A fraction
// of a second is cut off, as every time fxd shows has whole seconds: the
// link expires at the instant its expires_at shows, not up to a second
// after it.
func parseFuture(field, s string, now time.Time) (time.Time, *domain.Error) {
	t, err := rfc3339.Parse(s)
	if err != nil {
		return time.Time{}, domain.ErrInvalid("%s must be an RFC 3339 time: %v", field, err)
	}
	t = t.Truncate(time.Second)
	if !t.After(now) {
		return time.Time{}, domain.ErrInvalid("%s must be in the future", field)
	}
	return t, nil
}

// Link reads a link; acct "" reads it for the public page, else another
// account's link is ErrNoEntity.
func (d *Desk) Link(ctx context.Context, acct, id string) (*domain.Link, error) {
	r, err := d.e.Row(ctx, domain.KindLink, id, acct)
	if err != nil {
		return nil, err
	}
	return r.(*domain.Link).At(d.cfg.Clock()), nil
}

// CancelLink is PATCH /payment-links/{id} {"state":"cancelled"}.
func (d *Desk) CancelLink(ctx context.Context, acct, id string, req LinkUpdate, idem *domain.IdemRequest) (domain.Outcome, error) {
	if req.State != domain.LinkCancelled {
		return domain.Refuse(domain.ErrInvalid(`state must be "cancelled"`)), nil
	}
	if k, ok := domain.KindOf(id); !ok || k != domain.KindLink {
		return domain.Refuse(domain.ErrNotFound("payment link")), nil
	}
	out, err := d.e.Exec(ctx, id, domain.Request{Cmd: domain.CancelLink{Account: acct}, Idem: idem})
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Refuse(domain.ErrNotFound("payment link")), nil
	}
	return out, err
}

// SubmitPayment is the public POST /pay/{id}/submit: the tx is verified at
// once instead of waiting for the watcher. Its Transfer logs of the link's
// token to the receive address are counted (each once, ever); a mined tx
// without one is 400 transfer_not_verified; a tx not mined yet is answered
// with the link as it is (the watcher counts it when it is mined), and
// one the node does not know at all is 400 (unminedPayment).
func (d *Desk) SubmitPayment(ctx context.Context, id string, req PaySubmit) (domain.Outcome, error) {
	l, err := d.Link(ctx, "", id)
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Refuse(domain.ErrNotFound("payment link")), nil
	}
	if err != nil {
		return domain.Outcome{}, err
	}
	raw, herr := hexutil.Decode(req.TxHash)
	if herr != nil || len(raw) != 32 {
		return domain.Refuse(domain.ErrInvalid("tx_hash must be a 0x-prefixed 32-byte hex hash")), nil
	}
	cctx, cancel := context.WithTimeout(ctx, chainTimeout)
	defer cancel()
	rcpt, st, err := verify.Lookup(cctx, d.cfg.Chain, common.BytesToHash(raw))
	switch {
	case err != nil:
		return d.chainUnavailable(err), nil
	case st == verify.Pending:
		return d.unminedPayment(cctx, l, common.BytesToHash(raw)), nil
	}
	payments := linkPayments(rcpt, l)
	if len(payments) == 0 {
		return domain.Refuse(domain.ErrTransferNotVerified("transaction %s holds no %s Transfer to %s", rcpt.TxHash.Hex(), l.Currency, l.ReceiveAddress)), nil
	}
	return d.e.Exec(ctx, id, domain.Request{Cmd: domain.PayLink{Payments: payments}})
}

// unminedPayment answers a submit of a tx without a receipt: one the
// chain's pool holds gets the link as it is (the watcher counts it once
// mined); one the node knows nowhere, in a block or its pool, is 400, as
// it holds no Transfer. Refusing it loses nothing: the submit only hints,
// and the watcher counts a payment it finds whether or not it was
// submitted (a tx broadcast through another node and not yet seen here
// may be submitted again, or left to the watcher).
func (d *Desk) unminedPayment(ctx context.Context, l *domain.Link, h common.Hash) domain.Outcome {
	_, _, err := d.cfg.Chain.TransactionByHash(ctx, h)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return domain.Refuse(domain.ErrTransferNotVerified("the chain knows no transaction %s (neither mined nor pending)", h.Hex()))
	case err != nil:
		return d.chainUnavailable(err)
	}
	// Pending, or mined since the receipt lookup: the watcher counts it.
	return domain.Outcome{Reply: jsonOK(domain.ViewPublicLink(l))}
}

// linkPayments are the receipt's verified Transfer logs of the link's
// token to its receive address.
func linkPayments(rcpt *types.Receipt, l *domain.Link) []domain.LinkPayment {
	var out []domain.LinkPayment
	for _, tl := range verify.FindTransfers(rcpt, common.HexToAddress(l.TokenAddress), common.HexToAddress(l.ReceiveAddress)) {
		if p, ok := linkPayment(tl); ok {
			out = append(out, p)
		}
	}
	return out
}

// linkPayment is a verified Transfer log as a link payment, with its
// block's time when the node gave it. A Transfer of nothing is none:
// anyone can send one to any address.
func linkPayment(t verify.Transfer) (domain.LinkPayment, bool) {
	if t.Value.Sign() <= 0 {
		return domain.LinkPayment{}, false
	}
	p := domain.LinkPayment{TxHash: t.TxHash.Hex(), LogIndex: uint64(t.LogIndex), Amount: t.Value}
	if t.BlockTime != 0 {
		p.MinedAt = time.Unix(int64(t.BlockTime), 0).UTC()
	}
	return p, true
}

// jsonOK is a 200 answer computed by the host (no write).
func jsonOK(v any) domain.Reply { return domain.Reply{Status: 200, Body: mustJSON(v)} }
