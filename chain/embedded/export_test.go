package embedded

import (
	"bytes"
	"context"
	"math/big"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rlp"
	"github.com/stretchr/testify/require"
)

// TestExportImport exports a running chain while it seals, rebuilds it in
// a new data dir and starts it there: the same blocks, state, receipts
// and logs, and it keeps sealing from the exported head.
func TestExportImport(t *testing.T) {
	alloc := DefaultAlloc("alice")
	logger := common.HexToAddress("0x000000000000000000000000000000000000106e")
	alloc[logger] = types.Account{Code: logRuntime, Balance: new(big.Int)}
	src := startNode(t, Config{DataDir: t.TempDir(), Alloc: alloc})
	ctx := ctxT(t, 120*time.Second)
	bob := common.HexToAddress("0xb0b")
	logTx := send(t, ctx, src.Client(), DefaultChainID, DevKey("alice"), &logger, nil, 100_000, nil)
	tx := send(t, ctx, src.Client(), DefaultChainID, DevKey("alice"), &bob, big.NewInt(12345), 21000, nil)
	receipt := waitMined(t, ctx, src.Client(), tx.Hash())
	waitMined(t, ctx, src.Client(), logTx.Hash())

	genesisJSON, err := src.GenesisJSON()
	require.NoError(t, err)
	g, genesisHash, err := ParseGenesis(genesisJSON)
	require.NoError(t, err)
	require.Equal(t, src.GenesisHash(), genesisHash)
	require.Equal(t, Genesis(0, 0, alloc).Config, g.Config, "the chain config survives JSON")

	var export bytes.Buffer
	head, err := src.ExportBlocks(ctx, &export)
	require.NoError(t, err)
	require.GreaterOrEqual(t, head.Number, receipt.BlockNumber.Uint64())
	srcHead, err := src.Client().HeaderByNumber(ctx, new(big.Int).SetUint64(head.Number))
	require.NoError(t, err)
	require.Equal(t, srcHead.Hash(), head.Hash)
	checked, err := CheckExport(genesisHash, bytes.NewReader(export.Bytes()))
	require.NoError(t, err)
	require.Equal(t, head, checked)

	dir := filepath.Join(t.TempDir(), "chain")
	imported, err := Import(ctx, dir, genesisJSON, bytes.NewReader(export.Bytes()), testLogger(t))
	require.NoError(t, err)
	require.Equal(t, head, imported)
	_, err = Import(ctx, dir, genesisJSON, bytes.NewReader(export.Bytes()), nil)
	require.ErrorContains(t, err, "already holds a chain")

	dst := startNode(t, Config{DataDir: dir, Alloc: alloc})
	c := dst.Client()
	got, err := c.HeaderByNumber(ctx, new(big.Int).SetUint64(head.Number))
	require.NoError(t, err)
	require.Equal(t, head.Hash, got.Hash())
	r, err := c.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err, "receipts by hash right after the import")
	require.Equal(t, receipt.BlockHash, r.BlockHash)
	bal, err := c.BalanceAt(ctx, bob, nil)
	require.NoError(t, err)
	require.EqualValues(t, 12345, bal.Int64())
	logs, err := c.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{logger}})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	require.Equal(t, logTx.Hash(), logs[0].TxHash)

	next := send(t, ctx, c, DefaultChainID, DevKey("alice"), &bob, big.NewInt(1), 21000, nil)
	mined := waitMined(t, ctx, c, next.Hash())
	require.Greater(t, mined.BlockNumber.Uint64(), head.Number, "the restored chain seals after the exported head")
}

// TestCheckExportRefuses: an export that is not one chain on the genesis.
func TestCheckExportRefuses(t *testing.T) {
	genesis := Genesis(0, 0, DefaultAlloc("alice")).ToBlock()
	child := func(parent *types.Header, dt uint64) *types.Block {
		return types.NewBlockWithHeader(&types.Header{ParentHash: parent.Hash(), Number: new(big.Int).Add(parent.Number, common.Big1),
			Difficulty: new(big.Int), GasLimit: parent.GasLimit, Time: parent.Time + dt})
	}
	b1 := child(genesis.Header(), 1)
	b2 := child(b1.Header(), 1)
	other := child(child(genesis.Header(), 2).Header(), 1) // number 2 on another block 1
	encode := func(blocks ...*types.Block) []byte {
		var buf bytes.Buffer
		for _, b := range blocks {
			require.NoError(t, rlp.Encode(&buf, b))
		}
		return buf.Bytes()
	}
	whole := encode(b1, b2)
	head, err := CheckExport(genesis.Hash(), bytes.NewReader(whole))
	require.NoError(t, err)
	require.Equal(t, Head{Number: 2, Hash: b2.Hash()}, head)

	tests := []struct {
		name string
		data []byte
	}{
		{"starts after block 1", encode(b2)},
		{"wrong parent", encode(b1, other)},
		{"repeated block", encode(b1, b1)},
		{"torn last block", whole[:len(whole)-3]},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CheckExport(genesis.Hash(), bytes.NewReader(tc.data))
			require.Error(t, err)
		})
	}
	_, err = CheckExport(common.Hash{1}, bytes.NewReader(whole))
	require.Error(t, err, "another genesis")

	_, err = Import(context.Background(), t.TempDir(), []byte(`{"gasLimit":"0x1c9c380","difficulty":"0x0","alloc":{}}`), bytes.NewReader(whole), nil)
	require.ErrorContains(t, err, "no chain config")
}
