package verify

import (
	"context"
	"errors"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

func TestLookup(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fund(t, fxbind.Units(10))
	mined := e.transfer(t, common.Address{0x99}, fxbind.Units(1))

	// More than the user holds, with a fixed gas limit so the client does
	// not refuse it at estimation: mined, and reverted.
	auth := e.c.Auth(e.user)
	auth.GasLimit = 200_000
	tx, err := e.k.Tokens[fxbind.USDC].Transfer(auth, common.Address{0x99}, fxbind.Units(1_000))
	require.NoError(t, err)
	reverted := e.c.Receipt(tx)
	require.Equal(t, types.ReceiptStatusFailed, reverted.Status)

	tests := []struct {
		name   string
		hash   common.Hash
		status Status
		rcpt   *types.Receipt
	}{
		{"pending: unknown hash", common.HexToHash("0x5eed"), Pending, nil},
		{"mined", mined.TxHash, Mined, mined},
		{"reverted", reverted.TxHash, Reverted, reverted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rcpt, status, err := Lookup(t.Context(), e.client(), tc.hash)
			require.NoError(t, err)
			require.Equal(t, tc.status, status)
			if tc.rcpt == nil {
				require.Nil(t, rcpt)
				return
			}
			require.Equal(t, tc.rcpt.TxHash, rcpt.TxHash)
			require.Equal(t, tc.rcpt.Status, rcpt.Status)
		})
	}
}

// nullReceipt answers a receipt query with neither receipt nor error.
type nullReceipt struct{ down }

func (nullReceipt) TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error) {
	return nil, nil
}

func TestLookupWithoutAnswer(t *testing.T) {
	t.Parallel()
	boom := errors.New("connection refused")
	rcpt, status, err := Lookup(t.Context(), down{boom}, common.Hash{1})
	require.ErrorIs(t, err, boom)
	require.Nil(t, rcpt)
	require.Zero(t, status) // not Pending: the chain said nothing

	rcpt, status, err = Lookup(t.Context(), nullReceipt{}, common.Hash{1})
	require.NoError(t, err)
	require.Nil(t, rcpt)
	require.Equal(t, Pending, status)
}

func TestStatusString(t *testing.T) {
	t.Parallel()
	for s, want := range map[Status]string{Pending: "pending", Reverted: "reverted", Mined: "mined", 0: "Status(0)"} {
		require.Equal(t, want, s.String())
	}
}
