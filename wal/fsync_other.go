//go:build !linux

package wal

import "os"

// fdatasync falls back to fsync(2) where the platform has no fdatasync.
func fdatasync(f *os.File) error { return f.Sync() }
