package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/wal"
)

// syncDir fsyncs a directory so the entries made in it survive a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("backup: fsync %s: %w", dir, err)
	}
	return nil
}

// copyFile copies f from the backup in dir into root (same relative
// path), fsyncs it, and checks the bytes it copied against the manifest's
// size and hash, so what lands in the data dir is what Verify checked.
func copyFile(dir, root string, f File) error {
	src, err := os.Open(filepath.Join(dir, filepath.FromSlash(f.Path)))
	if err != nil {
		return err
	}
	defer src.Close()
	dst := filepath.Join(root, filepath.FromSlash(f.Path))
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), src)
	if err != nil {
		return fmt.Errorf("backup: copy %s: %w", f.Path, err)
	}
	if n != f.Size || hex.EncodeToString(h.Sum(nil)) != f.SHA256 {
		return fmt.Errorf("backup: %s changed while it was restored", f.Path)
	}
	if err := out.Sync(); err != nil {
		return fmt.Errorf("backup: fsync %s: %w", dst, err)
	}
	return out.Close()
}

// bindingOf returns the chain genesis the backup's data is bound to
// (actors.MetaChainGenesis): from the checkpoint, or from the log copy if
// the binding was recorded after the checkpoint; "" if neither holds it
// (a server that had not bound its chain yet).
func bindingOf(dir string) (string, error) {
	cp, err := snapshot.OpenReadOnly(filepath.Join(dir, StateDir))
	if err != nil {
		return "", err
	}
	binding, err := cp.Meta(actors.MetaChainGenesis)
	if cerr := cp.Close(); err == nil {
		err = cerr
	}
	if err != nil || binding != "" {
		return binding, err
	}
	err = wal.ScanDir(filepath.Join(dir, WALDir), func(index uint64, payload []byte) error {
		rec, err := domain.UnmarshalRecord(payload)
		if err != nil {
			return fmt.Errorf("backup: log index %d: %w", index, err)
		}
		for _, e := range rec.Events {
			if e.Kind == domain.EvMetaPut && e.ID == actors.MetaChainGenesis {
				binding = e.Value
			}
		}
		return nil
	})
	return binding, err
}
