package embedded

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/stretchr/testify/require"
)

// awaitStalled waits until a call through c ends at its deadline: the
// file's presence is seen at most stallPoll late.
func awaitStalled(t *testing.T, ctx context.Context, c *ethclient.Client) {
	t.Helper()
	for {
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_, err := c.BlockNumber(short)
		cancel()
		if err != nil {
			require.ErrorIs(t, err, context.DeadlineExceeded)
			return
		}
		require.NoError(t, ctx.Err(), "never stalled")
	}
}

// callFails requires a call through c to end at its deadline.
func callFails(t *testing.T, ctx context.Context, c *ethclient.Client, what string) {
	t.Helper()
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err := c.BlockNumber(short)
	require.ErrorIs(t, err, context.DeadlineExceeded, what)
}

// While the stall file exists the service's client and the wallets'
// listener get no answer and no block is sealed; once it is removed, calls
// held meanwhile are answered and blocks come again. A node stalled when
// it is closed still closes.
func TestStallFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stall")
	n, s, err := startStalling(Config{DataDir: t.TempDir(), RPCListen: "127.0.0.1:0", Alloc: DefaultAlloc("alice"), ChainID: 31337,
		Logger: testLogger(t)}, path)
	require.NoError(t, err)
	closed := false
	t.Cleanup(func() {
		if !closed {
			_ = n.Close()
		}
	})
	ctx := ctxT(t, 2*time.Minute)
	require.True(t, strings.HasPrefix(n.RPCURL(), "http://127.0.0.1:"), n.RPCURL())
	wallet, err := ethclient.DialContext(ctx, n.RPCURL())
	require.NoError(t, err)
	defer wallet.Close()
	self := n.Client()
	for _, c := range []*ethclient.Client{self, wallet} {
		_, err := c.BlockNumber(ctx)
		require.NoError(t, err, "answers before the stall")
	}

	require.NoError(t, os.WriteFile(path, nil, 0o600))
	awaitStalled(t, ctx, self)
	callFails(t, ctx, self, "the service's client")
	callFails(t, ctx, wallet, "the listener")
	for !s.sealHeld.Load() { // the block due next is sealed, then sealing waits
		require.NoError(t, ctx.Err(), "sealing never held")
		time.Sleep(10 * time.Millisecond)
	}
	head := n.eth.BlockChain().CurrentBlock().Number.Uint64()
	time.Sleep(2 * maxBlockInterval) // an idle chain would seal a block in this time
	require.Equal(t, head, n.eth.BlockChain().CurrentBlock().Number.Uint64(), "no block while stalled")

	// A call made during the stall is answered once it ends.
	held := make(chan error, 1)
	go func() {
		_, err := self.BlockNumber(ctx)
		held <- err
	}()
	require.NoError(t, os.Remove(path))
	require.NoError(t, <-held)
	bob := DevAddress("bob")
	tx := send(t, ctx, wallet, 31337, DevKey("alice"), &bob, nil, 21_000, nil)
	require.EqualValues(t, 1, waitMined(t, ctx, self, tx.Hash()).Status, "blocks are sealed again")

	require.NoError(t, os.WriteFile(path, nil, 0o600))
	awaitStalled(t, ctx, self)
	done := make(chan error, 1)
	go func() { done <- n.Close() }()
	select {
	case err := <-done:
		require.NoError(t, err)
		closed = true
	case <-ctx.Done():
		t.Fatal("Close hung while stalled")
	}
}
