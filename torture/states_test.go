package torture

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMachinePaths: observed state sequences that are paths of
// CONTRACT.md's transitions pass, whatever states they skip; anything
// else (a step back, a step out of a terminal state, an edge the contract
// does not have, an unknown state) is refused.
func TestMachinePaths(t *testing.T) {
	for _, tc := range []struct {
		m    *machine
		seq  []string
		want string // "" allowed, else part of the error
	}{
		{&ammOrder, []string{"accepted", "awaiting_funding", "funded", "settling", "settled"}, ""},
		{&ammOrder, []string{"accepted", "settled"}, ""},
		{&ammOrder, []string{"awaiting_funding", "failed"}, ""},
		{&ammOrder, []string{"accepted", "expired"}, ""},
		{&ammOrder, []string{"settled"}, ""},
		{&ammOrder, nil, ""},
		{&ammOrder, []string{"accepted", "refunded"}, "unknown state"}, // amm orders are never refunded
		{&ammOrder, []string{"funded", "failed"}, "not a transition"},
		{&ammOrder, []string{"settled", "settling"}, "not a transition"},
		{&ammOrder, []string{"quoted"}, "unknown state"},
		{&rfqOrder, []string{"accepted", "funded", "settling", "settled"}, ""},
		{&rfqOrder, []string{"accepted", "awaiting_funding", "funded", "refunded"}, ""},
		{&rfqOrder, []string{"accepted", "expired"}, ""},
		{&rfqOrder, []string{"awaiting_funding", "failed"}, "unknown state"}, // an rfq order never fails: it expires or is refunded
		{&rfqOrder, []string{"refunded", "settled"}, "not a transition"},
		{&rfqOrder, []string{"funded", "expired"}, "not a transition"},
		{&sameTransfer, []string{"created", "submitted", "confirmed"}, ""},
		{&sameTransfer, []string{"created", "confirmed"}, ""},
		{&sameTransfer, []string{"created", "accepted"}, "unknown state"}, // only cross-currency transfers are accepted
		{&sameTransfer, []string{"confirmed", "submitted"}, "not a transition"},
		{&crossTransfer, []string{"created", "accepted", "submitted", "confirmed"}, ""},
		{&crossTransfer, []string{"created", "failed"}, ""},
		{&crossTransfer, []string{"accepted", "expired"}, ""},
		{&crossTransfer, []string{"submitted", "expired"}, "not a transition"},
		{&crossTransfer, []string{"confirmed", "failed"}, "not a transition"},
		{&paymentLink, []string{"open", "paid"}, ""},
		{&paymentLink, []string{"cancelled"}, ""},
		{&paymentLink, []string{"paid", "open"}, "not a transition"},
		{&paymentLink, []string{"paid", "cancelled"}, "not a transition"},
		{&webhookEndpoint, []string{"enabled", "disabled", "enabled", "disabled", "deleted"}, ""},
		{&webhookEndpoint, []string{"deleted", "enabled"}, "not a transition"},
		{&webhookEndpoint, []string{"paused"}, "unknown state"},
	} {
		err := tc.m.checkPath(tc.seq)
		if tc.want == "" {
			require.NoError(t, err, "%s %v", tc.m.name, tc.seq)
			continue
		}
		require.ErrorContains(t, err, tc.want, "%s %v", tc.m.name, tc.seq)
	}
}

// TestMachinesAreWellFormed: every state an edge names is known, terminal
// states have no edges, and every state can be reached from the initial
// one (a table with a typo would make checkPath refuse valid histories or
// accept any).
func TestMachinesAreWellFormed(t *testing.T) {
	for _, m := range []*machine{&ammOrder, &rfqOrder, &sameTransfer, &crossTransfer, &paymentLink, &webhookEndpoint} {
		for from, tos := range m.edges {
			require.False(t, m.isTerminal(from), "%s: terminal %s has edges", m.name, from)
			for _, to := range tos {
				require.True(t, m.known(to), "%s: %s → unknown %s", m.name, from, to)
			}
			require.True(t, from == m.initial || m.reachable(m.initial, from), "%s: %s unreachable", m.name, from)
		}
		for _, s := range m.terminal {
			require.True(t, m.reachable(m.initial, s), "%s: terminal %s unreachable", m.name, s)
		}
	}
}
