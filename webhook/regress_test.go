package webhook

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// Regression tests of bugs the desk had (each failed before its fix).

// TestEndpointLimitUnderConcurrency: concurrent POST /webhooks of one
// account must not pass the 16-endpoint limit. CreateEndpoint checks
// d.count(acct) and creates in two steps, and the count only grows when
// the create's hook runs, so concurrent creates all pass the check. With
// more than MaxDeliveriesPerEvent endpoints, FanOut panics in Decide
// (domain/webhook_event_decide.go) and the account's events are never
// fanned out.
func TestEndpointLimitUnderConcurrency(t *testing.T) {
	h := newHarness(t, Config{}, false)
	rc := newReceiver(t, 200)
	var wg sync.WaitGroup
	for range 3 * domain.MaxEndpointsPerAccount {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL()}, nil)
		}()
	}
	wg.Wait()
	list, err := h.d.ListEndpoints(ctxT(t), h.acct, domain.Page{Limit: 100})
	require.NoError(t, err)
	require.LessOrEqual(t, len(list.Data), domain.MaxEndpointsPerAccount)
	w := h.waitFannedOut(h.fireTransfer(h.acct, 1))
	require.Len(t, w.Deliveries, len(list.Data))
}

// TestStopTwice: Stop says it ends the loops; a second call (a deferred
// Stop after an explicit one) must not panic. sender.close closes s.stop
// unconditionally and Stop does not forget the senders it closed.
func TestStopTwice(t *testing.T) {
	h := newHarness(t, Config{Schedule: shortSchedule(3)}, false)
	rc := newReceiver(t, 200)
	c := h.createEndpoint(h.acct, rc.URL())
	h.sendTest(h.acct, c.ID)
	rc.waitHits(t, 1)
	h.stopDesk()
	require.NotPanics(t, h.d.Stop)
}

// TestUnknownTypeAfterStar: an events filter naming an unknown type is
// 400 invalid_request (CONTRACT.md) wherever "*" stands in the list.
// domain.NormalizeEventFilter returns ["*"] at the first "*" without
// checking the types after it, so ["*","bogus"] is accepted while
// ["bogus","*"] is refused.
func TestUnknownTypeAfterStar(t *testing.T) {
	h := newHarness(t, Config{}, false)
	rc := newReceiver(t, 200)
	for _, events := range [][]string{{"bogus", "*"}, {"*", "bogus"}} {
		out, err := h.d.CreateEndpoint(ctxT(t), h.acct, EndpointRequest{URL: rc.URL(), Events: &events}, nil)
		require.NoError(t, err)
		require.Equal(t, 400, out.Reply.Status, "%v: %s", events, out.Reply.Body)
	}
}
