package main

import (
	"context"
	"fmt"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// The amounts of this walk, in currency units (decimal strings: the API
// never uses floating point for money).
const (
	fundUSDC  = "1000" // from the faucet
	tradeUSDC = "100"  // sold for EURC on each rail
	payUSDC   = "25"   // paid to a supplier in USDC
	swapUSDC  = "40"   // paid to a supplier in EURC, out of USDC
	linkUSDC  = "30"   // asked by the payment link
)

// linkWallet makes the account's signer wallet and links it by SIWE
// (EIP-4361): the service issues a challenge naming the address, the
// wallet signs it with personal_sign, and the signature proves control.
// Only a linked wallet can sign the account's orders and payments.
func (ex *example) linkWallet(ctx context.Context) error {
	w, err := wallet.New(ex.eth, ex.chainID)
	if err != nil {
		return err
	}
	ex.wallet = w
	say("wallet", "%s made here; its key never leaves this process", w.Address().Hex())

	ch, err := ex.api.CreateWalletChallenge(ctx, client.WalletChallengeRequest{Address: w.Address().Hex()})
	if err != nil {
		return err
	}
	sig, err := w.PersonalSign(ch.Message)
	if err != nil {
		return err
	}
	linked, err := ex.api.RegisterWallet(ctx, client.WalletRegisterRequest{Message: ch.Message, Signature: sig})
	if err != nil {
		return err
	}
	// The account's first wallet is its primary, which quotes and payments
	// use by default. The demo account keeps the wallets of earlier runs,
	// so this walk names its wallet in every request (source_wallet).
	say("siwe", "%s linked to %s by a signed SIWE challenge (nonce %s, primary: %t)", linked.Address, ex.account, ch.Nonce, linked.Primary)
	return nil
}

// fund gets test tokens and gas from the faucet. The wallet pays gas for
// what it broadcasts itself: the Permit2 approval, the RFQ escrow funding
// and the same-currency transfer. AMM trades and cross-currency transfers
// are relayed: gasless for the wallet.
func (ex *example) fund(ctx context.Context) error {
	tx, err := ex.admin.faucet(ctx, ex.wallet.Address(), "USDC", fundUSDC)
	if err != nil {
		return err
	}
	say("faucet", "%s USDC and gas sent to %s (tx %s)", fundUSDC, ex.wallet.Address().Hex(), tx)
	return nil
}

// approvePermit2 lets Permit2 move the wallet's USDC: the one ERC-20
// approval a Permit2 user makes, once per token. Afterwards every order
// is a signature over the exact token, amount, spender, deadline and
// nonce, checked by Permit2 on chain, so the approval alone moves nothing.
// Without it, accept answers issues.allowance and submit is refused with
// insufficient_allowance.
func (ex *example) approvePermit2(ctx context.Context) error {
	tx, err := ex.wallet.ApprovePermit2(ctx, ex.token("USDC"))
	if err != nil {
		return err
	}
	say("permit2", "USDC %s approved for Permit2 %s (tx %s)", ex.token("USDC").Hex(), wallet.Permit2.Hex(), tx.Hex())
	return nil
}

// noIssues refuses to go on when accept reports what would make the
// relay or the funding fail (CONTRACT.md: issues, as 0x's API answers).
func noIssues(is client.Issues) error {
	if a := is.Allowance; a != nil {
		return fmt.Errorf("Permit2 may move %s of token %s, the order needs %s: approve Permit2 first", a.Actual, a.Token, a.Required)
	}
	if b := is.Balance; b != nil {
		return fmt.Errorf("the wallet holds %s of token %s, the order needs %s", b.Actual, b.Token, b.Required)
	}
	return nil
}
