package e2e

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLiveEnvironment: `fxd serve --env live` serves under /v1 (not
// /public/v1), names its keys svc_live_…, creates accounts pending and
// permitted nothing, has no faucet (said in words), and warns at start
// that it runs without --public-url and on the embedded test chain.
func TestLiveEnvironment(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir(), "--env", "live")

	for path, want := range map[string]int{"/v1/health": 200, "/public/v1/health": 404, "/v1/time": 200} {
		resp, err := http.Get(srv.BaseURL + path)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, want, resp.StatusCode, path)
	}

	out := srv.admin(t, "accounts", "create", "--name", "Live Ltd")
	require.Equal(t, "pending", out["kyc_status"], "live default: nothing opened by a forgotten flag")
	require.Equal(t, map[string]any{"swap": false, "pay": false}, out["permissions"])
	acct := out["id"].(string)

	file := filepath.Join(t.TempDir(), "live.pem")
	key := srv.admin(t, "keys", "create", "--account", acct, "--scopes", "read", "--out", file)
	keyID := key["key_id"].(string)
	require.True(t, strings.HasPrefix(keyID, "svc_live_"), keyID)

	call := []string{"call", "--base-url", srv.BaseURL, "--key-id", keyID, "--key-file", file}
	res := runCLI(t, append(call, "GET", "/v1/account")...)
	require.Equal(t, 0, res.Code, "stdout %s stderr %s", res.Stdout, res.Stderr)
	require.Equal(t, acct, bodyJSON(t, res.Stdout)["id"])
	res = runCLI(t, append(call, "GET", "/public/v1/account")...)
	require.Equal(t, 1, res.Code, "the test environment's base path is no route in live")
	require.Equal(t, "not_found", errorCode(t, []byte(res.Stdout)))

	res = runCLI(t, "admin", "faucet", "--address", "0x1111111111111111111111111111111111111111", "--currency", "USDC", "--amount", "1", "--data-dir", srv.DataDir)
	requireCLIFails(t, res, "faucet in live")
	require.Contains(t, res.Stderr, "test environment only")

	logs := srv.stderr.String()
	require.Contains(t, logs, `"level":"WARN","msg":"serve: --env live without --public-url`)
	require.Contains(t, logs, `"level":"WARN","msg":"the embedded chain is a test chain`)
}
