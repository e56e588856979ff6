package wallet

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	ethereum "github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
)

// Permit2 is Permit2's address: the same on every EVM chain, the embedded
// one included. Orders on both rails are Permit2 witness transfers, so
// this is the one contract the wallet ever approves.
var Permit2 = common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")

// ERC20 is the part of the ERC-20 ABI a wallet uses.
var ERC20 = mustABI(`[
 {"type":"function","name":"approve","stateMutability":"nonpayable","inputs":[{"name":"spender","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]},
 {"type":"function","name":"transfer","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[{"name":"","type":"bool"}]},
 {"type":"function","name":"balanceOf","stateMutability":"view","inputs":[{"name":"owner","type":"address"}],"outputs":[{"name":"","type":"uint256"}]}
]`)

func mustABI(s string) abi.ABI {
	a, err := abi.JSON(strings.NewReader(s))
	if err != nil {
		panic(err)
	}
	return a
}

// TransferData is the calldata of transfer(to, amount): a plain ERC-20
// payment (to a payee, or to a payment link's receive address).
func TransferData(to common.Address, amount *big.Int) ([]byte, error) {
	b, err := ERC20.Pack("transfer", to, amount)
	if err != nil {
		return nil, fmt.Errorf("wallet: pack transfer: %w", err)
	}
	return b, nil
}

// ApprovePermit2 lets Permit2 move the wallet's token, without limit,
// and waits until it is mined: the one ERC-20 approval a Permit2 user
// makes, once per token. Afterwards every order is a signature over the
// exact token, amount, spender, deadline and nonce, checked by Permit2 on
// chain, so the approval alone moves nothing.
func (w *Wallet) ApprovePermit2(ctx context.Context, token common.Address) (common.Hash, error) {
	return w.Transact(ctx, token, ERC20, "approve", Permit2, new(big.Int).Set(math.MaxBig256))
}

// BalanceOf reads owner's balance of an ERC-20 token (base units) at the
// latest block.
func BalanceOf(ctx context.Context, eth Backend, token, owner common.Address) (*big.Int, error) {
	data, err := ERC20.Pack("balanceOf", owner)
	if err != nil {
		return nil, err
	}
	out, err := eth.CallContract(ctx, callMsg(token, data), nil)
	if err != nil {
		return nil, fmt.Errorf("wallet: balanceOf %s on %s: %w", owner.Hex(), token.Hex(), err)
	}
	vals, err := ERC20.Unpack("balanceOf", out)
	if err != nil || len(vals) != 1 {
		return nil, fmt.Errorf("wallet: balanceOf %s on %s: answer %x", owner.Hex(), token.Hex(), out)
	}
	b, ok := vals[0].(*big.Int)
	if !ok {
		return nil, fmt.Errorf("wallet: balanceOf: %T", vals[0])
	}
	return b, nil
}

func callMsg(to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{To: &to, Data: data}
}
