package wallet

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/stretchr/testify/require"
)

// TestPrepareBroadcastMined: Prepare signs without sending (the nonce
// does not move, the node knows nothing), Broadcast sends it (twice is
// harmless: the re-broadcast after a restart), Mined returns its receipt
// once a block holds it.
func TestPrepareBroadcastMined(t *testing.T) {
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	addr := crypto.PubkeyToAddress(key.PublicKey)
	// The payee is a contract that stops at once (code 0x00): bound
	// contracts refuse to call an address without code.
	payee := common.HexToAddress("0x00000000000000000000000000000000000000c3")
	sim := simulated.NewBackend(types.GenesisAlloc{
		addr:  {Balance: new(big.Int).Lsh(big.NewInt(1), 100)},
		payee: {Code: []byte{0x00}, Balance: big.NewInt(0)},
	})
	t.Cleanup(func() { _ = sim.Close() })
	eth := sim.Client()
	chainID, err := eth.ChainID(context.Background())
	require.NoError(t, err)
	w := FromKey(key, eth, chainID)
	require.Equal(t, addr, w.Address())

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tx, err := w.Prepare(ctx, payee, []byte{1})
	require.NoError(t, err)
	require.Equal(t, uint64(0), tx.Nonce())
	n, err := eth.PendingNonceAt(ctx, addr)
	require.NoError(t, err)
	require.Equal(t, uint64(0), n, "prepared, not sent")
	_, pending, err := eth.TransactionByHash(ctx, tx.Hash())
	require.Error(t, err, "the node does not hold it yet (pending=%v)", pending)

	require.NoError(t, w.Broadcast(ctx, tx))
	require.NoError(t, w.Broadcast(ctx, tx), "a second broadcast of the same tx")
	sim.Commit()
	r, err := w.Mined(ctx, tx)
	require.NoError(t, err)
	require.Equal(t, types.ReceiptStatusSuccessful, r.Status)
	require.Equal(t, tx.Hash(), r.TxHash)

	next, err := w.Prepare(ctx, payee, []byte{1})
	require.NoError(t, err)
	require.Equal(t, uint64(1), next.Nonce(), "the mined tx used nonce 0")
}

// TestNoBackend: a message-only wallet refuses transactions.
func TestNoBackend(t *testing.T) {
	w, err := New(nil, big.NewInt(1337))
	require.NoError(t, err)
	_, err = w.Prepare(context.Background(), common.Address{}, nil)
	require.Error(t, err)
	require.Error(t, w.Broadcast(context.Background(), types.NewTx(&types.LegacyTx{})))
}
