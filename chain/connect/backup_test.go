package connect

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"
)

// TestBackupRPCMode: over RPC a backup carries contracts.json only, and a
// restore puts it in the new data dir for --contracts. (The embedded
// chain's backup and restore are proven in package backup, end to end.)
func TestBackupRPCMode(t *testing.T) {
	c := &Chain{ChainID: big.NewInt(31337), Genesis: common.HexToHash("0xabc"), Contracts: testAddresses()}
	dir := filepath.Join(t.TempDir(), "chain")
	b, err := c.Backup(context.Background(), dir)
	require.NoError(t, err)
	require.Equal(t, ChainBackup{Mode: ModeRPC, ChainID: 31337, Genesis: common.HexToHash("0xabc").Hex()}, b)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, ents, 1)
	require.Equal(t, BackupContractsFile, ents[0].Name())
	require.NoError(t, CheckBackup(dir, b))

	_, err = c.Backup(context.Background(), dir)
	require.Error(t, err, "the directory must not exist")

	data := t.TempDir()
	path, err := RestoreChain(context.Background(), dir, b, data, nil)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(data, "contracts.json"), path)
	got, err := readContracts(path)
	require.NoError(t, err)
	require.Equal(t, testAddresses(), got)
}

func TestCheckBackupRefuses(t *testing.T) {
	c := &Chain{ChainID: big.NewInt(1337), Genesis: common.HexToHash("0xabc"), Contracts: testAddresses()}
	dir := filepath.Join(t.TempDir(), "chain")
	b, err := c.Backup(context.Background(), dir)
	require.NoError(t, err)

	tests := []struct {
		name string
		edit func(b *ChainBackup)
		want string
	}{
		{"unknown mode", func(b *ChainBackup) { b.Mode = "ipc" }, `chain mode "ipc"`},
		{"embedded without its export", func(b *ChainBackup) { b.Mode = ModeEmbedded }, BackupGenesisFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bad := b
			tc.edit(&bad)
			require.ErrorContains(t, CheckBackup(dir, bad), tc.want)
		})
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, BackupContractsFile), []byte(`{"usdc":"0x0000000000000000000000000000000000000001"}`), 0o644))
	require.ErrorContains(t, CheckBackup(dir, b), "no \"usdt\" address")
}
