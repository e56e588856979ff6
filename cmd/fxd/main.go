// Command fxd is the service and its operator tools in one binary:
//
//	fxd serve                          run the service
//	fxd admin accounts create|update   manage accounts (admin listener)
//	fxd admin keys create|revoke       manage API keys (admin listener)
//	fxd admin faucet                   fund a test address (admin listener)
//	fxd admin webhooks reseal          reseal webhook secrets under the current master key
//	fxd call METHOD PATH [JSON]        make one signed API request
//	fxd wal verify|dump                check or print the write-ahead log
//	fxd snapshot create|list           checkpoint the snapshot store
//	fxd backup create|verify|restore   back up a running service, check, restore
//	fxd chain deploy                   deploy the contract set to a node
//	fxd cluster status|remove-peer     a cluster node's partition map; drop a dead peer
//	fxd webhook-key create             make a webhook master key file
//	fxd version                        print the build as JSON
//	fxd completion bash|zsh|fish|powershell print a shell completion script
//
// The command line is a cobra tree (newRootCmd). A new command is one
// root.AddCommand(newXCmd()) line there; a command that needs the admin
// listener adds addAdminFlags to its flags and calls the target's client.
// Every flag is also read from SVC_<FLAG> when the command line does not
// give it (fillFromEnv), and --help names that variable.
//
// Operator commands print one JSON object on stdout (fxd call: the answer's
// body) and nothing else there. Exit codes: 0 done, 1 the command failed
// ("fxd: <message>" on stderr), 2 the command line was wrong.
package main

import (
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

func main() { os.Exit(execute(os.Args[1:], os.Stdout, os.Stderr)) }

// execute runs one command line and returns the process's exit code.
func execute(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err != nil {
		return report(cmd, err, stderr)
	}
	return 0
}

// newRootCmd builds the whole command tree, writing to stdout and stderr.
func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := groupCommand("fxd", "A non-custodial FX and payments API service and its operator tools")
	root.Long = `fxd is a non-custodial FX and payments API service and its operator tools:

  fxd serve                                run the service
  fxd admin accounts create|update ...     manage accounts (admin listener)
  fxd admin keys create|revoke ...         manage API keys (admin listener)
  fxd admin faucet ...                     fund a test address (test environment)
  fxd admin webhooks reseal                reseal webhook secrets under the current master key
  fxd call METHOD PATH [JSON]              make one signed API request
  fxd wal verify|dump --data-dir D         check or print the write-ahead log
  fxd snapshot create|list --data-dir D    checkpoint the snapshot store (same disk)
  fxd backup create --out DIR              back up the running service (admin listener)
  fxd backup verify DIR                    check a backup
  fxd backup restore DIR --data-dir NEW    build a new data dir from a backup
  fxd chain deploy --rpc-url U ...         deploy the contract set to a node
  fxd cluster status|remove-peer ...       a cluster node's partition map; drop a dead peer
  fxd webhook-key create --out FILE        make a webhook master key file (0600)
  fxd version                              print the build as JSON
  fxd completion bash|zsh|fish|powershell  print a shell completion script

Every flag may also be given as the environment variable SVC_<FLAG>
(upper case, '-' as '_'), e.g. SVC_DATA_DIR; the command line wins.
Operator commands print one JSON object on stdout. Exit codes: 0 done,
1 the command failed (message on stderr), 2 the command line was wrong.`
	root.AddCommand(newServeCmd())
	root.AddCommand(newAdminCmd())
	root.AddCommand(newCallCmd())
	root.AddCommand(newWALCmd())
	root.AddCommand(newSnapshotCmd())
	root.AddCommand(newBackupCmd())
	root.AddCommand(newChainCmd())
	root.AddCommand(newClusterCmd())
	root.AddCommand(newWebhookKeyCmd())
	root.AddCommand(newVersionCmd())

	root.SetOut(stdout) // before the completion command, which keeps the writer it finds
	root.SetErr(stderr)
	root.SilenceErrors = true // execute reports errors, with the exit code
	root.SilenceUsage = true  // a failure is not a reason to print usage
	root.Version = versionJSON()
	root.SetVersionTemplate("{{.Version}}\n")
	// A group command is runnable only to refuse a missing subcommand:
	// its usage shows "fxd admin [command]", not a use line of its own.
	root.SetUsageTemplate(strings.Replace(root.UsageTemplate(),
		"{{if .Runnable}}", "{{if and .Runnable (not .HasAvailableSubCommands)}}", 1))
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return fillFromEnv(cmd) }
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err.Error()} })
	// Made now rather than at Execute, so that the walks below reach
	// them too.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			asGroup(c) // `fxd completion` without a shell is a usage error
		}
	}
	annotateEnv(root)
	markRunErrors(root)
	return root
}
