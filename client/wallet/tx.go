package wallet

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Backend is the chain as the wallet uses it: what go-ethereum's bound
// contracts need to build and send a transaction, and receipts.
// *ethclient.Client is one.
type Backend interface {
	bind.ContractBackend
	bind.DeployBackend
}

// ErrReverted is a mined transaction whose receipt says it failed.
var ErrReverted = errors.New("wallet: transaction reverted")

// Prepare signs a transaction calling `to` with data, without sending it:
// the nonce is the account's pending nonce, the gas is estimated (a call
// that would revert fails here, with the reason) and the fees are
// EIP-1559's. The hash is known before anything is broadcast, so a
// caller can hand it to the service first, or send it again after the
// node lost it. Two Prepares before a Broadcast share a nonce: a caller
// sending from one wallet on several goroutines serialises them.
func (w *Wallet) Prepare(ctx context.Context, to common.Address, data []byte) (*types.Transaction, error) {
	if w.eth == nil {
		return nil, errors.New("wallet: no chain backend")
	}
	auth, err := bind.NewKeyedTransactorWithChainID(w.key, w.chainID)
	if err != nil {
		return nil, fmt.Errorf("wallet: transactor: %w", err)
	}
	auth.Context = ctx
	auth.NoSend = true
	tx, err := bind.NewBoundContract(to, abi.ABI{}, w.eth, w.eth, w.eth).RawTransact(auth, data)
	if err != nil {
		return nil, fmt.Errorf("wallet: build tx to %s: %w", to.Hex(), err)
	}
	return tx, nil
}

// Broadcast sends a signed transaction. Sending one the node already
// holds is not an error: re-broadcasting after a restart is how a caller
// makes sure the node has it.
func (w *Wallet) Broadcast(ctx context.Context, tx *types.Transaction) error {
	if w.eth == nil {
		return errors.New("wallet: no chain backend")
	}
	err := w.eth.SendTransaction(ctx, tx)
	if err != nil && strings.Contains(err.Error(), "already known") {
		return nil
	}
	if err != nil {
		return fmt.Errorf("wallet: send tx %s: %w", tx.Hash().Hex(), err)
	}
	return nil
}

// Mined waits until the transaction has a receipt (polling, until ctx
// ends) and returns it; a failed one is also ErrReverted.
func (w *Wallet) Mined(ctx context.Context, tx *types.Transaction) (*types.Receipt, error) {
	r, err := bind.WaitMined(ctx, w.eth, tx)
	if err != nil {
		return nil, fmt.Errorf("wallet: wait for tx %s: %w", tx.Hash().Hex(), err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return r, fmt.Errorf("%w: tx %s", ErrReverted, tx.Hash().Hex())
	}
	return r, nil
}

// SendData signs a transaction with ready calldata (a same-currency
// transfer's signing.tx, an escrow funding), broadcasts it and waits
// until it is mined.
func (w *Wallet) SendData(ctx context.Context, to common.Address, data []byte) (common.Hash, error) {
	tx, err := w.Prepare(ctx, to, data)
	if err != nil {
		return common.Hash{}, err
	}
	if err := w.Broadcast(ctx, tx); err != nil {
		return common.Hash{}, err
	}
	if _, err := w.Mined(ctx, tx); err != nil {
		return common.Hash{}, err
	}
	return tx.Hash(), nil
}

// Transact calls method on the contract at `to` (its ABI given), signed
// by the wallet, and waits until the transaction is mined.
func (w *Wallet) Transact(ctx context.Context, to common.Address, contract abi.ABI, method string, args ...any) (common.Hash, error) {
	data, err := contract.Pack(method, args...)
	if err != nil {
		return common.Hash{}, fmt.Errorf("wallet: pack %s: %w", method, err)
	}
	h, err := w.SendData(ctx, to, data)
	if err != nil {
		return common.Hash{}, fmt.Errorf("%s on %s: %w", method, to.Hex(), err)
	}
	return h, nil
}
