package backup

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
)

var quiet = slog.New(slog.NewJSONHandler(io.Discard, nil))

// rpcChain is a chain reached over RPC as connect.Open builds it, minus
// the client: its backup part is contracts.json only, which keeps these
// tests fast (the embedded chain's part is proven in integration_test.go).
func rpcChain(genesis common.Hash) *connect.Chain {
	return &connect.Chain{ChainID: big.NewInt(31337), Genesis: genesis, Contracts: &bind.Addresses{
		USDC: common.HexToAddress("0x01"), USDT: common.HexToAddress("0x02"), EURC: common.HexToAddress("0x03"),
		Permit2: bind.CanonicalPermit2Address, RelayRouter: common.HexToAddress("0x05"),
		RfqEscrow: common.HexToAddress("0x06"), PaymentLinkFactory: common.HexToAddress("0x07")}}
}

func openEngine(t *testing.T, dir string) *actors.Engine {
	t.Helper()
	e, err := actors.Open(actors.Config{DataDir: dir, Logger: quiet})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	return e
}

// smallBackup makes a server with an account and a few contacts, bound to
// genesis, backs it up into a fresh directory and stops the server.
func smallBackup(t *testing.T, genesis common.Hash) (dir string, m *Manifest) {
	t.Helper()
	data := t.TempDir()
	e := openEngine(t, data)
	require.NoError(t, e.BindChain(genesis.Hex()))
	out, err := e.CreateAccount(context.Background(), domain.CreateAccount{Name: "Ada", KYC: domain.KYCApproved})
	require.NoError(t, err)
	var acct struct{ ID string }
	require.NoError(t, json.Unmarshal(out.Reply.Body, &acct))
	for i := range 5 {
		_, err := e.Exec(context.Background(), acct.ID, domain.Request{Cmd: domain.CreateContact{Name: "c", Address: common.BigToAddress(big.NewInt(int64(i + 1))).Hex()}})
		require.NoError(t, err)
	}
	dir = filepath.Join(t.TempDir(), "backup")
	m, err = Create(context.Background(), Source{State: e, Chain: rpcChain(genesis), DataDir: data}, dir)
	require.NoError(t, err)
	require.NoError(t, e.Close())
	return dir, m
}

func TestCreateVerifyRestore(t *testing.T) {
	genesis := common.HexToHash("0xabcd")
	dir, m := smallBackup(t, genesis)
	require.Equal(t, genesis.Hex(), m.Genesis)
	require.Greater(t, m.LastIndex, m.AppliedIndex)
	for _, f := range m.Files {
		require.False(t, secret(f.Path), f.Path)
	}
	rep, err := Verify(dir)
	require.NoError(t, err)
	require.True(t, rep.OK)
	require.Equal(t, m.LastIndex-m.AppliedIndex, rep.Records)
	_, err = Verify(dir)
	require.NoError(t, err, "verifying (which opens the checkpoint) leaves the backup valid")

	data := filepath.Join(t.TempDir(), "restored")
	res, err := Restore(context.Background(), dir, data, quiet)
	require.NoError(t, err)
	require.Equal(t, m.LastIndex, res.LastIndex)
	require.Equal(t, filepath.Join(data, "contracts.json"), res.ContractsFile)
	require.NoDirExists(t, data+stagingSuffix)
	e := openEngine(t, data)
	defer e.Close()
	require.Equal(t, m.LastIndex, e.LastIndex())
	require.NoError(t, e.BindChain(genesis.Hex()))
	require.Error(t, e.BindChain(common.HexToHash("0xbeef").Hex()), "still bound to the backup's chain")

	_, err = Restore(context.Background(), dir, data, quiet)
	require.ErrorContains(t, err, "not empty")

	empty := t.TempDir() // an existing empty directory will do
	_, err = Restore(context.Background(), dir, empty, quiet)
	require.NoError(t, err)
	require.DirExists(t, filepath.Join(empty, "wal"))
}

// TestVerifyRefuses damages a good backup in one way each and requires
// Verify, and Restore, to refuse it.
func TestVerifyRefuses(t *testing.T) {
	genesis := common.HexToHash("0xabcd")
	good, m := smallBackup(t, genesis)
	var segment, state File // a segment, and the largest file of the checkpoint
	for _, f := range m.Files {
		switch filepath.Dir(f.Path) {
		case WALDir:
			segment = f
		case StateDir:
			if f.Size > state.Size {
				state = f
			}
		}
	}
	require.NotEmpty(t, segment.Path)
	require.NotZero(t, state.Size)
	editManifest := func(edit func(m *Manifest)) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			mm, err := readManifest(dir)
			require.NoError(t, err)
			edit(mm)
			require.NoError(t, writeManifest(dir, mm))
		}
	}
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
		want   string
	}{
		{"no manifest", func(t *testing.T, dir string) { require.NoError(t, os.Remove(filepath.Join(dir, ManifestFile))) }, "did not finish"},
		{"flipped byte", func(t *testing.T, dir string) { flipByte(t, filepath.Join(dir, state.Path)) }, "the manifest says"},
		{"missing segment", func(t *testing.T, dir string) { require.NoError(t, os.Remove(filepath.Join(dir, segment.Path))) }, "no such file"},
		{"unlisted file", func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, WALDir, "notes.txt"), []byte("x"), 0o600))
		}, "not in the manifest"},
		{"other version", editManifest(func(m *Manifest) { m.Version = 2 }), "version 2"},
		{"secret listed", editManifest(func(m *Manifest) {
			m.Files = append(m.Files, File{Path: "chain/webhook.key"})
		}), "secret"},
		{"path outside", editManifest(func(m *Manifest) { m.Files[0].Path = "../x" }), "not a path inside"},
		{"applied index", editManifest(func(m *Manifest) { m.AppliedIndex-- }), "wal/ holds"},
		{"other genesis", editManifest(func(m *Manifest) {
			m.Genesis = common.HexToHash("0xbeef").Hex()
			m.Chain.Genesis = m.Genesis
		}), "bound to chain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "backup")
			require.NoError(t, os.CopyFS(dir, os.DirFS(good)))
			tc.damage(t, dir)
			rep, err := Verify(dir)
			require.ErrorContains(t, err, tc.want)
			require.False(t, rep.OK)
			require.Contains(t, rep.Problem, tc.want)
			data := filepath.Join(t.TempDir(), "restored")
			_, err = Restore(context.Background(), dir, data, quiet)
			require.ErrorContains(t, err, "does not verify")
			require.NoDirExists(t, data)
			require.NoDirExists(t, data+stagingSuffix)
		})
	}
}

func flipByte(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[len(b)/2] ^= 0x40
	require.NoError(t, os.WriteFile(path, b, 0o600))
}

func TestCreateRefusesOut(t *testing.T) {
	data := t.TempDir()
	notEmpty := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(notEmpty, "x"), nil, 0o600))
	for name, out := range map[string]string{
		"relative":            "backups/b1",
		"the data dir":        data,
		"inside the data dir": filepath.Join(data, "b"),
		"not empty":           notEmpty,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Create(context.Background(), Source{DataDir: data}, out)
			require.ErrorIs(t, err, ErrBadOut)
		})
	}
}

// TestCreateCleansUp: a backup that fails leaves nothing behind: the
// directory it made is removed, an empty one it was given is emptied.
func TestCreateCleansUp(t *testing.T) {
	data := t.TempDir()
	e, err := actors.Open(actors.Config{DataDir: data, Logger: quiet})
	require.NoError(t, err)
	defer e.Close()
	src := Source{State: e, Chain: rpcChain(common.Hash{1}), DataDir: data, Now: func() time.Time { return time.Unix(0, 0) }}
	made := filepath.Join(t.TempDir(), "new")
	_, err = Create(context.Background(), src, made)
	require.ErrorIs(t, err, actors.ErrNotReady, "not recovered yet")
	require.NoDirExists(t, made)
	given := t.TempDir()
	_, err = Create(context.Background(), src, given)
	require.ErrorIs(t, err, actors.ErrNotReady)
	ents, err := os.ReadDir(given)
	require.NoError(t, err)
	require.Empty(t, ents)
}
