package cluster

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/natsnode/natstest"
)

// simChain is the test's chain (simtest), shared by its nodes, mining a
// block every few milliseconds, with a token to call.
type simChain struct {
	*simtest.Chain
	token   common.Address
	relayer *ecdsa.PrivateKey
}

func newSimChain(t *testing.T) *simChain {
	deployer, relayer := simtest.Key(t, 0xd0), simtest.Key(t, 0x33)
	c := &simChain{Chain: simtest.New(t, deployer, relayer), relayer: relayer}
	a, tx, _, err := bind.DeployTestToken(c.Auth(deployer), c.Client, "USD Coin", "USDC")
	c.Mine(tx, err)
	c.token = a
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			c.Commit()
			time.Sleep(10 * time.Millisecond)
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return c
}

func (c *simChain) approve(t *testing.T, i int) []byte {
	a, err := bind.TestTokenMetaData.GetAbi()
	require.NoError(t, err)
	data, err := a.Pack("approve", common.BigToAddress(big.NewInt(int64(0x1000+i))), big.NewInt(int64(i+1)))
	require.NoError(t, err)
	return data
}

// lossy loses every transaction broadcast while lose is set: the
// connection fails before the node gets it.
type lossy struct {
	chain.Backend
	lose atomic.Bool
}

func (l *lossy) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if l.lose.Load() {
		return errors.New("dial tcp: connection refused")
	}
	return l.Backend.SendTransaction(ctx, tx)
}

// relayNode is one node's relay duty and client.
type relayNode struct {
	duty   *ChainDuty
	client *RelayClient
	chain  *lossy
	stop   func()
}

// TestRelayerMovesWithTheJournal: three nodes, one relayer. Sends through
// the nodes that do not run it are relayed by the one that does, nonces in
// order, each journaled before its broadcast. A transaction journaled
// and lost on its way to the chain when its relayer's node dies is
// broadcast again by the relayer the new leader of the journal starts,
// which then goes on with the next nonce.
func TestRelayerMovesWithTheJournal(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	ch := newSimChain(t)
	c, err := natstest.StartCluster(t.TempDir(), 3, nil)
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	nodes := make([]*relayNode, len(c.Nodes))
	for i, n := range c.Nodes {
		nc, err := n.Connect()
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		js, err := jetstream.New(nc)
		require.NoError(t, err)
		srv := n.Server()
		node := &relayNode{chain: &lossy{Backend: ch.Client}}
		node.duty = NewChainDuty(ChainDutyConfig{Conn: nc, JS: js, Replicas: 3, Backend: node.chain, Key: ch.relayer, ChainID: simtest.ChainID,
			Leads: func() bool { return srv.JetStreamIsStreamLeader(Account, RelayStream) }, Logger: logger,
			Options: []relay.Option{relay.WithPollInterval(5 * time.Millisecond)}})
		node.client = NewRelayClient(node.duty, node.chain)
		dctx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); node.duty.Run(dctx) }()
		node.stop = func() { stop(); <-done }
		t.Cleanup(node.stop)
		nodes[i] = node
	}
	leader := func() int {
		var at int
		require.Eventually(t, func() bool {
			k := 0
			for i, n := range nodes {
				if n.duty.local() != nil {
					at, k = i, k+1
				}
			}
			return k == 1
		}, time.Minute, 10*time.Millisecond, "one node runs the relayer")
		return at
	}
	// trySend sends through via; ErrNoRelayer (the relayer's subscription
	// not yet known on via's server, right after a take-up) is tried
	// again, as its contract says.
	trySend := func(via *relayNode, i int) (*types.Transaction, error) {
		for {
			tx, err := via.client.Send(ctx, ch.token, ch.approve(t, i), 0)
			if !errors.Is(err, ErrNoRelayer) || ctx.Err() != nil {
				return tx, err
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	send := func(via *relayNode, i int) *types.Transaction {
		t.Helper()
		tx, err := trySend(via, i)
		require.NoError(t, err)
		rc, err := via.client.Wait(ctx, tx)
		require.NoError(t, err)
		require.Equal(t, types.ReceiptStatusSuccessful, rc.Status)
		return tx
	}

	first := leader()
	var sent []*types.Transaction
	for i, n := range nodes {
		sent = append(sent, send(n, i))
	}
	for i, tx := range sent {
		require.Equal(t, uint64(i), tx.Nonce(), "one relayer numbers every node's sends")
		from, err := types.Sender(types.LatestSignerForChainID(simtest.ChainID), tx)
		require.NoError(t, err)
		require.Equal(t, nodes[0].client.Address(), from)
	}

	// The relayer journals a transaction, loses it on its way to the
	// chain, and its node dies.
	nodes[first].chain.lose.Store(true)
	other := nodes[(first+1)%3]
	lost, err := trySend(other, 10)
	require.ErrorIs(t, err, relay.ErrMaybeSent)
	require.NotNil(t, lost, "the outcome is unknown: the client has the transaction")
	require.Equal(t, uint64(3), lost.Nonce())
	nodes[first].stop()
	c.Nodes[first].Shutdown()

	second := leader()
	require.NotEqual(t, first, second)
	rc, err := other.client.Wait(ctx, lost)
	require.NoError(t, err, "the new relayer broadcast the journaled transaction again")
	require.Equal(t, types.ReceiptStatusSuccessful, rc.Status)
	follower := nodes[3-first-second] // the survivor that does not run the relayer
	next := send(follower, 11)
	require.Equal(t, uint64(4), next.Nonce(), "the new relayer goes on after the journal's last nonce")
}
