package embedded

import (
	"context"
	"fmt"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"
)

// tokenAddr holds tokenRuntime in the throughput test's genesis.
var tokenAddr = common.HexToAddress("0x00000000000000000000000000000000000070ce")

// BenchmarkThroughput measures what the chain sustains with many
// transactions per block: plain ETH transfers and ERC-20-like token
// transfers (two SSTOREs and a LOG3 each), submitted by 8 senders through
// the in-process client, and ETH transfers submitted over HTTP. One
// iteration is the whole measurement (run with -benchtime=1x); rates are
// logged and reported as metrics.
func BenchmarkThroughput(b *testing.B) {
	t := b
	const senders = 8
	names := make([]string, senders)
	for i := range names {
		names[i] = fmt.Sprintf("bench-%d", i)
	}
	alloc := DefaultAlloc(names...)
	storage := map[common.Hash]common.Hash{}
	for _, name := range names {
		storage[tokenSlot(DevAddress(name))] = common.BigToHash(big.NewInt(1e18))
	}
	alloc[tokenAddr] = types.Account{Code: tokenRuntime, Storage: storage, Balance: new(big.Int)}
	n := startNode(t, Config{DataDir: t.TempDir(), Alloc: alloc, RPCListen: "127.0.0.1:0"})
	ctx := ctxT(t, 90*time.Second)

	// Sanity: one token transfer works and moves the balance.
	c := n.Client()
	probe := common.HexToAddress("0x0000000000000000000000000000000000000abc")
	tx := send(t, ctx, c, DefaultChainID, DevKey(names[0]), &tokenAddr, nil, 100_000, tokenTransfer(probe, big.NewInt(7)))
	r := waitMined(t, ctx, c, tx.Hash())
	require.EqualValues(t, 1, r.Status)
	require.Len(t, r.Logs, 1)
	got, err := c.StorageAt(ctx, tokenAddr, tokenSlot(probe), nil)
	require.NoError(t, err)
	require.EqualValues(t, 7, new(big.Int).SetBytes(got).Int64())
	t.Logf("token transfer to a fresh holder: %d gas", r.GasUsed)
	// Overdraft reverts.
	tx = send(t, ctx, c, DefaultChainID, DevKey("bench-1"), &tokenAddr, nil, 100_000, tokenTransfer(probe, big.NewInt(2e18)))
	require.EqualValues(t, 0, waitMined(t, ctx, c, tx.Hash()).Status)

	run := func(label string, c *ethclient.Client, perSender int, build func(i, k int) (to *common.Address, data []byte, gas uint64)) {
		t.Helper()
		txs := make([][]*types.Transaction, senders)
		for i, name := range names {
			key := DevKey(name)
			nonce, err := c.PendingNonceAt(ctx, DevAddress(name))
			require.NoError(t, err)
			for k := range perSender {
				to, data, gas := build(i, k)
				txs[i] = append(txs[i], signTx(DefaultChainID, key, nonce+uint64(k), to, big.NewInt(0), gas, data))
			}
		}
		startBlock, err := c.BlockNumber(ctx)
		require.NoError(t, err)
		begin := time.Now()
		var wg sync.WaitGroup
		errs := make(chan error, senders)
		for i := range senders {
			wg.Go(func() {
				for _, tx := range txs[i] {
					if err := c.SendTransaction(context.Background(), tx); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		submitted := time.Since(begin)
		close(errs)
		for err := range errs {
			require.NoError(t, err)
		}
		for i := range senders {
			r := waitMined(t, ctx, c, txs[i][len(txs[i])-1].Hash())
			require.EqualValues(t, 1, r.Status)
		}
		elapsed := time.Since(begin)
		head, err := c.BlockNumber(ctx)
		require.NoError(t, err)
		var blocks, maxTxs int
		var gasUsed uint64
		for b := startBlock + 1; b <= head; b++ {
			blk, err := c.BlockByNumber(ctx, new(big.Int).SetUint64(b))
			require.NoError(t, err)
			if l := len(blk.Transactions()); l > 0 {
				blocks++
				maxTxs = max(maxTxs, l)
				gasUsed = max(gasUsed, blk.GasUsed())
			}
		}
		total := senders * perSender
		t.Logf("%s: %d txs submitted in %v (%.0f tx/s), all mined after %v: %.0f tx/s over %d blocks (%.2f blocks/s, max %d txs / %.1f Mgas per block)",
			label, total, submitted.Round(time.Millisecond), float64(total)/submitted.Seconds(),
			elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds(), blocks,
			float64(head-startBlock)/elapsed.Seconds(), maxTxs, float64(gasUsed)/1e6)
	}

	run("ETH transfers (in-process)", c, 400, func(i, k int) (*common.Address, []byte, uint64) {
		to := common.BigToAddress(big.NewInt(int64(0x100000 + i*10_000 + k)))
		return &to, nil, 21000
	})
	run("token transfers (in-process)", c, 200, func(i, k int) (*common.Address, []byte, uint64) {
		to := common.BigToAddress(big.NewInt(int64(0x200000 + i*10_000 + k)))
		return &tokenAddr, tokenTransfer(to, big.NewInt(1)), 100_000
	})
	hc, err := ethclient.DialContext(ctx, n.RPCURL())
	require.NoError(t, err)
	defer hc.Close()
	run("ETH transfers (HTTP)", hc, 200, func(i, k int) (*common.Address, []byte, uint64) {
		to := common.BigToAddress(big.NewInt(int64(0x300000 + i*10_000 + k)))
		return &to, nil, 21000
	})
}
