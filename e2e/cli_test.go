package e2e

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sortedKeys returns the keys of a JSON object, sorted.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// requireCLIFails requires a non-zero exit with a message on stderr and
// nothing on stdout.
func requireCLIFails(t testing.TB, res cliResult, what string) {
	t.Helper()
	require.NotEqual(t, 0, res.Code, "%s should fail; stdout:\n%s", what, res.Stdout)
	require.NotEmpty(t, strings.TrimSpace(res.Stderr), "%s: no message on stderr", what)
	require.Empty(t, res.Stdout, "%s: a failure prints nothing on stdout", what)
}

// TestCLI drives the operator surface: admin accounts and keys, call,
// snapshot and wal.
func TestCLI(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	srv := startServer(t, dataDir)
	dd := []string{"--data-dir", dataDir}
	keysDir := t.TempDir() // outlives the subtests

	var acct string
	t.Run("accounts create", func(t *testing.T) {
		out := srv.admin(t, "accounts", "create", "--name", "CLI Corp")
		require.Equal(t, []string{"created_at", "id", "kyc_status", "name", "permissions", "wallets"}, sortedKeys(out))
		acct = out["id"].(string)
		require.True(t, strings.HasPrefix(acct, "acct_"), acct)
		require.Equal(t, "CLI Corp", out["name"])
		require.Equal(t, "approved", out["kyc_status"], "test environment default")
		require.Equal(t, map[string]any{"swap": true, "pay": true}, out["permissions"])
		require.Equal(t, []any{}, out["wallets"])

		out = srv.admin(t, "accounts", "create", "--name", "Pending Ltd", "--kyc", "pending", "--swap=false", "--pay=false")
		require.Equal(t, "pending", out["kyc_status"])
		require.Equal(t, map[string]any{"swap": false, "pay": false}, out["permissions"])

		requireCLIFails(t, runCLI(t, append([]string{"admin", "accounts", "create", "--name", "Bad", "--kyc", "bogus"}, dd...)...), "--kyc bogus")
		requireCLIFails(t, runCLI(t, append([]string{"admin", "accounts", "create"}, dd...)...), "accounts create without --name")
		requireCLIFails(t, runCLI(t, append([]string{"admin", "accounts", "frobnicate"}, dd...)...), "unknown admin command")
	})
	require.NotEmpty(t, acct)

	var key apiKey
	t.Run("keys create", func(t *testing.T) {
		file := filepath.Join(keysDir, "cli.pem")
		out := srv.admin(t, "keys", "create", "--account", acct, "--scopes", "read,pay", "--out", file)
		require.Equal(t, []string{"account", "key_id", "private_key_file", "scopes"}, sortedKeys(out), "keys create prints exactly these")
		require.True(t, strings.HasPrefix(out["key_id"].(string), "svc_test_"), out["key_id"])
		require.Equal(t, acct, out["account"])
		require.Equal(t, []any{"read", "pay"}, out["scopes"])
		require.Equal(t, file, out["private_key_file"])

		st, err := os.Stat(file)
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "private key file mode")
		pemBytes, err := os.ReadFile(file)
		require.NoError(t, err)
		block, rest := pem.Decode(pemBytes)
		require.NotNil(t, block, "not PEM: %q", pemBytes)
		require.Equal(t, "PRIVATE KEY", block.Type, "PKCS8 PEM block type")
		require.Empty(t, strings.TrimSpace(string(rest)), "one PEM block only")
		parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		require.NoError(t, err, "PKCS8")
		priv, ok := parsed.(ed25519.PrivateKey)
		require.True(t, ok, "%T is not Ed25519", parsed)
		key = apiKey{ID: out["key_id"].(string), Account: acct, File: file, Priv: priv}

		// The key works.
		resp := call(t, srv.client(t, key), "GET", basePath+"/account", "", nil)
		requireStatus(t, resp, 200)
		require.Equal(t, acct, object(t, resp.Body)["id"])

		// Never overwrite a key file.
		res := runCLI(t, append([]string{"admin", "keys", "create", "--account", acct, "--scopes", "read", "--out", file}, dd...)...)
		requireCLIFails(t, res, "keys create over an existing file")
		again, err := os.ReadFile(file)
		require.NoError(t, err)
		require.Equal(t, pemBytes, again, "the existing key file was changed")

		// A refused key leaves no private key file behind.
		bad := filepath.Join(t.TempDir(), "bad.pem")
		requireCLIFails(t, runCLI(t, append([]string{"admin", "keys", "create", "--account", acct, "--scopes", "read,root", "--out", bad}, dd...)...), "unknown scope")
		require.NoFileExists(t, bad)
		requireCLIFails(t, runCLI(t, append([]string{"admin", "keys", "create", "--account", "acct_nope", "--scopes", "read", "--out", bad}, dd...)...), "unknown account")
		require.NoFileExists(t, bad)
	})
	require.NotEmpty(t, key.ID)

	t.Run("accounts update", func(t *testing.T) {
		out := srv.admin(t, "accounts", "update", acct, "--swap=false", "--kyc", "pending")
		require.Equal(t, acct, out["id"])
		require.Equal(t, "pending", out["kyc_status"])
		require.Equal(t, map[string]any{"swap": false, "pay": true}, out["permissions"])

		resp := call(t, srv.client(t, key), "GET", basePath+"/account", "", nil)
		requireStatus(t, resp, 200)
		got := object(t, resp.Body)
		require.Equal(t, []string{"created_at", "id", "kyc_status", "name", "permissions", "wallets"}, sortedKeys(got), "GET /account fields")
		require.Equal(t, "pending", got["kyc_status"])
		require.Equal(t, map[string]any{"swap": false, "pay": true}, got["permissions"])
		require.Equal(t, "CLI Corp", got["name"])

		requireCLIFails(t, runCLI(t, append([]string{"admin", "accounts", "update", "acct_nope", "--kyc", "pending"}, dd...)...), "update of an unknown account")
		requireCLIFails(t, runCLI(t, append([]string{"admin", "accounts", "update", acct, "--kyc", "bogus"}, dd...)...), "update with --kyc bogus")
	})

	t.Run("call", func(t *testing.T) {
		base := []string{"call", "--base-url", srv.BaseURL, "--key-id", key.ID, "--key-file", key.File}
		// Each fxd call is a new client: requests identical to another
		// one signed in the same second would be replays, so the targets
		// differ (by an ignored query parameter).
		res := runCLI(t, append(base, "GET", basePath+"/account?via=call")...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		lines := scanLines(res.Stdout)
		require.Len(t, lines, 2, "status line and body: %q", res.Stdout)
		require.Equal(t, "HTTP 200", lines[0])
		require.Equal(t, acct, jsonLine(t, lines[1]+"\n")["id"])

		body := contactBodyString("via fxd call")
		res = runCLI(t, append(base, "--idempotency-key", "cli-1", "POST", basePath+"/contacts?try=1", body)...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		lines = scanLines(res.Stdout)
		require.Equal(t, "HTTP 201", lines[0])
		created := lines[1]
		res = runCLI(t, append(base, "--idempotency-key", "cli-1", "POST", basePath+"/contacts?try=2", body)...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		require.Equal(t, []string{"HTTP 201", created}, scanLines(res.Stdout), "replay through fxd call")

		// A 4xx prints the answer and exits 1.
		res = runCLI(t, append(base, "GET", basePath+"/contacts/ct_01M80AG7DGGN82BKWCMHEJCKG8")...)
		require.Equal(t, 1, res.Code, "stdout: %s", res.Stdout)
		lines = scanLines(res.Stdout)
		require.Equal(t, "HTTP 404", lines[0])
		require.Equal(t, "not_found", errorCode(t, []byte(lines[1])))
		res = runCLI(t, append(base, "POST", basePath+"/contacts", `{"name":`)...)
		require.Equal(t, 1, res.Code)
		require.Equal(t, "HTTP 400", scanLines(res.Stdout)[0])
	})

	var snap map[string]any
	t.Run("snapshot create and list while running", func(t *testing.T) {
		snap = cliJSON(t, append([]string{"snapshot", "create"}, dd...)...)
		path, _ := snap["path"].(string)
		require.NotEmpty(t, path, "snapshot create: %v", snap)
		require.DirExists(t, path)
		require.NotEmpty(t, snap["name"])
		require.NotEmpty(t, snap["created_at"])

		list := cliJSON(t, append([]string{"snapshot", "list"}, dd...)...)
		data, _ := list["data"].([]any)
		found := false
		for _, s := range data {
			m := s.(map[string]any)
			found = found || (m["name"] == snap["name"] && m["path"] == path)
		}
		require.True(t, found, "snapshot list %v lacks %v", list, snap)
	})

	t.Run("key revoke", func(t *testing.T) {
		victim := srv.createKey(t, acct, "read")
		out := srv.admin(t, "keys", "revoke", victim.ID)
		require.Equal(t, map[string]any{"key_id": victim.ID, "revoked": true}, out)
		resp := call(t, srv.client(t, victim), "GET", basePath+"/account", "", nil)
		requireError(t, resp, 401, "auth_failed")
		requireCLIFails(t, runCLI(t, append([]string{"admin", "keys", "revoke", "svc_test_nope"}, dd...)...), "revoke of an unknown key")
	})

	t.Run("wal dump and verify", func(t *testing.T) {
		rep := cliJSON(t, append([]string{"wal", "verify"}, dd...)...)
		require.Equal(t, true, rep["ok"], "%v", rep)
		records, err := rep["records"].(json.Number).Int64()
		require.NoError(t, err)
		require.Positive(t, records)

		lastIndex, err := rep["last_index"].(json.Number).Int64()
		require.NoError(t, err)

		res := runCLI(t, append([]string{"wal", "dump"}, dd...)...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		lines := scanLines(res.Stdout)
		require.NotEmpty(t, lines)
		// One line per record: contiguous indexes up to the last one
		// verify saw (nothing writes in between).
		var first, last int64
		for i, line := range lines {
			rec := jsonLine(t, line+"\n")
			idx, err := rec["index"].(json.Number).Int64()
			require.NoError(t, err, "line %d: %s", i, line)
			if i == 0 {
				first = idx
			} else {
				require.Equal(t, last+1, idx, "line %d: indexes are contiguous", i)
			}
			last = idx
			require.Contains(t, rec, "events", "line %d", i)
		}
		require.Equal(t, lastIndex, last, "last record of the dump")
		require.Equal(t, int64(len(lines)), last-first+1)
		require.Contains(t, res.Stdout, acct, "the dump shows the account")
	})

	t.Run("admin against a stopped server", func(t *testing.T) {
		srv.Stop(t)
		requireCLIFails(t, runCLI(t, append([]string{"admin", "accounts", "create", "--name", "Too late"}, dd...)...), "admin with the server stopped")
		requireCLIFails(t, runCLI(t, append([]string{"admin", "keys", "revoke", key.ID}, dd...)...), "keys revoke with the server stopped")
		requireCLIFails(t, runCLI(t, "admin", "accounts", "create", "--name", "Nowhere", "--data-dir", t.TempDir()), "admin with no server ever started")

		// The offline tools work on the stopped server's data dir.
		rep := cliJSON(t, append([]string{"wal", "verify"}, dd...)...)
		require.Equal(t, true, rep["ok"], "%v", rep)
		off := cliJSON(t, append([]string{"snapshot", "create"}, dd...)...)
		require.DirExists(t, fmt.Sprint(off["path"]))
		list := cliJSON(t, append([]string{"snapshot", "list"}, dd...)...)
		require.GreaterOrEqual(t, len(list["data"].([]any)), 2)
	})
}
