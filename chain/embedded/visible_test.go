package embedded

import (
	"context"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
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

// TestBackendServesPendingState: the service's Backend answers calls at
// the pending block, directly and through a bound contract with
// CallOpts.Pending (the Permit2 nonce check of a relay cut short): without
// it the bound call fails with bind.ErrNoPendingState and the order waits
// for good.
func TestBackendServesPendingState(t *testing.T) {
	n := startNode(t, Config{DataDir: t.TempDir(), Alloc: DefaultAlloc("alice")})
	ctx := ctxT(t, 30*time.Second)
	backend := n.Backend()
	pc, ok := backend.(ethereum.PendingContractCaller)
	require.True(t, ok, "the Backend serves the pending state")
	nobody := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	out, err := pc.PendingCallContract(ctx, ethereum.CallMsg{To: &nobody})
	require.NoError(t, err)
	require.Empty(t, out)

	parsed, err := abi.JSON(strings.NewReader(`[{"inputs":[],"name":"f","outputs":[{"type":"uint256"}],"stateMutability":"view","type":"function"}]`))
	require.NoError(t, err)
	bound := bind.NewBoundContract(nobody, parsed, backend, nil, nil)
	var res []any
	err = bound.Call(&bind.CallOpts{Context: ctx, Pending: true}, &res, "f")
	require.ErrorIs(t, err, bind.ErrNoCode, "asked at the pending state, found no code there")
}
