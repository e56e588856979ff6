package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/fxd-labs/fxd/client"
	"github.com/stretchr/testify/require"
)

// fxTrader is one account trading FX from one wallet: its API client,
// its wallet key and the chain it signs for.
type fxTrader struct {
	srv     *server
	c       *client.Client
	key     apiKey
	wallet  ethKey
	rpc     string
	chainID uint64
	tokens  map[string]common.Address
	permit2 common.Address // the chain's Permit2 (canonical on the embedded chain)
}

// newTrader makes an account with a read/trade/pay/wallets key, registers a
// fresh wallet by SIWE, funds it from the faucet and lets Permit2 pull
// its tokens (the one approval every Permit2 user makes once).
func newTrader(t *testing.T, srv *server, name string, fund map[string]string, extra ...string) *fxTrader {
	t.Helper()
	return newTraderOn(t, srv, canonicalPermit2, name, fund, extra...)
}

// newTraderOn is newTrader on a chain whose Permit2 is at permit2 (one
// `fxd chain deploy` deployed).
func newTraderOn(t *testing.T, srv *server, permit2 common.Address, name string, fund map[string]string, extra ...string) *fxTrader {
	t.Helper()
	acct := srv.createAccount(t, name, extra...)
	key := srv.createKey(t, acct, "read,trade,pay,wallets")
	c := srv.client(t, key)
	curs, chainID := getCurrencies(t, c)
	tr := &fxTrader{srv: srv, c: c, key: key, wallet: newEthKey(t), rpc: srv.chainRPC(t), chainID: chainID, tokens: map[string]common.Address{},
		permit2: permit2}
	for sym, cur := range curs {
		tr.tokens[sym] = common.HexToAddress(cur.Address)
	}
	registerWallet(t, srv, c, tr.wallet, chainID)
	for sym, amount := range fund {
		srv.faucet(t, tr.wallet.Address, sym, amount)
		tr.approvePermit2(t, sym)
	}
	return tr
}

// canonicalPermit2 is Permit2's address on every public chain and on the
// embedded one.
var canonicalPermit2 = common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")

func (tr *fxTrader) approvePermit2(t *testing.T, sym string) {
	t.Helper()
	var out struct {
		TxHash string `json:"tx_hash"`
		Status int    `json:"status"`
	}
	runNode(t, "fx.mjs", map[string]any{"op": "approve", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex,
		"token": tr.tokens[sym].Hex(), "spender": tr.permit2.Hex()}, &out)
	require.Equal(t, 1, out.Status, "approve %s for Permit2", sym)
}

// balance reads a token balance of the wallet with ethers.
func (tr *fxTrader) balance(t *testing.T, sym string) *big.Int {
	t.Helper()
	return ethersBalance(t, tr.rpc, tr.chainID, tr.tokens[sym], tr.wallet.Address)
}

// quoteView and quotesView are POST /fx/quotes on the wire.
type quoteView struct {
	ID           string  `json:"id"`
	Route        string  `json:"route"`
	Firm         bool    `json:"firm"`
	Provider     *string `json:"provider"`
	Taker        string  `json:"taker"`
	FromCurrency string  `json:"from_currency"`
	ToCurrency   string  `json:"to_currency"`
	AmountIn     string  `json:"amount_in"`
	AmountOut    string  `json:"amount_out"`
	Rate         string  `json:"rate"`
	ExpiresAt    string  `json:"expires_at"`
}

type quotesView struct {
	Quotes      []quoteView `json:"quotes"`
	BestQuoteID string      `json:"best_quote_id"`
}

// orderView is an order on the wire; signing stays raw for the wallet.
type orderView struct {
	OrderID       string          `json:"order_id"`
	Route         string          `json:"route"`
	State         string          `json:"state"`
	Signing       json.RawMessage `json:"signing"`
	QuoteID       string          `json:"quote_id"`
	FromCurrency  string          `json:"from_currency"`
	ToCurrency    string          `json:"to_currency"`
	AmountIn      string          `json:"amount_in"`
	AmountOut     string          `json:"amount_out"`
	MinAmountOut  string          `json:"min_amount_out"`
	TxHash        *string         `json:"tx_hash"`
	FailureReason *string         `json:"failure_reason"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
	// Issues is on accept answers only (CONTRACT.md).
	Issues json.RawMessage `json:"issues,omitempty"`
}

func decodeStrictJSON(t *testing.T, body []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v), "body %s", body)
}

func (tr *fxTrader) quote(t *testing.T, from, to, amount string) quotesView {
	t.Helper()
	resp := call(t, tr.c, "POST", basePath+"/fx/quotes", fmt.Sprintf(`{"from_currency":%q,"to_currency":%q,"amount":%q}`, from, to, amount), nil)
	require.Equal(t, 200, resp.Status, "quote: %s", resp.Body)
	var q quotesView
	decodeStrictJSON(t, resp.Body, &q)
	return q
}

// pick returns the quote of route.
func (q quotesView) pick(t *testing.T, route string) quoteView {
	t.Helper()
	for _, v := range q.Quotes {
		if v.Route == route {
			return v
		}
	}
	t.Fatalf("no %s quote in %+v", route, q)
	return quoteView{}
}

func (tr *fxTrader) accept(t *testing.T, quoteID, body string) (*client.Response, orderView) {
	t.Helper()
	resp := call(t, tr.c, "POST", basePath+"/fx/quotes/"+quoteID+"/accept", body, nil)
	var o orderView
	if resp.Status == 200 {
		decodeStrictJSON(t, resp.Body, &o)
	}
	return resp, o
}

func (tr *fxTrader) submit(t *testing.T, orderID, body string) *client.Response {
	t.Helper()
	return call(t, tr.c, "POST", basePath+"/fx/orders/"+orderID+"/submit", body, nil)
}

func (tr *fxTrader) order(t *testing.T, id string) orderView {
	t.Helper()
	resp := call(t, tr.c, "GET", basePath+"/fx/orders/"+id, "", nil)
	require.Equal(t, 200, resp.Status, "get order: %s", resp.Body)
	var o orderView
	decodeStrictJSON(t, resp.Body, &o)
	return o
}

// await polls the order until it reaches state, and fails on any other
// terminal state.
func (tr *fxTrader) await(t *testing.T, id, state string, within time.Duration) orderView {
	t.Helper()
	return awaitState(t, tr.srv, "order "+id, state, within, func() orderView { return tr.order(t, id) },
		func(o orderView) string { return o.State }, "settled", "failed", "expired", "refunded")
}

// signTyped signs signing.typed_data with ethers, as a wallet would, and
// checks the wallet is the one that signed.
func (tr *fxTrader) signTyped(t *testing.T, signing json.RawMessage) string {
	t.Helper()
	sig, signer := tr.signTypedAs(t, signing)
	require.Equal(t, tr.wallet.Address.Hex(), signer)
	return sig
}

// signTypedAs signs with the trader's current wallet and returns the
// signature and the signer ethers reports.
func (tr *fxTrader) signTypedAs(t *testing.T, signing json.RawMessage) (string, string) {
	t.Helper()
	out := tr.signTypedForms(t, signing)
	return out.Signature, out.Signer
}

// typedSignature is a signature of fx.mjs's sign_typed_data in both forms.
type typedSignature struct {
	Signature, Compact, Signer string
}

// signTypedForms signs with the trader's current wallet: the signature,
// its EIP-2098 compact form (ethers' compactSerialized) and the signer.
func (tr *fxTrader) signTypedForms(t *testing.T, signing json.RawMessage) typedSignature {
	t.Helper()
	var s struct {
		TypedData json.RawMessage `json:"typed_data"`
	}
	require.NoError(t, json.Unmarshal(signing, &s))
	var out typedSignature
	runNode(t, "fx.mjs", map[string]any{"op": "sign_typed_data", "key": tr.wallet.Hex, "typed_data": s.TypedData}, &out)
	return out
}

// fundRFQ signs the funding and broadcasts escrowQuoteWithPermit2 with
// ethers from the wallet (self-broadcast, the wallet pays gas).
func (tr *fxTrader) fundRFQ(t *testing.T, signing json.RawMessage, wait bool) string {
	t.Helper()
	var out struct {
		TxHash string `json:"tx_hash"`
		Status *int   `json:"status"`
	}
	runNode(t, "fx.mjs", map[string]any{"op": "fund_rfq", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex,
		"signing": signing, "wait": wait}, &out)
	if wait {
		require.NotNil(t, out.Status)
		require.Equal(t, 1, *out.Status, "escrow funding tx %s", out.TxHash)
	}
	return out.TxHash
}

// baseUnits parses a decimal currency amount into base units (6 decimals).
func baseUnits(t *testing.T, s string) *big.Int {
	t.Helper()
	r, ok := new(big.Rat).SetString(s)
	require.True(t, ok, "amount %q", s)
	r.Mul(r, new(big.Rat).SetInt64(1_000_000))
	require.True(t, r.IsInt(), "amount %q has more than 6 decimals", s)
	return new(big.Int).Set(r.Num())
}

// metrics reads the admin listener's Prometheus gauges.
func (s *server) metrics(t *testing.T) map[string]string {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(s.DataDir, "admin.token"))
	require.NoError(t, err)
	req, err := http.NewRequest("GET", "http://"+s.AdminAddr+"/metrics", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := map[string]string{}
	for _, line := range strings.Split(string(body), "\n") {
		if name, v, ok := strings.Cut(line, " "); ok && !strings.HasPrefix(line, "#") {
			out[name] = v
		}
	}
	return out
}
