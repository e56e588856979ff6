//go:build !unix

package wal

import (
	"os"
	"path/filepath"
)

// lockName is the lock file in the log directory.
const lockName = "LOCK"

// lockDir only creates dir/LOCK: this platform has no flock, so nothing
// stops a second writer. The service runs on Linux.
func lockDir(dir string) (*os.File, error) {
	return os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR, 0o640)
}
