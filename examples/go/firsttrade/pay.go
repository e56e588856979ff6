package main

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// paySameCurrency pays a supplier in USDC from USDC. The answer carries
// the ERC-20 transfer to sign (signing.tx); the wallet broadcasts it and
// submits the hash, and the service finds the Transfer log (token, from,
// to and value exactly) before it confirms.
func (ex *example) paySameCurrency(ctx context.Context) error {
	supplier, err := randomAddress()
	if err != nil {
		return err
	}
	tr, err := ex.api.CreateTransfer(ctx, client.TransferRequest{
		FromCurrency: "USDC", Currency: "USDC", Amount: payUSDC, Recipient: supplier.Hex(),
		SourceWallet: ex.wallet.Address().Hex(), Memo: "invoice 1001",
	})
	if err != nil {
		return err
	}
	ex.mine[tr.ID] = true
	if tr.Signing == nil || tr.Signing.Tx == nil {
		return fmt.Errorf("transfer %s has no signing.tx", tr.ID)
	}
	if err := ex.checkTransferTx(tr.Signing.Tx, supplier); err != nil {
		return err
	}
	data, err := hexutil.Decode(tr.Signing.Tx.Data)
	if err != nil {
		return fmt.Errorf("signing.tx.data: %w", err)
	}
	tx, err := ex.wallet.SendData(ctx, common.HexToAddress(tr.Signing.Tx.To), data)
	if err != nil {
		return err
	}
	if _, err := ex.api.SubmitTransfer(ctx, tr.ID, client.SubmitRequest{TxHash: tx.Hex()}); err != nil {
		return err
	}
	done, err := ex.awaitTransfer(ctx, tr.ID)
	if err != nil {
		return err
	}
	say("transfer", "%s %s %s to %s confirmed; we broadcast tx %s", done.ID, done.Amount, done.Currency, done.Recipient, deref(done.TxHash))
	return nil
}

// payCrossCurrency pays a supplier in EURC out of USDC: one atomic swap
// whose output goes to the payee. Accept prices it on the pool and
// returns a GaslessOrder to sign, as an AMM order, with recipient = the
// payee; the service relays it.
func (ex *example) payCrossCurrency(ctx context.Context) error {
	supplier, err := randomAddress()
	if err != nil {
		return err
	}
	tr, err := ex.api.CreateTransfer(ctx, client.TransferRequest{
		FromCurrency: "USDC", Currency: "EURC", Amount: swapUSDC, Recipient: supplier.Hex(),
		SourceWallet: ex.wallet.Address().Hex(), Memo: "invoice 1002",
	})
	if err != nil {
		return err
	}
	ex.mine[tr.ID] = true
	acc, err := ex.api.AcceptTransfer(ctx, tr.ID)
	if err != nil {
		return err
	}
	if err := noIssues(acc.Issues); err != nil {
		return err
	}
	if err := ex.checkGasless(acc.Signing, swapUSDC, supplier); err != nil {
		return err
	}
	sig, err := ex.wallet.SignTypedData(acc.Signing.TypedData)
	if err != nil {
		return err
	}
	if _, err := ex.api.SubmitTransfer(ctx, tr.ID, client.SubmitRequest{Signature: sig}); err != nil {
		return err
	}
	done, err := ex.awaitTransfer(ctx, tr.ID)
	if err != nil {
		return err
	}
	say("transfer", "%s %s %s -> %s %s to %s confirmed; the service relayed tx %s",
		done.ID, done.Amount, done.FromCurrency, deref(done.AmountOut), done.Currency, done.Recipient, deref(done.TxHash))
	return nil
}

// checkTransferTx decodes signing.tx before the wallet signs it: USDC's
// transfer(supplier, payUSDC) on this chain, and nothing else.
func (ex *example) checkTransferTx(tx *client.ERC20Transfer, to common.Address) error {
	want, err := ex.units("USDC", payUSDC)
	if err != nil {
		return err
	}
	data, err := hexutil.Decode(tx.Data)
	if err != nil || len(data) < 4 {
		return fmt.Errorf("signing.tx.data %q", tx.Data)
	}
	m, err := wallet.ERC20.MethodById(data[:4])
	if err != nil || m.Name != "transfer" {
		return fmt.Errorf("refusing to sign: signing.tx.data is not an ERC-20 transfer")
	}
	args, err := m.Inputs.Unpack(data[4:])
	if err != nil {
		return fmt.Errorf("signing.tx.data: %w", err)
	}
	gotTo, _ := args[0].(common.Address)
	gotAmount, _ := args[1].(*big.Int)
	switch {
	case !sameValue(tx.To, ex.token("USDC").Hex()) || tx.ChainID != ex.chainID.Uint64() || tx.Value != "0":
		return fmt.Errorf("refusing to sign: signing.tx is not a USDC call on chain %s: %+v", ex.chainID, tx)
	case gotTo != to || gotAmount == nil || gotAmount.Cmp(want) != 0:
		return fmt.Errorf("refusing to sign: the transfer pays %v to %v", args[1], args[0])
	}
	return nil
}

// awaitTransfer polls the transfer until it is confirmed.
func (ex *example) awaitTransfer(ctx context.Context, id string) (*client.Transfer, error) {
	var tr *client.Transfer
	err := await(ctx, "transfer "+id, "confirmed", func() (string, *string, error) {
		var err error
		if tr, err = ex.api.GetTransfer(ctx, id); err != nil {
			return "", nil, err
		}
		return tr.State, tr.FailureReason, nil
	}, "failed", "expired")
	return tr, err
}

// randomAddress stands in for a supplier's address.
func randomAddress() (common.Address, error) {
	k, err := crypto.GenerateKey()
	if err != nil {
		return common.Address{}, err
	}
	return crypto.PubkeyToAddress(k.PublicKey), nil
}
