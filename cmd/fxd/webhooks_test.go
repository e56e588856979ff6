package main

import (
	"encoding/base64"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/webhook/secret"
)

func TestParseSchedule(t *testing.T) {
	got, err := parseSchedule("1s, 250ms,2h")
	require.NoError(t, err)
	require.Equal(t, []time.Duration{time.Second, 250 * time.Millisecond, 2 * time.Hour}, got)
	got, err = parseSchedule("")
	require.NoError(t, err)
	require.Nil(t, got, "empty: the contract's default")
	for _, bad := range []string{"1s,,2s", "0s", "-1s", "soon", "1s,2x"} {
		_, err := parseSchedule(bad)
		require.Error(t, err, bad)
	}
	long := "1s"
	for range 63 {
		long += ",1s"
	}
	_, err = parseSchedule(long)
	require.ErrorContains(t, err, "at most 63")
}

func TestOpenWebhooksRefuses(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	_, err := openWebhooks(webhookFlags{allowLoopback: true}, "live", nil, quiet)
	require.ErrorContains(t, err, "refused with --env live")

	dir := t.TempDir()
	loose := filepath.Join(dir, "loose.key")
	require.NoError(t, os.WriteFile(loose, []byte(base64.StdEncoding.EncodeToString(make([]byte, 32))), 0o644))
	_, err = openWebhooks(webhookFlags{masterKeyFile: loose}, "test", nil, quiet)
	require.ErrorContains(t, err, "0600", "a key file others can read is refused")

	good := filepath.Join(dir, "good.key")
	require.NoError(t, secret.GenerateMasterKeyFile(good))
	t.Setenv(masterKeyEnv, base64.StdEncoding.EncodeToString(make([]byte, 32)))
	_, err = openWebhooks(webhookFlags{masterKeyFile: good}, "test", nil, quiet)
	require.ErrorContains(t, err, "give only one")

	ca := filepath.Join(dir, "ca.pem")
	require.NoError(t, os.WriteFile(ca, []byte("not a certificate"), 0o644))
	_, err = webhookRoots(ca)
	require.ErrorContains(t, err, "no PEM certificate")
}

func TestWebhookKeyCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "webhook.key")
	res := run(t, "webhook-key", "create", "--out", path)
	require.Equal(t, 0, res.code, res.stderr)
	require.JSONEq(t, `{"file":"`+path+`","created":true}`, res.stdout)
	first, err := os.ReadFile(path)
	require.NoError(t, err)
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	res = run(t, "webhook-key", "create", "--out", path)
	require.Equal(t, 0, res.code, res.stderr)
	require.JSONEq(t, `{"file":"`+path+`","created":false}`, res.stdout, "an existing key is kept")
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, first, again)
	_, err = secret.LoadMasterKey("", path)
	require.NoError(t, err)

	require.Equal(t, exitUsage, run(t, "webhook-key", "create").code, "--out is required")
	require.Equal(t, exitUsage, run(t, "webhook-key").code, "a command is required")
}
