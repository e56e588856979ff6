package embedded

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"log/slog"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	gethlog "github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/params"
	"github.com/stretchr/testify/require"
)

var (
	tip    = big.NewInt(params.GWei / 1000)
	feeCap = big.NewInt(50 * params.GWei)
)

// FXD_CHAIN_LOG=1 prints this package's logs in tests; GETH_LOG=1 also
// go-ethereum's own (global) logs, which Start never enables.
func init() {
	if os.Getenv("GETH_LOG") != "" {
		gethlog.SetDefault(gethlog.NewLogger(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	}
}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("FXD_CHAIN_LOG") == "" {
		return nil
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// startNode starts a node in dir and closes it at the end of the test.
func startNode(t testing.TB, cfg Config) *Node {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	begin := time.Now()
	n, err := Start(cfg)
	require.NoError(t, err)
	t.Logf("start-up %v (data dir %s)", time.Since(begin).Round(time.Millisecond), cfg.DataDir)
	t.Cleanup(func() { _ = n.Close() })
	return n
}

func ctxT(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// signTx signs a dynamic-fee transaction.
func signTx(chainID uint64, key *ecdsa.PrivateKey, nonce uint64, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	if value == nil {
		value = new(big.Int)
	}
	id := new(big.Int).SetUint64(chainID)
	return types.MustSignNewTx(key, types.LatestSignerForChainID(id), &types.DynamicFeeTx{
		ChainID:   id,
		Nonce:     nonce,
		GasTipCap: tip,
		GasFeeCap: feeCap,
		Gas:       gas,
		To:        to,
		Value:     value,
		Data:      data,
	})
}

// send signs and submits a transaction with the sender's pending nonce,
// and returns once the pool counts it in that nonce: the pool promotes a
// new transaction on its own goroutine, so a second send at once could
// read the same pending nonce and be refused as an underpriced
// replacement (a flake seen under -race).
func send(t testing.TB, ctx context.Context, c *ethclient.Client, chainID uint64, key *ecdsa.PrivateKey, to *common.Address, value *big.Int, gas uint64, data []byte) *types.Transaction {
	t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := c.PendingNonceAt(ctx, from)
	require.NoError(t, err)
	tx := signTx(chainID, key, nonce, to, value, gas, data)
	require.NoError(t, c.SendTransaction(ctx, tx))
	for {
		next, err := c.PendingNonceAt(ctx, from)
		require.NoError(t, err)
		if next > nonce {
			return tx
		}
		select {
		case <-ctx.Done():
			t.Fatalf("tx %s: the pool's pending nonce stayed %d: %v", tx.Hash(), next, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// waitMined polls for the receipt.
func waitMined(t testing.TB, ctx context.Context, c *ethclient.Client, hash common.Hash) *types.Receipt {
	t.Helper()
	for {
		r, err := c.TransactionReceipt(ctx, hash)
		if err == nil {
			return r
		}
		if !errors.Is(err, ethereum.NotFound) {
			require.NoError(t, err)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("tx %s not mined: %v", hash, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Hand-assembled test contracts.

// logTopic is the topic emitted by logRuntime.
var logTopic = common.BigToHash(big.NewInt(1))

// logRuntime, on every call: emits LOG1(topic 1, data = uint256(42)) and
// returns uint256(42).
var logRuntime = common.FromHex("602a600052" + "6001" + "60206000a1" + "60206000f3")

// deployCode wraps runtime code in init code that returns it.
func deployCode(runtime []byte) []byte {
	if len(runtime) > 0xff {
		panic("runtime too long for this tiny deployer")
	}
	l := byte(len(runtime))
	// PUSH1 len PUSH1 12 PUSH1 0 CODECOPY PUSH1 len PUSH1 0 RETURN
	init := []byte{0x60, l, 0x60, 12, 0x60, 0, 0x39, 0x60, l, 0x60, 0, 0xf3}
	return append(init, runtime...)
}

// tokenRuntime is an ERC-20-like transfer(to, amount) with calldata
// abi-encoded as two words (no selector): balances live in storage slot
// uint256(address); reverts if the caller's balance is short; emits
// LOG3(Transfer(address,address,uint256), from, to) with data amount.
var tokenRuntime = func() []byte {
	transferSig := crypto.Keccak256([]byte("Transfer(address,address,uint256)"))
	code := common.FromHex(
		"3354" + // CALLER SLOAD                   [bal]
			"602035" + // PUSH1 32 CALLDATALOAD    [amt bal]
			"8181" + // DUP2 DUP2                   [amt bal amt bal]
			"11" + // GT                             [amt>bal amt bal]
			"61ffff57" + // PUSH2 revert JUMPI      [amt bal] (patched below)
			"8082" + // DUP1 DUP3                   [bal amt amt bal]
			"03" + // SUB                            [bal-amt amt bal]
			"3355" + // CALLER SSTORE                [amt bal]
			"600035" + // PUSH1 0 CALLDATALOAD      [to amt bal]
			"8054" + // DUP1 SLOAD                   [tobal to amt bal]
			"8201" + // DUP3 ADD                     [tobal+amt to amt bal]
			"9055" + // SWAP1 SSTORE                 [amt bal]
			"600052" + // PUSH1 0 MSTORE            [bal]
			"50" + // POP                            []
			"600035" + // PUSH1 0 CALLDATALOAD      [to]
			"33" + // CALLER                         [from to]
			"7f" + common.Bytes2Hex(transferSig) + // [sig from to]
			"60206000a3" + // LOG3
			"00") // STOP
	dest := len(code)
	code = append(code, common.FromHex("5b60006000fd")...) // JUMPDEST PUSH1 0 PUSH1 0 REVERT
	code[9], code[10] = byte(dest>>8), byte(dest)
	return code
}()

// tokenTransfer encodes tokenRuntime's calldata.
func tokenTransfer(to common.Address, amount *big.Int) []byte {
	data := make([]byte, 64)
	copy(data[12:32], to[:])
	amount.FillBytes(data[32:64])
	return data
}

// tokenSlot is the storage slot of a holder's balance in tokenRuntime.
func tokenSlot(holder common.Address) common.Hash { return common.BytesToHash(holder[:]) }
