package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// Exit codes: 0 done; 1 the command ran and failed (the server refused,
// a file was missing, a non-2xx answer to fxd call); 2 the command line
// was wrong (unknown command or flag, missing argument, bad flag or
// SVC_* value), so nothing was attempted.
const (
	exitFailure = 1
	exitUsage   = 2
)

// usageError is a wrong command line, found by us or by cobra.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

// exitError ends the process with a code and no further message (the
// command already said what it had to, e.g. fxd call's status line).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// runError is a failure of a command that ran: every error a RunE returns
// becomes one (see markRunErrors) unless it is a usageError or exitError.
// Errors cobra returns on its own (unknown command or flag, a bad flag
// value) are not runErrors: they are usage errors.
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

// markRunErrors wraps the RunE of cmd and of every descendant, cobra's
// completion commands included, so their failures exit 1.
func markRunErrors(cmd *cobra.Command) {
	if run := cmd.RunE; run != nil {
		cmd.RunE = func(c *cobra.Command, args []string) error {
			err := run(c, args)
			var ue usageError
			var ee exitError
			if err == nil || errors.As(err, &ue) || errors.As(err, &ee) {
				return err
			}
			return runError{err}
		}
	}
	for _, sub := range cmd.Commands() {
		markRunErrors(sub)
	}
}

// report prints err for the command that failed and returns the exit code.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	var ee exitError
	var re runError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &re):
		fmt.Fprintln(stderr, "fxd:", err)
		return exitFailure
	}
	fmt.Fprintln(stderr, "fxd:", err)
	if cmd != nil {
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	}
	return exitUsage
}

// groupCommand is a command that only holds subcommands (see asGroup).
func groupCommand(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short}
	asGroup(cmd)
	cmd.AddCommand(subs...)
	return cmd
}

// asGroup makes cmd refuse to run without a subcommand: it prints its
// usage on stderr and is a usage error; an unknown subcommand is one too.
// (Cobra alone would print help and exit 0 for either.)
func asGroup(cmd *cobra.Command) {
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return usageErrorf("unknown command %q for %q", args[0], cmd.CommandPath())
		}
		return nil
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
		return usageErrorf("%sa command is required", where(cmd))
	}
}

// argsBetween is cobra.RangeArgs as a usage error that shows the usage line.
func argsBetween(lo, hi int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < lo || len(args) > hi {
			return usageErrorf("%sgot %d arguments; usage: %s", where(cmd), len(args), cmd.UseLine())
		}
		return nil
	}
}

// noArgs refuses positional arguments.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageErrorf("%sunexpected argument %q", where(cmd), args[0])
	}
	return nil
}

// where prefixes a message with the command's words after "fxd"
// ("admin accounts create: "); "" for the root, since every message
// already starts with "fxd: ".
func where(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ") + ": "
}
