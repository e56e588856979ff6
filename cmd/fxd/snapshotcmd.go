package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
	"time"

	"github.com/fxd-labs/fxd/snapshot"
)

// runSnapshot backs up the snapshot store. With the service running it asks
// the admin listener (Pebble allows one process); otherwise it opens the
// store itself.
func runSnapshot(args []string) error {
	if len(args) < 1 {
		return errors.New("usage: fxd snapshot create|list --data-dir D")
	}
	fs := newFlags("snapshot " + args[0])
	client := adminFlags(fs)
	dataDir := fs.Lookup("data-dir")
	if _, err := parse(fs, args[1:]); err != nil {
		return err
	}
	dir := dataDir.Value.String()
	switch args[0] {
	case "list":
		list, err := snapshot.ListBackups(dir)
		if err != nil {
			return err
		}
		return printJSON(map[string]any{"data": list})
	case "create":
		if c, err := client(); err == nil {
			out, err := c.do("POST", "/admin/snapshots", nil)
			if err == nil {
				return printRaw(out)
			}
			if !isConnRefused(err) {
				return err
			}
		}
		return snapshotOffline(dir)
	}
	return fmt.Errorf("unknown snapshot command %q", args[0])
}

// snapshotOffline checkpoints the store of a stopped service.
func snapshotOffline(dataDir string) error {
	st, err := snapshot.Open(filepath.Join(dataDir, "state"))
	if err != nil {
		return err
	}
	defer st.Close()
	b, err := st.Backup(dataDir, time.Now())
	if err != nil {
		return err
	}
	return printJSON(b)
}

// isConnRefused tells "no service is running" from a real failure.
func isConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
