package e2e

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// TestSDKAgainstServer drives every route of the route table through the
// typed SDK against the real binary, as an integrator would: wallets by
// SIWE (ethers signs), quotes and accepts on both rails, transfers,
// payment links, contacts, the ledger, webhooks and events, up to where
// only a funded chain trade would go further. Every typed answer is
// required to keep every field of the body it was decoded from, and at
// the end every operation of the served OpenAPI document must have been
// called.
func TestSDKAgainstServer(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir(), hookFlags(makeHookTLS(t), writeMasterKeyFile(t), "")...)
	acct := srv.createAccount(t, "sdk")
	key := srv.createKey(t, acct, "read,trade,pay,wallets,webhooks")
	r := &sdkRun{t: t, srv: srv, hits: map[string]bool{}}
	var err error
	r.c, err = client.New(srv.BaseURL, key.ID, key.Priv, client.WithTimeout(httpTimeout), client.WithTransport(r.recording()))
	require.NoError(t, err)
	r.pub, err = client.New(srv.BaseURL, "", nil, client.WithTimeout(httpTimeout), client.WithTransport(r.recording()))
	require.NoError(t, err)
	t.Cleanup(r.c.CloseIdleConnections)
	t.Cleanup(r.pub.CloseIdleConnections)

	r.meta()
	r.wallets()
	r.contacts()
	r.fx()
	r.transfers()
	r.links()
	r.ledger()
	r.webhooks()
	r.clockCorrection(key)
	r.coverage()
}

// sdkRun is the state of TestSDKAgainstServer.
type sdkRun struct {
	t       *testing.T
	srv     *server
	c, pub  *client.Client // every scope; no key
	resp    client.Response
	wallet  ethKey // the primary wallet
	chainID uint64

	mu   sync.Mutex
	hits map[string]bool // "METHOD /path" of every request sent
}

var ctxBG = context.Background()

// recording is a transport that notes each request's method and path.
func (r *sdkRun) recording() http.RoundTripper {
	base := http.DefaultTransport.(*http.Transport).Clone()
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		path := req.URL.Opaque
		if path == "" {
			path = req.URL.EscapedPath()
		}
		r.mu.Lock()
		r.hits[req.Method+" "+path] = true
		r.mu.Unlock()
		return base.RoundTrip(req)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// opt captures the next call's answer for same.
func (r *sdkRun) opt(more ...client.CallOption) []client.CallOption {
	r.resp = client.Response{}
	return append(more, client.CaptureResponse(&r.resp))
}

// same requires a typed answer to encode back to the JSON it came from:
// the SDK's types lose, rename and invent nothing.
func (r *sdkRun) same(what string, v any, err error) {
	r.t.Helper()
	require.NoError(r.t, err, what)
	b, err := json.Marshal(v)
	require.NoError(r.t, err)
	require.JSONEq(r.t, string(r.resp.Body), string(b), "%s: the typed answer keeps every field", what)
}

// refused requires an *APIError of the status and one of the codes.
func (r *sdkRun) refused(what string, err error, status int, codes ...string) *client.APIError {
	r.t.Helper()
	var apiErr *client.APIError
	require.True(r.t, errors.As(err, &apiErr), "%s: want an APIError, got %v", what, err)
	require.Equal(r.t, status, apiErr.Status, "%s: %v", what, err)
	require.Contains(r.t, codes, apiErr.Code, "%s: %v", what, err)
	require.NotEmpty(r.t, apiErr.Header.Get("Content-Type"), what)
	return apiErr
}

func (r *sdkRun) meta() {
	t := r.t
	h, err := r.pub.GetHealth(ctxBG, r.opt()...)
	r.same("GetHealth", h, err)
	require.Equal(t, "ok", h.Status)
	require.NotNil(t, h.Chain)
	r.chainID = h.Chain.ChainID
	tm, err := r.pub.GetTime(ctxBG, r.opt()...)
	r.same("GetTime", tm, err)
	require.InDelta(t, time.Now().Unix(), tm.Unix, 5)
	doc, err := r.pub.GetOpenAPI(ctxBG)
	require.NoError(t, err)
	require.True(t, json.Valid(doc))
	require.NoError(t, r.c.SyncClock(ctxBG))

	cur, err := r.c.ListCurrencies(ctxBG, r.opt()...)
	r.same("ListCurrencies", cur, err)
	require.Len(t, cur.Data, 3)
	rates, err := r.c.GetRates(ctxBG, r.opt()...)
	r.same("GetRates", rates, err)
	require.NotEmpty(t, rates.Data)
}

// wallets links two wallets by SIWE, moves the primary mark and back,
// relabels and unlinks the second.
func (r *sdkRun) wallets() {
	t := r.t
	register := func(k ethKey) *client.Wallet {
		ch, err := r.c.CreateWalletChallenge(ctxBG, client.WalletChallengeRequest{Address: k.Address.Hex()}, r.opt()...)
		r.same("CreateWalletChallenge", ch, err)
		w, err := r.c.RegisterWallet(ctxBG, client.WalletRegisterRequest{Message: ch.Message, Signature: signSIWE(t, k, ch.Message)}, r.opt()...)
		r.same("RegisterWallet", w, err)
		require.Equal(t, k.Address.Hex(), w.Address)
		return w
	}
	r.wallet = newEthKey(t)
	require.True(t, register(r.wallet).Primary, "the first wallet is primary")
	second := newEthKey(t)
	require.False(t, register(second).Primary)

	w, err := r.c.UpdateWallet(ctxBG, second.Address.Hex(), client.WalletUpdateRequest{Primary: new(true), Label: new("ops")}, r.opt()...)
	r.same("UpdateWallet", w, err)
	require.True(t, w.Primary)
	require.Equal(t, "ops", *w.Label)
	_, err = r.c.DeleteWallet(ctxBG, second.Address.Hex())
	r.refused("DeleteWallet of the primary", err, 409, client.CodeInvalidState)
	_, err = r.c.UpdateWallet(ctxBG, r.wallet.Address.Hex(), client.WalletUpdateRequest{Primary: new(true)})
	require.NoError(t, err)

	var seen []string
	for w, err := range r.c.AllWallets(ctxBG, client.ListParams{Limit: 1}) {
		require.NoError(t, err)
		seen = append(seen, w.Address)
	}
	require.Equal(t, []string{second.Address.Hex(), r.wallet.Address.Hex()}, seen, "newest first, over two pages")
	page, err := r.c.ListWallets(ctxBG, client.ListParams{}, r.opt()...)
	r.same("ListWallets", page, err)

	del, err := r.c.DeleteWallet(ctxBG, second.Address.Hex(), r.opt()...)
	r.same("DeleteWallet", del, err)
	require.True(t, del.Deleted)
	acct, err := r.c.GetAccount(ctxBG, r.opt()...)
	r.same("GetAccount", acct, err)
	require.Len(t, acct.Wallets, 1)
	bal, err := r.c.GetBalances(ctxBG, r.opt()...)
	r.same("GetBalances", bal, err)
}

// contacts: create (an Idempotency-Key replays), read, page, update, delete.
func (r *sdkRun) contacts() {
	t := r.t
	mk := func(name string, opts ...client.CallOption) *client.Contact {
		ct, err := r.c.CreateContact(ctxBG, client.ContactCreate{Name: name, Address: newEthKey(t).Address.Hex(), Currency: "EURC", Memo: "rent"}, r.opt(opts...)...)
		r.same("CreateContact", ct, err)
		return ct
	}
	a := mk("Ada", client.IdempotencyKey("sdk-contact-a"))
	_, err := r.c.CreateContact(ctxBG, client.ContactCreate{Name: "Ada", Address: a.Address, Currency: "EURC", Memo: "rent"},
		r.opt(client.IdempotencyKey("sdk-contact-a"))...)
	require.NoError(t, err)
	require.Equal(t, "true", r.resp.Header.Get("Idempotency-Replayed"), "the same key is the same request")
	b, c := mk("Bob"), mk("Cy")

	got, err := r.c.GetContact(ctxBG, a.ID, r.opt()...)
	r.same("GetContact", got, err)
	require.Equal(t, a, got)
	upd, err := r.c.UpdateContact(ctxBG, b.ID, client.ContactUpdate{Memo: new(""), Name: new("Bob B")}, r.opt()...)
	r.same("UpdateContact", upd, err)
	require.Nil(t, upd.Memo, `"" clears the memo`)
	require.Equal(t, "Bob B", upd.Name)
	var ids []string
	for ct, err := range r.c.AllContacts(ctxBG, client.ListParams{Limit: 2}) {
		require.NoError(t, err)
		ids = append(ids, ct.ID)
	}
	require.Equal(t, []string{c.ID, b.ID, a.ID}, ids)
	page, err := r.c.ListContacts(ctxBG, client.ListParams{Limit: 2}, r.opt()...)
	r.same("ListContacts", page, err)
	require.True(t, page.HasMore)
	del, err := r.c.DeleteContact(ctxBG, c.ID, r.opt()...)
	r.same("DeleteContact", del, err)
	_, err = r.c.GetContact(ctxBG, c.ID)
	r.refused("GetContact after delete", err, 404, client.CodeNotFound)
}

// signTyped signs signing.typed_data with the primary wallet (ethers).
func (r *sdkRun) signTyped(s *client.Signing) string {
	raw, err := json.Marshal(s)
	require.NoError(r.t, err)
	return (&fxTrader{wallet: r.wallet}).signTyped(r.t, raw)
}

// fx quotes, accepts on both rails and submits as far as an unfunded
// wallet goes: the AMM pre-flight refuses, an RFQ funding not yet mined
// leaves the order awaiting it.
func (r *sdkRun) fx() {
	t := r.t
	q, err := r.c.CreateQuotes(ctxBG, client.QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "10"}, r.opt()...)
	r.same("CreateQuotes", q, err)
	require.NotNil(t, q.Best())
	byRoute := map[string]client.Quote{}
	for _, qu := range q.Quotes {
		byRoute[qu.Route] = qu
	}
	require.Contains(t, byRoute, "amm")
	require.Contains(t, byRoute, "rfq")

	amm, err := r.c.AcceptQuote(ctxBG, byRoute["amm"].ID, nil, r.opt()...)
	r.same("AcceptQuote amm", amm, err)
	require.Equal(t, "accepted", amm.State)
	require.NotNil(t, amm.Issues.Balance, "an unfunded wallet is short")
	require.Equal(t, r.wallet.Address.Hex(), amm.Signing.Order.Signer)
	_, err = r.c.SubmitOrder(ctxBG, amm.OrderID, client.SubmitRequest{Signature: r.signTyped(amm.Signing)})
	r.refused("SubmitOrder amm, unfunded", err, 400, client.CodeInsufficientAllowance, client.CodeInsufficientBalance)

	rfq, err := r.c.AcceptQuote(ctxBG, byRoute["rfq"].ID, &client.AcceptQuoteRequest{SourceWallet: r.wallet.Address.Hex()}, r.opt()...)
	r.same("AcceptQuote rfq", rfq, err)
	require.NotNil(t, rfq.Signing.Call)
	require.Equal(t, "escrowQuoteWithPermit2", rfq.Signing.Call.ABI.Name)
	o, err := r.c.SubmitOrder(ctxBG, rfq.OrderID, client.SubmitRequest{TxHash: "0x" + strings.Repeat("5a", 32)}, r.opt()...)
	r.same("SubmitOrder rfq", o, err)
	require.Equal(t, "awaiting_funding", o.State, "a funding tx not mined yet")

	got, err := r.c.GetOrder(ctxBG, amm.OrderID, r.opt()...)
	r.same("GetOrder", got, err)
	require.Equal(t, amm.Order.OrderID, got.OrderID)
	page, err := r.c.ListOrders(ctxBG, client.ListParams{Limit: 1}, r.opt()...)
	r.same("ListOrders", page, err)
	n := 0
	for o, err := range r.c.AllOrders(ctxBG, client.ListParams{Limit: 1}) {
		require.NoError(t, err)
		require.Contains(t, []string{amm.OrderID, rfq.OrderID}, o.OrderID)
		n++
	}
	require.Equal(t, 2, n)
}

// transfers: same currency (created, a tx not mined yet leaves it
// submitted) and cross-currency (accept, signed submit refused by the
// pre-flight of an unfunded wallet).
func (r *sdkRun) transfers() {
	t := r.t
	payee := newEthKey(t).Address.Hex()
	same, err := r.c.CreateTransfer(ctxBG, client.TransferRequest{FromCurrency: "USDC", Currency: "USDC", Amount: "2.5", Recipient: payee, Memo: "=sdk"}, r.opt()...)
	r.same("CreateTransfer", same, err)
	require.Equal(t, "erc20_transfer", same.Signing.Type)
	sub, err := r.c.SubmitTransfer(ctxBG, same.ID, client.SubmitRequest{TxHash: "0x" + strings.Repeat("6b", 32)}, r.opt()...)
	r.same("SubmitTransfer", sub, err)
	require.Equal(t, "submitted", sub.State)

	cross, err := r.c.CreateTransfer(ctxBG, client.TransferRequest{FromCurrency: "USDC", Currency: "EURC", Amount: "3", Recipient: payee})
	require.NoError(t, err)
	require.Nil(t, cross.Signing)
	acc, err := r.c.AcceptTransfer(ctxBG, cross.ID, r.opt()...)
	r.same("AcceptTransfer", acc, err)
	require.Equal(t, "accepted", acc.State)
	require.Equal(t, payee, acc.Signing.Order.Recipient)
	_, err = r.c.SubmitTransfer(ctxBG, cross.ID, client.SubmitRequest{Signature: r.signTyped(acc.Signing)})
	r.refused("SubmitTransfer cross, unfunded", err, 400, client.CodeInsufficientAllowance, client.CodeInsufficientBalance)

	got, err := r.c.GetTransfer(ctxBG, cross.ID, r.opt()...)
	r.same("GetTransfer", got, err)
	page, err := r.c.ListTransfers(ctxBG, client.ListParams{}, r.opt()...)
	r.same("ListTransfers", page, err)
	var ids []string
	for tr, err := range r.c.AllTransfers(ctxBG, client.ListParams{Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, tr.ID)
	}
	require.Equal(t, []string{cross.ID, same.ID}, ids)
}

// links: create, read as owner and as payer, a payment not mined yet,
// page, cancel.
func (r *sdkRun) links() {
	t := r.t
	l, err := r.c.CreatePaymentLink(ctxBG, client.PaymentLinkRequest{Currency: "USDC", Amount: "12", Description: "Invoice 7"}, r.opt()...)
	r.same("CreatePaymentLink", l, err)
	require.Equal(t, "open", l.State)
	got, err := r.c.GetPaymentLink(ctxBG, l.ID, r.opt()...)
	r.same("GetPaymentLink", got, err)
	require.Equal(t, l, got)
	pl, err := r.pub.GetPublicPaymentLink(ctxBG, l.ID, r.opt()...)
	r.same("GetPublicPaymentLink", pl, err)
	require.Equal(t, r.chainID, pl.ChainID)
	_, err = r.pub.PayPaymentLink(ctxBG, l.ID, client.TxHashRequest{TxHash: "0x" + strings.Repeat("7c", 32)})
	r.refused("PayPaymentLink of a hash the chain does not know", err, 400, client.CodeTransferNotVerified)
	// A real part payment (5 of 12), mined: counted, and the link stays open for the cancel below.
	r.srv.faucet(t, r.wallet.Address, "USDC", "5")
	tx, _ := erc20Transfer(t, r.srv.chainRPC(t), r.chainID, r.wallet, common.HexToAddress(pl.TokenAddress),
		common.HexToAddress(pl.ReceiveAddress), units(5))
	paid, err := r.pub.PayPaymentLink(ctxBG, l.ID, client.TxHashRequest{TxHash: tx.Hex()}, r.opt()...)
	r.same("PayPaymentLink", paid, err)
	require.Equal(t, "open", paid.State)
	require.Equal(t, "5", paid.AmountReceived)
	page, err := r.c.ListPaymentLinks(ctxBG, client.ListParams{}, r.opt()...)
	r.same("ListPaymentLinks", page, err)
	for v, err := range r.c.AllPaymentLinks(ctxBG, client.ListParams{}) {
		require.NoError(t, err)
		require.Equal(t, l.ID, v.ID)
	}
	cancelled, err := r.c.CancelPaymentLink(ctxBG, l.ID, r.opt()...)
	r.same("CancelPaymentLink", cancelled, err)
	require.Equal(t, "cancelled", cancelled.State)
	_, err = r.c.CancelPaymentLink(ctxBG, l.ID)
	r.refused("CancelPaymentLink again", err, 409, client.CodeInvalidState)
}

// ledger: the entries of the orders, transfers and link, filtered, paged
// and exported.
func (r *sdkRun) ledger() {
	t := r.t
	page, err := r.c.ListTransactions(ctxBG, client.TransactionListParams{}, r.opt()...)
	r.same("ListTransactions", page, err)
	require.Len(t, page.Data, 5, "two orders, two transfers, one link")
	var transfers []string
	f := client.TransactionFilter{Type: "transfer", From: time.Now().Add(-time.Hour)}
	for e, err := range r.c.AllTransactions(ctxBG, client.TransactionListParams{ListParams: client.ListParams{Limit: 1}, TransactionFilter: f}) {
		require.NoError(t, err)
		transfers = append(transfers, e.ReferenceID)
	}
	require.Len(t, transfers, 2)
	body, err := r.c.ExportTransactions(ctxBG, f)
	require.NoError(t, err)
	rows, err := csv.NewReader(body).ReadAll()
	require.NoError(t, body.Close())
	require.NoError(t, err)
	require.Len(t, rows, 3, "a header and the two transfers")
	require.Contains(t, strings.Join(rows[1], ",")+strings.Join(rows[2], ","), "'=sdk", "a formula cell is defused")
}

// webhooks: register (the secret once), read, change, test (its delivery
// fails: nothing listens), rotate, events, delete.
func (r *sdkRun) webhooks() {
	t := r.t
	wh, err := r.c.CreateWebhook(ctxBG, client.WebhookCreate{URL: "https://127.0.0.1:8443/sdk"}, r.opt()...)
	r.same("CreateWebhook", wh, err)
	require.True(t, strings.HasPrefix(wh.Secret, "whsec_"))
	require.Equal(t, []string{"*"}, wh.Events)
	got, err := r.c.GetWebhook(ctxBG, wh.ID, r.opt()...)
	r.same("GetWebhook", got, err)
	require.Equal(t, wh.Webhook, *got)
	upd, err := r.c.UpdateWebhook(ctxBG, wh.ID, client.WebhookUpdate{Events: []string{"webhook.test", "transfer.confirmed"}, Description: new("sdk")}, r.opt()...)
	r.same("UpdateWebhook", upd, err)
	require.Equal(t, "sdk", *upd.Description)
	page, err := r.c.ListWebhooks(ctxBG, client.ListParams{}, r.opt()...)
	r.same("ListWebhooks", page, err)
	for w, err := range r.c.AllWebhooks(ctxBG, client.ListParams{}) {
		require.NoError(t, err)
		require.Equal(t, wh.ID, w.ID)
	}
	test, err := r.c.TestWebhook(ctxBG, wh.ID, r.opt()...)
	r.same("TestWebhook", test, err)
	rot, err := r.c.RotateWebhookSecret(ctxBG, wh.ID, r.opt()...)
	r.same("RotateWebhookSecret", rot, err)
	require.NotEqual(t, wh.Secret, rot.Secret)

	var attempts []client.Delivery
	awaitState(t, r.srv, "delivery "+test.DeliveryID, "attempted", hookDeadline, func() []client.Delivery {
		attempts = nil
		for d, err := range r.c.AllWebhookDeliveries(ctxBG, wh.ID, client.ListParams{Limit: 5}) {
			require.NoError(t, err)
			attempts = append(attempts, d)
		}
		return attempts
	}, func(ds []client.Delivery) string {
		return map[bool]string{true: "attempted", false: "waiting"}[len(ds) > 0]
	})
	require.Equal(t, test.DeliveryID, attempts[0].ID)
	require.Nil(t, attempts[0].StatusCode, "nothing listens: a transport error")
	dl, err := r.c.ListWebhookDeliveries(ctxBG, wh.ID, client.ListParams{}, r.opt()...)
	r.same("ListWebhookDeliveries", dl, err)
	// Only a failed delivery is sent again: while its retries last, 409;
	// once they are spent, 202 naming it.
	res, err := r.c.ResendWebhook(ctxBG, wh.ID, client.WebhookResend{EventID: attempts[0].EventID}, r.opt()...)
	if err == nil {
		r.same("ResendWebhook", res, err)
		require.Equal(t, test.DeliveryID, res.DeliveryID)
	} else {
		r.refused("ResendWebhook", err, 409, "invalid_state")
	}

	events, err := r.c.ListEvents(ctxBG, client.EventListParams{Type: "webhook.test"}, r.opt()...)
	r.same("ListEvents", events, err)
	require.Len(t, events.Data, 1)
	ev, err := r.c.GetEvent(ctxBG, attempts[0].EventID, r.opt()...)
	r.same("GetEvent", ev, err)
	obj, err := ev.Object()
	require.NoError(t, err)
	require.Equal(t, &client.WebhookTestObject{EndpointID: wh.ID}, obj)
	for e, err := range r.c.AllEvents(ctxBG, client.EventListParams{}) {
		require.NoError(t, err)
		require.Equal(t, ev.ID, e.ID)
	}
	del, err := r.c.DeleteWebhook(ctxBG, wh.ID, r.opt()...)
	r.same("DeleteWebhook", del, err)
	_, err = r.c.GetWebhook(ctxBG, wh.ID)
	r.refused("GetWebhook after delete", err, 404, client.CodeNotFound)
}

// clockCorrection: a Client whose clock is 100 s slow is refused
// stale_timestamp once, adopts the server's clock from SVC-Server-Time and
// succeeds, without the caller doing anything.
func (r *sdkRun) clockCorrection(key apiKey) {
	t := r.t
	slow, err := client.New(r.srv.BaseURL, key.ID, key.Priv, client.WithTimeout(httpTimeout),
		client.WithClock(func() time.Time { return time.Now().Add(-100 * time.Second) }))
	require.NoError(t, err)
	defer slow.CloseIdleConnections()
	var resp client.Response
	acct, err := slow.GetAccount(ctxBG, client.CaptureResponse(&resp))
	require.NoError(t, err)
	require.Equal(t, "sdk", acct.Name)
	require.InDelta(t, 100, slow.ClockOffset().Seconds(), 3)
}

// coverage: every operation of the served OpenAPI document was called.
func (r *sdkRun) coverage() {
	t := r.t
	doc, err := r.pub.GetOpenAPI(ctxBG)
	require.NoError(t, err)
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(doc, &d))
	param := regexp.MustCompile(`\\\{[a-z_]+\\\}`) // a {parameter}, as QuoteMeta writes it
	var missing []string
	ops := 0
	for path, item := range d.Paths {
		re := regexp.MustCompile("^" + regexp.QuoteMeta(basePath) + param.ReplaceAllString(regexp.QuoteMeta(path), "[^/]+") + "$")
		for m := range item {
			ops++
			if !r.hit(strings.ToUpper(m), re) {
				missing = append(missing, strings.ToUpper(m)+" "+path)
			}
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "operations the SDK test never called")
	require.Equal(t, 46, ops, "the route table's size; update this test with it")
}

func (r *sdkRun) hit(method string, path *regexp.Regexp) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for h := range r.hits {
		m, p, _ := strings.Cut(h, " ")
		if m == method && path.MatchString(p) {
			return true
		}
	}
	return false
}
