package e2e

import (
	"fmt"
	"math/big"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestFXRefundedAndExpired runs a service whose makers never settle, with
// short windows, and reaches the other end states on purpose: an rfq order
// funded and not settled is refunded (the wallet gets exactly its input
// back); accepted orders of both routes that are never funded expire; a
// quote accepted after its 30 s is quote_expired.
func TestFXRefundedAndExpired(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir(), "--maker-fault", "skip-settle", "--rfq-settle-timeout", "4s", "--order-deadline", "12s")
	tr := newTrader(t, srv, "fx faults", map[string]string{"USDC": "1000"})

	late := tr.quote(t, "USDC", "EURC", "5") // accepted only after it expired

	// rfq: funded, the maker skips settlement, the escrow is refunded.
	q := tr.quote(t, "USDC", "EURC", "100")
	usdc0, eurc0 := tr.balance(t, "USDC"), tr.balance(t, "EURC")
	resp, refund := tr.accept(t, q.pick(t, "rfq").ID, "")
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	tx := tr.fundRFQ(t, refund.Signing, true)
	require.Equal(t, 200, tr.submit(t, refund.OrderID, fmt.Sprintf(`{"tx_hash":%q}`, tx)).Status)
	require.Equal(t, new(big.Int).Sub(usdc0, units(100)), tr.balance(t, "USDC"), "100 USDC in escrow")

	// Accepted and never funded or signed: both routes expire.
	q = tr.quote(t, "USDC", "EURC", "7")
	resp, ammIdle := tr.accept(t, q.pick(t, "amm").ID, "")
	require.Equal(t, 200, resp.Status)
	resp, rfqIdle := tr.accept(t, q.pick(t, "rfq").ID, "")
	require.Equal(t, 200, resp.Status)

	m := srv.metrics(t)
	require.Equal(t, "3", m["fxd_fx_live_orders"], "the refund order and the two idle ones are driven")
	require.NotEmpty(t, m["fxd_fx_book_quotes"])
	done := tr.await(t, refund.OrderID, "refunded", 60*time.Second)
	require.NotNil(t, done.FailureReason)
	require.Equal(t, usdc0, tr.balance(t, "USDC"), "the refund returned exactly the input")
	require.Equal(t, eurc0, tr.balance(t, "EURC"))

	for _, id := range []string{ammIdle.OrderID, rfqIdle.OrderID} {
		o := tr.await(t, id, "expired", 60*time.Second)
		require.NotNil(t, o.FailureReason)
	}
	// A late signature on an expired order changes nothing.
	sig := tr.signTyped(t, ammIdle.Signing)
	requireError(t, tr.submit(t, ammIdle.OrderID, fmt.Sprintf(`{"signature":%q}`, sig)), 409, "invalid_state")

	m = srv.metrics(t)
	require.Equal(t, "0", m["fxd_fx_live_orders"], "every order ended")
	batches, err := strconv.ParseUint(m["fxd_wal_fsync_batches_total"], 10, 64)
	require.NoError(t, err)
	last, err := strconv.ParseUint(m["fxd_wal_last_index"], 10, 64)
	require.NoError(t, err)
	require.True(t, batches > 0 && batches <= last, "each fsync made at least one record durable: %d batches, last index %d", batches, last)
	if d := time.Until(parseTime(t, late.Quotes[0].ExpiresAt).Add(time.Second)); d > 0 {
		time.Sleep(d)
	}
	resp, _ = tr.accept(t, late.BestQuoteID, "")
	requireError(t, resp, 409, "quote_expired")
	// Under an Idempotency-Key the refusal is stored like any answer.
	target := basePath + "/fx/quotes/" + late.Quotes[len(late.Quotes)-1].ID + "/accept"
	first := call(t, tr.c, "POST", target, "", map[string]string{"Idempotency-Key": "late-accept"})
	requireError(t, first, 409, "quote_expired")
	require.Empty(t, first.Header.Get("Idempotency-Replayed"))
	again := call(t, tr.c, "POST", target, "", map[string]string{"Idempotency-Key": "late-accept"})
	require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
	require.Equal(t, first.Status, again.Status)
	require.Equal(t, string(first.Body), string(again.Body))
}

// TestFXOrdersCompleteAcrossKill9 kills the service between accept and
// settlement on each rail; after the restart the orders complete from the
// log and the chain.
func TestFXOrdersCompleteAcrossKill9(t *testing.T) {
	t.Parallel()
	jsDir(t)
	dir := t.TempDir()
	srv := startServer(t, dir)
	tr := newTrader(t, srv, "fx restarts", map[string]string{"USDC": "1000"})
	usdc0, eurc0 := tr.balance(t, "USDC"), tr.balance(t, "EURC")

	// amm: signed and submitted (the relay on its way); rfq: accepted and
	// funded on chain by the wallet, not submitted; then kill -9.
	q := tr.quote(t, "USDC", "EURC", "50")
	resp, amm := tr.accept(t, q.pick(t, "amm").ID, "")
	require.Equal(t, 200, resp.Status)
	sig := tr.signTyped(t, amm.Signing)
	q = tr.quote(t, "USDC", "EURC", "60")
	resp, rfq := tr.accept(t, q.pick(t, "rfq").ID, "")
	require.Equal(t, 200, resp.Status)
	tr.fundRFQ(t, rfq.Signing, true) // never submitted: the chain says it is funded
	require.Equal(t, 200, tr.submit(t, amm.OrderID, fmt.Sprintf(`{"signature":%q}`, sig)).Status)
	srv.Kill()

	srv2 := startServer(t, dir)
	tr.srv, tr.c, tr.rpc = srv2, srv2.client(t, tr.key), srv2.chainRPC(t)
	ammDone := tr.await(t, amm.OrderID, "settled", 90*time.Second)
	rfqDone := tr.await(t, rfq.OrderID, "settled", 90*time.Second)
	require.Equal(t, new(big.Int).Sub(usdc0, units(110)), tr.balance(t, "USDC"))
	got := new(big.Int).Add(baseUnits(t, ammDone.AmountOut), baseUnits(t, rfqDone.AmountOut))
	require.Equal(t, new(big.Int).Add(eurc0, got), tr.balance(t, "EURC"))

	// Both orders again after one more kill -9: the log has them exactly.
	srv2.Kill()
	srv3 := startServer(t, dir)
	tr.srv, tr.c, tr.rpc = srv3, srv3.client(t, tr.key), srv3.chainRPC(t)
	require.Equal(t, ammDone, tr.order(t, amm.OrderID))
	require.Equal(t, rfqDone, tr.order(t, rfq.OrderID))
}

func parseTime(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return v
}
