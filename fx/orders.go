package fx

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
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
// decides (idempotently): an existing order is returned as it is (403
// instead if the account could not accept it now: not permitted to swap,
// or its signer no longer one of the account's wallets), else the refusal
// computed here, else the new order. Every answer of an order of
// acct carries the relay pre-flight's issues (CONTRACT.md): what keeps its
// signer's Permit2 pull of the input from going through, read from the
// chain at this accept while the order is accepted (past that there is
// nothing left to fund: both null); the chain unreachable is 503 and
// nothing is stored.
func (d *Desk) Accept(ctx context.Context, acct, quoteID string, req AcceptRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	id, ok := OrderID(quoteID)
	if !ok {
		return domain.Refuse(domain.ErrNotFound("quote")), nil
	}
	cmd := domain.AcceptQuote{Account: acct, SourceWallet: req.SourceWallet}
	exec := d.e.Exec
	cur, err := d.e.Order(ctx, id)
	switch {
	case err == nil:
		// Accepted before: the entity answers with the order as it is
		// (another account's is not found, and learns nothing here), if
		// the account may still accept it.
		if cur.Account == acct {
			info, err := d.e.AccountInfo(ctx, acct)
			if err != nil {
				return domain.Outcome{}, fmt.Errorf("fx: accept: account %s: %w", acct, err)
			}
			cmd.NotPermitted = !info.Allows(actors.AccountInfo.SwapPermitted, cur.Signer) || foreignWallet(info, req.SourceWallet)
		}
		if cur.Account == acct && !cmd.NotPermitted && cur.State == domain.OrderAccepted {
			if cmd.Issues, err = d.issues(ctx, cur.FromCurrency, cur.Gasless, cur.RFQ); err != nil {
				return d.chainUnavailable(err), nil
			}
		}
	case !errors.Is(err, actors.ErrNoOrder):
		return domain.Outcome{}, err
	default:
		q := d.book.get(quoteID)
		switch {
		case q == nil || q.Account != acct:
			cmd.Refusal = domain.ErrNotFound("quote")
		case d.track.full():
			return domain.Refuse(domain.ErrUnavailable("%d orders are live; retry later", MaxLiveOrders)), nil
		default:
			create, rerr := d.prepare(ctx, q, req)
			cmd.Refusal = rerr
			if create != nil {
				cmd.Create = *create
				if cmd.Issues, err = d.issues(ctx, create.FromCurrency, create.Gasless, create.RFQ); err != nil {
					return d.chainUnavailable(err), nil
				}
			}
		}
		if cmd.Refusal == nil || idem.Stores() {
			// Under a key, a refusal too is stored in the order's record
			// like any answer (CONTRACT.md), so a retry with the key
			// replays it, even once the account may accept (a signature
			// guard is stored the same way).
			exec = d.e.Create
		}
	}
	out, err := exec(ctx, id, domain.Request{Cmd: cmd, Idem: idem})
	if errors.Is(err, actors.ErrNoOrder) {
		return domain.Refuse(cmd.Refusal), nil
	}
	return out, err
}

// checkSigner refuses a signer the account may not spend from: the quote's
// taker, or a source_wallet named at accept, that is not one of its wallets
// (quoted for any address, or unlinked since) is 403 not_permitted (SPEC.md:
// "If the account or source wallet is not permitted, accept … is refused
// with 403"), failing closed; a registered source_wallet other than the
// taker is a bad request (the quote is the taker's).
func checkSigner(info actors.AccountInfo, sourceWallet *string, taker string) *domain.Error {
	if foreignWallet(info, sourceWallet) || info.Wallets[taker] == nil {
		return domain.ErrNotPermitted(domain.MsgNotPermittedSwap)
	}
	return domain.CheckTaker(sourceWallet, taker) // malformed, or not the taker: 400
}

// foreignWallet reports whether wallet is a well-formed address that is none
// of the account's wallets (a malformed one is CheckTaker's to refuse). The
// first accept (checkSigner) and a repeat (AcceptQuote.NotPermitted) ask it
// alike.
func foreignWallet(info actors.AccountInfo, wallet *string) bool {
	if wallet == nil {
		return false
	}
	addr, err := domain.NormalizeAddress("source_wallet", *wallet)
	return err == nil && info.Wallets[addr] == nil
}

// issues is what stands in the way of the order's Permit2 pull: the
// signer's ERC-20 allowance for Permit2 and its balance of the input token,
// against the amount in. An amm order asks its gasless leg; an rfq funding
// is checked the same way (the escrow pulls through Permit2 too) and
// rendered by the same function. An error means the chain could not be
// read.
func (d *Desk) issues(ctx context.Context, from string, g *domain.GaslessTerms, r *domain.RFQTerms) (domain.Issues, error) {
	ctx, cancel := context.WithTimeout(ctx, chainTimeout)
	defer cancel()
	decimals := domain.DecimalsOf(from)
	switch {
	case g != nil:
		return d.cfg.Leg.Issues(ctx, g, decimals)
	case r != nil:
		is, err := verify.Check(ctx, d.chain, common.HexToAddress(r.TokenIn), common.HexToAddress(r.Taker),
			d.ch.Contracts.Permit2, r.AmountIn)
		if err != nil {
			return domain.Issues{}, err
		}
		return gasless.IssuesOf(is, decimals), nil
	}
	return domain.Issues{}, nil
}

// prepare checks that the quote may become an order now (not expired,
// account permitted, signer registered) and builds the order with its
// typed chain terms and the signing object made from them.
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
	if derr := checkSigner(info, req.SourceWallet, signer.Hex()); derr != nil {
		return nil, derr
	}
	deadline := now.Add(d.cfg.OrderDeadline).Truncate(time.Second)
	c := &domain.CreateOrder{
		Account: q.Account, QuoteID: q.ID, Route: q.Route, FromCurrency: q.FromCurrency, ToCurrency: q.ToCurrency,
		AmountIn: q.AmountIn, AmountOut: q.AmountOut, Signer: signer.Hex(), Deadline: deadline, AcceptedAt: now,
	}
	c.ID, _ = OrderID(q.ID)
	if raw, ok := ids.Parse("q_", q.ID); ok {
		c.QuotedAt = raw.Time() // the instant c.ID carries: it sorts there
	}
	var signing any
	unix := big.NewInt(deadline.Unix())
	switch q.Route {
	case domain.RouteAMM:
		min, err := amm.MinAmountOut(q.AmountOut, d.cfg.SlippageBps)
		if err != nil || min.Sign() <= 0 {
			return nil, domain.ErrInvalid("amount is too small to trade")
		}
		c.MinAmountOut = min
		c.Gasless = &domain.GaslessTerms{
			Signer: signer.Hex(), TokenIn: q.TokenIn.Hex(), TokenOut: q.TokenOut.Hex(), AmountIn: new(big.Int).Set(q.AmountIn),
			MinAmountOut: new(big.Int).Set(min), Recipient: signer.Hex(), Pool: q.Pool.Hex(), Deadline: unix, Nonce: eip712.RandomNonce(),
		}
		signing = d.cfg.Leg.Signing(c.Gasless)
	case domain.RouteRFQ:
		c.MinAmountOut = q.AmountOut // firm
		quote := q.Firm.Quote
		sig, serr := d.makerSign(ctx, q.ID, &quote)
		if serr != nil {
			return nil, serr
		}
		qh := rfq.QuoteHash(&quote)
		nonce := eip712.RandomNonce()
		f := &eip712.RfqEscrowFunding{
			Signer: signer, ExecutionID: rfq.ExecutionID(qh, signer, nonce), Escrow: d.ch.Contracts.RfqEscrow,
			QuoteHash: qh, Token: q.TokenIn, Amount: q.AmountIn, Deadline: unix, Nonce: nonce,
		}
		c.RFQ = rfqRow(&quote, f.ExecutionID, f.QuoteHash)
		signing = rfqSigning(d.domain, &quote, sig, f)
	}
	raw, jerr := json.Marshal(signing)
	if jerr != nil {
		panic("fx: marshal signing: " + jerr.Error())
	}
	c.Signing = raw
	return c, nil
}

// Submit is POST /fx/orders/{id}/submit: the signature of an amm order is
// verified off-chain and the relay's pre-flight run (allowance, balance,
// a simulation of the relay) before anything is relayed; the tx_hash of an
// rfq order is looked up and its QuoteEscrowed log checked field by field.
func (d *Desk) Submit(ctx context.Context, acct, id string, req SubmitRequest, idem *domain.IdemRequest) (domain.Outcome, error) {
	o, err := d.e.Order(ctx, id)
	if errors.Is(err, actors.ErrNoOrder) || err == nil && o.Account != acct {
		return domain.Refuse(domain.ErrNotFound("order")), nil
	}
	if err != nil {
		return domain.Outcome{}, err
	}
	var cmd domain.Command
	switch {
	case (req.Signature == nil) == (req.TxHash == nil):
		return domain.Refuse(domain.ErrInvalid("send exactly one of signature (route amm) or tx_hash (route rfq)")), nil
	case req.Signature != nil:
		if o.State == domain.OrderAccepted {
			// Still permitted, as at accept: a permission revoked since
			// stops the relay. An rfq order's tx_hash is not checked: the
			// payer's money is already in the escrow, and only settling or
			// refunding it is left.
			if derr := d.e.CheckPermitted(ctx, acct, o.Signer, actors.AccountInfo.SwapPermitted, domain.MsgNotPermittedSwap); derr != nil {
				return domain.Refuse(derr), nil
			}
		}
		c := domain.SubmitAMMSignature{Signature: *req.Signature, Verified: d.verifyAMM(o, *req.Signature)}
		if c.Verified && o.State == domain.OrderAccepted {
			cctx, cancel := context.WithTimeout(ctx, chainTimeout)
			c.Preflight, err = d.cfg.Leg.Preflight(cctx, o.Gasless, c.Signature, domain.DecimalsOf(o.FromCurrency))
			cancel()
			if err != nil {
				return d.chainUnavailable(err), nil
			}
		}
		cmd = c
	case o.Route != domain.RouteRFQ:
		cmd = domain.SubmitRFQTx{TxHash: *req.TxHash} // Decide refuses: wrong route
	default:
		cctx, cancel := context.WithTimeout(ctx, chainTimeout)
		status, err := d.checkFunding(cctx, o, *req.TxHash)
		cancel()
		if err != nil {
			return d.chainUnavailable(err), nil
		}
		cmd = domain.SubmitRFQTx{TxHash: *req.TxHash, Status: status}
	}
	return d.e.Exec(ctx, id, domain.Request{Cmd: cmd, Idem: idem})
}

// chainUnavailable answers a request whose chain reads got no answer in
// time: 503 unavailable with Retry-After, nothing stored. The cause names
// the node, so it goes to the log, not to the caller.
func (d *Desk) chainUnavailable(err error) domain.Outcome {
	d.cfg.Logger.Warn("chain read of a request failed", "err", err.Error())
	return domain.Refuse(connect.Unavailable())
}

// verifyAMM reports whether sig is the order signer's Permit2 signature of
// the exact terms it was given to sign.
func (d *Desk) verifyAMM(o *domain.Order, sig string) bool {
	return o.Route == domain.RouteAMM && o.Gasless != nil && d.cfg.Leg.Verify(o.Gasless, sig)
}

// checkFunding looks up an rfq funding tx (fundingStatus). A malformed
// hash is left to Decide (400); an error means the chain did not answer.
func (d *Desk) checkFunding(ctx context.Context, o *domain.Order, txHash string) (string, error) {
	raw, err := hexutil.Decode(txHash)
	if err != nil || len(raw) != 32 || o.RFQ == nil {
		return domain.RFQTxPending, nil
	}
	rcpt, st, err := verify.Lookup(ctx, d.chain, common.BytesToHash(raw))
	if err != nil {
		return "", err
	}
	return d.fundingStatus(rcpt, st, rfqTermsOf(o.RFQ)), nil
}

// fundingStatus is what a looked-up funding tx says: pending while not
// mined, verified when mined with the order's QuoteEscrowed log (checked
// field by field), else not verified (reverted, or mined without it).
func (d *Desk) fundingStatus(rcpt *types.Receipt, st verify.Status, t *rfqTerms) string {
	switch st {
	case verify.Pending:
		return domain.RFQTxPending
	case verify.Mined:
		if l := verify.InReceipt(rcpt, d.ch.Contracts.RfqEscrow, topicEscrowed, t.ExecutionID); l != nil && d.escrowedMatches(*l, t) {
			return domain.RFQTxVerified
		}
	}
	return domain.RFQTxNotVerified
}

// makerSign has the quote's maker sign it: a firm quote is the maker's
// commitment from the moment it is made, but its EIP-712 signature (for
// the escrow call only) is made here, at accept, not for every quote. A
// maker that no longer holds the quote makes it expired (stored under the
// key); a maker that does not answer is 503 (not stored).
func (d *Desk) makerSign(ctx context.Context, quoteID string, q *rfq.Quote) ([]byte, *domain.Error) {
	for _, m := range d.cfg.Makers {
		if m.Address() != q.Maker {
			continue
		}
		ctx, cancel := context.WithTimeout(ctx, makerDeadline)
		defer cancel()
		sig, err := m.Sign(ctx, q)
		switch {
		case errors.Is(err, maker.ErrNoQuote):
			return nil, domain.ErrQuoteExpired(quoteID)
		case err != nil:
			return nil, domain.ErrUnavailable("maker: %v", err)
		}
		return sig, nil
	}
	return nil, domain.ErrUnavailable("no maker %s", q.Maker.Hex())
}
