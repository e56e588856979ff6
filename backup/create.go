package backup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
)

// State is the engine's side of a backup (*actors.Engine).
type State interface {
	BackupState(stateDir, walDir string, now time.Time) (actors.StateBackup, error)
}

// Chain is the chain's side of a backup (*connect.Chain).
type Chain interface {
	Backup(ctx context.Context, dir string) (connect.ChainBackup, error)
}

// Source is the running server a backup is taken from.
type Source struct {
	State   State
	Chain   Chain
	DataDir string           // its data dir: a backup may not go inside it
	Now     func() time.Time // default time.Now
}

// ErrBadOut wraps every refusal of the output directory (the caller's
// mistake, not the server's): relative, inside the data dir, not empty.
var ErrBadOut = errors.New("backup: bad output directory")

// Create writes a backup of the running server into out, an absolute
// path that must not exist or be an empty directory, and returns its
// manifest. In order: the store checkpoint and the log copy (State), then
// the chain (after the log, so its head covers every block the log
// refers to), then the file list with hashes, then the manifest. On
// failure it removes what it wrote; a crash leaves a directory without a
// manifest, which Verify and Restore refuse.
func Create(ctx context.Context, src Source, out string) (*Manifest, error) {
	now := time.Now
	if src.Now != nil {
		now = src.Now
	}
	created := now().UTC()
	cleanup, err := prepareOut(out, src.DataDir)
	if err != nil {
		return nil, err
	}
	m, err := create(ctx, src, out, created)
	if err != nil {
		cleanup()
		return nil, err
	}
	return m, nil
}

func create(ctx context.Context, src Source, out string, created time.Time) (*Manifest, error) {
	st, err := src.State.BackupState(filepath.Join(out, StateDir), filepath.Join(out, WALDir), created)
	if err != nil {
		return nil, err
	}
	ch, err := src.Chain.Backup(ctx, filepath.Join(out, ChainDir))
	if err != nil {
		return nil, err
	}
	binding, err := bindingOf(out)
	if err != nil {
		return nil, err
	}
	if binding != "" && binding != ch.Genesis {
		return nil, fmt.Errorf("backup: the data is bound to chain %s, the chain is %s", binding, ch.Genesis)
	}
	files, err := listFiles(out)
	if err != nil {
		return nil, err
	}
	m := &Manifest{Format: Format, Version: Version, CreatedAt: created.Format(time.RFC3339),
		AppliedIndex: st.AppliedIndex, LastIndex: st.LastIndex, Genesis: ch.Genesis, Chain: ch, Files: files}
	if err := writeManifest(out, m); err != nil {
		return nil, err
	}
	return m, syncDir(filepath.Dir(out))
}

// prepareOut checks out and makes it an empty directory. cleanup removes
// what a failed backup wrote: the directory if Create made it, else its
// contents.
func prepareOut(out, dataDir string) (cleanup func(), err error) {
	if !filepath.IsAbs(out) {
		return nil, fmt.Errorf("%w: %q is not an absolute path", ErrBadOut, out)
	}
	out = filepath.Clean(out)
	if dataDir != "" {
		data, err := filepath.Abs(dataDir)
		if err != nil {
			return nil, err
		}
		if out == data || strings.HasPrefix(out, data+string(filepath.Separator)) {
			return nil, fmt.Errorf("%w: %s is inside the data dir %s; keep backups apart (another disk)", ErrBadOut, out, data)
		}
	}
	ents, err := os.ReadDir(out)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(out, 0o700); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadOut, err)
		}
		return func() { _ = os.RemoveAll(out) }, nil
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrBadOut, err)
	case len(ents) > 0:
		return nil, fmt.Errorf("%w: %s is not empty", ErrBadOut, out)
	}
	return func() {
		written, _ := os.ReadDir(out)
		for _, e := range written {
			_ = os.RemoveAll(filepath.Join(out, e.Name()))
		}
	}, nil
}
