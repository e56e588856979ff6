package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/snapshot"
)

// newSnapshotCmd is `fxd snapshot create|list`: back up the snapshot
// store. With the service running, create asks the admin listener (Pebble
// allows one process); otherwise it opens the store itself.
func newSnapshotCmd() *cobra.Command {
	snap := groupCommand("snapshot", "Back up the snapshot store (running or stopped service)")
	target := addAdminFlags(snap.PersistentFlags())
	create := &cobra.Command{
		Use:   "create",
		Short: "Checkpoint the snapshot store into <data-dir>/snapshots (same disk; see fxd backup for a copy elsewhere); prints the checkpoint",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if c, err := target.client(); err == nil {
				out, err := c.do("POST", "/admin/snapshots", nil)
				if err == nil {
					return printRaw(cmd.OutOrStdout(), out)
				}
				if !isConnRefused(err) {
					return err
				}
			}
			return snapshotOffline(cmd, target.dataDir)
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the checkpoints of the snapshot store (newest first, each with the log index it holds)",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := snapshot.ListBackups(target.dataDir)
			if err != nil {
				return fmt.Errorf("snapshot list: %w", err)
			}
			return printJSON(cmd.OutOrStdout(), map[string]any{"data": list})
		},
	}
	snap.AddCommand(create, list)
	return snap
}

// snapshotOffline checkpoints the store of a stopped service. A data dir
// without a store is refused, not given an empty one: a typo in
// --data-dir must fail, as the other offline commands fail on it.
func snapshotOffline(cmd *cobra.Command, dataDir string) error {
	state := filepath.Join(dataDir, "state")
	if fi, err := os.Stat(state); err != nil || !fi.IsDir() {
		return fmt.Errorf("snapshot create: %s holds no snapshot store (is --data-dir a data dir fxd serve has run on?)", dataDir)
	}
	st, err := snapshot.Open(state)
	if err != nil {
		return fmt.Errorf("snapshot create: %w", err)
	}
	defer st.Close()
	b, err := st.Backup(dataDir, time.Now())
	if err != nil {
		return fmt.Errorf("snapshot create: %w", err)
	}
	return printJSON(cmd.OutOrStdout(), b)
}

// isConnRefused tells "no service is running" from a real failure.
func isConnRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
