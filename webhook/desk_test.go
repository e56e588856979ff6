package webhook

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook/sign"
)

// idemKey is the idempotency identity the API gives a request.
func idemKey(key, method, path string, body []byte) *domain.IdemRequest {
	return &domain.IdemRequest{Scope: domain.IdemScope("svc_test_k1", method, path, key), BodyHash: sha256.Sum256(body)}
}

// readTree returns every regular file under dir, concatenated.
func readTree(t *testing.T, dir string) []byte {
	t.Helper()
	var all []byte
	require.NoError(t, filepath.WalkDir(dir, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		all = append(all, b...)
		return nil
	}))
	return all
}

// TestCreateEndpointRevealsSecretOnce: the create answer shows the secret;
// the log holds it only sealed; a replay under the key answers the same
// bytes, secret included; no list or row view shows it.
func TestCreateEndpointRevealsSecretOnce(t *testing.T) {
	h := newHarness(t, Config{}, false)
	rc := newReceiver(t, 200)
	ctx := ctxT(t)
	body := []byte(`{"url":"` + rc.URL() + `"}`)
	idem := idemKey("create-1", "POST", "/webhooks", body)

	first, err := h.d.CreateEndpoint(ctx, h.acct, EndpointRequest{URL: rc.URL()}, idem)
	require.NoError(t, err)
	require.Equal(t, 201, first.Reply.Status, "%s", first.Reply.Body)
	var c created
	require.NoError(t, json.Unmarshal(first.Reply.Body, &c))
	require.True(t, strings.HasPrefix(c.ID, "wh_"), c.ID)
	require.Equal(t, rc.URL(), c.URL)
	require.Equal(t, []string{"*"}, c.Events)
	require.Equal(t, domain.EndpointEnabled, c.State)
	require.NotEmpty(t, c.CreatedAt)
	key, err := sign.ParseSecret(c.Secret)
	require.NoError(t, err, "the revealed secret is a whsec_ secret")

	// The row holds it sealed, to this endpoint.
	ep := h.endpoint(c.ID)
	require.Len(t, ep.Secrets, 1)
	opened, err := h.cfg.Sealer.Open(ep.Secrets[0].Sealed, []byte(c.ID))
	require.NoError(t, err)
	require.Equal(t, c.Secret, string(opened))

	replay, err := h.d.CreateEndpoint(ctx, h.acct, EndpointRequest{URL: rc.URL()}, idem)
	require.NoError(t, err)
	require.True(t, replay.Replayed)
	require.Equal(t, 201, replay.Reply.Status)
	require.Equal(t, string(first.Reply.Body), string(replay.Reply.Body), "the replay is byte-identical, secret included")

	// The same key with another body is refused, and creates nothing.
	other := []byte(`{"url":"` + rc.URL() + `/other"}`)
	reused, err := h.d.CreateEndpoint(ctx, h.acct, EndpointRequest{URL: rc.URL() + "/other"}, &domain.IdemRequest{Scope: idem.Scope, BodyHash: sha256.Sum256(other)})
	require.NoError(t, err)
	require.Equal(t, 422, reused.Reply.Status, "%s", reused.Reply.Body)

	list, err := h.d.ListEndpoints(ctx, h.acct, domain.Page{Limit: 10})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, c.ID, list.Data[0].ID)
	listed, err := json.Marshal(list)
	require.NoError(t, err)
	require.NotContains(t, string(listed), "whsec_")
	require.NotContains(t, string(listed), "secret")

	// The log: the answer is stored sealed (so it is there), and neither
	// the secret nor its key bytes appear anywhere in the data dir.
	wal := readTree(t, filepath.Join(h.dir, "wal"))
	require.True(t, bytes.Contains(wal, []byte(`"secret":"sealed:`)), "the stored answer is in the log, sealed")
	all := append(wal, readTree(t, filepath.Join(h.dir, "state"))...)
	for _, needle := range []string{"whsec_", c.Secret, strings.TrimPrefix(c.Secret, sign.SecretPrefix), string(key)} {
		require.False(t, bytes.Contains(all, []byte(needle)), "the data dir holds %q", needle)
	}

	// A restart replays the same answer: the master key still opens it.
	h.restart()
	again, err := h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL()}, idem)
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, string(first.Reply.Body), string(again.Reply.Body))
}

// TestNoSealer: without a master key, creating or rotating answers 503
// webhook_encryption_unavailable and writes nothing.
func TestNoSealer(t *testing.T) {
	h := newHarness(t, Config{}, true)
	rc := newReceiver(t, 200)
	ctx := ctxT(t)
	body := []byte(`{"url":"` + rc.URL() + `"}`)
	for _, idem := range []*domain.IdemRequest{nil, idemKey("no-sealer", "POST", "/webhooks", body)} {
		before := h.e.LastIndex()
		out, err := h.d.CreateEndpoint(ctx, h.acct, EndpointRequest{URL: rc.URL()}, idem)
		require.NoError(t, err)
		require.Equal(t, 503, out.Reply.Status)
		require.Equal(t, domain.CodeWebhookEncryptionUnavailable, errorCode(t, out.Reply.Body))
		require.Equal(t, before, h.e.LastIndex(), "nothing written, not even the key's answer")
	}
	list, err := h.d.ListEndpoints(ctx, h.acct, domain.Page{Limit: 10})
	require.NoError(t, err)
	require.Empty(t, list.Data)

	out, err := h.d.RotateSecret(ctx, h.acct, "wh_x", nil)
	require.NoError(t, err)
	require.Equal(t, 503, out.Reply.Status)
	require.Equal(t, domain.CodeWebhookEncryptionUnavailable, errorCode(t, out.Reply.Body))
}

// TestCreateEndpointRefusals: URLs the screen refuses are 400
// invalid_webhook_url, bad event filters 400 invalid_request; nothing is
// stored.
func TestCreateEndpointRefusals(t *testing.T) {
	res := newFakeResolver()
	res.set("rebind.test", "127.0.0.1", "10.0.0.1")
	res.set("private.test", "192.168.1.10")
	res.set("good.test", "127.0.0.1")
	h := newHarness(t, Config{Resolver: res}, false)
	rc := newReceiver(t, 200)
	port := rc.port()
	events := func(e ...string) *[]string { return &e }

	cases := []struct {
		name   string
		url    string
		events *[]string
		code   string
	}{
		{"plain http", "http://127.0.0.1:" + port + "/hooks", nil, domain.CodeInvalidWebhookURL},
		{"ftp", "ftp://127.0.0.1:" + port + "/", nil, domain.CodeInvalidWebhookURL},
		{"userinfo", "https://user:pw@127.0.0.1:" + port + "/hooks", nil, domain.CodeInvalidWebhookURL},
		{"rfc1918", "https://10.0.0.1/hooks", nil, domain.CodeInvalidWebhookURL},
		{"cgnat", "https://100.64.0.1/hooks", nil, domain.CodeInvalidWebhookURL},
		{"metadata", "https://169.254.169.254/latest/meta-data", nil, domain.CodeInvalidWebhookURL},
		{"unspecified", "https://0.0.0.0/hooks", nil, domain.CodeInvalidWebhookURL},
		{"multicast", "https://224.0.0.1/hooks", nil, domain.CodeInvalidWebhookURL},
		{"ipv6 ula", "https://[fd00::1]/hooks", nil, domain.CodeInvalidWebhookURL},
		{"ipv6 link-local", "https://[fe80::1]/hooks", nil, domain.CodeInvalidWebhookURL},
		{"ipv4-mapped private", "https://[::ffff:10.0.0.1]/hooks", nil, domain.CodeInvalidWebhookURL},
		{"decimal host", "https://2130706433:" + port + "/hooks", nil, domain.CodeInvalidWebhookURL},
		{"hex host", "https://0x7f000001:" + port + "/hooks", nil, domain.CodeInvalidWebhookURL},
		{"octal host", "https://0177.0.0.1:" + port + "/hooks", nil, domain.CodeInvalidWebhookURL},
		{"fragment", rc.URL() + "#frag", nil, domain.CodeInvalidWebhookURL},
		{"name resolves nowhere", "https://nowhere.test/hooks", nil, domain.CodeInvalidWebhookURL},
		{"name resolves to a private address", "https://private.test/hooks", nil, domain.CodeInvalidWebhookURL},
		{"one of its addresses private", "https://rebind.test:" + port + "/hooks", nil, domain.CodeInvalidWebhookURL},
		{"no url", "", nil, domain.CodeInvalidRequest},
		{"unknown event type", rc.URL(), events("transfer.confirmed", "order.bogus"), domain.CodeInvalidRequest},
		{"empty events", rc.URL(), events(), domain.CodeInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: tc.url, Events: tc.events}, nil)
			require.NoError(t, err)
			require.Equal(t, 400, out.Reply.Status, "%s", out.Reply.Body)
			require.Equal(t, tc.code, errorCode(t, out.Reply.Body), "%s", out.Reply.Body)
			require.NotContains(t, string(out.Reply.Body), "whsec_")
		})
	}
	list, err := h.d.ListEndpoints(ctxT(t), h.acct, domain.Page{Limit: 10})
	require.NoError(t, err)
	require.Empty(t, list.Data, "no refused endpoint is stored")

	// Controls: the same receiver under accepted spellings is admitted.
	for _, tc := range []struct {
		url    string
		events []string
		want   []string
	}{
		{rc.URL(), nil, []string{"*"}},
		{"https://good.test:" + port + "/hooks", []string{"transfer.confirmed", "transfer.confirmed", "fx.order.settled"}, []string{"transfer.confirmed", "fx.order.settled"}},
		{"https://[::ffff:127.0.0.1]:" + port + "/hooks", []string{"*"}, []string{"*"}},
	} {
		c := h.createEndpoint(h.acct, tc.url, tc.events...)
		require.Equal(t, tc.want, c.Events, tc.url)
	}
}

// TestEndpointLimit: an account has at most 16 endpoints; the 17th is 400
// invalid_request until one is deleted; other accounts are not counted.
func TestEndpointLimit(t *testing.T) {
	h := newHarness(t, Config{}, false)
	rc := newReceiver(t, 200)
	ctx := ctxT(t)
	var ids []string
	for range domain.MaxEndpointsPerAccount {
		ids = append(ids, h.createEndpoint(h.acct, rc.URL()).ID)
	}
	out, err := h.d.CreateEndpoint(ctx, h.acct, EndpointRequest{URL: rc.URL()}, nil)
	require.NoError(t, err)
	require.Equal(t, 400, out.Reply.Status, "%s", out.Reply.Body)
	require.Equal(t, domain.CodeInvalidRequest, errorCode(t, out.Reply.Body))

	other := h.newAccount("other")
	h.createEndpoint(other, rc.URL())

	out, err = h.d.DeleteEndpoint(ctx, h.acct, ids[3], nil)
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
	h.createEndpoint(h.acct, rc.URL())
	out, err = h.d.CreateEndpoint(ctx, h.acct, EndpointRequest{URL: rc.URL()}, nil)
	require.NoError(t, err)
	require.Equal(t, 400, out.Reply.Status, "full again: %s", out.Reply.Body)

	// The limit holds after a restart (the index is rebuilt from the store).
	h.restart()
	out, err = h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL()}, nil)
	require.NoError(t, err)
	require.Equal(t, 400, out.Reply.Status, "%s", out.Reply.Body)
	list, err := h.d.ListEndpoints(ctxT(t), h.acct, domain.Page{Limit: 100})
	require.NoError(t, err)
	require.Len(t, list.Data, domain.MaxEndpointsPerAccount)
}

// TestEndpointCommandsOfAnotherAccount: another account's endpoint, an
// unknown id and a deleted one are 404 to every command.
func TestEndpointCommandsOfAnotherAccount(t *testing.T) {
	h := newHarness(t, Config{}, false)
	rc := newReceiver(t, 200)
	mine := h.createEndpoint(h.acct, rc.URL()).ID
	gone := h.createEndpoint(h.acct, rc.URL()).ID
	out, err := h.d.DeleteEndpoint(ctxT(t), h.acct, gone, nil)
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status)
	other := h.newAccount("other")
	enabled := domain.EndpointEnabled

	for _, tc := range []struct{ name, acct, id string }{
		{"another account's", other, mine},
		{"unknown", h.acct, h.e.NewID("wh_", h.acct)},
		{"deleted", h.acct, gone},
		{"not an endpoint id", h.acct, "evt_nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := ctxT(t)
			for name, run := range map[string]func() (domain.Outcome, error){
				"update": func() (domain.Outcome, error) {
					return h.d.UpdateEndpoint(ctx, tc.acct, tc.id, EndpointUpdate{State: &enabled}, nil)
				},
				"delete": func() (domain.Outcome, error) { return h.d.DeleteEndpoint(ctx, tc.acct, tc.id, nil) },
				"rotate": func() (domain.Outcome, error) { return h.d.RotateSecret(ctx, tc.acct, tc.id, nil) },
				"test":   func() (domain.Outcome, error) { return h.d.TestEndpoint(ctx, tc.acct, tc.id, nil) },
			} {
				out, err := run()
				require.NoError(t, err, name)
				require.Equal(t, 404, out.Reply.Status, "%s: %s", name, out.Reply.Body)
			}
		})
	}
	// Mine is untouched.
	require.Equal(t, domain.EndpointEnabled, h.endpoint(mine).State)
	require.Len(t, h.endpoint(mine).Secrets, 1)
}

// TestTestReplaysAfterDelete: POST /webhooks/{id}/test answered 202 under
// an Idempotency-Key replays that 202 byte for byte after the endpoint is
// deleted (CONTRACT.md: replays for 24 h); a key never used gets the
// deleted endpoint's 404, stored under it.
func TestTestReplaysAfterDelete(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(3)}, false)
	rc := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, rc.URL())
	path := "/public/v1/webhooks/" + c.ID + "/test"
	first, err := h.d.TestEndpoint(ctxT(t), h.acct, c.ID, idemKey("t1", "POST", path, nil))
	require.NoError(t, err)
	require.Equal(t, 202, first.Reply.Status, "%s", first.Reply.Body)
	out, err := h.d.DeleteEndpoint(ctxT(t), h.acct, c.ID, nil)
	require.NoError(t, err)
	require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)

	again, err := h.d.TestEndpoint(ctxT(t), h.acct, c.ID, idemKey("t1", "POST", path, nil))
	require.NoError(t, err)
	require.True(t, again.Replayed)
	require.Equal(t, first.Reply, again.Reply)

	fresh, err := h.d.TestEndpoint(ctxT(t), h.acct, c.ID, idemKey("t2", "POST", path, nil))
	require.NoError(t, err)
	require.Equal(t, 404, fresh.Reply.Status, "%s", fresh.Reply.Body)
	stored, err := h.d.TestEndpoint(ctxT(t), h.acct, c.ID, idemKey("t2", "POST", path, nil))
	require.NoError(t, err)
	require.True(t, stored.Replayed, "the 404 is stored under its key")
	require.Equal(t, fresh.Reply, stored.Reply)
}
