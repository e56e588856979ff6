package httpd

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"log/slog"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/internal/logsink"
	"github.com/fxd-labs/fxd/webhook"
	"github.com/fxd-labs/fxd/webhook/screen"
)

// TestEveryWriteRouteHasAnIdempotencyHome: every write that takes an
// Idempotency-Key names where its answers are kept, so a refusal its
// handler decides is kept there too; reads and the public writes (no
// key) name none, and a home that is {id}'s entity has an {id}.
func TestEveryWriteRouteHasAnIdempotencyHome(t *testing.T) {
	for _, rt := range testRoutes() {
		name := rt.Method + " " + rt.Path
		if rt.Scope == 0 || rt.Method == "GET" {
			require.Equal(t, idemNone, rt.Idem, name)
			continue
		}
		require.NotEqual(t, idemNone, rt.Idem, name)
		if _, ok := rt.Idem.pathKind(); ok || rt.Idem == idemQuoteOrder {
			require.Contains(t, rt.Path, "{id}", name)
		}
	}
}

// newIdemAPI is testAPI with the webhook desk (loopback receivers
// allowed), a chain to name in SIWE challenges and a public URL, and, if
// withFX, the FX desk over an in-memory EVM (AMM quotes, no makers) with
// a wallet linked to the account.
func newIdemAPI(t *testing.T, withFX bool) (*testAPI, *fx.Desk) {
	t.Helper()
	buf := &logsink.Buffer{}
	logger := slog.New(slog.NewJSONHandler(buf, nil))
	e, err := actors.Open(actors.Config{DataDir: t.TempDir(), Logger: logger})
	require.NoError(t, err)
	hooks := webhook.New(webhook.Config{Engine: e, Sealer: testKeyring(t, "A"), Policy: screen.Policy{AllowLoopback: true}, Logger: logger})
	hooks.AddHooks(e)
	require.NoError(t, e.Recover())
	require.NoError(t, hooks.Start(context.Background()))
	t.Cleanup(func() {
		hooks.Stop()
		_ = e.Close()
	})
	cfg := Config{BasePath: "/public/v1", Logger: logger, Started: time.Now().Add(-time.Second), Webhooks: hooks,
		PublicURL: "http://fxd.test/public/v1", Chain: &connect.Chain{ChainID: big.NewInt(1337)}}
	if withFX {
		cfg.Desk, cfg.Chain = newQuoteDesk(t, e, logger)
	}
	ta := serveTestAPI(t, cfg, e, buf)
	if withFX {
		linkWallet(t, ta, simtest.Addr(simtest.Key(t, 0x11)).Hex())
	}
	return ta, cfg.Desk
}

// newQuoteDesk is an FX desk over an in-memory EVM with the pools deployed
// and no makers (it quotes the AMM only), and the gasless leg an accept
// builds the order's typed data with (nothing relays).
func newQuoteDesk(t *testing.T, e *actors.Engine, logger *slog.Logger) (*fx.Desk, *connect.Chain) {
	t.Helper()
	deployer := simtest.Key(t, 0xd0)
	c := simtest.New(t, deployer)
	addrs, _ := c.Deploy(deployer, fxbind.DeployConfig{})
	pools, err := fx.LoadPools(t.Context(), c.Client, addrs.Pools)
	require.NoError(t, err)
	ch := &connect.Chain{ChainID: simtest.ChainID, Contracts: addrs, Client: c.Client}
	leg := &gasless.Leg{Domain: eip712.Domain{ChainID: simtest.ChainID, Permit2: addrs.Permit2}, Router: addrs.RelayRouter,
		Chain: c.Client, Logger: logger}
	return fx.New(fx.Config{Engine: e, Chain: ch, Pools: pools, Leg: leg, Logger: logger}), ch
}

// linkWallet links wallet to the account through its own commands (the
// host checks a SIWE signature; the account only compares the signer).
func linkWallet(t *testing.T, ta *testAPI, wallet string) {
	t.Helper()
	ctx := context.Background()
	out, err := ta.e.Exec(ctx, ta.acct, domain.Request{Cmd: domain.CreateChallenge{Address: wallet, Domain: "fxd.test", URI: "http://fxd.test/public/v1", ChainID: 1337}})
	require.NoError(t, err)
	var ch domain.ChallengeView
	require.NoError(t, json.Unmarshal(out.Reply.Body, &ch))
	parsed, err := siwe.Parse(ch.Message)
	require.NoError(t, err)
	out, err = ta.e.Exec(ctx, ta.acct, domain.Request{Cmd: domain.RegisterWallet{Message: ch.Message, Parsed: parsed, Signer: wallet}})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, "%s", out.Reply.Body)
}

// idemCaller sends one route's requests with a key of every scope.
type idemCaller struct {
	ta   *testAPI
	key  string
	priv ed25519.PrivateKey
}

func (c idemCaller) send(t *testing.T, method, path, body, idemKey string) answer {
	t.Helper()
	var h map[string]string
	if idemKey != "" {
		h = map[string]string{"Idempotency-Key": idemKey}
	}
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	return c.ta.do(t, method, "/public/v1"+path, b, c.key, c.priv, h)
}

// requireAnswer: status, the code of an error, and whether it replays.
func requireAnswer(t *testing.T, a answer, status int, code string, replayed bool, what string) {
	t.Helper()
	require.Equal(t, status, a.status, "%s: %s", what, a.body)
	if code != "" {
		requireContractError(t, a.body, code)
	}
	if replayed {
		require.Equal(t, "true", a.header["Idempotency-Replayed"], what)
	} else {
		require.Empty(t, a.header["Idempotency-Replayed"], what)
	}
}

// idemRoute is one write route and a body it decodes, with the answer
// that body gets (stored under a key).
type idemRoute struct {
	name, method string
	path         func(t *testing.T, c idemCaller) string
	valid        string
	status       int
}

// requireRefusalsKept runs, on rt, what CONTRACT.md's "Idempotency" asks
// of a body the handler refuses before any entity decides: under a key it
// is an answer like any other, kept in the record a valid body meets.
func requireRefusalsKept(t *testing.T, c idemCaller, rt idemRoute) {
	const unknownField, malformed = `{"extra":1}`, `{"name":`
	path := rt.path(t, c)
	k := func(s string) string { return rt.name + "/" + s }

	// A valid body, then one with an unknown field under its key: 422,
	// and the first answer still replays.
	first := c.send(t, rt.method, path, rt.valid, k("valid-first"))
	requireAnswer(t, first, rt.status, "", false, "valid")
	requireAnswer(t, c.send(t, rt.method, path, unknownField, k("valid-first")), 422, domain.CodeIdempotencyKeyReused, false, "unknown field after valid")
	again := c.send(t, rt.method, path, rt.valid, k("valid-first"))
	requireAnswer(t, again, rt.status, "", true, "valid again")
	require.Equal(t, first.body, again.body)

	// Malformed twice: the 400 is stored, and replayed byte for byte.
	bad := c.send(t, rt.method, path, malformed, k("malformed"))
	requireAnswer(t, bad, 400, domain.CodeInvalidRequest, false, "malformed")
	badAgain := c.send(t, rt.method, path, malformed, k("malformed"))
	requireAnswer(t, badAgain, 400, domain.CodeInvalidRequest, true, "malformed again")
	require.Equal(t, bad.body, badAgain.body)

	// Malformed, then a valid body under its key: 422, nothing runs.
	requireAnswer(t, c.send(t, rt.method, path, malformed, k("malformed-first")), 400, domain.CodeInvalidRequest, false, "malformed first")
	requireAnswer(t, c.send(t, rt.method, path, rt.valid, k("malformed-first")), 422, domain.CodeIdempotencyKeyReused, false, "valid after malformed")

	// Without a key nothing is stored: the same refusal, never replayed.
	for range 2 {
		requireAnswer(t, c.send(t, rt.method, path, unknownField, ""), 400, domain.CodeInvalidRequest, false, "no key")
	}
}

// TestRefusedBodiesKeptUnderKey: on the account's routes (contacts,
// wallets) and the webhook desk's (a create, whose account reserves the
// id first; an endpoint's PATCH and DELETE, kept by the endpoint), a body
// the handler refuses is kept under the key with the answers a valid
// body gets.
func TestRefusedBodiesKeptUnderKey(t *testing.T) {
	ta, _ := newIdemAPI(t, false)
	key, priv := ta.key(t, "pay,wallets,webhooks")
	c := idemCaller{ta: ta, key: key, priv: priv}
	fixed := func(p string) func(*testing.T, idemCaller) string {
		return func(*testing.T, idemCaller) string { return p }
	}
	const wallet = "0x00000000000000000000000000000000000000aa"
	contact := func(t *testing.T, c idemCaller) string {
		a := c.send(t, "POST", "/contacts", `{"name":"a","address":"`+wallet+`"}`, "")
		require.Equal(t, 201, a.status, "%s", a.body)
		return "/contacts/" + decodeID(t, a.body)
	}
	endpoint := func(t *testing.T, c idemCaller) string {
		a := c.send(t, "POST", "/webhooks", `{"url":"https://127.0.0.1:9/hook"}`, "")
		require.Equal(t, 201, a.status, "%s", a.body)
		return "/webhooks/" + decodeID(t, a.body)
	}
	for _, rt := range []idemRoute{
		{"create contact", "POST", fixed("/contacts"), `{"name":"b","address":"` + wallet + `"}`, 201},
		{"update contact", "PATCH", contact, `{"memo":"m"}`, 200},
		{"delete contact", "DELETE", contact, ``, 200},
		{"wallet challenge", "POST", fixed("/wallets/challenge"), `{"address":"` + wallet + `"}`, 200},
		// The account refuses a message it never issued: stored as well.
		{"register wallet", "POST", fixed("/wallets"), `{"message":"not SIWE","signature":"0x00"}`, 400},
		{"update wallet", "PATCH", fixed("/wallets/" + wallet), `{"label":"x"}`, 404},
		{"delete wallet", "DELETE", fixed("/wallets/" + wallet), ``, 404},
		{"create webhook", "POST", fixed("/webhooks"), `{"url":"https://127.0.0.1:9/other"}`, 201},
		{"update webhook", "PATCH", endpoint, `{"description":"d"}`, 200},
		{"delete webhook", "DELETE", endpoint, ``, 200},
	} {
		t.Run(rt.name, func(t *testing.T) { requireRefusalsKept(t, c, rt) })
	}
}

// TestRefusedBodyWithoutHome: a refused body for an entity that is not
// the caller's (none, or another account's) has nowhere to be kept: it is
// answered as without a key, and a valid body under the key still runs.
func TestRefusedBodyWithoutHome(t *testing.T) {
	ta, _ := newIdemAPI(t, false)
	key, priv := ta.key(t, "webhooks")
	c := idemCaller{ta: ta, key: key, priv: priv}
	path := "/webhooks/" + ta.e.NewID("wh_", ta.acct)
	for range 2 {
		requireAnswer(t, c.send(t, "PATCH", path, `{"extra":1}`, "nowhere"), 400, domain.CodeInvalidRequest, false, "no such endpoint")
	}
	requireAnswer(t, c.send(t, "PATCH", path, `{"description":"d"}`, "nowhere"), 404, domain.CodeNotFound, false, "valid body")
}

// TestQuotesUnderKey: POST /fx/quotes looks its key up before it quotes,
// so a replay or another body under the key makes no quote (the desk's
// book does not grow); a refused body is kept like the quotes. The accept
// of a quote keeps a refused body in the order it makes, where the
// desk's own answer is kept.
func TestQuotesUnderKey(t *testing.T) {
	ta, desk := newIdemAPI(t, true)
	key, priv := ta.key(t, "trade")
	c := idemCaller{ta: ta, key: key, priv: priv}
	const body = `{"from_currency":"USDC","to_currency":"EURC","amount":"10"}`
	book := func() int64 { return desk.Stats().BookQuotes }

	first := c.send(t, "POST", "/fx/quotes", body, "q-1")
	requireAnswer(t, first, 200, "", false, "quotes")
	quoted := book()
	require.Positive(t, quoted)
	steps := []struct {
		name, body, key string
		status          int
		code            string
		replayed        bool
	}{
		{"replay", body, "q-1", 200, "", true},
		{"another body", `{"from_currency":"USDC","to_currency":"EURC","amount":"11"}`, "q-1", 422, domain.CodeIdempotencyKeyReused, false},
		{"unknown field after valid", `{"from_currency":"USDC","to_currency":"EURC","amount":"10","extra":1}`, "q-1", 422, domain.CodeIdempotencyKeyReused, false},
		{"malformed", `{"from_currency":`, "q-2", 400, domain.CodeInvalidRequest, false},
		{"malformed again", `{"from_currency":`, "q-2", 400, domain.CodeInvalidRequest, true},
		{"valid after malformed", body, "q-2", 422, domain.CodeIdempotencyKeyReused, false},
	}
	for _, st := range steps {
		a := c.send(t, "POST", "/fx/quotes", st.body, st.key)
		requireAnswer(t, a, st.status, st.code, st.replayed, st.name)
		if st.name == "replay" {
			require.Equal(t, first.body, a.body)
		}
		require.Equal(t, quoted, book(), "%s: nothing quoted", st.name)
	}

	// Accept: the order of an unknown quote keeps the desk's 404 and the
	// handler's 400 under one key.
	accept := "/fx/quotes/" + ta.e.NewID("q_", ta.acct) + "/accept"
	requireRefusalsKept(t, c, idemRoute{name: "accept", method: "POST", path: func(*testing.T, idemCaller) string { return accept },
		valid: `{}`, status: 404})
}

// decodeID is the id of a created record's answer.
func decodeID(t *testing.T, body []byte) string {
	t.Helper()
	var v struct{ ID string }
	require.NoError(t, json.Unmarshal(body, &v))
	require.True(t, strings.Contains(v.ID, "_"), "%s", body)
	return v.ID
}

// requireDeskRefusalKept: a body that decodes but that the desk refuses
// before any entity decides is, under a key, an answer like any other
// (CONTRACT.md "Idempotency"): the same body replays it byte for byte,
// and another body under the key is 422 and runs nothing; a valid body's
// key then refuses the refused body with 422 as well.
func requireDeskRefusalKept(t *testing.T, c idemCaller, method, path, refused, valid, key string, status int, code string) {
	t.Helper()
	first := c.send(t, method, path, refused, key)
	requireAnswer(t, first, status, code, false, "refused")
	again := c.send(t, method, path, refused, key)
	requireAnswer(t, again, status, code, true, "refused again")
	require.Equal(t, first.body, again.body)
	requireAnswer(t, c.send(t, method, path, valid, key), 422, domain.CodeIdempotencyKeyReused, false, "valid after refused")
	// Without a key nothing is kept: the same refusal, never replayed.
	for range 2 {
		requireAnswer(t, c.send(t, method, path, refused, ""), status, code, false, "refused without a key")
	}
}

// TestDeskRefusalsKeptUnderKey: the refusals a desk decides itself, before
// the entity it serves is asked (an order's submit with neither signature
// nor tx_hash, a resend naming no event), are kept under the key in the
// route's home, as the entity's own answers are: replayed, and 422 for
// another body, in either order.
func TestDeskRefusalsKeptUnderKey(t *testing.T) {
	ta, _ := newIdemAPI(t, true)
	key, priv := ta.key(t, "trade,webhooks")
	c := idemCaller{ta: ta, key: key, priv: priv}

	q := c.send(t, "POST", "/fx/quotes", `{"from_currency":"USDC","to_currency":"EURC","amount":"10"}`, "")
	require.Equal(t, 200, q.status, "%s", q.body)
	var quotes struct {
		BestQuoteID string `json:"best_quote_id"`
	}
	require.NoError(t, json.Unmarshal(q.body, &quotes))
	acc := c.send(t, "POST", "/fx/quotes/"+quotes.BestQuoteID+"/accept", `{}`, "")
	require.Equal(t, 200, acc.status, "%s", acc.body)
	var order struct {
		OrderID string `json:"order_id"`
	}
	require.NoError(t, json.Unmarshal(acc.body, &order))
	submit := "/fx/orders/" + order.OrderID + "/submit"
	const neither, sig = `{}`, `{"signature":"0x01"}`
	t.Run("submit refused first", func(t *testing.T) {
		requireDeskRefusalKept(t, c, "POST", submit, neither, sig, "s-1", 400, domain.CodeInvalidRequest)
	})
	t.Run("submit valid first", func(t *testing.T) {
		first := c.send(t, "POST", submit, sig, "s-2")
		require.NotEqual(t, 422, first.status, "%s", first.body)
		requireAnswer(t, c.send(t, "POST", submit, neither, "s-2"), 422, domain.CodeIdempotencyKeyReused, false, "refused after valid")
	})

	ep := c.send(t, "POST", "/webhooks", `{"url":"https://127.0.0.1:9/hook"}`, "")
	require.Equal(t, 201, ep.status, "%s", ep.body)
	resend := "/webhooks/" + decodeID(t, ep.body) + "/resend"
	event := `{"event_id":"` + ta.e.NewID("evt_", ta.acct) + `"}`
	t.Run("resend, no event named", func(t *testing.T) {
		requireDeskRefusalKept(t, c, "POST", resend, `{"event_id":""}`, event, "r-1", 400, domain.CodeInvalidRequest)
	})
	t.Run("resend, not an event id", func(t *testing.T) {
		requireDeskRefusalKept(t, c, "POST", resend, `{"event_id":"wh_1"}`, event, "r-2", 404, domain.CodeNotFound)
	})
}

// TestKeptUnder: a desk's refusal decided before any entity is kept only
// under an Idempotency-Key, never a 503, and never an outcome an entity
// answered (which its own store already keeps, or declined to).
func TestKeptUnder(t *testing.T) {
	key := &domain.IdemRequest{Scope: "k"}
	guard := &domain.IdemRequest{Scope: "g", Until: time.Now().Add(time.Minute)}
	refused := domain.Refuse(domain.ErrInvalid("x"))
	for _, tc := range []struct {
		name string
		idem *domain.IdemRequest
		out  domain.Outcome
		want bool
	}{
		{"refusal under a key", key, refused, true},
		{"not found under a key", key, domain.Refuse(domain.ErrNotFound("order")), true},
		{"no key", nil, refused, false},
		{"a signature guard alone", guard, refused, false},
		{"503", key, domain.Refuse(domain.ErrUnavailable("busy")), false},
		{"an entity's answer", key, domain.Outcome{Reply: refused.Reply, Err: refused.Err}, false},
		{"unkept without an error value", key, domain.Outcome{Reply: domain.Reply{Status: 400}, Unkept: true}, false},
	} {
		require.Equal(t, tc.want, keptUnder(tc.idem, tc.out), tc.name)
	}
}
