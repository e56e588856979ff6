package main

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/fxd-labs/fxd/internal/buildinfo"
)

// newVersionCmd is `fxd version`: the build's identity as one JSON object
// {"version","commit","go_version"} (the same as `fxd --version` and the
// fxd_build_info metric).
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the build's version, commit and Go version as JSON",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return printJSON(cmd.OutOrStdout(), buildinfo.Get())
		},
	}
}

// versionJSON is buildinfo.Get() as JSON, for the root's --version.
func versionJSON() string {
	b, err := json.Marshal(buildinfo.Get())
	if err != nil {
		return `{"version":"unknown"}` // three strings always encode; kept for the type checker's sake
	}
	return string(b)
}
