package e2e

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

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
	// At warn, none of the service's info lines (runtime tuned, serving)
	// may reach stderr: checked after the server stops.
	srv := startServer(t, dataDir, "--log-level", "warn")
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
		// stdout is the body alone, so it goes to a JSON parser (jq) as
		// it is; the status line is on stderr.
		res := runCLI(t, append(base, "GET", basePath+"/account")...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		require.Equal(t, acct, bodyJSON(t, res.Stdout)["id"])
		require.Equal(t, "HTTP 200 OK\n", res.Stderr)

		// -i adds every response header on stderr; stdout is unchanged.
		res = runCLI(t, append(base, "-i", "GET", basePath+"/account")...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		require.Equal(t, acct, bodyJSON(t, res.Stdout)["id"])
		require.Regexp(t, `^HTTP 200 OK\n`, res.Stderr)
		require.Regexp(t, `(?mi)^X-RateLimit-Limit: \d+$`, res.Stderr)
		require.Regexp(t, `(?mi)^Content-Type: application/json`, res.Stderr)

		// A write with --idempotency-key: the second run is answered with
		// the stored answer, byte for byte.
		body := contactBodyString("via fxd call")
		res = runCLI(t, append(base, "--idempotency-key", "cli-1", "POST", basePath+"/contacts", body)...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		require.Equal(t, "HTTP 201 Created\n", res.Stderr)
		created := res.Stdout
		require.True(t, strings.HasPrefix(bodyJSON(t, created)["id"].(string), "ct_"), created)
		res = runCLI(t, append(base, "-i", "--idempotency-key", "cli-1", "POST", basePath+"/contacts", body)...)
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		require.Equal(t, created, res.Stdout, "replay through fxd call")
		require.Regexp(t, `(?mi)^Idempotency-Replayed: true$`, res.Stderr)

		// A non-2xx answer: the body on stdout, the status on stderr, exit 1.
		res = runCLI(t, append(base, "GET", basePath+"/contacts/ct_01M80AG7DGGN82BKWCMHEJCKG8")...)
		require.Equal(t, 1, res.Code, "stdout: %s", res.Stdout)
		require.Equal(t, "HTTP 404 Not Found\n", res.Stderr)
		require.Equal(t, "not_found", errorCode(t, []byte(res.Stdout)))
		res = runCLI(t, append(base, "POST", basePath+"/contacts", `{"name":`)...)
		require.Equal(t, 1, res.Code)
		require.Equal(t, "HTTP 400 Bad Request\n", res.Stderr)
		require.Equal(t, "invalid_request", errorCode(t, []byte(res.Stdout)))
	})

	t.Run("call twice in one second", func(t *testing.T) {
		// Two identical runs signed in the same second would be one
		// request and its replay without fxd call's unique query
		// parameter. Start both at the top of a second, together.
		args := []string{"call", "--base-url", srv.BaseURL, "--key-id", key.ID, "--key-file", key.File, "GET", basePath + "/account"}
		ctx, cancel := context.WithTimeout(context.Background(), cliDeadline)
		defer cancel()
		var stdout, stderr [2]bytes.Buffer
		var cmds [2]*exec.Cmd
		time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
		for i := range cmds {
			cmds[i] = exec.CommandContext(ctx, fxdBin, args...)
			cmds[i].Env = cleanEnv()
			cmds[i].Stdout, cmds[i].Stderr = &stdout[i], &stderr[i]
			require.NoError(t, cmds[i].Start())
		}
		for i, cmd := range cmds {
			require.NoError(t, cmd.Wait(), "run %d: stdout %s stderr %s", i, stdout[i].String(), stderr[i].String())
			require.Equal(t, acct, bodyJSON(t, stdout[i].String())["id"], "run %d", i)
		}
	})

	t.Run("admin flags before or after the command words", func(t *testing.T) {
		before := cliJSON(t, "admin", "--data-dir", dataDir, "accounts", "create", "--name", "Before Ltd")
		require.Equal(t, "Before Ltd", before["name"])
		after := cliJSON(t, "admin", "accounts", "create", "--name", "After Ltd", "--data-dir", dataDir)
		require.Equal(t, "After Ltd", after["name"])
		require.NotEqual(t, before["id"], after["id"])

		// --admin-url and --admin-token-file instead of --data-dir, first.
		addr, err := os.ReadFile(filepath.Join(dataDir, "admin.addr"))
		require.NoError(t, err)
		out := cliJSON(t, "admin", "--admin-url", strings.TrimSpace(string(addr)), "--admin-token-file", filepath.Join(dataDir, "admin.token"),
			"accounts", "update", before["id"].(string), "--kyc", "pending")
		require.Equal(t, "pending", out["kyc_status"])

		// SVC_DATA_DIR stands in for --data-dir.
		res := runCLIEnv(t, []string{"SVC_DATA_DIR=" + dataDir}, "admin", "accounts", "create", "--name", "Env Ltd")
		require.Equal(t, 0, res.Code, "stderr: %s", res.Stderr)
		require.Equal(t, "Env Ltd", jsonLine(t, res.Stdout)["name"])

		// A usage error exits 2 and says so on stderr.
		res = runCLI(t, "admin", "--data-dir", dataDir, "accounts", "create")
		require.Equal(t, 2, res.Code)
		require.Contains(t, res.Stderr, "--name is required")
		require.Empty(t, res.Stdout)
	})

	var snap map[string]any
	t.Run("snapshot create and list while running", func(t *testing.T) {
		snap = cliJSON(t, append([]string{"snapshot", "create"}, dd...)...)
		path, _ := snap["path"].(string)
		require.NotEmpty(t, path, "snapshot create: %v", snap)
		require.DirExists(t, path)
		require.NotEmpty(t, snap["name"])
		require.NotEmpty(t, snap["created_at"])
		require.NotZero(t, snap["index"], "the applied index the checkpoint holds")

		list := cliJSON(t, append([]string{"snapshot", "list"}, dd...)...)
		data, _ := list["data"].([]any)
		found := false
		for _, s := range data {
			m := s.(map[string]any)
			found = found || (m["name"] == snap["name"] && m["path"] == path && m["index"] == snap["index"])
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
		// One JSON object, as every operator command prints: its records
		// have contiguous indexes, at least up to the last one verify saw
		// (the server runs meanwhile, and its own background work, the
		// chain watcher's progress among it, may append a record between
		// the two commands: CI saw one).
		dump := walDump(t, res.Stdout)
		require.NotEmpty(t, dump.Records)
		require.Len(t, dump.Records, dump.Count)
		first, last := dump.Records[0].Index, dump.Records[len(dump.Records)-1].Index
		for i, rec := range dump.Records {
			require.Equal(t, first+uint64(i), rec.Index, "record %d: indexes are contiguous", i)
			require.NotNil(t, rec.Events, "record %d", i)
		}
		require.GreaterOrEqual(t, last, uint64(lastIndex), "last record of the dump")
		require.Contains(t, res.Stdout, acct, "the dump shows the account")
	})

	t.Run("admin against a stopped server", func(t *testing.T) {
		srv.Stop(t)
		requireNothingBelowWarn(t, srv.Stderr())
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

// bodyJSON requires out to be exactly one JSON object (fxd call's stdout:
// the body alone, as a JSON parser reads it) and returns it.
func bodyJSON(t testing.TB, out string) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(out))
	require.NoError(t, dec.Decode(&v), "stdout %q is not a JSON object", out)
	_, err := dec.Token()
	require.ErrorIs(t, err, io.EOF, "trailing data after the JSON object in %q", out)
	return v
}

// runCLIEnv runs `fxd args...` to completion with extra environment variables
// (KEY=VALUE) on top of cleanEnv.
func runCLIEnv(t testing.TB, env []string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, fxdBin, args...)
	cmd.Env = append(cleanEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := cliResult{Stdout: stdout.String(), Stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee) && ctx.Err() == nil:
		res.Code = ee.ExitCode()
	default:
		t.Fatalf("fxd %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, res.Stdout, res.Stderr)
	}
	return res
}

// requireNothingBelowWarn: a server run with --log-level warn logged no
// debug or info line (and every line is JSON).
func requireNothingBelowWarn(t testing.TB, log string) {
	t.Helper()
	requireJSONLines(t, log)
	for i, line := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		if line == "" {
			continue
		}
		var v struct{ Level string }
		require.NoError(t, json.Unmarshal([]byte(line), &v))
		require.NotContains(t, []string{"DEBUG", "INFO"}, v.Level, "stderr line %d at --log-level warn: %s", i+1, line)
	}
}
