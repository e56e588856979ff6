package verify

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/simtest"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	amount := fxbind.Units(100)
	owner := simtest.Addr(e.user)
	short := func(spender common.Address, actual *big.Int) *Shortfall {
		return &Shortfall{Token: e.addrs.USDC, Spender: spender, Actual: actual, Required: amount}
	}
	// Steps run in order on one chain: each changes the wallet, then checks.
	steps := []struct {
		name string
		do   func()
		want Issues
	}{
		{"unfunded, unapproved", func() {}, Issues{
			Allowance: short(e.addrs.Permit2, big.NewInt(0)),
			Balance:   short(common.Address{}, big.NewInt(0)),
		}},
		{"funded short, approved short", func() {
			e.fund(t, fxbind.Units(40))
			e.approve(t, fxbind.Units(99))
		}, Issues{
			Allowance: short(e.addrs.Permit2, fxbind.Units(99)),
			Balance:   short(common.Address{}, fxbind.Units(40)),
		}},
		{"funded exactly", func() { e.fund(t, fxbind.Units(60)) }, Issues{
			Allowance: short(e.addrs.Permit2, fxbind.Units(99)),
		}},
		{"approved max", func() { e.approve(t, maxUint256) }, Issues{}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			s.do()
			got, err := Check(t.Context(), e.client(), e.addrs.USDC, owner, e.addrs.Permit2, amount)
			require.NoError(t, err)
			requireShortfall(t, s.want.Allowance, got.Allowance)
			requireShortfall(t, s.want.Balance, got.Balance)
			require.Equal(t, s.want.OK(), got.OK())
		})
	}
}

func requireShortfall(t *testing.T, want, got *Shortfall) {
	t.Helper()
	if want == nil {
		require.Nil(t, got)
		return
	}
	require.NotNil(t, got)
	require.Equal(t, want.Token, got.Token)
	require.Equal(t, want.Spender, got.Spender)
	require.Zero(t, want.Actual.Cmp(got.Actual), "actual %s, want %s", got.Actual, want.Actual)
	require.Zero(t, want.Required.Cmp(got.Required))
}

// A user's approve still in the pool counts: the relay meets the pending
// state. geth rebuilds its pending block every few seconds, hence Eventually.
func TestCheckSeesPendingApprove(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	amount := fxbind.Units(5)
	owner := simtest.Addr(e.user)
	e.fund(t, amount)
	_, err := e.k.Tokens[fxbind.USDC].Approve(e.c.Auth(e.user), e.addrs.Permit2, maxUint256)
	require.NoError(t, err) // sent, never mined in this test

	// A node without pending state is asked at the latest block instead.
	got, err := Check(t.Context(), latestOnly{e.client()}, e.addrs.USDC, owner, e.addrs.Permit2, amount)
	require.NoError(t, err)
	require.NotNil(t, got.Allowance)

	require.Eventually(t, func() bool {
		got, err := Check(t.Context(), e.client(), e.addrs.USDC, owner, e.addrs.Permit2, amount)
		return err == nil && got.OK()
	}, 20*time.Second, 50*time.Millisecond)
}

func TestCheckErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	owner := simtest.Addr(e.user)
	boom := errors.New("connection refused")
	tests := []struct {
		name   string
		b      Backend
		token  common.Address
		amount *big.Int
		is     error
	}{
		{"nil amount", e.client(), e.addrs.USDC, nil, nil},
		{"negative amount", e.client(), e.addrs.USDC, big.NewInt(-1), nil},
		{"token without code", e.client(), common.Address{0x77}, big.NewInt(1), nil},
		{"chain down", down{boom}, e.addrs.USDC, big.NewInt(1), boom},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Check(t.Context(), tc.b, tc.token, owner, e.addrs.Permit2, tc.amount)
			require.Error(t, err)
			if tc.is != nil {
				require.ErrorIs(t, err, tc.is)
			}
		})
	}
}

func TestSimulate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	amount := fxbind.Units(100)
	_, _, data := e.order(t, amount, 11)
	relayer := simtest.Addr(e.relayer)

	err := Simulate(t.Context(), e.client(), relayer, e.addrs.RelayRouter, data)
	var r *Revert
	require.ErrorAs(t, err, &r)
	want := fmt.Sprintf("InsufficientAllowance(%s, 0, %s)", e.addrs.Permit2.Hex(), amount)
	require.Equal(t, want, r.Reason)
	require.True(t, Is(r.Data, "InsufficientAllowance"))
	require.Equal(t, "order failed: "+want, Reason("order failed", err))
	require.Equal(t, "relay reverted: "+want, MinedRevertReason(t.Context(), e.client(), "relay reverted", relayer, e.addrs.RelayRouter, data))
	long := strings.Repeat("x", 190)
	require.Equal(t, long+": Insuffi…", MinedRevertReason(t.Context(), e.client(), long, relayer, e.addrs.RelayRouter, data), "cut to 200 runes")

	// Approved but unfunded: the token names the balance next.
	e.approve(t, maxUint256)
	err = Simulate(t.Context(), e.client(), relayer, e.addrs.RelayRouter, data)
	require.ErrorAs(t, err, &r)
	require.Equal(t, fmt.Sprintf("InsufficientBalance(%s, 0, %s)", simtest.Addr(e.user).Hex(), amount), r.Reason)

	e.fund(t, amount)
	require.NoError(t, Simulate(t.Context(), e.client(), relayer, e.addrs.RelayRouter, data))
	require.Equal(t, "relay reverted", MinedRevertReason(t.Context(), e.client(), "relay reverted", relayer, e.addrs.RelayRouter, data),
		"a call that no longer reverts: the prefix alone")
	require.NoError(t, Simulate(t.Context(), latestOnly{e.client()}, relayer, e.addrs.RelayRouter, data))
}

func TestSimulateChainDown(t *testing.T) {
	t.Parallel()
	boom := errors.New("connection refused")
	err := Simulate(t.Context(), down{boom}, common.Address{1}, common.Address{2}, nil)
	require.ErrorIs(t, err, boom)
	var r *Revert
	require.False(t, errors.As(err, &r))
}

// A node that refuses the pending block is asked at the latest one; a revert
// at pending is the answer and is not asked again.
func TestCallFallsBackToLatest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, _, data := e.order(t, fxbind.Units(1), 12)
	b := &pendingRefused{Backend: e.client()}
	err := Simulate(t.Context(), b, simtest.Addr(e.relayer), e.addrs.RelayRouter, data)
	var r *Revert
	require.ErrorAs(t, err, &r)
	require.True(t, Is(r.Data, "InsufficientAllowance"))
	require.Equal(t, 1, b.pending)

	require.False(t, refusedPending(dataErr{"execution reverted", "0x"}))
	require.False(t, refusedPending(errors.New("dial tcp: connection refused")))
	require.True(t, refusedPending(fmt.Errorf("x: %w", rpcErr{"unknown block"})))
}
