package watch

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain"
)

// frozen is a node that stops answering one kind of call (a frozen
// process: the connection is accepted, nothing comes back) once it has
// answered `left` more of them.
type frozen struct {
	chain.Backend
	call string // "BlockNumber", "HeaderByNumber" or "FilterLogs"
	left atomic.Int64
}

const thawed = 1 << 40

func (f *frozen) hang(ctx context.Context, call string) error {
	if call != f.call || f.left.Add(-1) >= 0 {
		return nil
	}
	<-ctx.Done()
	return ctx.Err()
}

func (f *frozen) BlockNumber(ctx context.Context) (uint64, error) {
	if err := f.hang(ctx, "BlockNumber"); err != nil {
		return 0, err
	}
	return f.Backend.BlockNumber(ctx)
}

func (f *frozen) HeaderByNumber(ctx context.Context, n *big.Int) (*types.Header, error) {
	if err := f.hang(ctx, "HeaderByNumber"); err != nil {
		return nil, err
	}
	return f.Backend.HeaderByNumber(ctx, n)
}

func (f *frozen) FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error) {
	if err := f.hang(ctx, "FilterLogs"); err != nil {
		return nil, err
	}
	return f.Backend.FilterLogs(ctx, q)
}

// A node that freezes mid-poll (before the head is read, while a range's
// headers or logs are read, after a range was delivered) fails the poll
// by CallTimeout, not by the caller's context; the next polls, once it
// answers again, deliver every log of the chain exactly once, in order.
func TestFrozenNodeDelaysLogsWithoutLosingOrRepeatingThem(t *testing.T) {
	for _, tc := range []struct {
		call string
		left int64 // calls of that kind answered before the freeze
	}{
		{"BlockNumber", 0},
		{"HeaderByNumber", 0},
		{"HeaderByNumber", 3},
		{"FilterLogs", 0},
		{"FilterLogs", 1}, // the first range is delivered, the second hangs
	} {
		t.Run(fmt.Sprintf("%s after %d", tc.call, tc.left), func(t *testing.T) {
			e := newEnv(t)
			e.blocks(4)
			node := &frozen{Backend: e.client, call: tc.call}
			node.left.Store(thawed)
			var rec recorder
			w := New(e.client, Config{MaxRange: 4, CallTimeout: 50 * time.Millisecond}, rec.onProgress)
			w.b = node
			w.Subscribe(e.transferFilter(), rec.deliver)
			poll(t, w)
			e.blocks(8)

			node.left.Store(tc.left)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			err := w.Poll(ctx)
			require.ErrorIs(t, err, context.DeadlineExceeded, "a call to the frozen node ends at CallTimeout")
			require.NoError(t, ctx.Err(), "the caller's context is still alive")

			node.left.Store(thawed)
			poll(t, w)
			sameLogs(t, live(t, must(rec.snapshot())), e.canonical(0, e.head()))
			require.Equal(t, e.head()+1, w.Next())
		})
	}
}

// lostSubs is a node whose head subscriptions end at once (the connection
// carrying them was lost), reporting each subscribe call.
type lostSubs struct {
	chain.Backend
	subscribed chan struct{}
}

type lostSub struct{ err chan error }

func (s lostSub) Unsubscribe()      {}
func (s lostSub) Err() <-chan error { return s.err }

func (n *lostSubs) SubscribeNewHead(ctx context.Context, ch chan<- *types.Header) (ethereum.Subscription, error) {
	select {
	case n.subscribed <- struct{}{}:
	default:
	}
	s := lostSub{err: make(chan error, 1)}
	s.err <- errors.New("connection lost")
	return s, nil
}

// Run subscribes to new heads again after a subscription ended, so a node
// that dropped the connection still wakes the watcher on each block.
func TestRunSubscribesAgainAfterALostSubscription(t *testing.T) {
	e := newEnv(t)
	node := &lostSubs{Backend: e.client, subscribed: make(chan struct{}, 1)}
	w := New(e.client, Config{PollInterval: 10 * time.Millisecond}, nil)
	w.b = node
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- w.Run(ctx) }()
	for range 3 {
		select {
		case <-node.subscribed:
		case <-time.After(20 * time.Second):
			t.Fatal("no new subscription after the last one ended")
		}
	}
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
}
