package webhook

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
)

// TestStatsByState: endpoints counted by state, a failing one's failures
// and its pending delivery under its state.
func TestStatsByState(t *testing.T) {
	h := newHarness(t, Config{}, false)
	failing := h.createEndpoint(h.acct, newReceiver(t, 500).URL())
	off := h.createEndpoint(h.acct, newReceiver(t, 200).URL())
	h.setState(h.acct, off.ID, domain.EndpointDisabled)
	h.sendTest(h.acct, failing.ID)

	var st map[string]StateStats
	require.Eventually(t, func() bool {
		st = h.d.StatsByState()
		return st[domain.EndpointEnabled].Failing == 1
	}, waitFor, pollTick, "the failed attempt is counted: %+v", st)
	require.Equal(t, StateStats{Endpoints: 1, Backlog: 1, Failing: 1, Failures: 1}, st[domain.EndpointEnabled],
		"one endpoint, its delivery waiting for the next attempt, one failure")
	require.Equal(t, StateStats{Endpoints: 1}, st[domain.EndpointDisabled])
	require.Equal(t, StateStats{}, st[domain.EndpointDeleted])
	require.Len(t, st, 3)
}
