package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCLISurface checks the binary's command line without a server:
// --help of each command lists its flags with their SVC_* variables,
// usage errors exit 2, version prints JSON, completion scripts generate.
func TestCLISurface(t *testing.T) {
	t.Parallel()
	t.Run("help", func(t *testing.T) {
		for _, tc := range []struct {
			args  []string
			flags []string
		}{
			{[]string{"serve"}, []string{"data-dir", "listen", "admin-listen", "env", "log-level", "chain", "chain-rpc-listen", "rpc-url",
				"contracts", "maker-keys-file", "webhook-allow-loopback", "webhook-ca", "webhook-retry-schedule", "webhook-master-key-file", "makers",
				"maker-fault", "order-deadline", "rfq-settle-timeout", "passivate-after", "public-url", "webhook-previous-master-keys-file",
				"cluster-name", "node-name", "cluster-listen", "peers", "partitions"}},
			{[]string{"admin", "webhooks", "reseal"}, []string{"data-dir", "admin-url", "admin-token-file"}},
			{[]string{"admin"}, []string{"data-dir", "admin-url", "admin-token-file"}},
			{[]string{"admin", "accounts", "create"}, []string{"name", "kyc", "swap", "pay", "data-dir", "admin-url", "admin-token-file"}},
			{[]string{"admin", "keys", "create"}, []string{"account", "scopes", "out", "data-dir"}},
			{[]string{"admin", "faucet"}, []string{"address", "currency", "amount", "data-dir"}},
			{[]string{"call"}, []string{"base-url", "key-id", "key-file", "idempotency-key", "include"}},
			{[]string{"wal", "verify"}, []string{"data-dir"}},
			{[]string{"snapshot", "create"}, []string{"data-dir", "admin-url"}},
			{[]string{"backup", "create"}, []string{"out", "data-dir", "admin-url"}},
			{[]string{"backup", "restore"}, []string{"data-dir"}},
			{[]string{"chain", "deploy"}, []string{"rpc-url", "deployer-key-file", "out", "maker-addresses"}},
			{[]string{"webhook-key", "create"}, []string{"out"}},
			{[]string{"cluster", "status"}, []string{"data-dir", "admin-url", "admin-token-file"}},
			{[]string{"cluster", "remove-peer"}, []string{"data-dir", "admin-url", "admin-token-file"}},
		} {
			res := runCLI(t, append(tc.args, "--help")...)
			require.Equal(t, 0, res.Code, "%v --help: %s", tc.args, res.Stderr)
			for _, f := range tc.flags {
				env := "SVC_" + strings.ToUpper(strings.ReplaceAll(f, "-", "_"))
				re := `(?m)^ .*--` + regexp.QuoteMeta(f) + ` .*\(env ` + env + `\)`
				require.Regexp(t, re, res.Stdout, "fxd %s --help lists --%s with %s", strings.Join(tc.args, " "), f, env)
			}
		}
		res := runCLI(t, "--help")
		require.Contains(t, res.Stdout, "fxd admin faucet")
	})

	t.Run("usage errors exit 2", func(t *testing.T) {
		for _, args := range [][]string{{}, {"frobnicate"}, {"admin"}, {"admin", "--data-dir", t.TempDir(), "accounts", "frobnicate"},
			{"serve", "--no-such-flag"}, {"call", "GET", "/public/v1/account"},
			{"serve", "--data-dir", t.TempDir(), "--cluster-name", "c"}} {
			res := runCLI(t, args...)
			require.Equal(t, 2, res.Code, "fxd %v: stderr %s", args, res.Stderr)
			require.Empty(t, res.Stdout, "fxd %v", args)
			require.Contains(t, res.Stderr, "fxd: ", "fxd %v", args)
		}
	})

	t.Run("version", func(t *testing.T) {
		v := cliJSON(t, "version")
		require.Equal(t, []string{"commit", "go_version", "version"}, sortedKeys(v))
		require.Equal(t, v, cliJSON(t, "--version"))
	})

	t.Run("completion", func(t *testing.T) {
		for shell, marker := range map[string]string{"bash": "__start_fxd", "zsh": "#compdef fxd", "fish": "complete -c fxd"} {
			res := runCLI(t, "completion", shell)
			require.Equal(t, 0, res.Code, "%s: %s", shell, res.Stderr)
			require.Contains(t, res.Stdout, marker, shell)
		}
	})
}
