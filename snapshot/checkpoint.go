package snapshot

import (
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// LockFile is the file Pebble creates in a store directory whenever the
// store is opened, read-only included. It is no part of a checkpoint's
// data: backups neither list nor copy it.
const LockFile = "LOCK"

// WriteCheckpoint writes a consistent copy of the store into dir, which
// must not exist, without opening it afterwards (Checkpoint does, read
// and write, which adds files to it). The copy holds a prefix of the
// applied batches, rows and applied index together; read its index with
// OpenReadOnly. Files are hard-linked when dir is on the same file system.
func (s *Store) WriteCheckpoint(dir string) error {
	if err := s.Sync(); err != nil { // no WAL: the memtable must be in sstables
		return err
	}
	if err := s.db.Checkpoint(dir); err != nil {
		return fmt.Errorf("snapshot: checkpoint %s: %w", dir, err)
	}
	return nil
}

// OpenReadOnly opens the store in dir for reading only (a checkpoint, or
// the store of a stopped service): nothing in dir changes but LockFile.
// Writing through it fails.
func OpenReadOnly(dir string) (*Store, error) {
	db, err := pebble.Open(dir, &pebble.Options{Logger: quietLogger{}, ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("snapshot: open %s read-only: %w", dir, err)
	}
	return &Store{db: db, dir: dir}, nil
}
