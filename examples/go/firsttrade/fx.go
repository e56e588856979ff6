package main

import (
	"context"
	"fmt"

	"github.com/fxd-labs/fxd/client"
)

// quote asks both rails for an exact input of tradeUSDC and returns the
// quote of route ("amm": the pool's indicative price; "rfq": a market
// maker's firm price). best_quote_id names the larger output; this walk
// takes each rail in turn to show both.
func (ex *example) quote(ctx context.Context, route string) (*client.Quote, error) {
	ql, err := ex.api.CreateQuotes(ctx, client.QuoteRequest{
		FromCurrency: "USDC", ToCurrency: "EURC", Amount: tradeUSDC, SourceWallet: ex.wallet.Address().Hex(),
	})
	if err != nil {
		return nil, err
	}
	for i := range ql.Quotes {
		if ql.Quotes[i].Route == route {
			return &ql.Quotes[i], nil
		}
	}
	return nil, fmt.Errorf("no %s quote among %d", route, len(ql.Quotes))
}

// tradeAMM: quote, accept (the order and the typed data to sign), sign
// with eth_signTypedData_v4, submit the signature, poll until settled.
// The signed order is a Permit2 witness transfer: the service's relayer
// broadcasts it and pays the gas, and the contracts refuse any order but
// the one signed (amounts, pool, recipient, deadline, nonce).
func (ex *example) tradeAMM(ctx context.Context) error {
	q, err := ex.quote(ctx, "amm")
	if err != nil {
		return err
	}
	o, err := ex.api.AcceptQuote(ctx, q.ID, &client.AcceptQuoteRequest{SourceWallet: ex.wallet.Address().Hex()})
	if err != nil {
		return err
	}
	ex.mine[o.OrderID] = true
	if err := noIssues(o.Issues); err != nil {
		return err
	}
	if err := ex.checkGasless(o.Signing, tradeUSDC, ex.wallet.Address()); err != nil {
		return err
	}
	sig, err := ex.wallet.SignTypedData(o.Signing.TypedData)
	if err != nil {
		return err
	}
	if _, err := ex.api.SubmitOrder(ctx, o.OrderID, client.SubmitRequest{Signature: sig}); err != nil {
		return err
	}
	done, err := ex.awaitOrder(ctx, o.OrderID)
	if err != nil {
		return err
	}
	say("fx-amm", "%s %s %s -> %s %s settled (quoted %s, at least %s); the service relayed tx %s",
		done.OrderID, done.AmountIn, done.FromCurrency, done.AmountOut, done.ToCurrency, q.AmountOut, done.MinAmountOut, deref(done.TxHash))
	return nil
}

// tradeRFQ: quote, accept a maker's firm quote, sign the escrow funding
// (typed data again, an RfqEscrowFunding witness), then broadcast the
// escrow call ourselves (RFQ funding is not relayed: the wallet pays the
// gas), submit its tx hash, poll until the maker has settled.
func (ex *example) tradeRFQ(ctx context.Context) error {
	q, err := ex.quote(ctx, "rfq")
	if err != nil {
		return err
	}
	o, err := ex.api.AcceptQuote(ctx, q.ID, &client.AcceptQuoteRequest{SourceWallet: ex.wallet.Address().Hex()})
	if err != nil {
		return err
	}
	ex.mine[o.OrderID] = true
	if err := noIssues(o.Issues); err != nil {
		return err
	}
	if err := ex.checkFunding(o.Signing, tradeUSDC); err != nil {
		return err
	}
	sig, err := ex.wallet.SignTypedData(o.Signing.TypedData)
	if err != nil {
		return err
	}
	// signing.call is escrowQuoteWithPermit2's ABI and its first three
	// arguments (the maker's quote and signature, the funding); the
	// Permit2 signature is the fourth.
	tx, err := ex.wallet.FundEscrow(ctx, o.Signing.Call, sig)
	if err != nil {
		return err
	}
	if _, err := ex.api.SubmitOrder(ctx, o.OrderID, client.SubmitRequest{TxHash: tx.Hex()}); err != nil {
		return err
	}
	done, err := ex.awaitOrder(ctx, o.OrderID)
	if err != nil {
		return err
	}
	say("fx-rfq", "%s %s %s -> %s %s settled at %s's firm price; we funded the escrow in tx %s",
		done.OrderID, done.AmountIn, done.FromCurrency, done.AmountOut, done.ToCurrency, deref(q.Provider), tx.Hex())
	return nil
}

// awaitOrder polls the order until it is settled; another end state is an
// error with the order's failure_reason.
func (ex *example) awaitOrder(ctx context.Context, id string) (*client.Order, error) {
	var o *client.Order
	err := await(ctx, "order "+id, "settled", func() (string, *string, error) {
		var err error
		if o, err = ex.api.GetOrder(ctx, id); err != nil {
			return "", nil, err
		}
		return o.State, o.FailureReason, nil
	}, "failed", "expired", "refunded")
	return o, err
}

func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
