package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestLoadConfig: the defaults come from the files `make run` writes in
// the data dir; SVC_<FLAG> sets a flag not given; a flag given wins.
func TestLoadConfig(t *testing.T) {
	clearSVCEnv(t)
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600))
	}
	write("demo.json", `{"key_id":"svc_test_demo","account":"acct_1","scopes":["read"],"private_key_file":"./data/demo.pem"}`+"\n")
	write("admin.addr", "http://127.0.0.1:8081\n")

	c, err := loadConfig([]string{"--data-dir", dir})
	require.NoError(t, err)
	require.Equal(t, config{
		dataDir: dir, baseURL: "http://127.0.0.1:8080", rpcURL: "http://127.0.0.1:8545",
		keyID: "svc_test_demo", keyFile: filepath.Join(dir, "demo.pem"),
		adminURL: "http://127.0.0.1:8081", adminTokenFile: filepath.Join(dir, "admin.token"),
		timeout: 5 * time.Minute,
	}, c)

	t.Setenv("SVC_BASE_URL", "http://127.0.0.1:9999")
	t.Setenv("SVC_RPC_URL", "http://127.0.0.1:7777")
	c, err = loadConfig([]string{"--data-dir", dir, "--rpc-url", "http://127.0.0.1:6666", "--timeout", "1m"})
	require.NoError(t, err)
	require.Equal(t, "http://127.0.0.1:9999", c.baseURL, "from the environment")
	require.Equal(t, "http://127.0.0.1:6666", c.rpcURL, "the flag wins")
	require.Equal(t, time.Minute, c.timeout)

	_, err = loadConfig([]string{"--data-dir", filepath.Join(dir, "missing")})
	require.ErrorContains(t, err, "make run")
	_, err = loadConfig([]string{"--data-dir", dir, "extra"})
	require.Error(t, err)
	t.Setenv("SVC_TIMEOUT", "soon")
	_, err = loadConfig([]string{"--data-dir", dir})
	require.ErrorContains(t, err, "SVC_TIMEOUT")
}

// clearSVCEnv unsets every SVC_* variable for the test (restored after),
// so the caller's shell does not change the defaults under test.
func clearSVCEnv(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, v, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "SVC_") {
			t.Setenv(k, v)
			require.NoError(t, os.Unsetenv(k))
		}
	}
}
