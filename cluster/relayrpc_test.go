package cluster

import (
	"errors"
	"fmt"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/verify"
)

// nodeRevert is the error go-ethereum's client returns for a call that
// reverts: an rpc.DataError whose data is the revert data in hex.
type nodeRevert struct{}

func (nodeRevert) Error() string          { return "execution reverted: custom error 0xdeadbeef" }
func (nodeRevert) ErrorData() interface{} { return "0xdeadbeef" }

// TestRelayReplyKeepsTheSendContract: what the relayer's Send returned on
// its node is what the client's Send returns on another, as the desks
// tell outcomes apart: the transaction, busy, an unknown outcome with its
// transaction, a refusal with its revert data, a failure without one.
func TestRelayReplyKeepsTheSendContract(t *testing.T) {
	tx := types.NewTx(&types.DynamicFeeTx{ChainID: big.NewInt(1337), Nonce: 7, Gas: 21000, To: &common.Address{1}, Value: new(big.Int),
		GasTipCap: big.NewInt(1), GasFeeCap: big.NewInt(2)})
	for _, tc := range []struct {
		name   string
		tx     *types.Transaction
		err    error
		wantTx bool
		check  func(t *testing.T, err error)
	}{
		{"sent", tx, nil, true, func(t *testing.T, err error) { require.NoError(t, err) }},
		{"busy", nil, relay.ErrBusy, false, func(t *testing.T, err error) { require.ErrorIs(t, err, relay.ErrBusy) }},
		{"maybe sent", tx, fmt.Errorf("%w (nonce 7): connection reset", relay.ErrMaybeSent), true,
			func(t *testing.T, err error) { require.ErrorIs(t, err, relay.ErrMaybeSent) }},
		{"reverted", nil, fmt.Errorf("relay: estimate gas: %w", nodeRevert{}), false, func(t *testing.T, err error) {
			var de rpc.DataError
			require.ErrorAs(t, err, &de)
			data, ok := verify.Data(err)
			require.True(t, ok)
			require.Equal(t, []byte{0xde, 0xad, 0xbe, 0xef}, data)
		}},
		{"refused", nil, errors.New("relay: node refused transaction (nonce 7): insufficient funds"), false, func(t *testing.T, err error) {
			require.EqualError(t, err, "relay: node refused transaction (nonce 7): insufficient funds")
			require.NotErrorIs(t, err, relay.ErrMaybeSent)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := sendReply(tc.tx, tc.err).result()
			tc.check(t, err)
			if !tc.wantTx {
				require.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			require.Equal(t, tc.tx.Hash(), got.Hash())
		})
	}
}
