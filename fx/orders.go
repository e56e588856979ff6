package fx

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/domain"
)

// AcceptRequest is the body of POST /fx/quotes/{id}/accept (optional).
type AcceptRequest struct {
	SourceWallet *string `json:"source_wallet"`
}

// SubmitRequest is the body of POST /fx/orders/{id}/submit: signature on
// an amm order, tx_hash on an rfq order.
type SubmitRequest struct {
	Signature *string `json:"signature"`
	TxHash    *string `json:"tx_hash"`
}

// Accept turns quote quoteID of acct into an order. The order entity
// decides (idempotently): an existing order is returned as it is, else the
// refusal computed here, else the new order.
func (d *Desk) Accept(ctx context.Context, acct, quoteID string, req AcceptRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	id, ok := orderID(quoteID)
	if !ok {
		return refusal(domain.ErrNotFound("quote")), nil
	}
	cmd := domain.AcceptQuote{Account: acct}
	q := d.book.get(quoteID)
	switch {
	case q == nil || q.Account != acct:
		cmd.Refusal = domain.ErrNotFound("quote")
	case d.track.full():
		return refusal(domain.ErrUnavailable("%d orders are live; retry later", MaxLiveOrders)), nil
	default:
		create, err := d.prepare(ctx, q, req)
		cmd.Refusal = err
		if create != nil {
			cmd.Create = *create
		}
	}
	out, err := d.e.OrderExec(ctx, id, domain.OrderRequest{Cmd: cmd, Idem: idem}, cmd.Refusal == nil)
	if errors.Is(err, actors.ErrNoOrder) {
		return refusal(cmd.Refusal), nil
	}
	return out, err
}

// prepare checks that the quote may become an order now (not expired,
// account permitted, signer registered) and builds the order with its
// typed data.
func (d *Desk) prepare(ctx context.Context, q *Quote, req AcceptRequest) (*domain.CreateOrder, *domain.Error) {
	now := d.cfg.Clock().UTC().Round(0)
	if now.After(q.ExpiresAt) {
		return nil, domain.ErrQuoteExpired(q.ID)
	}
	info, err := d.e.AccountInfo(ctx, q.Account)
	if err != nil {
		return nil, domain.ErrUnavailable("account: %v", err)
	}
	if !info.SwapPermitted() {
		return nil, domain.ErrNotPermitted(domain.MsgNotPermittedSwap)
	}
	signer := q.Taker
	if req.SourceWallet != nil {
		addr, derr := domain.NormalizeAddress("source_wallet", *req.SourceWallet)
		if derr != nil {
			return nil, derr
		}
		if common.HexToAddress(addr) != q.Taker {
			return nil, domain.ErrInvalid("source_wallet must be the quote's taker %s", q.Taker.Hex())
		}
	}
	// The wallet may have been unlinked since the quote: fail closed.
	if info.Wallets[signer.Hex()] == nil {
		return nil, domain.ErrNotPermitted(domain.MsgNotPermittedSwap)
	}
	deadline := now.Add(d.cfg.OrderDeadline).Truncate(time.Second)
	c := &domain.CreateOrder{
		Account: q.Account, QuoteID: q.ID, Route: q.Route, FromCurrency: q.FromCurrency, ToCurrency: q.ToCurrency,
		AmountIn: q.AmountIn, AmountOut: q.AmountOut, Signer: signer.Hex(), Deadline: deadline,
	}
	c.ID, _ = orderID(q.ID)
	var signing any
	unix := big.NewInt(deadline.Unix())
	switch q.Route {
	case domain.RouteAMM:
		min, err := amm.MinAmountOut(q.AmountOut, d.cfg.SlippageBps)
		if err != nil || min.Sign() <= 0 {
			return nil, domain.ErrInvalid("amount is too small to trade")
		}
		c.MinAmountOut = min
		signing = gaslessSigning(d.domain, d.ch.Contracts.RelayRouter, &eip712.GaslessOrder{
			Signer: signer, TokenIn: q.TokenIn, TokenOut: q.TokenOut, AmountIn: q.AmountIn, MinAmountOut: min,
			Recipient: signer, Pool: q.Pool, Deadline: unix, Nonce: randomNonce(),
		})
	case domain.RouteRFQ:
		c.MinAmountOut = q.AmountOut // firm
		quote := q.Firm.Quote
		qh := rfq.QuoteHash(&quote)
		nonce := randomNonce()
		signing = rfqSigning(d.domain, &quote, q.Firm.Signature, &eip712.RfqEscrowFunding{
			Signer: signer, ExecutionID: rfq.ExecutionID(qh, signer, nonce), Escrow: d.ch.Contracts.RfqEscrow,
			QuoteHash: qh, Token: q.TokenIn, Amount: q.AmountIn, Deadline: unix, Nonce: nonce,
		})
	}
	raw, jerr := json.Marshal(signing)
	if jerr != nil {
		panic("fx: marshal signing: " + jerr.Error())
	}
	c.Signing = raw
	return c, nil
}

// Submit is POST /fx/orders/{id}/submit: the signature of an amm order is
// verified off-chain before anything is relayed; the tx_hash of an rfq
// order is looked up and its QuoteEscrowed log checked field by field.
func (d *Desk) Submit(ctx context.Context, acct, id string, req SubmitRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	o, err := d.e.Order(ctx, id)
	if errors.Is(err, actors.ErrNoOrder) || err == nil && o.Account != acct {
		return refusal(domain.ErrNotFound("order")), nil
	}
	if err != nil {
		return domain.Outcome{}, err
	}
	var cmd domain.OrderCommand
	switch {
	case (req.Signature == nil) == (req.TxHash == nil):
		return refusal(domain.ErrInvalid("send exactly one of signature (route amm) or tx_hash (route rfq)")), nil
	case req.Signature != nil:
		cmd = domain.SubmitAMMSignature{Signature: *req.Signature, Verified: d.verifyAMM(o, *req.Signature)}
	case o.Route != domain.RouteRFQ:
		cmd = domain.SubmitRFQTx{TxHash: *req.TxHash} // Decide refuses: wrong route
	default:
		status, err := d.checkFunding(ctx, o, *req.TxHash)
		if err != nil {
			return refusal(domain.ErrUnavailable("chain: %v", err)), nil
		}
		cmd = domain.SubmitRFQTx{TxHash: *req.TxHash, Status: status}
	}
	return d.e.OrderExec(ctx, id, domain.OrderRequest{Cmd: cmd, Idem: idem}, false)
}

// verifyAMM reports whether sig is the order signer's Permit2 signature of
// the exact order it was given to sign.
func (d *Desk) verifyAMM(o *domain.Order, sig string) bool {
	if o.Route != domain.RouteAMM {
		return false
	}
	raw, err := hexutil.Decode(sig)
	if err != nil {
		return false
	}
	g, err := parseGasless(o.Signing)
	if err != nil {
		d.cfg.Logger.Error("stored signing unreadable", "order", o.ID, "err", err.Error())
		return false
	}
	return eip712.VerifyGasless(d.domain, d.ch.Contracts.RelayRouter, g, raw) == nil
}

// checkFunding looks up an rfq funding tx: pending while not mined,
// verified when mined with this order's QuoteEscrowed log, else not
// verified. A malformed hash is left to Decide (400).
func (d *Desk) checkFunding(ctx context.Context, o *domain.Order, txHash string) (string, error) {
	raw, err := hexutil.Decode(txHash)
	if err != nil || len(raw) != 32 {
		return domain.RFQTxPending, nil
	}
	rcpt, err := d.ch.Client.TransactionReceipt(ctx, common.BytesToHash(raw))
	if errors.Is(err, ethereum.NotFound) {
		return domain.RFQTxPending, nil
	}
	if err != nil {
		return "", err
	}
	terms, err := parseRFQ(o.Signing)
	if err != nil {
		return "", err
	}
	if rcpt.Status == 1 {
		for _, l := range rcpt.Logs {
			if d.escrowedMatches(*l, terms) {
				return domain.RFQTxVerified, nil
			}
		}
	}
	return domain.RFQTxNotVerified, nil
}

// refusal is an outcome without events.
func refusal(err *domain.Error) domain.Outcome { return domain.Outcome{Reply: err.Reply()} }
