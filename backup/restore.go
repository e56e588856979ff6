package backup

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
)

// RestoreReport is what Restore built; `fxd backup restore` prints it.
type RestoreReport struct {
	OK            bool                `json:"ok"`
	DataDir       string              `json:"data_dir"`
	AppliedIndex  uint64              `json:"applied_index"` // the checkpoint's index A
	LastIndex     uint64              `json:"last_index"`    // the log's last index L, now applied
	Genesis       string              `json:"genesis"`
	Chain         connect.ChainBackup `json:"chain"`
	ContractsFile string              `json:"contracts_file"` // embedded: in the chain dir; rpc: pass as --contracts
}

// stagingSuffix names the directory a restore builds before renaming it
// to the data dir: a restore that fails or is killed never leaves a data
// dir that looks whole.
const stagingSuffix = ".restoring"

// Restore verifies the backup in dir and builds a data dir from it at
// dataDir, which must not exist or be an empty directory. It lays out
// state/ (the checkpoint) and wal/ (the log copy), rebuilds the chain
// (connect.RestoreChain), then opens the engine over them once, which
// replays the log records A+1..L into the store, and checks that the
// result ends at L and is bound to the backup's chain. All of it happens
// in <dataDir>.restoring, renamed to dataDir at the end. logger receives
// the engine's and the chain's lines (nil: discarded).
func Restore(ctx context.Context, dir, dataDir string, logger *slog.Logger) (*RestoreReport, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	target, err := filepath.Abs(dataDir)
	if err != nil {
		return nil, err
	}
	if err := requireEmpty(target); err != nil {
		return nil, err
	}
	m, err := verify(dir, &Report{Dir: dir})
	if err != nil {
		return nil, fmt.Errorf("backup: restore: %s does not verify: %w", dir, err)
	}
	stage := target + stagingSuffix
	if err := os.Mkdir(stage, 0o700); err != nil {
		return nil, fmt.Errorf("backup: restore: %w (a leftover of an interrupted restore? remove it)", err)
	}
	rep, err := build(ctx, dir, stage, m, logger)
	if err != nil {
		_ = os.RemoveAll(stage)
		return nil, err
	}
	if err := replaceEmpty(stage, target); err != nil {
		_ = os.RemoveAll(stage)
		return nil, fmt.Errorf("backup: restore: %w", err)
	}
	if err := syncDir(filepath.Dir(target)); err != nil {
		return nil, err
	}
	rep.DataDir = target
	if rel, err := filepath.Rel(stage, rep.ContractsFile); err == nil {
		rep.ContractsFile = filepath.Join(target, rel) // where the rename put it
	}
	return rep, nil
}

// requireEmpty refuses a data dir that exists and holds anything.
func requireEmpty(dataDir string) error {
	ents, err := os.ReadDir(dataDir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("backup: restore: %w", err)
	case len(ents) > 0:
		return fmt.Errorf("backup: restore: %s is not empty; restore into a new data dir", dataDir)
	}
	return nil
}

// replaceEmpty renames stage to target, first removing target if it is an
// empty directory (os.Rename refuses an existing directory; os.Remove
// refuses a directory that is not empty, so nothing is lost).
func replaceEmpty(stage, target string) error {
	if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.Rename(stage, target)
}

// build lays out the data dir in stage and recovers it once.
func build(ctx context.Context, dir, stage string, m *Manifest, logger *slog.Logger) (*RestoreReport, error) {
	for _, f := range m.Files {
		if strings.HasPrefix(f.Path, StateDir+"/") || strings.HasPrefix(f.Path, WALDir+"/") {
			if err := copyFile(dir, stage, f); err != nil {
				return nil, err
			}
		}
	}
	contracts, err := connect.RestoreChain(ctx, filepath.Join(dir, ChainDir), m.Chain, stage, logger)
	if err != nil {
		return nil, err
	}
	if err := recoverOnce(stage, m, logger); err != nil {
		return nil, err
	}
	for _, d := range []string{filepath.Join(stage, StateDir), filepath.Join(stage, WALDir), stage} {
		if err := syncDir(d); err != nil {
			return nil, err
		}
	}
	return &RestoreReport{OK: true, AppliedIndex: m.AppliedIndex, LastIndex: m.LastIndex, Genesis: m.Genesis,
		Chain: m.Chain, ContractsFile: contracts}, nil
}

// recoverOnce opens the engine over the restored state and log, as serve
// will: recovery replays A+1..L on top of the checkpoint. It checks the
// result ends at L and is bound to the backup's chain (or not yet bound),
// then closes the engine, which syncs the store.
func recoverOnce(stage string, m *Manifest, logger *slog.Logger) error {
	e, err := actors.Open(actors.Config{DataDir: stage, Logger: logger})
	if err != nil {
		return fmt.Errorf("backup: restore: %w", err)
	}
	err = e.Recover()
	if err == nil && (e.LastIndex() != m.LastIndex || e.AppliedIndex() != m.LastIndex) {
		err = fmt.Errorf("recovered to log index %d (store at %d), the backup ends at %d", e.LastIndex(), e.AppliedIndex(), m.LastIndex)
	}
	if err == nil {
		var binding string
		binding, err = e.Meta(actors.MetaChainGenesis)
		if err == nil && binding != "" && binding != m.Genesis {
			err = fmt.Errorf("the restored data is bound to chain %s, the backup's chain is %s", binding, m.Genesis)
		}
	}
	if cerr := e.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("backup: restore: recovery: %w", err)
	}
	return nil
}
