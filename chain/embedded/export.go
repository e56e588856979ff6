package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/eth"
	gethlog "github.com/ethereum/go-ethereum/log"
	"github.com/ethereum/go-ethereum/node"
	"github.com/ethereum/go-ethereum/p2p"
	"github.com/ethereum/go-ethereum/rlp"
)

// Backups of a running chain.
//
// go-ethereum's chain database (Pebble behind ethdb, plus the freezer) has
// no checkpoint it exposes, and copying its files while blocks are sealed
// is not consistent. What is consistent is the canonical chain itself:
// blocks 1..head never change once sealed (the dev chain has one sealer
// and never reorgs), so ExportBlocks writes them as RLP (geth export's
// format) while sealing goes on, and Import rebuilds the database from the
// genesis by executing them again, as geth import does. Execution is
// deterministic, so the rebuilt chain has the same blocks, state roots and
// receipts; it is checked against the exported head's hash.

// Head is a block's number and hash.
type Head struct {
	Number uint64
	Hash   common.Hash
}

// importBatch bounds the blocks held in memory and inserted at once.
const importBatch = 256

// txIndexWait bounds how long Import waits for the transaction index of
// the imported blocks (receipts by hash) before it stops the node; Start
// resumes an unfinished index.
const txIndexWait = 10 * time.Minute

// GenesisJSON is the genesis the node runs, in go-ethereum's genesis JSON
// (geth init's format), from which Import rebuilds the same chain.
func (n *Node) GenesisJSON() ([]byte, error) {
	g := Genesis(n.cfg.ChainID, n.cfg.GasLimit, n.cfg.Alloc)
	if h := g.ToBlock().Hash(); h != n.genesisHash {
		return nil, fmt.Errorf("embedded chain: genesis spec hashes to %s, the chain's genesis is %s", h, n.genesisHash)
	}
	b, err := json.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: genesis: %w", err)
	}
	return b, nil
}

// ExportBlocks writes the canonical blocks 1..H to w, H being the head
// when it is called, each in its RLP encoding, one after the other, and
// returns H. Sealing goes on meanwhile; a block that does not extend the
// one before it (which the dev chain never does) fails the export.
func (n *Node) ExportBlocks(ctx context.Context, w io.Writer) (Head, error) {
	bc := n.eth.BlockChain()
	head := bc.CurrentBlock()
	parent := bc.Genesis().Hash()
	for nr := uint64(1); nr <= head.Number.Uint64(); nr++ {
		if err := ctx.Err(); err != nil {
			return Head{}, fmt.Errorf("embedded chain: export at block %d: %w", nr, err)
		}
		b := bc.GetBlockByNumber(nr)
		if b == nil {
			return Head{}, fmt.Errorf("embedded chain: export: block %d not found", nr)
		}
		if b.ParentHash() != parent {
			return Head{}, fmt.Errorf("embedded chain: export: block %d does not extend block %d (reorg?)", nr, nr-1)
		}
		if err := b.EncodeRLP(w); err != nil {
			return Head{}, fmt.Errorf("embedded chain: export block %d: %w", nr, err)
		}
		parent = b.Hash()
	}
	if parent != head.Hash() {
		return Head{}, fmt.Errorf("embedded chain: export: head %d changed during the export", head.Number.Uint64())
	}
	return Head{Number: head.Number.Uint64(), Hash: head.Hash()}, nil
}

// ParseGenesis decodes genesis JSON (GenesisJSON's output) and returns it
// with its block hash.
func ParseGenesis(genesisJSON []byte) (*core.Genesis, common.Hash, error) {
	g := new(core.Genesis)
	if err := json.Unmarshal(genesisJSON, g); err != nil {
		return nil, common.Hash{}, fmt.Errorf("embedded chain: genesis: %w", err)
	}
	if g.Config == nil || g.Config.ChainID == nil {
		return nil, common.Hash{}, errors.New("embedded chain: genesis has no chain config or chain id")
	}
	return g, g.ToBlock().Hash(), nil
}

// CheckExport reads an export (ExportBlocks' output) without a chain and
// checks that it is one chain on genesis: blocks numbered 1, 2, 3, ...
// each extending the one before, the first extending genesis. It returns
// the last block. Executing the blocks is Import's part.
func CheckExport(genesis common.Hash, blocks io.Reader) (Head, error) {
	stream := rlp.NewStream(blocks, 0)
	head := Head{Hash: genesis}
	for {
		var b types.Block
		err := stream.Decode(&b)
		if errors.Is(err, io.EOF) {
			return head, nil
		}
		if err != nil {
			return head, fmt.Errorf("embedded chain: export: block %d: %w", head.Number+1, err)
		}
		if b.NumberU64() != head.Number+1 || b.ParentHash() != head.Hash {
			return head, fmt.Errorf("embedded chain: export: block %d (number %d) does not extend block %d", head.Number+1, b.NumberU64(), head.Number)
		}
		head = Head{Number: b.NumberU64(), Hash: b.Hash()}
	}
}

// Import builds the chain of genesisJSON in dataDir, which must hold no
// chain, from an export: every block is verified and executed as geth
// import does (header rules, transactions, state root, receipts), so the
// result is the exported chain or an error. It waits for the transaction
// index, syncs and stops the node; Start then continues the chain from
// the imported head (with a Config whose genesis hashes the same).
func Import(ctx context.Context, dataDir string, genesisJSON []byte, blocks io.Reader, logger *slog.Logger) (Head, error) {
	g, genesisHash, err := ParseGenesis(genesisJSON)
	if err != nil {
		return Head{}, err
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	stack, err := importStack(dataDir, logger)
	if err != nil {
		return Head{}, err
	}
	defer stack.Close() // a no-op error after the Close below
	if stored, err := storedGenesis(stack); err != nil || stored != nil {
		return Head{}, errors.Join(err, fmt.Errorf("embedded chain: import: %s already holds a chain", dataDir))
	}
	ethConf := ethConfig(Config{ChainID: g.Config.ChainID.Uint64(), GasLimit: g.GasLimit})
	ethConf.Genesis = g
	backend, err := eth.New(stack, ethConf)
	if err != nil {
		return Head{}, fmt.Errorf("embedded chain: import: %w", err)
	}
	if err := stack.Start(); err != nil {
		return Head{}, fmt.Errorf("embedded chain: import: %w", err)
	}
	if got := backend.BlockChain().Genesis().Hash(); got != genesisHash {
		return Head{}, fmt.Errorf("embedded chain: import: genesis %s, expected %s", got, genesisHash)
	}
	head, err := insertExport(ctx, backend, blocks)
	if err != nil {
		return head, err
	}
	if err := waitTxIndex(ctx, backend); err != nil {
		return head, err
	}
	if err := backend.ChainDb().SyncKeyValue(); err != nil {
		return head, fmt.Errorf("embedded chain: import: sync: %w", err)
	}
	if err := stack.Close(); err != nil {
		return head, fmt.Errorf("embedded chain: import: close: %w", err)
	}
	logger.Info("embedded chain imported", "data_dir", dataDir, "head", head.Number, "hash", head.Hash.Hex())
	return head, nil
}

// importStack is the node Start builds, without HTTP: nothing but the
// import may reach the chain while it is rebuilt.
func importStack(dataDir string, logger *slog.Logger) (*node.Node, error) {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, fmt.Errorf("embedded chain: data dir: %w", err)
	}
	stack, err := node.New(&node.Config{
		Name:    nodeName,
		DataDir: abs,
		P2P:     p2p.Config{MaxPeers: 0, NoDial: true, NoDiscovery: true},
		// The same engine Start opens the database with.
		DBEngine: "pebble",
		Logger:   gethlog.NewLogger(minLevel{logger.Handler(), slog.LevelWarn}),
	})
	if err != nil {
		return nil, fmt.Errorf("embedded chain: import: %w", err)
	}
	return stack, nil
}

// insertExport decodes the export and inserts it in batches of
// importBatch, then checks that the head is the export's last block.
func insertExport(ctx context.Context, backend *eth.Ethereum, blocks io.Reader) (Head, error) {
	bc := backend.BlockChain()
	stream := rlp.NewStream(blocks, 0)
	batch := make(types.Blocks, 0, importBatch)
	var last Head
	for done := false; !done; {
		batch = batch[:0]
		for len(batch) < importBatch {
			b := new(types.Block)
			err := stream.Decode(b)
			if errors.Is(err, io.EOF) {
				done = true
				break
			}
			if err != nil {
				return last, fmt.Errorf("embedded chain: import: block %d: %w", last.Number+uint64(len(batch))+1, err)
			}
			batch = append(batch, b)
		}
		if len(batch) == 0 {
			break
		}
		if err := ctx.Err(); err != nil {
			return last, fmt.Errorf("embedded chain: import: %w", err)
		}
		if i, err := bc.InsertChain(batch); err != nil {
			return last, fmt.Errorf("embedded chain: import: block %d: %w", batch[min(i, len(batch)-1)].NumberU64(), err)
		}
		tail := batch[len(batch)-1]
		last = Head{Number: tail.NumberU64(), Hash: tail.Hash()}
	}
	if cur := bc.CurrentBlock(); cur.Hash() != last.Hash && last.Number > 0 {
		return last, fmt.Errorf("embedded chain: import: head is %d %s, the export ends at %d %s", cur.Number.Uint64(), cur.Hash(), last.Number, last.Hash)
	}
	if last.Number == 0 {
		last.Hash = bc.Genesis().Hash()
	}
	return last, nil
}

// waitTxIndex waits until every imported transaction is indexed, so the
// restored service finds receipts by hash at once.
func waitTxIndex(ctx context.Context, backend *eth.Ethereum) error {
	ctx, cancel := context.WithTimeout(ctx, txIndexWait)
	defer cancel()
	for !backend.APIBackend.TxIndexDone() {
		select {
		case <-ctx.Done():
			return fmt.Errorf("embedded chain: import: transaction index: %w", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}
