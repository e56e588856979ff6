package webhook

import (
	"net/http"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors/actorstest"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/natsnode/natstest"
)

// openClusterNode opens an engine as a cluster node does (two parts on
// one-replica streams named after stream, owning nothing until Own) with a
// desk on it, in a harness of its own.
func openClusterNode(t *testing.T, js jetstream.JetStream, stream string, cfg Config) *harness {
	t.Helper()
	_, pool := receiverCert(t)
	cfg.Policy.AllowLoopback, cfg.RootCAs, cfg.Logger, cfg.Sealer = true, pool, quietLogger(), testSealer(t)
	h := &harness{t: t, dir: t.TempDir(), cfg: cfg}
	h.openOn(actorstest.OnStreams(h.dir, js, stream, 2, quietLogger()))
	return h
}

// TestHandoverMovesDeliveries: two nodes' engines on the same streams,
// each with its desk. Deliveries failing at A's receiver are pending (one
// held in memory, one spilled to the store) when A gives the partition
// up; B takes it up, and B's desk, which started owning nothing, resumes
// both (same event ids) and fans a new event out to the endpoint it
// indexed at the take-up. A lets go of everything of the partition, its
// spilled sender included, and delivers nothing more.
func TestHandoverMovesDeliveries(t *testing.T) {
	ns, err := natstest.StartJetStream(t.TempDir(), "webhook-handover")
	require.NoError(t, err)
	t.Cleanup(ns.Close)
	js := ns.JS

	rc := newReceiver(t, http.StatusInternalServerError)
	// A backlog of one: the second pending delivery spills to the store,
	// on A and then on B.
	cfg := Config{Schedule: shortSchedule(9), Backlog: 1}
	a := openClusterNode(t, js, "wh_handover", cfg)
	require.NoError(t, a.e.Own(0))
	require.NoError(t, a.e.Own(1))
	acct := a.newAccount("handover")
	part := a.e.PartOf(acct)
	ep := a.createEndpoint(acct, rc.URL())
	dlv := a.sendTest(acct, ep.ID)
	spilled := a.sendTest(acct, ep.ID)
	rc.waitHits(t, 1) // A tries, and fails
	evt := eventOfDelivery(t, a, ep.ID, dlv)

	b := openClusterNode(t, js, "wh_handover", cfg)
	require.Zero(t, b.d.Stats().Endpoints, "B owns nothing: it indexes no endpoint")
	a.e.Disown(part)
	// An outcome A was writing as it let go waits out its write's
	// deadline (writeTimeout) before its job ends.
	require.Eventually(t, func() bool { st := a.d.Stats(); return st.Tracked == 0 && st.Senders == 0 && st.Endpoints == 0 },
		writeTimeout+waitFor, pollTick, "A lets go of the partition's endpoint, delivery and sender: %+v", a.d.Stats())
	tries := len(rc.hitsFor(evt))

	rc.status.Store(http.StatusOK)
	require.NoError(t, b.e.Own(part))
	got := b.waitDelivery(ep.ID, dlv, "delivered by B", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	require.Greater(t, len(got.Attempts), 1, "B resumed the delivery A had tried")
	require.Equal(t, evt, eventOfDelivery(t, b, ep.ID, dlv))
	b.waitDelivery(ep.ID, spilled, "the spilled one delivered by B", func(d *domain.Delivery) bool { return d.State == domain.DeliveryDelivered })
	hits := rc.hitsFor(evt)
	require.Greater(t, len(hits), tries, "B's attempt reached the receiver")
	require.NoError(t, verify(ep.Secret, hits[len(hits)-1]), "signed with the endpoint's secret, opened by B")

	// An event born at B after the take-up fans out to the endpoint B
	// indexed then.
	fired := b.fireTransfer(acct, 1)
	w := b.waitFannedOut(fired)
	require.Len(t, w.Deliveries, 1)
	require.Equal(t, ep.ID, w.Deliveries[0].Endpoint)
	require.Eventually(t, func() bool { return len(rc.hitsFor(fired)) == 1 }, waitFor, pollTick)
	require.Empty(t, a.d.Stats().Tracked, "A drives nothing of the partition")
}

// eventOfDelivery is the event id of delivery dlv of endpoint ep.
func eventOfDelivery(t *testing.T, h *harness, ep, dlv string) string {
	t.Helper()
	w, _ := h.delivery(ep, dlv)
	return w.ID
}
