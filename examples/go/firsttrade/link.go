package main

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// paymentLink creates a link asking linkUSDC and has a customer pay it.
// The link's receive_address is its own: a forwarder contract that can
// only send to the payout wallet (ours), so the customer needs no account
// and no approval, just a plain ERC-20 transfer from any wallet. The
// service sees the Transfer log by itself; telling it the tx hash (POST
// /pay/{id}/submit, no key needed) only makes it look at once.
func (ex *example) paymentLink(ctx context.Context) error {
	l, err := ex.api.CreatePaymentLink(ctx, client.PaymentLinkRequest{
		Currency: "USDC", Amount: linkUSDC, Description: "order #1001", PayoutWallet: ex.wallet.Address().Hex(),
	})
	if err != nil {
		return err
	}
	ex.mine[l.ID] = true

	// The customer: a stranger's wallet with USDC and gas, and the public
	// page of the link (what a checkout page would read from l.URL).
	customer, err := wallet.New(ex.eth, ex.chainID)
	if err != nil {
		return err
	}
	if _, err := ex.admin.faucet(ctx, customer.Address(), "USDC", linkUSDC); err != nil {
		return err
	}
	page, err := ex.public.GetPublicPaymentLink(ctx, l.ID)
	if err != nil {
		return err
	}
	amount, err := ex.units(page.Currency, page.Amount)
	if err != nil {
		return err
	}
	tx, err := customer.Transact(ctx, common.HexToAddress(page.TokenAddress), wallet.ERC20, "transfer", common.HexToAddress(page.ReceiveAddress), amount)
	if err != nil {
		return err
	}
	if _, err := ex.public.PayPaymentLink(ctx, l.ID, client.TxHashRequest{TxHash: tx.Hex()}); err != nil {
		return err
	}
	var paid *client.PaymentLink
	err = await(ctx, "payment link "+l.ID, "paid", func() (string, *string, error) {
		var err error
		if paid, err = ex.api.GetPaymentLink(ctx, l.ID); err != nil {
			return "", nil, err
		}
		return paid.State, nil, nil
	}, "cancelled", "expired")
	if err != nil {
		return err
	}
	say("link", "%s %s %s paid by customer %s to %s (tx %s); it goes on to %s",
		paid.ID, paid.AmountReceived, paid.Currency, customer.Address().Hex(), paid.ReceiveAddress, tx.Hex(), paid.PayoutWallet)
	return nil
}

// printLedger prints this run's entries of the account's ledger: one per
// order, transfer and link, kept in place as each moved (newest first).
// The demo account's ledger holds every earlier run too, hence the filter
// on created_at and on the ids this run made.
func (ex *example) printLedger(ctx context.Context) error {
	n := 0
	f := client.TransactionFilter{From: ex.started}
	for e, err := range ex.api.AllTransactions(ctx, client.TransactionListParams{TransactionFilter: f}) {
		if err != nil {
			return err
		}
		if !ex.mine[e.ReferenceID] {
			continue
		}
		say("ledger", "%s %s %s %s -> %s %s %s", e.Type, e.State, e.AmountIn, e.FromCurrency, deref(e.AmountOut), e.ToCurrency, e.ReferenceID)
		n++
	}
	if n != len(ex.mine) {
		return fmt.Errorf("%d of this run's %d records are in the ledger", n, len(ex.mine))
	}
	return nil
}
