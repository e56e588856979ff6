package connect

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"

	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/params"
	"github.com/fxd-labs/fxd/chain/bind"
)

// FaucetGas is the ETH the faucet sends with every funding, enough for a
// test wallet to self-broadcast many transfers and approvals.
var FaucetGas = new(big.Int).Mul(big.NewInt(10), big.NewInt(params.Ether))

// MaxFaucetAmount bounds one faucet call (base units): 1,000,000 tokens.
var MaxFaucetAmount = bind.Units(1_000_000)

// faucetMu serializes faucet transactions: one key, one nonce sequence.
var faucetMu sync.Mutex

// ErrNoFaucet is returned when the chain has no faucet key.
var ErrNoFaucet = errors.New("connect: no faucet key configured")

// Fund sends gas (ETH) and mints amount (base units) of the token to addr,
// waits until both are mined, and returns the mint's transaction hash. It is
// for the test environment: the faucet key owns the test tokens.
func (c *Chain) Fund(ctx context.Context, to common.Address, symbol string, amount *big.Int) (common.Hash, error) {
	if c.Faucet == nil {
		return common.Hash{}, ErrNoFaucet
	}
	token, ok := c.Contracts.Token(symbol)
	if !ok {
		return common.Hash{}, fmt.Errorf("connect: unknown token %q", symbol)
	}
	if amount.Sign() <= 0 || amount.Cmp(MaxFaucetAmount) > 0 {
		return common.Hash{}, fmt.Errorf("connect: faucet amount must be 1..%s base units", MaxFaucetAmount)
	}
	faucetMu.Lock()
	defer faucetMu.Unlock()
	auth, err := gethbind.NewKeyedTransactorWithChainID(c.Faucet, c.ChainID)
	if err != nil {
		return common.Hash{}, err
	}
	auth.Context = ctx
	nonce, err := c.Client.PendingNonceAt(ctx, auth.From)
	if err != nil {
		return common.Hash{}, fmt.Errorf("connect: faucet nonce: %w", err)
	}
	gasTx, err := c.sendETH(ctx, auth, nonce, to, FaucetGas)
	if err != nil {
		return common.Hash{}, err
	}
	tok, err := bind.NewTestToken(token, c.Client)
	if err != nil {
		return common.Hash{}, err
	}
	auth.Nonce = new(big.Int).SetUint64(nonce + 1)
	mintTx, err := tok.Mint(auth, to, amount)
	if err != nil {
		return common.Hash{}, fmt.Errorf("connect: mint %s: %w", symbol, err)
	}
	for _, tx := range []*types.Transaction{gasTx, mintTx} {
		r, err := waitMined(ctx, c.Client, tx)
		if err != nil {
			return common.Hash{}, err
		}
		if r.Status != types.ReceiptStatusSuccessful {
			return common.Hash{}, fmt.Errorf("connect: faucet tx %s reverted", tx.Hash())
		}
	}
	return mintTx.Hash(), nil
}

func (c *Chain) sendETH(ctx context.Context, auth *gethbind.TransactOpts, nonce uint64, to common.Address, value *big.Int) (*types.Transaction, error) {
	tip, err := c.Client.SuggestGasTipCap(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect: gas tip: %w", err)
	}
	head, err := c.Client.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: head: %w", err)
	}
	feeCap := new(big.Int).Add(tip, new(big.Int).Mul(head.BaseFee, big.NewInt(2)))
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: c.ChainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: 21_000, To: &to, Value: value})
	signed, err := auth.Signer(auth.From, tx)
	if err != nil {
		return nil, err
	}
	if err := c.Client.SendTransaction(ctx, signed); err != nil {
		return nil, fmt.Errorf("connect: send gas to %s: %w", to, err)
	}
	return signed, nil
}

// Balance reads a token balance at a block (nil = latest).
func (c *Chain) Balance(ctx context.Context, symbol string, owner common.Address, block *big.Int) (*big.Int, error) {
	token, ok := c.Contracts.Token(symbol)
	if !ok {
		return nil, fmt.Errorf("connect: unknown token %q", symbol)
	}
	tok, err := bind.NewTestToken(token, c.Client)
	if err != nil {
		return nil, err
	}
	return tok.BalanceOf(&gethbind.CallOpts{Context: ctx, BlockNumber: block}, owner)
}
