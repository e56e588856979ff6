package verify

import (
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/simtest"
)

func TestUnpack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	amount := fxbind.Units(100)
	e.fund(t, amount)
	e.approve(t, maxUint256)
	g, sig, _ := e.order(t, amount, 9)
	rcpt := e.c.Mine(e.k.RelayRouter.ExecuteGaslessOrder(e.c.Auth(e.relayer), g, sig))
	router := mustABI(fxbind.RelayRouterMetaData)
	topic := router.Events["GaslessOrderExecuted"].ID
	orderHash, err := e.k.RelayRouter.HashGaslessOrder(nil, g)
	require.NoError(t, err)

	l := InReceipt(rcpt, e.addrs.RelayRouter, topic, orderHash)
	require.NotNil(t, l)
	ev := new(fxbind.RelayRouterGaslessOrderExecuted)
	require.NoError(t, Unpack(router, "GaslessOrderExecuted", ev, *l))
	require.Equal(t, [32]byte(orderHash), ev.OrderHash)
	require.Equal(t, g.Signer, ev.Signer)
	require.Equal(t, g.TokenIn, ev.TokenIn)
	require.Zero(t, ev.AmountIn.Cmp(amount))
	require.GreaterOrEqual(t, ev.AmountOut.Cmp(g.MinAmountOut), 0)
	require.Zero(t, ev.Nonce.Cmp(g.Nonce))

	token := mustABI(fxbind.TestTokenMetaData)
	transfer := FindTransfers(rcpt, e.addrs.USDC, e.addrs.Pools["USDC/EURC"])
	require.Len(t, transfer, 1)
	var tl types.Log
	for _, x := range rcpt.Logs {
		if x.Index == transfer[0].LogIndex {
			tl = *x
		}
	}
	tr := new(fxbind.TestTokenTransfer)
	require.NoError(t, Unpack(token, "Transfer", tr, tl))
	require.Equal(t, g.Signer, tr.From)
	require.Zero(t, tr.Value.Cmp(amount))

	short := tl
	short.Data = tl.Data[:16]
	noTopics := tl
	noTopics.Topics = nil
	tests := []struct {
		name  string
		event string
		l     types.Log
	}{
		{"log of another event", "GaslessOrderExecuted", tl},
		{"event not in the ABI", "Swap", *l},
		{"no topics", "GaslessOrderExecuted", noTopics},
		{"truncated data", "Transfer", short},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := router
			if tc.event == "Transfer" {
				a = token
			}
			require.Error(t, Unpack(a, tc.event, new(fxbind.RelayRouterGaslessOrderExecuted), tc.l))
		})
	}
}

func TestMatch(t *testing.T) {
	t.Parallel()
	a, b := common.Address{1}, common.Address{2}
	t0, t1, t2 := common.Hash{10}, common.Hash{11}, common.Hash{12}
	l := types.Log{Address: a, Topics: []common.Hash{t0, t1, t2}}
	removed := l
	removed.Removed = true
	tests := []struct {
		name   string
		l      types.Log
		addr   common.Address
		topics []common.Hash
		want   bool
	}{
		{"exact", l, a, []common.Hash{t0, t1, t2}, true},
		{"other emitter", l, b, []common.Hash{t0, t1, t2}, false},
		{"fewer topics asked", l, a, []common.Hash{t0, t1}, false},
		{"more topics asked", l, a, []common.Hash{t0, t1, t2, t2}, false},
		{"other topic", l, a, []common.Hash{t0, t2, t2}, false},
		{"retracted", removed, a, []common.Hash{t0, t1, t2}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Match(tc.l, tc.addr, tc.topics...))
		})
	}
}

func TestInReceipt(t *testing.T) {
	t.Parallel()
	a := common.Address{1}
	t0, key := common.Hash{10}, common.Hash{11}
	want := &types.Log{Address: a, Topics: []common.Hash{t0, key}, Index: 3}
	rcpt := &types.Receipt{Logs: []*types.Log{
		nil,
		{Address: common.Address{2}, Topics: []common.Hash{t0, key}},
		{Address: a, Topics: []common.Hash{t0}},
		{Address: a, Topics: []common.Hash{t0, common.Hash{12}}},
		want,
	}}
	require.Same(t, want, InReceipt(rcpt, a, t0, key))
	require.Nil(t, InReceipt(rcpt, a, key, t0))
	require.Nil(t, InReceipt(nil, a, t0, key))
}

func TestFind(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fund(t, fxbind.Units(10))
	payee := common.Address{0x99}
	rcpt := e.transfer(t, payee, fxbind.Units(3))
	user := common.BytesToHash(simtest.Addr(e.user).Bytes())
	ctx := t.Context()

	l, err := Find(ctx, e.client(), e.addrs.USDC, TransferTopic, user, 100)
	require.NoError(t, err)
	require.NotNil(t, l)
	require.Equal(t, rcpt.TxHash, l.TxHash)
	require.Equal(t, rcpt.BlockNumber.Uint64(), l.BlockNumber)

	tests := []struct {
		name  string
		addr  common.Address
		topic common.Hash
		key   common.Hash
	}{
		{"other key", e.addrs.USDC, TransferTopic, common.BytesToHash(payee.Bytes())},
		{"other emitter", e.addrs.EURC, TransferTopic, user},
		{"other event", e.addrs.USDC, common.Hash{1}, user},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Find(ctx, e.client(), tc.addr, tc.topic, tc.key, 100)
			require.NoError(t, err)
			require.Nil(t, l)
		})
	}

	// Past the lookback the log is not searched for.
	for range 5 {
		e.c.Commit()
	}
	l, err = Find(ctx, e.client(), e.addrs.USDC, TransferTopic, user, 2)
	require.NoError(t, err)
	require.Nil(t, l)
	l, err = Find(ctx, e.client(), e.addrs.USDC, TransferTopic, user, 10)
	require.NoError(t, err)
	require.NotNil(t, l)
}

func TestFindChainDown(t *testing.T) {
	t.Parallel()
	boom := errors.New("connection refused")
	_, err := Find(t.Context(), down{boom}, common.Address{1}, common.Hash{2}, common.Hash{3}, 10)
	require.ErrorIs(t, err, boom)
}
