//go:build unix

package wal

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockName is the lock file in the log directory. tidwall ignores it (its
// name is shorter than a segment name).
const lockName = "LOCK"

// lockDir takes an exclusive, non-blocking flock on dir/LOCK, so that two
// Logs (in one process or two) never write the same directory: two writers
// would interleave frames and break the chain. The lock is released when the
// returned file is closed or the process dies.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o640)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w (is the log open elsewhere?)", path, err)
	}
	return f, nil
}
