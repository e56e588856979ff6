package e2e

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/ids"
)

// requireWebhooksAcrossFailover: webhooks on a cluster, every request
// entering through a node that does not own the account. An endpoint is
// registered through one node and its test event sent through another: the
// owner delivers it, signed. Then events sent while their receiver is
// down are pending when the owner is killed with SIGKILL; the receiver
// comes back, and the new owner delivers each with its event id and the
// body GET /events/{id} returns. The killed node restarts and gets its
// share of the partitions back.
func (c *testCluster) requireWebhooksAcrossFailover(t *testing.T) {
	n0 := c.nodes[0]
	acct := n0.proc.createAccount(t, "cluster webhooks")
	key := n0.proc.createKey(t, acct, "read,webhooks")
	p, _ := ids.Partition(acct)
	others := c.notOwning(t, p)
	via := func(n *clusterNode) *client.Client { return n.proc.client(t, key) }

	rcv := startReceiver(t, c.hooks, 0)
	up := createHook(t, via(others[0]), map[string]any{"url": rcv.url("/ok/cluster")})
	rcv.addSecret(t, up.Secret)
	dlv := sendTest(t, via(others[1]), up.ID)
	q := rcv.await(t, "a test event sent through the cluster", hookDeadline, onPath("/ok/cluster"))
	ev := requireSigned(t, q, up.Secret)
	require.Equal(t, "webhook.test", ev.Type)
	sameBytes(t, q.Body, getEvent(t, via(others[0]), ev.ID), "a test event on a cluster")
	require.Equal(t, ev.ID, eventOfDelivery(t, others[1].proc, via(others[1]), up.ID, dlv))

	// A receiver that is down: a port it listened on, free again.
	probe := startReceiver(t, c.hooks, 0)
	port := probe.Port
	probe.Kill()
	const path = "/ok/failover"
	down := createHook(t, via(others[1]), map[string]any{"url": fmt.Sprintf("https://127.0.0.1:%d%s", port, path)})
	var events []string
	for range 2 {
		d := sendTest(t, via(others[0]), down.ID)
		events = append(events, eventOfDelivery(t, others[0].proc, via(others[0]), down.ID, d))
	}
	victim := c.failOver(t, key, "webhook owner")
	back := startReceiver(t, c.hooks, port)
	back.addSecret(t, down.Secret)
	reader := via(c.anyLive())
	for _, id := range events {
		q := back.await(t, "event "+id+" from the new owner", hookDeadline, eventOn(path, id))
		requireSigned(t, q, down.Secret)
		sameBytes(t, q.Body, getEvent(t, reader, id), "event "+id+" after its owner was killed")
	}
	require.Equal(t, "enabled", getHook(t, reader, down.ID).State)
	c.spawn(t, victim)
	victim.await(t)
	c.awaitBalanced(t) // the test goes on placing accounts on every node
}
