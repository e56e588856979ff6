package main

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	gethlog "github.com/ethereum/go-ethereum/log"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/snapshot"
)

// result is one in-process run of the command line.
type result struct {
	stdout, stderr string
	code           int
}

// run executes `fxd args...` in this process, as main does.
func run(t *testing.T, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := execute(args, &out, &errb)
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// walk calls fn for cmd and every command below it.
func walk(cmd *cobra.Command, fn func(*cobra.Command)) {
	fn(cmd)
	for _, sub := range cmd.Commands() {
		walk(sub, fn)
	}
}

// TestHelpListsEveryFlagWithItsVariable runs --help on every command of the
// tree and requires, for every flag the command takes (its own and those
// it inherits), a help line naming the flag and its SVC_* variable.
func TestHelpListsEveryFlagWithItsVariable(t *testing.T) {
	commands, flags := 0, 0
	walk(newRootCmd(io.Discard, io.Discard), func(cmd *cobra.Command) {
		path := strings.Fields(cmd.CommandPath())[1:]
		res := run(t, append(path, "--help")...)
		require.Equal(t, 0, res.code, "%v --help: %s", path, res.stderr)
		require.Empty(t, res.stderr, "%v --help", path)
		lines := strings.Split(res.stdout, "\n")
		check := func(f *pflag.Flag) {
			if !fromEnv(f) {
				return
			}
			flags++
			want := "(env " + envName(f.Name) + ")"
			for _, l := range lines {
				if strings.Contains(l, "--"+f.Name+" ") && strings.Contains(l, want) {
					return
				}
			}
			t.Errorf("fxd %s --help: no line lists --%s with %s:\n%s", strings.Join(path, " "), f.Name, want, res.stdout)
		}
		cmd.LocalFlags().VisitAll(check)
		cmd.InheritedFlags().VisitAll(check)
		commands++
	})
	require.GreaterOrEqual(t, commands, 20, "the walk reached the whole tree")
	require.GreaterOrEqual(t, flags, 50, "the walk saw the flags")

	res := run(t, "admin", "accounts", "create", "--help")
	require.Regexp(t, `--data-dir string +data directory of the running service \(env SVC_DATA_DIR\) \(default "\./data"\)`, res.stdout)
	require.Contains(t, res.stdout, "Global Flags:", "the admin listener flags are inherited")
	res = run(t, "serve", "--help")
	for _, name := range []string{"passivate-after", "log-level", "webhook-master-key-file", "rfq-settle-timeout"} {
		require.Contains(t, res.stdout, "--"+name+" ", "serve --help")
	}
}

// TestTopLevelUsageListsEveryCommand: fxd --help names every command of
// the tree (the faucet, then cluster and webhooks reseal were once
// missing): each runnable leaf's parent path, then its name among the
// |-separated words after it ("fxd admin keys create|revoke").
func TestTopLevelUsageListsEveryCommand(t *testing.T) {
	res := run(t, "--help")
	require.Equal(t, 0, res.code)
	lines := strings.Split(res.stdout, "\n")
	listed := func(parent, name string) bool {
		for _, l := range lines {
			rest, ok := strings.CutPrefix(strings.TrimSpace(l), parent+" ")
			if !ok {
				continue
			}
			if words := strings.Fields(rest); len(words) > 0 && slices.Contains(strings.Split(words[0], "|"), name) {
				return true
			}
		}
		return false
	}
	var walk func(c *cobra.Command)
	leaves := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			if sub.HasSubCommands() {
				walk(sub)
				continue
			}
			leaves++
			require.True(t, listed(c.CommandPath(), sub.Name()), "fxd --help does not list %q", sub.CommandPath())
		}
	}
	walk(newRootCmd(io.Discard, io.Discard))
	require.Greater(t, leaves, 20)
}

func TestExitCodes(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		name   string
		env    map[string]string
		args   []string
		code   int
		stderr string
	}{
		{"no command", nil, nil, exitUsage, "a command is required"},
		{"unknown command", nil, []string{"frobnicate"}, exitUsage, `unknown command "frobnicate" for "fxd"`},
		{"admin alone", nil, []string{"admin"}, exitUsage, "admin: a command is required"},
		{"unknown admin command", nil, []string{"admin", "accounts", "frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{"missing --name", nil, []string{"admin", "accounts", "create", "--data-dir", empty}, exitUsage, "--name is required"},
		{"missing key args", nil, []string{"admin", "keys", "create", "--account", "acct_x"}, exitUsage, "--scopes and --out are required"},
		{"update without id", nil, []string{"admin", "accounts", "update"}, exitUsage, "got 0 arguments"},
		{"unknown flag", nil, []string{"serve", "--bogus"}, exitUsage, "unknown flag: --bogus"},
		{"bad flag value", nil, []string{"serve", "--makers", "many"}, exitUsage, "--makers"},
		{"bad --env", nil, []string{"serve", "--env", "prod"}, exitUsage, "--env must be test or live"},
		{"negative --makers", nil, []string{"serve", "--makers", "-1", "--data-dir", filepath.Join(empty, "mk")}, exitUsage, "--makers must be from 0 to 16, not -1"},
		{"negative SVC_MAKERS", map[string]string{"SVC_MAKERS": "-3"}, []string{"serve", "--data-dir", filepath.Join(empty, "mk")}, exitUsage, "--makers must be from 0 to 16, not -3"},
		{"too many --makers", nil, []string{"serve", "--makers", "17", "--data-dir", filepath.Join(empty, "mk")}, exitUsage, "--makers must be from 0 to 16"},
		{"bad --chain", nil, []string{"serve", "--chain", "mainnet", "--data-dir", filepath.Join(empty, "mk")}, exitUsage, "--chain must be embedded or rpc"},
		{"rpc without its node", nil, []string{"serve", "--chain", "rpc", "--data-dir", filepath.Join(empty, "mk")}, exitUsage, "--chain rpc needs --rpc-url and --contracts"},
		{"bad --log-level", nil, []string{"serve", "--log-level", "loud"}, exitUsage, "--log-level must be"},
		{"admin listen off loopback", nil, []string{"serve", "--admin-listen", "0.0.0.0:8081"}, exitUsage, "loopback"},
		// Refused before anything starts: nothing is written to the data dir.
		{"loopback receivers in live", nil, []string{"serve", "--env", "live", "--webhook-allow-loopback", "--data-dir", filepath.Join(empty, "live")}, exitUsage, "refused with --env live"},
		{"bad public url", nil, []string{"serve", "--public-url", "api.example.com/v1", "--data-dir", filepath.Join(empty, "pub")}, exitUsage, "--public-url"},
		{"bad retry schedule", nil, []string{"serve", "--webhook-retry-schedule", "soon", "--data-dir", filepath.Join(empty, "sched")}, exitUsage, "--webhook-retry-schedule"},
		{"bad env value", map[string]string{"SVC_MAKERS": "many"}, []string{"serve"}, exitUsage, `SVC_MAKERS="many"`},
		{"bad env bool", map[string]string{"SVC_SWAP": "maybe"}, []string{"admin", "accounts", "create", "--name", "X"}, exitUsage, "SVC_SWAP"},
		{"call without key", nil, []string{"call", "GET", "/public/v1/account"}, exitUsage, "--key-id and --key-file are required"},
		{"call without path", nil, []string{"call", "--key-id", "k", "--key-file", "f", "GET"}, exitUsage, "got 1 arguments"},
		{"completion without shell", nil, []string{"completion"}, exitUsage, "a command is required"},
		{"no server", nil, []string{"admin", "accounts", "create", "--name", "X", "--data-dir", empty}, exitFailure, "fxd: find the admin listener"},
		{"snapshot list of a missing data dir", nil, []string{"snapshot", "list", "--data-dir", filepath.Join(empty, "nowhere")}, exitFailure, "fxd: snapshot list: data dir"},
		{"call key file missing", nil, []string{"call", "--key-id", "k", "--key-file", filepath.Join(empty, "none.pem"), "GET", "/x"}, exitFailure, "fxd: call:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			res := run(t, tc.args...)
			require.Equal(t, tc.code, res.code, "stderr: %s", res.stderr)
			require.Contains(t, res.stderr, tc.stderr)
			require.Empty(t, res.stdout, "nothing on stdout when a command fails")
		})
	}
}

// TestFlagsBeforeOrAfterCommandWords resolves command lines with the
// group's flags on either side of the command words, as cobra's Find
// does for Execute, and parses the rest.
func TestFlagsBeforeOrAfterCommandWords(t *testing.T) {
	tests := []struct {
		args []string
		path string
		pos  []string
	}{
		{[]string{"admin", "--data-dir", "D", "accounts", "create", "--name", "X"}, "fxd admin accounts create", nil},
		{[]string{"admin", "accounts", "create", "--name", "X", "--data-dir", "D"}, "fxd admin accounts create", nil},
		{[]string{"admin", "--data-dir=D", "accounts", "--name", "X", "create"}, "fxd admin accounts create", nil},
		{[]string{"admin", "--data-dir", "D", "accounts", "update", "acct_1", "--name", "X"}, "fxd admin accounts update", []string{"acct_1"}},
		{[]string{"admin", "--data-dir", "D", "keys", "revoke", "--name", "X", "svc_test_1"}, "fxd admin keys revoke", []string{"svc_test_1"}},
		{[]string{"snapshot", "--data-dir", "D", "list", "--name", "X"}, "fxd snapshot list", nil},
		{[]string{"wal", "--data-dir", "D", "verify", "--name", "X"}, "fxd wal verify", nil},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			root := newRootCmd(io.Discard, io.Discard)
			// --name is not a flag of every command: give it to those
			// that lack it so one table can check both flags.
			cmd, rest, err := root.Find(tc.args)
			require.NoError(t, err)
			require.Equal(t, tc.path, cmd.CommandPath())
			if cmd.Flags().Lookup("name") == nil {
				cmd.Flags().String("name", "", "")
			}
			require.NoError(t, cmd.ParseFlags(rest))
			dir, err := cmd.Flags().GetString("data-dir")
			require.NoError(t, err)
			require.Equal(t, "D", dir)
			name, err := cmd.Flags().GetString("name")
			require.NoError(t, err)
			require.Equal(t, "X", name)
			require.Equal(t, tc.pos, nilIfEmpty(cmd.Flags().Args()))
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestDataDirAnywhereAndFromEnv runs the snapshot commands offline against
// a real store: a backup made with --data-dir before the command words is
// listed with it after them, and with SVC_DATA_DIR; the command line wins
// over the environment.
func TestDataDirAnywhereAndFromEnv(t *testing.T) {
	dir := t.TempDir()
	st, err := snapshot.Open(filepath.Join(dir, "state")) // the store fxd serve leaves
	require.NoError(t, err)
	require.NoError(t, st.Close())
	res := run(t, "snapshot", "--data-dir", dir, "create")
	require.Equal(t, 0, res.code, res.stderr)
	var made map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &made), res.stdout)
	require.NotEmpty(t, made["name"])

	listed := func(res result) []any {
		t.Helper()
		require.Equal(t, 0, res.code, res.stderr)
		var out struct{ Data []any }
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &out), res.stdout)
		return out.Data
	}
	require.Len(t, listed(run(t, "snapshot", "list", "--data-dir", dir)), 1)
	t.Setenv("SVC_DATA_DIR", dir)
	require.Len(t, listed(run(t, "snapshot", "list")), 1, "SVC_DATA_DIR fills --data-dir")
	require.Empty(t, listed(run(t, "snapshot", "list", "--data-dir", t.TempDir())), "the command line wins over SVC_DATA_DIR")
}

func TestAccountBodyTakesOnlyGivenFlags(t *testing.T) {
	t.Setenv("SVC_PAY", "false")
	root := newRootCmd(io.Discard, io.Discard)
	cmd, rest, err := root.Find([]string{"admin", "accounts", "update", "acct_1", "--swap=false", "--kyc", "pending"})
	require.NoError(t, err)
	require.NoError(t, cmd.ParseFlags(rest))
	require.NoError(t, fillFromEnv(cmd))
	require.Equal(t, map[string]any{"kyc": "pending", "swap": false, "pay": false}, accountBody(cmd.Flags()))

	cmd, rest, err = newRootCmd(io.Discard, io.Discard).Find([]string{"admin", "accounts", "create", "--name", "N", "--swap"})
	require.NoError(t, err)
	require.NoError(t, cmd.ParseFlags(rest))
	require.Equal(t, map[string]any{"name": "N", "swap": true}, accountBody(cmd.Flags()), "only what was given")
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		res := run(t, args...)
		require.Equal(t, 0, res.code, res.stderr)
		require.True(t, strings.HasSuffix(res.stdout, "}\n"), "one line: %q", res.stdout)
		var v map[string]string
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &v), res.stdout)
		require.Len(t, v, 3, "%v", v)
		for _, k := range []string{"version", "commit", "go_version"} {
			require.NotEmpty(t, v[k], "%v: %s", args, k)
		}
		require.True(t, strings.HasPrefix(v["go_version"], "go"), v["go_version"])
	}
}

func TestCompletionScripts(t *testing.T) {
	for shell, marker := range map[string]string{
		"bash": "__start_fxd",
		"zsh":  "#compdef fxd",
		"fish": "complete -c fxd",
	} {
		res := run(t, "completion", shell)
		require.Equal(t, 0, res.code, "%s: %s", shell, res.stderr)
		require.Contains(t, res.stdout, marker, shell)
	}
}

func TestParseLogLevel(t *testing.T) {
	for in, want := range map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "ERROR": slog.LevelError} {
		got, err := parseLogLevel(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "warning", "trace", "DEBUG+4"} {
		_, err := parseLogLevel(bad)
		require.Error(t, err, bad)
	}
}

// TestServeLoggerLevels: the service's lines and go-ethereum's go through
// one JSON handler at the chosen level, go-ethereum's no lower than warn
// unless the level is debug.
func TestServeLoggerLevels(t *testing.T) {
	prevSlog, prevGeth := slog.Default(), gethlog.Root()
	t.Cleanup(func() {
		gethlog.SetDefault(prevGeth)
		slog.SetDefault(prevSlog)
		log.SetOutput(os.Stderr)
		log.SetFlags(log.LstdFlags)
	})
	var buf bytes.Buffer
	logger := newServeLogger(&buf, slog.LevelWarn)
	logger.Info("hidden")
	logger.Warn("shown", "k", 1)
	gethlog.Info("geth info hidden")
	gethlog.Warn("geth warn shown")
	require.NotContains(t, buf.String(), "hidden")
	require.Contains(t, buf.String(), `"msg":"shown"`)
	require.Regexp(t, `"msg":"geth warn shown".*"component":"geth"|"component":"geth".*"msg":"geth warn shown"`, buf.String())
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &v), line)
	}

	buf.Reset()
	logger = newServeLogger(&buf, slog.LevelInfo)
	logger.Info("service info")
	slog.Info("package-level info") // the log package and slog's default follow the service
	require.Contains(t, buf.String(), "service info")
	require.Contains(t, buf.String(), "package-level info")
	gethlog.Info("geth info at info")
	require.NotContains(t, buf.String(), "geth info at info", "go-ethereum's info lines only with debug")

	buf.Reset()
	newServeLogger(&buf, slog.LevelDebug)
	gethlog.Info("geth info at debug")
	gethlog.Debug("geth debug at debug")
	require.Contains(t, buf.String(), "geth info at debug")
	require.NotContains(t, buf.String(), "geth debug at debug")
}

func TestMain(m *testing.M) {
	// The tests read SVC_* on purpose (t.Setenv); a caller's shell must
	// not leak in.
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "SVC_") {
			os.Unsetenv(k)
		}
	}
	os.Exit(m.Run())
}
