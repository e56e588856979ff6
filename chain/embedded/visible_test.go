package embedded

import (
	"context"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"
)

// TestNoBlockSeenBeforeDurable: while blocks are sealed, no read through
// the service's Backend or the JSON-RPC listener, and no new-head
// notification, ever shows a block the node has not fsynced yet (one a
// kill -9 could still take back). Without the gate a tight read loop sees
// the head move before the fsync within a few blocks.
func TestNoBlockSeenBeforeDurable(t *testing.T) {
	n := startNode(t, Config{DataDir: t.TempDir(), RPCListen: "127.0.0.1:0", Alloc: DefaultAlloc("alice")})
	ctx := ctxT(t, 60*time.Second)
	wallet, err := ethclient.DialContext(ctx, n.RPCURL())
	require.NoError(t, err)
	defer wallet.Close()
	backend := n.Backend()
	heads := make(chan *types.Header, 64)
	sub, err := backend.SubscribeNewHead(ctx, heads)
	require.NoError(t, err)
	defer sub.Unsubscribe()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	seen := make([]uint64, 3) // highest head each reader saw
	check := func(i int, read func() (uint64, error)) {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			b, err := read()
			if err != nil {
				continue // the node is closing
			}
			durable := n.synced.Load()
			if b > durable {
				t.Errorf("reader %d saw block %d while block %d was the last durable one", i, b, durable)
				return
			}
			seen[i] = max(seen[i], b)
		}
	}
	wg.Add(3)
	go check(0, func() (uint64, error) { return backend.BlockNumber(ctx) })
	go check(1, func() (uint64, error) { return wallet.BlockNumber(ctx) })
	go check(2, func() (uint64, error) {
		select {
		case h := <-heads:
			return h.Number.Uint64(), nil
		case <-time.After(100 * time.Millisecond):
			return 0, context.DeadlineExceeded
		}
	})
	start, err := backend.BlockNumber(ctx)
	require.NoError(t, err)
	bob := common.HexToAddress("0xb0b")
	for i := range 5 {
		tx := send(t, ctx, n.Client(), DefaultChainID, DevKey("alice"), &bob, big.NewInt(int64(i+1)), 21000, nil)
		waitMined(t, ctx, wallet, tx.Hash())
	}
	close(stop)
	wg.Wait()
	for i, b := range seen {
		require.Greater(t, b, start, "reader %d followed the chain", i)
	}
}
