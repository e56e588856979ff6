package e2e

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"
)

// TestFXBothRailsWithEthers drives the FX flow as a third-party wallet
// user would: quote, accept, sign the returned typed data with ethers,
// submit (amm: the signature, relayed; rfq: the escrow funding tx the
// wallet broadcast itself), poll, and check the chain moved exactly the
// amounts. It also reaches failed on purpose and checks the refusals.
func TestFXBothRailsWithEthers(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	tr := newTrader(t, srv, "fx trader", map[string]string{"USDC": "1000"})

	// Quotes: the AMM and both makers; best is the largest output.
	q := tr.quote(t, "USDC", "EURC", "100")
	require.GreaterOrEqual(t, len(q.Quotes), 2, "the AMM and at least one maker: %+v", q)
	best := q.Quotes[0]
	for _, v := range q.Quotes {
		require.Equal(t, tr.wallet.Address.Hex(), v.Taker)
		require.Equal(t, "100", v.AmountIn)
		require.Equal(t, v.Route == "rfq", v.Firm)
		require.Equal(t, v.Route == "rfq", v.Provider != nil)
		exp, err := time.Parse(time.RFC3339, v.ExpiresAt)
		require.NoError(t, err)
		require.WithinDuration(t, time.Now().Add(30*time.Second), exp, 5*time.Second)
		if baseUnits(t, v.AmountOut).Cmp(baseUnits(t, best.AmountOut)) > 0 {
			best = v
		}
	}
	require.Equal(t, best.ID, q.BestQuoteID)

	t.Run("amm settles", func(t *testing.T) {
		usdc0, eurc0 := tr.balance(t, "USDC"), tr.balance(t, "EURC")
		resp, o := tr.accept(t, q.pick(t, "amm").ID, "")
		require.Equal(t, 200, resp.Status, "%s", resp.Body)
		require.Equal(t, "accepted", o.State)
		require.Equal(t, "amm", o.Route)
		require.True(t, strings.HasPrefix(o.OrderID, "ord_"))
		again, o2 := tr.accept(t, o.QuoteID, `{}`)
		require.Equal(t, 200, again.Status)
		require.Equal(t, resp.Body, again.Body, "accepting again returns the same order")
		require.Equal(t, o.OrderID, o2.OrderID)
		// Naming the signer again is the same accept; a wallet not the account's is refused, as at first
		// (through a second key of the account: this one's 30 heavy calls a minute are spoken for).
		k2 := tr.srv.client(t, tr.srv.createKey(t, tr.key.Account, "trade"))
		acceptPath := basePath + "/fx/quotes/" + o.QuoteID + "/accept"
		same := call(t, k2, "POST", acceptPath, fmt.Sprintf(`{"source_wallet":%q}`, strings.ToLower(tr.wallet.Address.Hex())), nil)
		require.Equal(t, resp.Body, same.Body)
		wrong := call(t, k2, "POST", acceptPath, fmt.Sprintf(`{"source_wallet":%q}`, newEthKey(t).Address.Hex()), nil)
		requireError(t, wrong, 403, "not_permitted")
		require.Equal(t, "Source wallet is not permitted for swap", errorMessage(t, wrong.Body))

		// A signature by another wallet is refused before anything is relayed.
		other := tr.wallet
		tr.wallet = newEthKey(t)
		badSig, _ := tr.signTypedAs(t, o.Signing)
		tr.wallet = other
		bad := tr.submit(t, o.OrderID, fmt.Sprintf(`{"signature":%q}`, badSig))
		requireError(t, bad, 400, "invalid_signature")
		require.Equal(t, "accepted", tr.order(t, o.OrderID).State)

		// Some signers spell v as 0/1: the same signature, relayed as 27/28.
		sig := tr.signTyped(t, o.Signing)
		raw, err := hexutil.Decode(sig)
		require.NoError(t, err)
		raw[64] -= 27
		sub := tr.submit(t, o.OrderID, fmt.Sprintf(`{"signature":%q}`, hexutil.Encode(raw)))
		require.Equal(t, 200, sub.Status, "%s", sub.Body)
		done := tr.await(t, o.OrderID, "settled", 60*time.Second)
		require.NotNil(t, done.TxHash)
		require.Nil(t, done.FailureReason)
		require.GreaterOrEqual(t, baseUnits(t, done.AmountOut).Cmp(baseUnits(t, done.MinAmountOut)), 0)
		require.Equal(t, new(big.Int).Sub(usdc0, units(100)), tr.balance(t, "USDC"), "exactly 100 USDC left the wallet")
		require.Equal(t, new(big.Int).Add(eurc0, baseUnits(t, done.AmountOut)), tr.balance(t, "EURC"), "exactly amount_out EURC arrived")
	})

	t.Run("rfq settles", func(t *testing.T) {
		q := tr.quote(t, "USDC", "EURC", "100")
		rq := q.pick(t, "rfq")
		usdc0, eurc0 := tr.balance(t, "USDC"), tr.balance(t, "EURC")
		resp, o := tr.accept(t, rq.ID, "")
		require.Equal(t, 200, resp.Status, "%s", resp.Body)
		require.Equal(t, "rfq", o.Route)
		require.Equal(t, rq.AmountOut, o.AmountOut, "firm")
		requireRFQSigning(t, o.Signing, tr)

		// A mined tx without the QuoteEscrowed log is not funding.
		unrelated := srv.faucet(t, newEthKey(t).Address, "USDT", "1")
		nf := tr.submit(t, o.OrderID, fmt.Sprintf(`{"tx_hash":%q}`, unrelated.Hex()))
		requireError(t, nf, 400, "funding_not_verified")

		tx := tr.fundRFQ(t, o.Signing, true)
		sub := tr.submit(t, o.OrderID, fmt.Sprintf(`{"tx_hash":%q}`, tx))
		require.Equal(t, 200, sub.Status, "%s", sub.Body)
		var so orderView
		decodeStrictJSON(t, sub.Body, &so)
		require.Contains(t, []string{"funded", "settling", "settled"}, so.State)
		done := tr.await(t, o.OrderID, "settled", 60*time.Second)
		require.Equal(t, strings.ToLower(tx), *done.TxHash)
		require.Equal(t, new(big.Int).Sub(usdc0, units(100)), tr.balance(t, "USDC"))
		require.Equal(t, new(big.Int).Add(eurc0, baseUnits(t, rq.AmountOut)), tr.balance(t, "EURC"), "exactly the firm amount arrived")
	})

	t.Run("amm refused by the pre-flight", func(t *testing.T) {
		q := tr.quote(t, "USDC", "EURC", "500")
		resp, o := tr.accept(t, q.pick(t, "amm").ID, "")
		require.Equal(t, 200, resp.Status, "%s", resp.Body)
		sig := tr.signTyped(t, o.Signing)
		// The wallet spends its USDC elsewhere before submitting: nothing is
		// relayed and the order stays accepted (CONTRACT.md "Before relaying").
		erc20Transfer(t, tr.rpc, tr.chainID, tr.wallet, tr.tokens["USDC"], newEthKey(t).Address, tr.balance(t, "USDC"))
		requireError(t, tr.submit(t, o.OrderID, fmt.Sprintf(`{"signature":%q}`, sig)), 400, "insufficient_balance")
		require.Equal(t, "accepted", tr.order(t, o.OrderID).State)
	})

	t.Run("orders list newest first", func(t *testing.T) {
		resp := call(t, tr.c, "GET", basePath+"/fx/orders?limit=2", "", nil)
		require.Equal(t, 200, resp.Status)
		var page struct {
			Data       []orderView `json:"data"`
			HasMore    bool        `json:"has_more"`
			NextCursor *string     `json:"next_cursor"`
		}
		decodeStrictJSON(t, resp.Body, &page)
		require.Len(t, page.Data, 2)
		require.True(t, page.HasMore)
		require.Equal(t, "accepted", page.Data[0].State)
		require.Equal(t, "rfq", page.Data[1].Route)
		resp = call(t, tr.c, "GET", basePath+"/fx/orders?limit=2&starting_after="+*page.NextCursor, "", nil)
		decodeStrictJSON(t, resp.Body, &page)
		require.Len(t, page.Data, 1)
		require.False(t, page.HasMore)
		require.Nil(t, page.NextCursor)
		require.Equal(t, "amm", page.Data[0].Route)
		require.Equal(t, "settled", page.Data[0].State)
		requireError(t, call(t, tr.c, "GET", basePath+"/fx/orders/ord_nope", "", nil), 404, "not_found")
	})

	t.Run("idempotency keys", func(t *testing.T) {
		body := `{"from_currency":"USDC","to_currency":"EURC","amount":"3"}`
		first := call(t, tr.c, "POST", basePath+"/fx/quotes", body, map[string]string{"Idempotency-Key": "fxq-1"})
		require.Equal(t, 200, first.Status, "%s", first.Body)
		again := call(t, tr.c, "POST", basePath+"/fx/quotes", body, map[string]string{"Idempotency-Key": "fxq-1"})
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		require.Equal(t, first.Body, again.Body, "the same quotes, not new ones")
		requireError(t, call(t, tr.c, "POST", basePath+"/fx/quotes", `{"from_currency":"USDC","to_currency":"EURC","amount":"4"}`,
			map[string]string{"Idempotency-Key": "fxq-1"}), 422, "idempotency_key_reused")

		var q quotesView
		decodeStrictJSON(t, first.Body, &q)
		target := basePath + "/fx/quotes/" + q.BestQuoteID + "/accept"
		a1 := call(t, tr.c, "POST", target, "", map[string]string{"Idempotency-Key": "fxa-1"})
		require.Equal(t, 200, a1.Status, "%s", a1.Body)
		a2 := call(t, tr.c, "POST", target, "", map[string]string{"Idempotency-Key": "fxa-1"})
		require.Equal(t, "true", a2.Header.Get("Idempotency-Replayed"))
		require.Equal(t, a1.Body, a2.Body)
	})

	t.Run("refusals", func(t *testing.T) {
		bad := func(body string, status int, code string) {
			t.Helper()
			requireError(t, call(t, tr.c, "POST", basePath+"/fx/quotes", body, nil), status, code)
		}
		bad(`{"from_currency":"USDC","to_currency":"XAU","amount":"1"}`, 400, "unsupported_asset")
		bad(`{"from_currency":"USDC","to_currency":"USDC","amount":"1"}`, 400, "invalid_request")
		bad(`{"from_currency":"USDC","to_currency":"EURC","amount":"-1"}`, 400, "invalid_request")
		bad(`{"from_currency":"USDC","to_currency":"EURC","amount":"1.0000001"}`, 400, "invalid_request")
		bad(`{"from_currency":"USDC","to_currency":"EURC","amount":"1","extra":1}`, 400, "invalid_request")
		bad(`{"from_currency":"USDC","to_currency":"EURC","amount":"1","source_wallet":"0xdEaD"}`, 400, "invalid_request")
		// One base unit buys nothing on either rail.
		bad(`{"from_currency":"USDC","to_currency":"EURC","amount":"0.000001"}`, 502, "no_quote_available")
		// Nor does an amount above what either rail takes: well formed, so 502, not 400.
		bad(`{"from_currency":"USDC","to_currency":"EURC","amount":"1000000000000"}`, 502, "no_quote_available")
		resp, _ := tr.accept(t, "q_doesnotexist", "")
		requireError(t, resp, 404, "not_found")
		// A source wallet that is not the account's is not permitted (SPEC.md: 403), at accept...
		q := tr.quote(t, "USDC", "EURC", "1")
		resp, _ = tr.accept(t, q.BestQuoteID, fmt.Sprintf(`{"source_wallet":%q}`, newEthKey(t).Address.Hex()))
		requireError(t, resp, 403, "not_permitted")
		require.Equal(t, "Source wallet is not permitted for swap", errorMessage(t, resp.Body))
		resp, _ = tr.accept(t, q.BestQuoteID, `{"source_wallet":"not an address"}`)
		requireError(t, resp, 400, "invalid_request")
		// ... and when it was the quote's taker: quoting is allowed, accepting is not
		// (through a second key: this one's 30 heavy calls a minute are spoken for).
		k3 := tr.srv.client(t, tr.srv.createKey(t, tr.key.Account, "trade"))
		fq := call(t, k3, "POST", basePath+"/fx/quotes",
			fmt.Sprintf(`{"from_currency":"USDC","to_currency":"EURC","amount":"1","source_wallet":%q}`, newEthKey(t).Address.Hex()), nil)
		require.Equal(t, 200, fq.Status, "%s", fq.Body)
		var fqs quotesView
		decodeStrictJSON(t, fq.Body, &fqs)
		requireError(t, call(t, k3, "POST", basePath+"/fx/quotes/"+fqs.BestQuoteID+"/accept", "", nil), 403, "not_permitted")

		// Not permitted to swap: quoting works, accepting is refused with SPEC.md's message.
		np := newTrader(t, srv, "no swap", nil, "--swap=false")
		nq := np.quote(t, "USDC", "EURC", "10")
		resp, _ = np.accept(t, nq.BestQuoteID, "")
		requireError(t, resp, 403, "not_permitted")
		require.Equal(t, "Source wallet is not permitted for swap", errorMessage(t, resp.Body))
		// A wallet unlinked after the quote no longer signs for the account.
		gone := newTrader(t, srv, "wallet gone", nil)
		gq := gone.quote(t, "USDC", "EURC", "10")
		requireStatus(t, call(t, gone.c, "DELETE", basePath+"/wallets/"+gone.wallet.Address.Hex(), "", nil), 200)
		resp, _ = gone.accept(t, gq.BestQuoteID, "")
		requireError(t, resp, 403, "not_permitted")
		require.Equal(t, "Source wallet is not permitted for swap", errorMessage(t, resp.Body))
		// Another account cannot accept or read it.
		resp, _ = tr.accept(t, nq.BestQuoteID, "")
		requireError(t, resp, 404, "not_found")
		// No wallet: no taker.
		nw := srv.client(t, srv.createKey(t, srv.createAccount(t, "no wallet"), "trade"))
		requireError(t, call(t, nw, "POST", basePath+"/fx/quotes", `{"from_currency":"USDC","to_currency":"EURC","amount":"1"}`, nil), 400, "invalid_request")
	})
}

// requireRFQSigning checks the rfq signing object of CONTRACT.md: funding,
// relay, typed_data and the call with its three arguments.
func requireRFQSigning(t *testing.T, raw json.RawMessage, tr *fxTrader) {
	t.Helper()
	var s struct {
		Type    string            `json:"type"`
		Funding map[string]string `json:"funding"`
		Relay   map[string]any    `json:"relay"`
		Call    struct {
			To   string            `json:"to"`
			ABI  map[string]any    `json:"abi"`
			Args []json.RawMessage `json:"args"`
		} `json:"call"`
		TypedData map[string]any `json:"typed_data"`
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	require.Equal(t, "permit2_witness", s.Type)
	require.ElementsMatch(t, []string{"escrow", "token", "amount", "executionId", "quoteHash", "deadline", "nonce", "signer"}, sortedKeys(anyMap(s.Funding)))
	require.Equal(t, tr.wallet.Address.Hex(), s.Funding["signer"])
	require.Equal(t, s.Funding["escrow"], s.Call.To)
	require.Equal(t, "escrowQuoteWithPermit2", s.Call.ABI["name"])
	require.Len(t, s.Call.Args, 3)
	require.Equal(t, tr.permit2.Hex(), s.Relay["permit2"])
	require.Equal(t, "RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)", s.Relay["witnessTypeString"])
	require.Equal(t, "PermitWitnessTransferFrom", s.TypedData["primaryType"])
}
