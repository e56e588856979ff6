package e2e

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/pay"
)

// TestPaymentsSurviveKill9: kill -9 with a transfer submitted but not
// mined, and with a link paid (state paid) whose money is not yet
// forwarded. After the
// restart both finish; the payee and the payout wallet hold exactly the
// amounts (nothing forwarded twice: one Forwarded log), and each record's
// webhook event was fired once, with one id, whatever the restarts.
func TestPaymentsSurviveKill9(t *testing.T) {
	t.Parallel()
	jsDir(t)
	dir := t.TempDir()
	// The first life sends no forward (the faultinject build's hold), so
	// the kill finds the link paid and its money at its address.
	srv := startFaultServer(t, dir, pay.ForwardHoldFault+"=on")
	tr := newTrader(t, srv, "payer", map[string]string{"USDC": "100"})
	merchant := newTrader(t, srv, "merchant", nil)
	payee := newEthKey(t).Address

	// A transfer whose tx is signed, submitted, and not yet broadcast.
	v := tr.mustCreate(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":"12.5","recipient":%q}`, payee.Hex()))
	var signed struct {
		TxHash string `json:"tx_hash"`
		Raw    string `json:"raw"`
	}
	runNode(t, "pay.mjs", map[string]any{"op": "sign_tx", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex, "tx": signingTx(t, v.Signing)}, &signed)
	sub := tr.submitTransfer(t, v.ID, fmt.Sprintf(`{"tx_hash":%q}`, signed.TxHash))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	require.Contains(t, string(sub.Body), `"state":"submitted"`)

	// A link paid by a stranger, seen paid by the watcher, its money not
	// forwarded: then kill -9.
	l := merchant.createLink(t, `{"currency":"USDC","amount":"20"}`)
	stranger := newEthKey(t)
	srv.faucet(t, stranger.Address, "USDC", "20")
	receive := common.HexToAddress(l.ReceiveAddress)
	erc20Transfer(t, merchant.rpc, merchant.chainID, stranger, merchant.tokens["USDC"], receive, units(20))
	merchant.awaitLink(t, l.ID, "paid", 30*time.Second)
	require.Equal(t, units(20), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], receive), "not forwarded before the kill")
	require.Zero(t, ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], merchant.wallet.Address).Sign())
	srv.Kill()

	srv2 := startServer(t, dir)
	for _, x := range []*fxTrader{tr, merchant} {
		x.srv, x.c, x.rpc = srv2, srv2.client(t, x.key), srv2.chainRPC(t)
	}
	runNode(t, "pay.mjs", map[string]any{"op": "send_raw", "rpc": tr.rpc, "chain_id": tr.chainID, "raw": signed.Raw}, &struct{}{})
	done := tr.awaitTransfer(t, v.ID, "confirmed", 60*time.Second)
	require.Equal(t, strings.ToLower(signed.TxHash), *done.TxHash)
	merchant.awaitLink(t, l.ID, "paid", 60*time.Second)
	merchant.awaitBalance(t, merchant.tokens["USDC"], merchant.wallet.Address, units(20), 60*time.Second)

	// Once more, and the records are as they were.
	srv2.Kill()
	srv3 := startServer(t, dir)
	for _, x := range []*fxTrader{tr, merchant} {
		x.srv, x.c, x.rpc = srv3, srv3.client(t, x.key), srv3.chainRPC(t)
	}
	require.Equal(t, done, tr.transfer(t, v.ID))
	require.Equal(t, big.NewInt(12_500_000), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], payee))
	require.Equal(t, units(20), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], merchant.wallet.Address))
	var logs []json.RawMessage
	rpcCall(t, tr.rpc, "eth_getLogs", []any{map[string]any{"fromBlock": "0x0", "toBlock": "latest", "address": l.ReceiveAddress}}, &logs)
	require.Len(t, logs, 1, "one Forwarded log: forwarded once")
	srv3.Stop(t)

	// The log holds one event id per record, however often a row was rewritten.
	events := map[string]map[string]bool{}
	dump := runCLI(t, "wal", "dump", "--data-dir", dir)
	require.Zero(t, dump.Code, dump.Stderr)
	for _, rec := range walDump(t, dump.Stdout).Records {
		for _, e := range rec.Events {
			if id, ok := e["event_id"].(string); ok {
				if events[rec.Entity] == nil {
					events[rec.Entity] = map[string]bool{}
				}
				events[rec.Entity][id] = true
			}
		}
	}
	require.Len(t, events[v.ID], 1, "transfer.confirmed fired once")
	require.Len(t, events[l.ID], 1, "payment_link.paid fired once")
}
