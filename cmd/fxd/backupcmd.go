package main

import (
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/backup"
)

// newBackupCmd is `fxd backup create|verify|restore`: a consistent copy of
// a running service (Pebble checkpoint, the log from its applied index, the
// embedded chain's blocks, contracts.json, the genesis binding; never the
// admin token or key files), its check, and a new data dir built from it
// (package backup, docs/OPERATIONS.md).
func newBackupCmd() *cobra.Command {
	group := groupCommand("backup", "Back up a running service; verify and restore backups")
	group.AddCommand(newBackupCreateCmd(), newBackupVerifyCmd(), newBackupRestoreCmd())
	return group
}

func newBackupCreateCmd() *cobra.Command {
	var out string
	cmd := &cobra.Command{Use: "create --out DIR", Args: noArgs,
		Short: "Back up the running service into DIR (new or empty, outside the data dir); prints the backup's summary"}
	cmd.Flags().StringVar(&out, "out", "", "directory of the new backup: new or empty, not inside the data dir (the service writes it)")
	target := addAdminFlags(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := requireFlags(cmd, "out"); err != nil {
			return err
		}
		abs, err := filepath.Abs(out)
		if err != nil {
			return fmt.Errorf("backup create: %w", err)
		}
		c, err := target.client()
		if err != nil {
			return fmt.Errorf("backup create: %w", err)
		}
		// As long as the copy takes; hanging up cancels it on the server,
		// which removes what it wrote.
		c.http.Timeout = 0
		res, err := c.do("POST", "/admin/backups", map[string]string{"out": abs})
		if err != nil {
			return fmt.Errorf("backup create: %w", err)
		}
		return printRaw(cmd.OutOrStdout(), res)
	}
	return cmd
}

func newBackupVerifyCmd() *cobra.Command {
	return &cobra.Command{Use: "verify DIR", Args: argsBetween(1, 1),
		Short: "Check a backup (manifest, hashes, log chain, checkpoint, chain export); prints a report, exits 1 on a problem",
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := backup.Verify(args[0])
			if perr := printJSON(cmd.OutOrStdout(), rep); perr != nil {
				return perr
			}
			return err
		}}
}

func newBackupRestoreCmd() *cobra.Command {
	var dataDir string
	cmd := &cobra.Command{Use: "restore DIR --data-dir NEW", Args: argsBetween(1, 1),
		Short: "Verify the backup in DIR and build the data dir NEW from it (must not exist or be empty); prints what it built"}
	cmd.Flags().StringVar(&dataDir, "data-dir", "", "the new data directory (must not exist or be empty)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := requireFlags(cmd, "data-dir"); err != nil {
			return err
		}
		logger := slog.New(slog.NewJSONHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
		rep, err := backup.Restore(cmd.Context(), args[0], dataDir, logger)
		if err != nil {
			return err
		}
		return printJSON(cmd.OutOrStdout(), rep)
	}
	return cmd
}
