//go:build !linux

package wal

import (
	"errors"
	"os"
)

// fdatasync falls back to fsync(2) where the platform has no fdatasync.
func fdatasync(f *os.File) error { return f.Sync() }

// newAIOSyncer: kernel AIO fsync is Linux only.
func newAIOSyncer(chan struct{}) (syncer, error) { return nil, errors.New("not linux") }
