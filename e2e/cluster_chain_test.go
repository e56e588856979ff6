package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/ids"
)

// requireChainFlowsAcrossNodes: the chain side on a cluster (every node on
// anvil), every request entering through a node that does not own the
// account. An AMM trade (quote, accept, sign, submit; the leg relayed by
// the cluster's one relayer, wherever it runs), an RFQ trade (the firm
// quote, its signature and the settlement by a maker on the node running
// the chain duty; the escrow funded by the taker), a same-currency transfer,
// and a payment link paid by a stranger and forwarded to its payout
// wallet, each delivering its webhook event, signed, with the record as
// its GET returns it. Then an AMM order is in flight (submitted, not yet
// relayed or mined) when the account's owner is killed with SIGKILL: the
// new owner finishes it. The killed node restarts and rejoins.
func (c *testCluster) requireChainFlowsAcrossNodes(t *testing.T) {
	n0 := c.nodes[0]
	tr := newTraderOn(t, n0.proc, c.permit2, "cluster trader", map[string]string{"USDC": "100"})
	p, _ := ids.Partition(tr.key.Account)
	others := c.notOwning(t, p)
	tr.c = others[0].proc.client(t, tr.key)
	hkey := n0.proc.createKey(t, tr.key.Account, "webhooks")
	hc := others[1].proc.client(t, hkey)
	rcv := startReceiver(t, c.hooks, 0)
	const path = "/ok/chain"
	ep := createHook(t, hc, map[string]any{"url": rcv.url(path)})
	rcv.addSecret(t, ep.Secret)

	o := settleAMMOrder(t, tr)
	ro := settleRFQOrder(t, tr)
	tv := confirmTransfer(t, tr)
	lv := payLink(t, tr)
	// 100 USDC, 10 swapped on the AMM, 20 with a maker, 5 sent, the link's
	// 15 forwarded to it.
	tr.awaitBalance(t, tr.tokens["USDC"], tr.wallet.Address, units(80), time.Minute)
	for _, want := range []struct{ typ, id, target string }{
		{"fx.order.settled", o.OrderID, basePath + "/fx/orders/" + o.OrderID},
		{"fx.order.settled", ro.OrderID, basePath + "/fx/orders/" + ro.OrderID},
		{"transfer.confirmed", tv.ID, basePath + "/transfers/" + tv.ID},
		{"payment_link.paid", lv.ID, basePath + "/payment-links/" + lv.ID},
	} {
		q := rcv.await(t, want.typ+" of "+want.id+" from the cluster", hookDeadline, func(q hookRequest) bool {
			return q.Path == path && strings.Contains(q.Body, `"type":"`+want.typ+`"`) && strings.Contains(q.Body, `"`+want.id+`"`)
		})
		ev := requireSigned(t, q, ep.Secret)
		require.Equal(t, want.typ, ev.Type)
		requireObjectIsGET(t, tr.c, ev, want.target)
	}

	// One node runs the relayer, and every node says which.
	relayer := c.fullStatus(t, n0).Relayer
	require.True(t, slices.ContainsFunc(c.members(), func(n *clusterNode) bool { return n.name == relayer }), "relayer %q", relayer)
	for _, n := range others {
		require.Equal(t, relayer, c.fullStatus(t, n).Relayer)
	}

	// An order in flight through the owner's death.
	q := tr.quote(t, "USDC", "EURC", "5")
	resp, ord := tr.accept(t, q.pick(t, "amm").ID, "")
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	sub := tr.submit(t, ord.OrderID, fmt.Sprintf(`{"signature":%q}`, tr.signTyped(t, ord.Signing)))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	victim := c.failOver(t, tr.key, "owner of an order in flight")
	tr.c = c.anyLive().proc.client(t, tr.key)
	settled := tr.await(t, ord.OrderID, "settled", 2*time.Minute)
	require.Equal(t, ord.OrderID, settled.OrderID)
	tr.awaitBalance(t, tr.tokens["USDC"], tr.wallet.Address, units(75), time.Minute)
	c.spawn(t, victim)
	victim.await(t)
	c.awaitBalanced(t)
}

// settleRFQOrder swaps 20 USDC for EURC with a maker (quote, accept, fund
// the escrow, submit its tx) and returns the order settled.
func settleRFQOrder(t *testing.T, tr *fxTrader) orderView {
	t.Helper()
	q := tr.quote(t, "USDC", "EURC", "20")
	rq := q.pick(t, "rfq")
	resp, o := tr.accept(t, rq.ID, "")
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	tx := tr.fundRFQ(t, o.Signing, true)
	sub := tr.submit(t, o.OrderID, fmt.Sprintf(`{"tx_hash":%q}`, tx))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	done := tr.await(t, o.OrderID, "settled", 90*time.Second)
	require.Equal(t, rq.AmountOut, done.AmountOut, "the firm amount")
	return done
}

// notOwning is the serving nodes that do not own partition p (two of
// three).
func (c *testCluster) notOwning(t *testing.T, p int) []*clusterNode {
	var out []*clusterNode
	for _, n := range c.members() {
		if n.live() != nil && !n.owned()[p] {
			out = append(out, n)
		}
	}
	require.Len(t, out, 2, "partition %d has one owner", p)
	return out
}
