package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Backup describes one checkpoint under <data dir>/snapshots.
type Backup struct {
	Name      string `json:"name"`
	Path      string `json:"path"`
	Index     uint64 `json:"index,omitempty"` // applied log index it holds
	CreatedAt string `json:"created_at"`      // RFC 3339 UTC
}

// BackupDir is where checkpoints live in a data dir.
func BackupDir(dataDir string) string { return filepath.Join(dataDir, "snapshots") }

// Backup writes a checkpoint named after now into BackupDir(dataDir).
func (s *Store) Backup(dataDir string, now time.Time) (Backup, error) {
	now = now.UTC()
	name := now.Format("20060102T150405.000000000Z")
	dir := filepath.Join(BackupDir(dataDir), name)
	if err := os.MkdirAll(BackupDir(dataDir), 0o700); err != nil {
		return Backup{}, fmt.Errorf("snapshot: backup dir: %w", err)
	}
	idx, err := s.Checkpoint(dir)
	if err != nil {
		return Backup{}, err
	}
	return Backup{Name: name, Path: dir, Index: idx, CreatedAt: now.Format(time.RFC3339)}, nil
}

// ListBackups lists the checkpoints under BackupDir(dataDir), newest first:
// none in a data dir that has no BackupDir yet, but a data dir that does
// not exist is an error (a mistyped --data-dir, not an empty list).
func ListBackups(dataDir string) ([]Backup, error) {
	if _, err := os.Stat(dataDir); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	entries, err := os.ReadDir(BackupDir(dataDir))
	if os.IsNotExist(err) {
		return []Backup{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []Backup{}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		path := filepath.Join(BackupDir(dataDir), e.Name())
		out = append(out, Backup{Name: e.Name(), Path: path, Index: backupIndex(path),
			CreatedAt: info.ModTime().UTC().Format(time.RFC3339)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name > out[j].Name })
	return out, nil
}

// backupIndex is the applied log index the checkpoint in dir holds, as
// Backup printed it when it was made; 0 (left out of the JSON) when dir
// is not a readable store, e.g. a checkpoint cut short by a crash, which
// is listed all the same so that the operator sees and removes it.
func backupIndex(dir string) uint64 {
	st, err := OpenReadOnly(dir)
	if err != nil {
		return 0
	}
	defer st.Close()
	idx, err := st.AppliedIndex()
	if err != nil {
		return 0
	}
	return idx
}
