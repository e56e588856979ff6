package main

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/fxd-labs/fxd/client"
)

// wallet is what a browser wallet or the integrator's own signer does:
// it holds a secp256k1 key, signs messages and typed data, and signs and
// broadcasts transactions over the chain's JSON-RPC, paying their gas.
// The service never sees the key; it sees signatures and transactions.
type wallet struct {
	key     *ecdsa.PrivateKey
	addr    common.Address
	eth     *ethclient.Client
	chainID *big.Int
}

// newWallet makes a fresh key. A real integration loads its own.
func newWallet(eth *ethclient.Client, chainID *big.Int) (*wallet, error) {
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, err
	}
	return &wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey), eth: eth, chainID: chainID}, nil
}

// personalSign is a wallet's personal_sign (EIP-191): how a SIWE
// challenge is signed.
func (w *wallet) personalSign(message string) (string, error) {
	return w.sign(accounts.TextHash([]byte(message)))
}

// signTypedData is a wallet's eth_signTypedData_v4 over the service's
// signing.typed_data (complete: domain, types, primaryType, message):
// go-ethereum's EIP-712 encoder computes the digest, the key signs it.
func (w *wallet) signTypedData(td *client.TypedData) (string, error) {
	if td == nil {
		return "", fmt.Errorf("the answer has no signing.typed_data")
	}
	raw, err := json.Marshal(td)
	if err != nil {
		return "", err
	}
	var typed apitypes.TypedData
	if err := json.Unmarshal(raw, &typed); err != nil {
		return "", fmt.Errorf("typed data: %w", err)
	}
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		return "", fmt.Errorf("typed data: %w", err)
	}
	return w.sign(digest)
}

// sign signs a 32-byte digest as wallets do: r ‖ s ‖ v with v = 27 or 28.
func (w *wallet) sign(digest []byte) (string, error) {
	sig, err := crypto.Sign(digest, w.key)
	if err != nil {
		return "", err
	}
	sig[64] += 27
	return hexutil.Encode(sig), nil
}

// transact calls method on the contract at `to` (its ABI given), signed by
// the wallet, and waits until the transaction is mined. go-ethereum's
// bound contract estimates the gas (a call that would revert fails here,
// with the reason) and sets the nonce and the EIP-1559 fees.
func (w *wallet) transact(ctx context.Context, to common.Address, contract abi.ABI, method string, args ...any) (common.Hash, error) {
	auth, err := w.auth(ctx)
	if err != nil {
		return common.Hash{}, err
	}
	tx, err := bind.NewBoundContract(to, contract, w.eth, w.eth, w.eth).Transact(auth, method, args...)
	if err != nil {
		return common.Hash{}, fmt.Errorf("%s on %s: %w", method, to.Hex(), err)
	}
	return w.mined(ctx, tx)
}

// sendData sends a transaction with ready calldata (a same-currency
// transfer's signing.tx) and waits until it is mined.
func (w *wallet) sendData(ctx context.Context, to common.Address, data []byte) (common.Hash, error) {
	auth, err := w.auth(ctx)
	if err != nil {
		return common.Hash{}, err
	}
	tx, err := bind.NewBoundContract(to, abi.ABI{}, w.eth, w.eth, w.eth).RawTransact(auth, data)
	if err != nil {
		return common.Hash{}, fmt.Errorf("send to %s: %w", to.Hex(), err)
	}
	return w.mined(ctx, tx)
}

func (w *wallet) auth(ctx context.Context) (*bind.TransactOpts, error) {
	auth, err := bind.NewKeyedTransactorWithChainID(w.key, w.chainID)
	if err != nil {
		return nil, err
	}
	auth.Context = ctx
	return auth, nil
}

// mined waits for the receipt and requires success.
func (w *wallet) mined(ctx context.Context, tx *types.Transaction) (common.Hash, error) {
	r, err := bind.WaitMined(ctx, w.eth, tx)
	if err != nil {
		return common.Hash{}, fmt.Errorf("wait for tx %s: %w", tx.Hash().Hex(), err)
	}
	if r.Status != types.ReceiptStatusSuccessful {
		return common.Hash{}, fmt.Errorf("tx %s reverted", tx.Hash().Hex())
	}
	return tx.Hash(), nil
}

// erc20 is the part of the ERC-20 ABI the wallet uses.
var erc20 = mustABI(`[
 {"type":"function","name":"approve","stateMutability":"nonpayable","inputs":[{"name":"spender","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]},
 {"type":"function","name":"transfer","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]}
]`)

func mustABI(s string) abi.ABI {
	a, err := abi.JSON(strings.NewReader(s))
	if err != nil {
		panic(err)
	}
	return a
}
