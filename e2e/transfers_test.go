package e2e

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// transferView is a transfer on the wire (CONTRACT.md "Transfers").
type transferView struct {
	ID            string          `json:"id"`
	State         string          `json:"state"`
	FromCurrency  string          `json:"from_currency"`
	Currency      string          `json:"currency"`
	Amount        string          `json:"amount"`
	AmountOut     *string         `json:"amount_out"`
	MinAmountOut  *string         `json:"min_amount_out"`
	Recipient     string          `json:"recipient"`
	ContactID     *string         `json:"contact_id"`
	SourceWallet  string          `json:"source_wallet"`
	Memo          *string         `json:"memo"`
	Signing       json.RawMessage `json:"signing"`
	TxHash        *string         `json:"tx_hash"`
	FailureReason *string         `json:"failure_reason"`
	ExpiresAt     string          `json:"expires_at"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
	Issues        *struct {
		Allowance *struct{ Token, Spender, Actual, Required string } `json:"allowance"`
		Balance   *struct{ Token, Actual, Required string }          `json:"balance"`
	} `json:"issues,omitempty"`
}

func (tr *fxTrader) createTransfer(t *testing.T, body string, headers map[string]string) (*client.Response, transferView) {
	t.Helper()
	resp := call(t, tr.c, "POST", basePath+"/transfers", body, headers)
	var v transferView
	if resp.Status == 201 {
		decodeStrictJSON(t, resp.Body, &v)
	}
	return resp, v
}

func (tr *fxTrader) transfer(t *testing.T, id string) transferView {
	t.Helper()
	resp := call(t, tr.c, "GET", basePath+"/transfers/"+id, "", nil)
	require.Equal(t, 200, resp.Status, "get transfer: %s", resp.Body)
	var v transferView
	decodeStrictJSON(t, resp.Body, &v)
	return v
}

func (tr *fxTrader) submitTransfer(t *testing.T, id, body string) *client.Response {
	t.Helper()
	return call(t, tr.c, "POST", basePath+"/transfers/"+id+"/submit", body, nil)
}

// awaitTransfer polls until the transfer is in state.
func (tr *fxTrader) awaitTransfer(t *testing.T, id, state string, within time.Duration) transferView {
	t.Helper()
	return awaitState(t, tr.srv, "transfer "+id, state, within, func() transferView { return tr.transfer(t, id) },
		func(v transferView) string { return v.State }, "confirmed", "failed", "expired")
}

// payTx is signing.tx of a same-currency transfer.
type payTx struct {
	ChainID uint64 `json:"chainId"`
	To      string `json:"to"`
	Data    string `json:"data"`
	Value   string `json:"value"`
}

func signingTx(t *testing.T, signing json.RawMessage) payTx {
	t.Helper()
	var s struct {
		Type string `json:"type"`
		Tx   payTx  `json:"tx"`
	}
	require.NoError(t, json.Unmarshal(signing, &s))
	require.Equal(t, "erc20_transfer", s.Type)
	require.Equal(t, "0", s.Tx.Value)
	return s.Tx
}

// sendTx broadcasts tx from k with ethers and waits; gas > 0 sends even a
// transaction estimation says reverts.
func (tr *fxTrader) sendTx(t *testing.T, k ethKey, tx payTx, gas int) (string, int) {
	t.Helper()
	var out struct {
		TxHash string `json:"tx_hash"`
		Status int    `json:"status"`
	}
	in := map[string]any{"op": "send_tx", "rpc": tr.rpc, "chain_id": tr.chainID, "key": k.Hex, "tx": tx}
	if gas > 0 {
		in["gas"] = gas
	}
	runNode(t, "pay.mjs", in, &out)
	return out.TxHash, out.Status
}

// TestSameCurrencyTransfers pays a supplier in USDC as a wallet would:
// the service returns the ERC-20 transaction, ethers signs and broadcasts
// it, and submit verifies the Transfer log field by field. Every way a
// transaction can fail to be this transfer's payment is refused.
func TestSameCurrencyTransfers(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	tr := newTrader(t, srv, "payer", map[string]string{"USDC": "1000", "EURC": "100"})
	payee := newEthKey(t).Address
	body := func(amount string, to common.Address, memo string) string {
		return fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":%q,"recipient":%q,"memo":%q}`, amount, to.Hex(), memo)
	}

	// Create, with an Idempotency-Key: the retry is the same transfer.
	key := map[string]string{"Idempotency-Key": "pay-supplier-1"}
	resp, tv := tr.createTransfer(t, body("25.5", payee, "=HYPERLINK(\"x\")"), key)
	require.Equal(t, 201, resp.Status, "%s", resp.Body)
	again := call(t, tr.c, "POST", basePath+"/transfers", body("25.5", payee, "=HYPERLINK(\"x\")"), key)
	require.Equal(t, 201, again.Status)
	require.Equal(t, resp.Body, again.Body, "a retry with the key returns the same transfer")
	require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
	requireError(t, call(t, tr.c, "POST", basePath+"/transfers", body("26", payee, ""), key), 422, "idempotency_key_reused")
	require.Equal(t, "created", tv.State)
	require.Equal(t, "25.5", tv.Amount)
	require.Equal(t, "25.5", *tv.AmountOut)
	require.Equal(t, payee.Hex(), tv.Recipient)
	require.Equal(t, tr.wallet.Address.Hex(), tv.SourceWallet)
	tx := signingTx(t, tv.Signing)
	require.Equal(t, tr.tokens["USDC"].Hex(), tx.To)
	require.Equal(t, tr.chainID, tx.ChainID)

	// The payer broadcasts it; submit confirms it; the payee holds exactly the amount.
	hash, status := tr.sendTx(t, tr.wallet, tx, 0)
	require.Equal(t, 1, status)
	sub := tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, hash))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	var done transferView
	decodeStrictJSON(t, sub.Body, &done)
	require.Equal(t, "confirmed", done.State)
	require.Equal(t, strings.ToLower(hash), *done.TxHash)
	require.Equal(t, big.NewInt(25_500_000), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], payee))
	require.Equal(t, 200, tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, hash)).Status, "the same tx again is an answer")

	// One log confirms one transfer, ever.
	_, twin := tr.createTransfer(t, body("25.5", payee, ""), nil)
	requireError(t, tr.submitTransfer(t, twin.ID, fmt.Sprintf(`{"tx_hash":%q}`, hash)), 409, "tx_already_used")
	require.Equal(t, "created", tr.transfer(t, twin.ID).State)
	// A hash already used is 409 also for a transfer it would never have paid.
	_, unlike := tr.createTransfer(t, body("3", payee, ""), nil)
	requireError(t, tr.submitTransfer(t, unlike.ID, fmt.Sprintf(`{"tx_hash":%q}`, hash)), 409, "tx_already_used")
	require.Equal(t, "created", tr.transfer(t, unlike.ID).State)

	// Transactions that are not this payment: refused, state unchanged.
	_, tv2 := tr.createTransfer(t, body("10", payee, ""), nil)
	tx2 := signingTx(t, tv2.Signing)
	wrong := map[string]string{}
	wrong["amount"], _ = tr.sendTx(t, tr.wallet, signingTx(t, tr.mustCreate(t, body("9", payee, "")).Signing), 0)
	wrong["recipient"], _ = tr.sendTx(t, tr.wallet, signingTx(t, tr.mustCreate(t, body("10", newEthKey(t).Address, "")).Signing), 0)
	eurc := tx2
	eurc.To = tr.tokens["EURC"].Hex()
	wrong["token"], _ = tr.sendTx(t, tr.wallet, eurc, 0)
	stranger := newEthKey(t)
	srv.faucet(t, stranger.Address, "USDC", "50")
	wrong["from another wallet"], _ = tr.sendTx(t, stranger, tx2, 0)
	for what, h := range wrong {
		requireError(t, tr.submitTransfer(t, tv2.ID, fmt.Sprintf(`{"tx_hash":%q}`, h)), 400, "transfer_not_verified")
		require.Equal(t, "created", tr.transfer(t, tv2.ID).State, what)
	}
	broke := newEthKey(t)
	srv.faucet(t, broke.Address, "USDT", "1") // gas only: its USDC transfer reverts on chain
	reverted, st := tr.sendTx(t, broke, tx2, 120_000)
	require.Equal(t, 0, st)
	requireError(t, tr.submitTransfer(t, tv2.ID, fmt.Sprintf(`{"tx_hash":%q}`, reverted)), 400, "transfer_not_verified")

	// Submitted before it is mined (the hash of a signed, unsent tx): the
	// watcher finishes it once it is.
	var signed struct {
		TxHash string `json:"tx_hash"`
		Raw    string `json:"raw"`
	}
	runNode(t, "pay.mjs", map[string]any{"op": "sign_tx", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex, "tx": tx2}, &signed)
	pending := tr.submitTransfer(t, tv2.ID, fmt.Sprintf(`{"tx_hash":%q}`, signed.TxHash))
	require.Equal(t, 200, pending.Status, "%s", pending.Body)
	require.Contains(t, string(pending.Body), `"state":"submitted"`)
	runNode(t, "pay.mjs", map[string]any{"op": "send_raw", "rpc": tr.rpc, "chain_id": tr.chainID, "raw": signed.Raw}, &struct{}{})
	fin := tr.awaitTransfer(t, tv2.ID, "confirmed", 30*time.Second)
	require.Equal(t, strings.ToLower(signed.TxHash), *fin.TxHash)

	replacedSubmit(t, tr, body)
	failedOnChain(t, tr, body)

	// The ledger: newest first, one entry per transfer, the memo as text in the CSV.
	ledger := call(t, tr.c, "GET", basePath+"/transactions?type=transfer&limit=2", "", nil)
	require.Equal(t, 200, ledger.Status, "%s", ledger.Body)
	var page struct {
		Data []struct {
			ID, Type, State, ReferenceID string
			Description                  *string
		} `json:"data"`
		HasMore    bool    `json:"has_more"`
		NextCursor *string `json:"next_cursor"`
	}
	require.NoError(t, json.Unmarshal(ledger.Body, &page))
	require.Len(t, page.Data, 2)
	require.True(t, page.HasMore)
	require.Greater(t, page.Data[0].ID, page.Data[1].ID, "newest first")
	csvResp := call(t, tr.c, "GET", basePath+"/transactions/export?type=transfer", "", nil)
	require.Equal(t, 200, csvResp.Status)
	require.Equal(t, "text/csv", csvResp.Header.Get("Content-Type"))
	rows, err := csv.NewReader(strings.NewReader(string(csvResp.Body))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"id", "type", "state", "from_currency", "to_currency", "amount_in", "amount_out", "tx_hash", "reference_id", "description", "created_at"}, rows[0])
	byID := map[string][]string{}
	for _, r := range rows[1:] {
		byID[r[0]] = r
	}
	require.Equal(t, `'=HYPERLINK("x")`, byID[tv.ID][9], "a formula memo is text in the CSV")
	require.Equal(t, "confirmed", byID[tv.ID][2])
	require.Equal(t, "25.5", byID[tv.ID][5])
}

// replacedSubmit: a transfer submitted with a tx that is never mined is
// confirmed by another mined tx that pays it exactly (a wallet's speed-up
// changes the hash); after that the first hash is refused, and a second
// payment of the same terms is not held by the confirmed transfer: it
// confirms another transfer of those terms.
func replacedSubmit(t *testing.T, tr *fxTrader, body func(string, common.Address, string) string) {
	t.Helper()
	payee := newEthKey(t).Address
	tv := tr.mustCreate(t, body("7", payee, "replaced"))
	tx := signingTx(t, tv.Signing)
	never := common.BytesToHash(newEthKey(t).Address.Bytes()).Hex() // 32 bytes no transaction has as its hash
	pending := tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, never))
	require.Equal(t, 200, pending.Status, "%s", pending.Body)
	require.Equal(t, "submitted", tr.transfer(t, tv.ID).State)
	speedUp, st := tr.sendTx(t, tr.wallet, tx, 0)
	require.Equal(t, 1, st)
	sub := tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, speedUp))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	require.Contains(t, string(sub.Body), `"state":"confirmed"`)
	require.Equal(t, strings.ToLower(speedUp), *tr.transfer(t, tv.ID).TxHash)
	requireError(t, tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, never)), 409, "invalid_state")

	second, st := tr.sendTx(t, tr.wallet, tx, 0)
	require.Equal(t, 1, st)
	requireError(t, tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, second)), 409, "invalid_state")
	twin := tr.mustCreate(t, body("7", payee, "twin"))
	ok := tr.submitTransfer(t, twin.ID, fmt.Sprintf(`{"tx_hash":%q}`, second))
	require.Equal(t, 200, ok.Status, "a refused submit holds no claim on the tx: %s", ok.Body)
	require.Contains(t, string(ok.Body), `"state":"confirmed"`)
	require.Equal(t, big.NewInt(14_000_000), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], payee))
}

// failedOnChain: a transfer submitted before its tx is mined, whose tx
// then reverts on chain (the wallet holds less than the amount), is
// finished by the watcher as failed, with a decoded reason and exactly one
// transfer.failed event holding the transfer as its GET shows it.
func failedOnChain(t *testing.T, tr *fxTrader, body func(string, common.Address, string) string) {
	t.Helper()
	tv := tr.mustCreate(t, body("100000", newEthKey(t).Address, "too much"))
	var signed struct {
		TxHash string `json:"tx_hash"`
		Raw    string `json:"raw"`
	}
	runNode(t, "pay.mjs", map[string]any{"op": "sign_tx", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex,
		"tx": signingTx(t, tv.Signing)}, &signed)
	sub := tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, signed.TxHash))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	require.Contains(t, string(sub.Body), `"state":"submitted"`)
	var mined struct {
		Status int `json:"status"`
	}
	runNode(t, "pay.mjs", map[string]any{"op": "send_raw", "rpc": tr.rpc, "chain_id": tr.chainID, "raw": signed.Raw}, &mined)
	require.Equal(t, 0, mined.Status, "a transfer of more than the wallet holds reverts")
	failed := tr.awaitTransfer(t, tv.ID, "failed", 30*time.Second)
	require.NotNil(t, failed.FailureReason)
	// The token's own error, decoded (the call simulated again: the wallet
	// still holds less), never raw hex.
	held := ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], tr.wallet.Address)
	require.Equal(t, fmt.Sprintf("transaction %s reverted: InsufficientBalance(%s, %s, 100000000000)",
		common.HexToHash(signed.TxHash).Hex(), tr.wallet.Address.Hex(), held), *failed.FailureReason)

	hooks := tr.srv.client(t, tr.srv.createKey(t, tr.key.Account, "webhooks"))
	events := awaitState(t, tr.srv, "the transfer.failed events", "1", 10*time.Second,
		func() []json.RawMessage { return eventsPage(t, hooks, "?type=transfer.failed").Data },
		func(d []json.RawMessage) string { return strconv.Itoa(len(d)) })
	var ev struct {
		Type string `json:"type"`
		Data struct {
			Object json.RawMessage `json:"object"`
		} `json:"data"`
	}
	require.NoError(t, json.Unmarshal(events[0], &ev))
	require.Equal(t, "transfer.failed", ev.Type)
	require.JSONEq(t, string(call(t, tr.c, "GET", basePath+"/transfers/"+tv.ID, "", nil).Body), string(ev.Data.Object))
}

func (tr *fxTrader) mustCreate(t *testing.T, body string) transferView {
	t.Helper()
	resp, v := tr.createTransfer(t, body, nil)
	require.Equal(t, 201, resp.Status, "%s", resp.Body)
	return v
}

// TestTransferRefusals: exactly one payee, contacts resolve, a contact
// pinned to another currency is refused, an account not permitted to pay
// is 403 with SPEC.md's message.
func TestTransferRefusals(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	tr := newTrader(t, srv, "payer", nil)
	payee := newEthKey(t).Address
	ct := call(t, tr.c, "POST", basePath+"/contacts", fmt.Sprintf(`{"name":"Supplier","address":%q,"currency":"EURC"}`, payee.Hex()), nil)
	require.Equal(t, 201, ct.Status, "%s", ct.Body)
	var contact struct{ ID string }
	require.NoError(t, json.Unmarshal(ct.Body, &contact))

	resp, v := tr.createTransfer(t, fmt.Sprintf(`{"from_currency":"EURC","currency":"EURC","amount":"5","contact_id":%q}`, contact.ID), nil)
	require.Equal(t, 201, resp.Status, "%s", resp.Body)
	require.Equal(t, payee.Hex(), v.Recipient, "the contact's address")
	require.Equal(t, contact.ID, *v.ContactID)
	for body, code := range map[string]string{
		`{"from_currency":"EURC","currency":"EURC","amount":"5"}`:                                                                      "invalid_request",
		fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":"5","contact_id":%q}`, contact.ID):                             "invalid_request",
		fmt.Sprintf(`{"from_currency":"EURC","currency":"EURC","amount":"5","contact_id":%q,"recipient":%q}`, contact.ID, payee.Hex()): "invalid_request",
		fmt.Sprintf(`{"from_currency":"BTC","currency":"EURC","amount":"5","recipient":%q}`, payee.Hex()):                              "unsupported_asset",
		fmt.Sprintf(`{"currency":"EURC","amount":"5","recipient":%q}`, payee.Hex()):                                                    "invalid_request",
		fmt.Sprintf(`{"from_currency":"EURC","currency":"EURC","amount":"-5","recipient":%q}`, payee.Hex()):                            "invalid_request",
		fmt.Sprintf(`{"from_currency":"EURC","currency":"EURC","amount":"5","recipient":%q,"x":1}`, payee.Hex()):                       "invalid_request",
	} {
		r, _ := tr.createTransfer(t, body, nil)
		requireError(t, r, 400, code)
	}
	r, _ := tr.createTransfer(t, `{"from_currency":"EURC","currency":"EURC","amount":"5","contact_id":"ct_nope"}`, nil)
	requireError(t, r, 404, "not_found")
	requireError(t, call(t, tr.c, "GET", basePath+"/transfers/tr_nope", "", nil), 404, "not_found")

	blocked := newTrader(t, srv, "no pay", nil, "--pay=false")
	r, _ = blocked.createTransfer(t, fmt.Sprintf(`{"from_currency":"EURC","currency":"EURC","amount":"5","recipient":%q}`, payee.Hex()), nil)
	requireError(t, r, 403, "not_permitted")
	require.Equal(t, "Source wallet is not permitted for pay", errorMessage(t, r.Body))
	// Another account's transfer is not found.
	requireError(t, call(t, blocked.c, "GET", basePath+"/transfers/"+v.ID, "", nil), 404, "not_found")
}

// TestCrossCurrencyTransfer: accept prices the swap, ethers signs the
// Permit2 witness with recipient = the payee, the service relays it, and
// the payee holds at least min_amount_out (exactly amount_out).
func TestCrossCurrencyTransfer(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	tr := newTrader(t, srv, "fx payer", map[string]string{"USDC": "500"})
	payee := newEthKey(t).Address
	v := tr.mustCreate(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"EURC","amount":"100","recipient":%q,"memo":"invoice 7"}`, payee.Hex()))
	require.Equal(t, "created", v.State)
	require.Nil(t, v.AmountOut)
	require.Equal(t, "null", string(v.Signing))
	requireError(t, tr.submitTransfer(t, v.ID, `{"signature":"0x00"}`), 409, "invalid_state")
	// The ledger agrees: amount_out null in the list, an empty cell in the export.
	entries := call(t, tr.c, "GET", basePath+"/transactions?type=transfer", "", nil)
	require.Equal(t, 200, entries.Status, "%s", entries.Body)
	var listed struct {
		Data []map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(entries.Body, &listed))
	require.Len(t, listed.Data, 1)
	require.Contains(t, listed.Data[0], "amount_out")
	require.Nil(t, listed.Data[0]["amount_out"], "not known before accept")
	export := call(t, tr.c, "GET", basePath+"/transactions/export?type=transfer", "", nil)
	require.Equal(t, 200, export.Status)
	cells, err := csv.NewReader(strings.NewReader(string(export.Body))).ReadAll()
	require.NoError(t, err)
	require.Len(t, cells, 2)
	require.Equal(t, []string{v.ID, "", "100"}, []string{cells[1][0], cells[1][6], cells[1][5]})

	acc := call(t, tr.c, "POST", basePath+"/transfers/"+v.ID+"/accept", "", nil)
	require.Equal(t, 200, acc.Status, "%s", acc.Body)
	var av transferView
	decodeStrictJSON(t, acc.Body, &av)
	require.Equal(t, "accepted", av.State)
	require.NotNil(t, av.Issues)
	require.Nil(t, av.Issues.Allowance, "the trader approved Permit2")
	require.Nil(t, av.Issues.Balance)
	var s struct {
		Type  string `json:"type"`
		Order struct {
			Recipient string `json:"recipient"`
			Signer    string `json:"signer"`
		} `json:"order"`
	}
	require.NoError(t, json.Unmarshal(av.Signing, &s))
	require.Equal(t, "permit2_witness", s.Type)
	require.Equal(t, payee.Hex(), s.Order.Recipient, "the swap pays the payee")
	reacc := call(t, tr.c, "POST", basePath+"/transfers/"+v.ID+"/accept", "{}", nil)
	require.Equal(t, 200, reacc.Status)
	require.Equal(t, acc.Body, reacc.Body, "a re-accept answers the same transfer")

	// Not a signature by its form: invalid_request, the transfer unchanged.
	for _, bad := range []string{"hello", "0x00", "0x" + strings.Repeat("zz", 65)} {
		requireError(t, tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"signature":%q}`, bad)), 400, "invalid_request")
	}
	// Signed with ethers and sent in its EIP-2098 compact form (64 bytes),
	// which Permit2 accepts on chain as well.
	forms := tr.signTypedForms(t, av.Signing)
	require.Equal(t, tr.wallet.Address.Hex(), forms.Signer)
	require.Len(t, forms.Compact, 2+128)
	sig := forms.Signature
	sub := tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"signature":%q}`, forms.Compact))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	done := tr.awaitTransfer(t, v.ID, "confirmed", 60*time.Second)
	require.NotNil(t, done.TxHash)
	got := ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["EURC"], payee)
	require.Equal(t, baseUnits(t, *done.AmountOut), got, "the payee holds amount_out")
	require.GreaterOrEqual(t, got.Cmp(baseUnits(t, *done.MinAmountOut)), 0)
	requireError(t, tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"signature":%q}`, sig)), 409, "invalid_state")
}

// TestCrossCurrencyPreflight: a wallet that never approved Permit2 learns
// it at accept (issues.allowance) and at submit (400
// insufficient_allowance, nothing relayed, still accepted); it approves,
// submits the same signature again and the transfer is confirmed. An
// accepted transfer nobody submits expires at the leg's deadline
// (--order-deadline), fires no event, and accepting it again answers it
// as it is (expired).
func TestCrossCurrencyPreflight(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir(), "--order-deadline", "10s")
	tr := newTrader(t, srv, "unapproved payer", nil)
	srv.faucet(t, tr.wallet.Address, "USDC", "50") // funded, never approved
	payee := newEthKey(t).Address
	v := tr.mustCreate(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"EURC","amount":"20","recipient":%q}`, payee.Hex()))
	acc := call(t, tr.c, "POST", basePath+"/transfers/"+v.ID+"/accept", "{}", nil)
	require.Equal(t, 200, acc.Status, "%s", acc.Body)
	var av transferView
	decodeStrictJSON(t, acc.Body, &av)
	require.NotNil(t, av.Issues.Allowance)
	require.Equal(t, tr.tokens["USDC"].Hex(), av.Issues.Allowance.Token)
	require.Equal(t, canonicalPermit2.Hex(), av.Issues.Allowance.Spender)
	require.Equal(t, "0", av.Issues.Allowance.Actual)
	require.Equal(t, "20", av.Issues.Allowance.Required)
	require.Nil(t, av.Issues.Balance)

	sig := tr.signTyped(t, av.Signing)
	refused := tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"signature":%q}`, sig))
	requireError(t, refused, 400, "insufficient_allowance")
	require.Equal(t, "accepted", tr.transfer(t, v.ID).State)
	tr.approvePermit2(t, "USDC")
	ok := tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"signature":%q}`, sig))
	require.Equal(t, 200, ok.Status, "%s", ok.Body)
	done := tr.awaitTransfer(t, v.ID, "confirmed", 60*time.Second)
	require.Equal(t, baseUnits(t, *done.AmountOut), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["EURC"], payee))

	late := tr.mustCreate(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"EURC","amount":"1","recipient":%q}`, payee.Hex()))
	require.Equal(t, 200, call(t, tr.c, "POST", basePath+"/transfers/"+late.ID+"/accept", "", nil).Status)
	exp := tr.awaitTransfer(t, late.ID, "expired", 40*time.Second)
	require.NotNil(t, exp.FailureReason)
	requireError(t, tr.submitTransfer(t, late.ID, fmt.Sprintf(`{"signature":%q}`, sig)), 409, "invalid_state")
	again := call(t, tr.c, "POST", basePath+"/transfers/"+late.ID+"/accept", "", nil)
	require.Equal(t, 200, again.Status, "accept is idempotent: an accepted transfer answers as it is, expired too: %s", again.Body)
	decodeStrictJSON(t, again.Body, &av)
	require.Equal(t, "expired", av.State)
	require.Nil(t, av.Issues.Allowance)
	require.Nil(t, av.Issues.Balance)
}
