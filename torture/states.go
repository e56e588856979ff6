package torture

import (
	"fmt"
	"slices"
)

// machine is one kind's allowed transitions as CONTRACT.md states them:
// the state a record starts in, the edges, and the states nothing leaves.
// It is written here from the contract, not imported from the service's
// domain package, so the service cannot agree with itself by accident.
type machine struct {
	name     string
	initial  string
	edges    map[string][]string
	terminal []string
}

// The machines of every kind the workload writes (CONTRACT.md
// "Resources", "Webhooks").
var (
	// amm: accepted → (submit signature) awaiting_funding → (relay mined)
	// funded → settling → settled; a reverted relay → failed; accepted or
	// awaiting_funding past the deadline → expired.
	ammOrder = machine{name: "amm order", initial: "accepted", edges: map[string][]string{
		"accepted":         {"awaiting_funding", "expired"},
		"awaiting_funding": {"funded", "failed", "expired"},
		"funded":           {"settling"},
		"settling":         {"settled"},
	}, terminal: []string{"settled", "failed", "expired"}}
	// rfq: accepted → (submit tx_hash) funded, or awaiting_funding while
	// the funding is not mined; the maker settles (settling → settled) or
	// misses its window (funded → refunded); unfunded past the deadline →
	// expired.
	rfqOrder = machine{name: "rfq order", initial: "accepted", edges: map[string][]string{
		"accepted":         {"awaiting_funding", "funded", "expired"},
		"awaiting_funding": {"funded", "expired"},
		"funded":           {"settling", "refunded"},
		"settling":         {"settled"},
	}, terminal: []string{"settled", "refunded", "expired"}}
	// Same-currency transfer: created → (submit tx_hash) confirmed, or
	// submitted while the tx is not mined; created past expires_at →
	// expired.
	sameTransfer = machine{name: "same-currency transfer", initial: "created", edges: map[string][]string{
		"created":   {"submitted", "confirmed", "expired"},
		"submitted": {"confirmed", "failed"},
	}, terminal: []string{"confirmed", "failed", "expired"}}
	// Cross-currency transfer: created → (accept) accepted → (submit
	// signature, relayed) submitted → confirmed | failed; created or
	// accepted past its deadline → expired.
	crossTransfer = machine{name: "cross-currency transfer", initial: "created", edges: map[string][]string{
		"created":   {"accepted", "expired"},
		"accepted":  {"submitted", "expired"},
		"submitted": {"confirmed", "failed"},
	}, terminal: []string{"confirmed", "failed", "expired"}}
	// Payment link: open → paid | cancelled | expired.
	paymentLink = machine{name: "payment link", initial: "open", edges: map[string][]string{
		"open": {"paid", "cancelled", "expired"},
	}, terminal: []string{"paid", "cancelled", "expired"}}
	// Webhook endpoint: enabled ⇄ disabled (ten failures; PATCH
	// re-enables); either → deleted.
	webhookEndpoint = machine{name: "webhook endpoint", initial: "enabled", edges: map[string][]string{
		"enabled":  {"disabled", "deleted"},
		"disabled": {"enabled", "deleted"},
	}, terminal: []string{"deleted"}}
)

// isTerminal reports whether nothing leaves state.
func (m *machine) isTerminal(state string) bool { return slices.Contains(m.terminal, state) }

// known reports whether state is one of the machine's.
func (m *machine) known(state string) bool {
	_, ok := m.edges[state]
	return ok || m.isTerminal(state)
}

// reachable reports whether to can follow from in one or more steps.
func (m *machine) reachable(from, to string) bool {
	seen := map[string]bool{}
	next := slices.Clone(m.edges[from])
	for len(next) > 0 {
		s := next[0]
		next = next[1:]
		if s == to {
			return true
		}
		if !seen[s] {
			seen[s] = true
			next = append(next, m.edges[s]...)
		}
	}
	return false
}

// checkPath reports the first step of seq (the distinct states a record
// was seen in, oldest first) that the machine does not allow. Observers
// see a record now and then, so a step may skip states; it must still be
// a path: each state reachable from the one before, starting from the
// initial state.
func (m *machine) checkPath(seq []string) error {
	prev := m.initial
	for i, s := range seq {
		switch {
		case !m.known(s):
			return fmt.Errorf("%s: unknown state %q (seen %v)", m.name, s, seq)
		case s == prev:
		case !m.reachable(prev, s):
			return fmt.Errorf("%s: %s → %s is not a transition (step %d of %v)", m.name, prev, s, i, seq)
		}
		prev = s
	}
	return nil
}
