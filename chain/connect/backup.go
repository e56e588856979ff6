package connect

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/common"
	"github.com/fxd-labs/fxd/chain/embedded"
	"github.com/fxd-labs/fxd/internal/atomicfile"
)

// Files of the chain part of a backup, in its own directory.
const (
	BackupContractsFile = "contracts.json" // the contract addresses, both modes
	BackupGenesisFile   = "genesis.json"   // embedded: the genesis spec (embedded.Node.GenesisJSON)
	BackupBlocksFile    = "blocks.rlp"     // embedded: blocks 1..head (embedded.Node.ExportBlocks)
)

// Where openEmbedded keeps the embedded chain and its contracts.json in a
// data dir.
const (
	embeddedDir   = "chain"
	contractsName = "contracts.json"
)

// ChainBackup describes the chain part of a backup (the "chain" object of
// a backup's manifest).
type ChainBackup struct {
	Mode     string `json:"mode"`                // ModeEmbedded or ModeRPC
	ChainID  uint64 `json:"chain_id"`            // EIP-155 id
	Genesis  string `json:"genesis"`             // the chain's genesis block hash
	Head     uint64 `json:"head,omitempty"`      // embedded: the last exported block
	HeadHash string `json:"head_hash,omitempty"` // embedded: its hash
}

// Backup writes the chain part of a backup into dir (created; it must not
// exist): contracts.json in both modes, and for the embedded chain its
// genesis spec and every block up to the head at the time of the call,
// which it keeps sealing meanwhile. A node reached over --rpc-url is not
// ours to copy: its operator backs it up.
func (c *Chain) Backup(ctx context.Context, dir string) (ChainBackup, error) {
	b := ChainBackup{Mode: ModeRPC, ChainID: c.ChainID.Uint64(), Genesis: c.Genesis.Hex()}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return b, fmt.Errorf("connect: backup: %w", err)
	}
	contracts, err := json.MarshalIndent(c.Contracts, "", "  ")
	if err != nil {
		return b, err
	}
	if err := atomicfile.Write(filepath.Join(dir, BackupContractsFile), append(contracts, '\n'), 0o644); err != nil {
		return b, fmt.Errorf("connect: backup: %w", err)
	}
	if c.node == nil {
		return b, nil
	}
	b.Mode = ModeEmbedded
	genesis, err := c.node.GenesisJSON()
	if err != nil {
		return b, fmt.Errorf("connect: backup: %w", err)
	}
	if err := atomicfile.Write(filepath.Join(dir, BackupGenesisFile), genesis, 0o644); err != nil {
		return b, fmt.Errorf("connect: backup: %w", err)
	}
	head, err := exportBlocks(ctx, c.node, filepath.Join(dir, BackupBlocksFile))
	if err != nil {
		return b, err
	}
	b.Head, b.HeadHash = head.Number, head.Hash.Hex()
	return b, nil
}

// exportBlocks writes the node's blocks to a new file and fsyncs it.
func exportBlocks(ctx context.Context, node *embedded.Node, path string) (embedded.Head, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return embedded.Head{}, fmt.Errorf("connect: backup: %w", err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	head, err := node.ExportBlocks(ctx, w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return head, fmt.Errorf("connect: backup: %s: %w", path, err)
	}
	return head, nil
}

// CheckBackup checks the chain part of a backup in dir against b without
// a chain: contracts.json names every contract; for the embedded chain,
// genesis.json hashes to b.Genesis and blocks.rlp is one chain on it
// ending at b.Head and b.HeadHash.
func CheckBackup(dir string, b ChainBackup) error {
	if _, err := readContracts(filepath.Join(dir, BackupContractsFile)); err != nil {
		return err
	}
	switch b.Mode {
	case ModeRPC:
		return nil
	case ModeEmbedded:
	default:
		return fmt.Errorf("connect: backup: chain mode %q", b.Mode)
	}
	genesis, err := os.ReadFile(filepath.Join(dir, BackupGenesisFile))
	if err != nil {
		return err
	}
	_, hash, err := embedded.ParseGenesis(genesis)
	if err != nil {
		return err
	}
	if hash.Hex() != b.Genesis {
		return fmt.Errorf("connect: backup: %s hashes to %s, the manifest says %s", BackupGenesisFile, hash.Hex(), b.Genesis)
	}
	f, err := os.Open(filepath.Join(dir, BackupBlocksFile))
	if err != nil {
		return err
	}
	defer f.Close()
	head, err := embedded.CheckExport(hash, bufio.NewReaderSize(f, 1<<20))
	if err != nil {
		return err
	}
	if head.Number != b.Head || head.Hash.Hex() != b.HeadHash {
		return fmt.Errorf("connect: backup: %s ends at block %d %s, the manifest says %d %s", BackupBlocksFile, head.Number, head.Hash.Hex(), b.Head, b.HeadHash)
	}
	return nil
}

// RestoreChain lays out the chain part of a backup (in dir, checked by
// CheckBackup) in the new data dir dataDir so that Open finds it: for the
// embedded chain, the chain rebuilt from the export in <dataDir>/chain
// (embedded.Import) and its contracts.json beside it, so nothing is
// deployed again; for a chain over RPC, <dataDir>/contracts.json, to pass
// as --contracts. It returns the path of that contracts.json.
func RestoreChain(ctx context.Context, dir string, b ChainBackup, dataDir string, logger *slog.Logger) (string, error) {
	contracts, err := os.ReadFile(filepath.Join(dir, BackupContractsFile))
	if err != nil {
		return "", err
	}
	if b.Mode == ModeRPC {
		path := filepath.Join(dataDir, contractsName)
		return path, atomicfile.Write(path, contracts, 0o644)
	}
	genesis, err := os.ReadFile(filepath.Join(dir, BackupGenesisFile))
	if err != nil {
		return "", err
	}
	f, err := os.Open(filepath.Join(dir, BackupBlocksFile))
	if err != nil {
		return "", err
	}
	defer f.Close()
	chainDir := filepath.Join(dataDir, embeddedDir)
	head, err := embedded.Import(ctx, chainDir, genesis, bufio.NewReaderSize(f, 1<<20), logger)
	if err != nil {
		return "", fmt.Errorf("connect: restore: %w", err)
	}
	if head.Number != b.Head || head.Hash != common.HexToHash(b.HeadHash) {
		return "", errors.New("connect: restore: the imported chain does not end at the backup's head")
	}
	path := filepath.Join(chainDir, contractsName)
	return path, atomicfile.Write(path, contracts, 0o644)
}
