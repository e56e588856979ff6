package httpd

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook"
	"github.com/fxd-labs/fxd/webhook/secret"
)

// webhookAdmin is NewAdmin's handler with the webhook routes over a real
// engine and webhook desk (sealer nil: no master key). It registers the
// routes itself only when NewAdmin did not (yet).
func webhookAdmin(t *testing.T, sealer *secret.Sealer, withDesk bool) (*Admin, *actors.Engine, string) {
	t.Helper()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actors.Config{DataDir: t.TempDir(), Logger: quiet})
	require.NoError(t, err)
	d := webhook.New(webhook.Config{Engine: e, Sealer: sealer, Logger: quiet})
	d.AddHooks(e)
	require.NoError(t, e.Recover())
	require.NoError(t, d.Start(context.Background()))
	t.Cleanup(func() {
		d.Stop()
		require.NoError(t, e.Close())
	})
	const token = "0123456789abcdef0123456789abcdef"
	a := NewAdmin(e, nil, nil, token, t.TempDir())
	if _, pattern := a.mux.Handler(httptest.NewRequest("POST", "/admin/webhooks/reseal", nil)); pattern == "" {
		a.registerWebhookAdminRoutes()
	}
	if withDesk {
		a.WithWebhooks(d)
	}
	out, err := e.CreateAccount(context.Background(), domain.CreateAccount{Name: "hooks", KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(t, err)
	var acct struct{ ID string }
	require.NoError(t, json.Unmarshal(out.Reply.Body, &acct))
	return a, e, acct.ID
}

// testKeyring is a Sealer of the named test master keys: the current one,
// then the previous ones.
func testKeyring(t *testing.T, current string, previous ...string) *secret.Sealer {
	t.Helper()
	key := func(name string) []byte {
		k := sha256.Sum256([]byte("httpd admin reseal test key " + name))
		return k[:]
	}
	prev := make([][]byte, len(previous))
	for i, p := range previous {
		prev[i] = key(p)
	}
	s, err := secret.NewKeyring(key(current), prev...)
	require.NoError(t, err)
	return s
}

// TestAdminReseal drives POST /admin/webhooks/reseal: two endpoints sealed
// under the previous key A and one under the current key B.
func TestAdminReseal(t *testing.T) {
	a, b, ring := testKeyring(t, "A"), testKeyring(t, "B"), testKeyring(t, "B", "A")
	admin, e, acct := webhookAdmin(t, ring, true)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range []*secret.Sealer{a, a, b} {
		id := e.NewID("wh_", acct)
		sealed, err := s.Seal([]byte("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="), []byte(id))
		require.NoError(t, err)
		out, err := e.Create(ctx, id, domain.Request{Cmd: domain.CreateEndpoint{ID: id, Account: acct, URL: "https://hooks.example.com/x", Sealed: sealed}})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status, "%s", out.Reply.Body)
	}

	call := func(h http.Handler, method, tok string) (int, string) {
		req := httptest.NewRequest(method, "/admin/webhooks/reseal", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	const token = "0123456789abcdef0123456789abcdef"
	status, body := call(admin, "POST", "wrong")
	require.Equal(t, 401, status, body)
	require.Contains(t, body, `"auth_failed"`)
	status, _ = call(admin, "GET", token)
	require.Equal(t, 405, status)

	status, body = call(admin, "POST", token)
	require.Equal(t, 200, status, body)
	require.JSONEq(t, `{"resealed":2,"already_current":1,"failed":0}`, body)
	status, body = call(admin, "POST", token)
	require.Equal(t, 200, status, body)
	require.JSONEq(t, `{"resealed":0,"already_current":3,"failed":0}`, body)

	bare, _, _ := webhookAdmin(t, nil, true)
	status, body = call(bare, "POST", token)
	require.Equal(t, 503, status, body)
	require.Contains(t, body, `"webhook_encryption_unavailable"`)

	noDesk, _, _ := webhookAdmin(t, ring, false)
	status, body = call(noDesk, "POST", token)
	require.Equal(t, 503, status, body)
	require.Contains(t, body, `"unavailable"`)
}
