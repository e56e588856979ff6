package relay

import (
	"context"
	"errors"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain"
)

// errRefused is what a node that is down answers: no answer at all.
var errRefused = errors.New("dial tcp 127.0.0.1:8545: connect: connection refused")

// outageNode is a node that can be down (every call fails without an
// answer) and counts the transaction look-ups Wait makes.
type outageNode struct {
	chain.Backend
	down    atomic.Bool
	lookups chan struct{} // one per TransactionByHash answered, if set
}

func (n *outageNode) HeaderByNumber(ctx context.Context, num *big.Int) (*types.Header, error) {
	if n.down.Load() {
		return nil, errRefused
	}
	return n.Backend.HeaderByNumber(ctx, num)
}

func (n *outageNode) TransactionReceipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	if n.down.Load() {
		return nil, errRefused
	}
	return n.Backend.TransactionReceipt(ctx, h)
}

func (n *outageNode) TransactionByHash(ctx context.Context, h common.Hash) (*types.Transaction, bool, error) {
	if n.down.Load() {
		return nil, false, errRefused
	}
	tx, pending, err := n.Backend.TransactionByHash(ctx, h)
	if n.lookups != nil {
		select {
		case n.lookups <- struct{}{}:
		default:
		}
	}
	return tx, pending, err
}

func newOutageRelayer(e *env) (*Relayer, *outageNode) {
	node := &outageNode{Backend: e.client}
	r := New(node, e.relayer, simChainID, WithPollInterval(5*time.Millisecond))
	r.dropCheck = 10 * time.Millisecond
	return r, node
}

// A node that comes back from an outage without its pool (Rollback drops
// the pending transactions) has freed the nonces of what the relayer sent
// before: the next transaction takes the first of them, so none waits
// behind a gap, whether the relayer saw the outage (a call got no answer)
// or only learns of it from Wait (the transaction is unknown: ErrDropped).
func TestNonceReusedAfterTheNodeLostItsPool(t *testing.T) {
	for _, tc := range []struct {
		name       string
		seeOutage  bool // a Send during the outage gets no answer
		waitOnLost bool // Wait on the lost transaction
	}{
		{"outage seen by a send", true, false},
		{"lost transaction found by wait", false, true},
		{"both", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			r, node := newOutageRelayer(e)
			ctx := t.Context()
			lost, err := r.Send(ctx, e.token, e.approve(0), 0)
			require.NoError(t, err)
			if tc.seeOutage {
				node.down.Store(true)
				_, err := r.Send(ctx, e.token, e.approve(1), 0)
				require.ErrorIs(t, err, errRefused)
				node.down.Store(false)
			}
			e.sim.Rollback() // the node is back, its pool is empty
			if tc.waitOnLost {
				wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
				defer cancel()
				_, err := r.Wait(wctx, lost)
				require.ErrorIs(t, err, ErrDropped)
				require.Zero(t, r.InFlight(), "a dropped transaction leaves the in-flight set")
			}
			next, err := r.Send(ctx, e.token, e.approve(2), 0)
			require.NoError(t, err)
			require.Equal(t, lost.Nonce(), next.Nonce(), "the lost transaction's nonce is taken again")
			e.mined(r, next)
			require.Equal(t, next.Nonce()+1, e.pendingNonce(), "no gap")
		})
	}
}

// A transaction the node still holds is never reported dropped, however
// long it stays pending: Wait looks it up again and again, then gets its
// receipt.
func TestWaitKeepsAPendingTransaction(t *testing.T) {
	e := newEnv(t)
	r, node := newOutageRelayer(e)
	node.lookups = make(chan struct{}, 1)
	tx, err := r.Send(t.Context(), e.token, e.approve(0), 0)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	mined := make(chan struct{})
	go func() {
		defer close(mined)
		// Mine only after Wait found it pending dropAfter+1 times.
		for range dropAfter + 1 {
			select {
			case <-node.lookups:
			case <-ctx.Done():
				return
			}
		}
		for ctx.Err() == nil {
			e.commit()
			if rc, err := e.client.TransactionReceipt(ctx, tx.Hash()); err == nil && rc != nil {
				return
			}
		}
	}()
	defer func() { <-mined }()
	rc, err := r.Wait(ctx, tx)
	require.NoError(t, err)
	require.Equal(t, types.ReceiptStatusSuccessful, rc.Status)
	require.Zero(t, r.InFlight())
}

// While the node does not answer, Wait keeps polling (no look-up answer
// counts as "unknown") until its context ends.
func TestWaitThroughAnOutage(t *testing.T) {
	e := newEnv(t)
	r, node := newOutageRelayer(e)
	tx, err := r.Send(t.Context(), e.token, e.approve(0), 0)
	require.NoError(t, err)
	node.down.Store(true)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = r.Wait(ctx, tx)
	require.ErrorIs(t, err, context.DeadlineExceeded, "not ErrDropped: the node never said it lost it")
	node.down.Store(false)
	e.mined(r, tx)
}
