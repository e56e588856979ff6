package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// linkView is a payment link as its account sees it (CONTRACT.md).
type linkView struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	State          string   `json:"state"`
	Currency       string   `json:"currency"`
	Amount         string   `json:"amount"`
	AmountReceived string   `json:"amount_received"`
	ReceiveAddress string   `json:"receive_address"`
	PayoutWallet   string   `json:"payout_wallet"`
	Description    *string  `json:"description"`
	ExpiresAt      *string  `json:"expires_at"`
	PaidAt         *string  `json:"paid_at"`
	TxHashes       []string `json:"tx_hashes"`
	CreatedAt      string   `json:"created_at"`
}

// publicLinkView is GET /pay/{id}.
type publicLinkView struct {
	ID             string  `json:"id"`
	State          string  `json:"state"`
	Currency       string  `json:"currency"`
	Amount         string  `json:"amount"`
	AmountReceived string  `json:"amount_received"`
	Description    *string `json:"description"`
	ReceiveAddress string  `json:"receive_address"`
	TokenAddress   string  `json:"token_address"`
	ChainID        uint64  `json:"chain_id"`
	ExpiresAt      *string `json:"expires_at"`
}

func (tr *fxTrader) createLink(t *testing.T, body string) linkView {
	t.Helper()
	resp := call(t, tr.c, "POST", basePath+"/payment-links", body, nil)
	require.Equal(t, 201, resp.Status, "%s", resp.Body)
	var v linkView
	decodeStrictJSON(t, resp.Body, &v)
	return v
}

func (tr *fxTrader) link(t *testing.T, id string) linkView {
	t.Helper()
	resp := call(t, tr.c, "GET", basePath+"/payment-links/"+id, "", nil)
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	var v linkView
	decodeStrictJSON(t, resp.Body, &v)
	return v
}

// awaitLink polls until the link is in state (or fails on another end state).
func (tr *fxTrader) awaitLink(t *testing.T, id, state string, within time.Duration) linkView {
	t.Helper()
	return awaitState(t, tr.srv, "link "+id, state, within, func() linkView { return tr.link(t, id) },
		func(v linkView) string { return v.State }, "paid", "cancelled", "expired")
}

// awaitBalance polls until owner holds want of the token.
func (tr *fxTrader) awaitBalance(t *testing.T, token, owner common.Address, want *big.Int, within time.Duration) {
	t.Helper()
	awaitState(t, tr.srv, "balance of "+owner.Hex(), want.String(), within,
		func() *big.Int { return ethersBalance(t, tr.rpc, tr.chainID, token, owner) }, (*big.Int).String)
}

// TestPaymentLinks: a link is paid by strangers' plain ERC-20 transfers to
// its own receive address, with nobody calling submit; parts add up; the
// money is forwarded to the payout wallet and nowhere else; money after
// payment is forwarded too and shown as late; a tx for one link does not
// pay another; cancel rules; the public routes need no key.
func TestPaymentLinks(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	merchant := newTrader(t, srv, "merchant", nil)
	usdc := merchant.tokens["USDC"]
	payout := merchant.wallet.Address
	payer := func() ethKey {
		k := newEthKey(t)
		srv.faucet(t, k.Address, "USDC", "100")
		return k
	}

	l := merchant.createLink(t, `{"currency":"USDC","amount":"30","description":"order #7"}`)
	require.Equal(t, "open", l.State)
	require.Equal(t, payout.Hex(), l.PayoutWallet, "the primary wallet by default")
	require.True(t, strings.HasSuffix(l.URL, basePath+"/pay/"+l.ID), l.URL)
	require.Equal(t, "0", l.AmountReceived)
	require.Empty(t, l.TxHashes)
	pub := callPublic(t, srv.unsigned(t), "GET", basePath+"/pay/"+l.ID)
	require.Equal(t, 200, pub.Status, "%s", pub.Body)
	var pv publicLinkView
	decodeStrictJSON(t, pub.Body, &pv)
	require.Equal(t, l.ReceiveAddress, pv.ReceiveAddress)
	require.Equal(t, usdc.Hex(), pv.TokenAddress)
	require.Equal(t, merchant.chainID, pv.ChainID)

	// Paid in two parts by two strangers; nobody calls submit.
	recv := common.HexToAddress(l.ReceiveAddress)
	first, _ := erc20Transfer(t, merchant.rpc, merchant.chainID, payer(), usdc, recv, units(10))
	part := awaitState(t, srv, "link "+l.ID+" amount_received", "10", 30*time.Second,
		func() linkView { return merchant.link(t, l.ID) }, func(v linkView) string { return v.AmountReceived })
	require.Equal(t, "open", part.State, "the watcher counts the first part")
	second, _ := erc20Transfer(t, merchant.rpc, merchant.chainID, payer(), usdc, recv, units(20))
	paid := merchant.awaitLink(t, l.ID, "paid", 30*time.Second)
	require.Equal(t, "30", paid.AmountReceived)
	require.NotNil(t, paid.PaidAt)
	require.Equal(t, []string{strings.ToLower(first.Hex()), strings.ToLower(second.Hex())}, paid.TxHashes)
	merchant.awaitBalance(t, usdc, payout, units(30), 30*time.Second)
	require.Equal(t, 0, ethersBalance(t, merchant.rpc, merchant.chainID, usdc, recv).Sign(), "the forwarder keeps nothing")

	// Submitting a counted tx again is an answer; a tx for this link does not pay another.
	// (Its description has lines, quotes, a comma and a leading tab: the export below keeps it whole.)
	other := merchant.createLink(t, `{"currency":"USDC","amount":"5","description":"\t@SUM(1+1)\nline 2, \"quoted\""}`)
	require.Equal(t, "\t@SUM(1+1)\nline 2, \"quoted\"", *other.Description)
	unsigned := srv.unsigned(t)
	again := submitPublic(t, unsigned, l.ID, second.Hex())
	require.Equal(t, 200, again.Status, "%s", again.Body)
	requireError(t, submitPublic(t, unsigned, other.ID, second.Hex()), 400, "transfer_not_verified")
	// A hash the chain knows nowhere holds no Transfer either.
	unknown := submitPublic(t, unsigned, other.ID, "0x"+strings.Repeat("cd", 32))
	requireError(t, unknown, 400, "transfer_not_verified")
	require.Contains(t, string(unknown.Body), "knows no transaction")
	require.Equal(t, "0", merchant.link(t, other.ID).AmountReceived)

	// Late money: forwarded all the same, and a ledger entry of its own.
	late, _ := erc20Transfer(t, merchant.rpc, merchant.chainID, payer(), usdc, recv, units(5))
	merchant.awaitBalance(t, usdc, payout, units(35), 30*time.Second)
	require.Equal(t, "30", merchant.link(t, l.ID).AmountReceived, "late money does not count toward the amount")
	entries := ledgerEntries(t, merchant, "?type=payment_link")
	var lateEntry map[string]any
	for _, e := range entries {
		if e["state"] == "late" {
			lateEntry = e
		}
	}
	require.NotNil(t, lateEntry, "entries: %v", entries)
	require.Equal(t, l.ID, lateEntry["reference_id"])
	require.Equal(t, "5", lateEntry["amount_in"])
	require.Equal(t, strings.ToLower(late.Hex()), lateEntry["tx_hash"])

	// Cancel rules.
	requireError(t, call(t, merchant.c, "PATCH", basePath+"/payment-links/"+l.ID, `{"state":"cancelled"}`, nil), 409, "invalid_state")
	requireError(t, call(t, merchant.c, "PATCH", basePath+"/payment-links/"+other.ID, `{"state":"open"}`, nil), 400, "invalid_request")
	c := call(t, merchant.c, "PATCH", basePath+"/payment-links/"+other.ID, `{"state":"cancelled"}`, nil)
	require.Equal(t, 200, c.Status, "%s", c.Body)
	require.Contains(t, string(c.Body), `"state":"cancelled"`)
	requireError(t, call(t, merchant.c, "PATCH", basePath+"/payment-links/"+other.ID, `{"state":"cancelled"}`, nil), 409, "invalid_state")

	// Another account sees none of it; an unknown link is 404 on the public page.
	stranger := newTrader(t, srv, "stranger", nil)
	requireError(t, call(t, stranger.c, "GET", basePath+"/payment-links/"+l.ID, "", nil), 404, "not_found")
	requireError(t, call(t, stranger.c, "PATCH", basePath+"/payment-links/"+l.ID, `{"state":"cancelled"}`, nil), 404, "not_found")
	requireError(t, callPublic(t, unsigned, "GET", basePath+"/pay/pl_nope"), 404, "not_found")
	// The ledger holds exactly these records, newest first, a page at a time.
	all := ledgerEntries(t, merchant, "")
	var ids []string
	for _, e := range all {
		ids = append(ids, e["id"].(string))
	}
	require.Equal(t, []string{lateEntry["id"].(string), other.ID, l.ID}, ids)
	require.Equal(t, "cancelled", all[1]["state"])
	require.Equal(t, "paid", all[2]["state"])
	requireExportMatches(t, merchant, "", all)
	page := ledgerEntries(t, merchant, "?limit=1&starting_after="+other.ID)
	require.Len(t, page, 1)
	require.Equal(t, l.ID, page[0]["id"])

	list := call(t, merchant.c, "GET", basePath+"/payment-links", "", nil)
	require.Equal(t, 200, list.Status)
	var lp struct{ Data []linkView }
	require.NoError(t, json.Unmarshal(list.Body, &lp))
	require.Equal(t, []string{other.ID, l.ID}, []string{lp.Data[0].ID, lp.Data[1].ID}, "newest first")
}

// TestPaymentLinkExpires: an open link past its expires_at is expired by
// the service by itself, and every read says so from that instant (no
// waiting for the expiry job); it cannot be cancelled then, its public
// page says so, and money that reaches it after is still forwarded to the
// payout wallet and shows in the ledger as late.
func TestPaymentLinkExpires(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	merchant := newTrader(t, srv, "merchant", nil)
	usdc := merchant.tokens["USDC"]
	expires := time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339)
	l := merchant.createLink(t, fmt.Sprintf(`{"currency":"USDC","amount":"8","expires_at":%q}`, expires))
	require.Equal(t, expires, *l.ExpiresAt)
	// Read once, right after expires_at (the server's clock is ours): no poll.
	exp, err := time.Parse(time.RFC3339, expires)
	require.NoError(t, err)
	time.Sleep(time.Until(exp.Add(time.Second)))
	require.Equal(t, "expired", merchant.link(t, l.ID).State, "a read past expires_at")
	merchant.awaitLink(t, l.ID, "expired", 30*time.Second)
	requireError(t, call(t, merchant.c, "PATCH", basePath+"/payment-links/"+l.ID, `{"state":"cancelled"}`, nil), 409, "invalid_state")
	pub := callPublic(t, srv.unsigned(t), "GET", basePath+"/pay/"+l.ID)
	require.Equal(t, 200, pub.Status, "%s", pub.Body)
	require.Contains(t, string(pub.Body), `"state":"expired"`)

	payer := newEthKey(t)
	srv.faucet(t, payer.Address, "USDC", "8")
	late, _ := erc20Transfer(t, merchant.rpc, merchant.chainID, payer, usdc, common.HexToAddress(l.ReceiveAddress), units(8))
	merchant.awaitBalance(t, usdc, merchant.wallet.Address, units(8), 30*time.Second)
	got := merchant.link(t, l.ID)
	require.Equal(t, "expired", got.State)
	require.Equal(t, "0", got.AmountReceived, "money after expiry does not pay the link")
	entries := ledgerEntries(t, merchant, "?type=payment_link")
	require.Len(t, entries, 2, "the link and its late money: %v", entries)
	require.Equal(t, "late", entries[0]["state"])
	require.Equal(t, strings.ToLower(late.Hex()), entries[0]["tx_hash"])
	require.Equal(t, "expired", entries[1]["state"])
	requireExportMatches(t, merchant, "?type=payment_link", entries)
}

// submitPublic is POST /pay/{id}/submit without a key, as a payer's page sends it.
func submitPublic(t *testing.T, c *client.Client, id, txHash string) *client.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
	defer cancel()
	resp, err := c.DoUnsigned(ctx, "POST", basePath+"/pay/"+id+"/submit", []byte(fmt.Sprintf(`{"tx_hash":%q}`, txHash)), nil)
	require.NoError(t, err)
	return resp
}

// ledgerEntries reads one page of GET /transactions.
func ledgerEntries(t *testing.T, tr *fxTrader, query string) []map[string]any {
	t.Helper()
	resp := call(t, tr.c, "GET", basePath+"/transactions"+query, "", nil)
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	var page struct{ Data []map[string]any }
	require.NoError(t, json.Unmarshal(resp.Body, &page))
	return page.Data
}

// requireExportMatches holds GET /transactions/export (query) to the
// ledger entries as GET /transactions gave them: the same rows in the same
// order, every field a column, null an empty cell, and a text cell that
// starts with = + - @ (or tab or CR) prefixed with ' (CONTRACT.md).
func requireExportMatches(t *testing.T, tr *fxTrader, query string, entries []map[string]any) {
	t.Helper()
	resp := call(t, tr.c, "GET", basePath+"/transactions/export"+query, "", nil)
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	require.Equal(t, "text/csv", resp.Header.Get("Content-Type"))
	rows, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	require.NoError(t, err)
	require.Len(t, rows, len(entries)+1, "a header row and one row per entry")
	cols := rows[0]
	for i, e := range entries {
		require.Len(t, e, len(cols), "every field of entry %v is a column of %v", e, cols)
		for j, col := range cols {
			want := ""
			if v, ok := e[col]; ok && v != nil {
				want = fmt.Sprint(v)
			}
			if want != "" && strings.ContainsRune("=+-@\t\r", rune(want[0])) {
				want = "'" + want
			}
			require.Equal(t, want, rows[i+1][j], "export row %d, column %s", i+1, col)
		}
	}
}
