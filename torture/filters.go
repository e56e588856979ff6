package torture

import (
	"slices"
	"time"
)

// filterVersion is one event filter an endpoint had or may have had: the
// create's, or a PATCH's. The service fans an event out when it runs (at
// or after the event's birth, much later across a kill) with the filter
// it holds then, so an event is owed to an endpoint only if every filter
// from its birth on takes it.
type filterVersion struct {
	events []string // nil or ["*"]: every type
	ackAt  time.Time
	// pending: never answered; the end resends it, so it may apply at any
	// moment until then. No other PATCH follows it.
	pending bool
}

// allEventTypes are CONTRACT.md's event types (SPEC.md "Events").
var allEventTypes = []string{"fx.order.settled", "fx.order.failed", "fx.order.refunded",
	"transfer.confirmed", "transfer.failed", "payment_link.paid", "webhook.test"}

// filterWants reports whether a filter takes an event type.
func filterWants(events []string, typ string) bool {
	return len(events) == 0 || slices.Contains(events, "*") || slices.Contains(events, typ)
}

// normalFilter is a filter as the service shows it: ["*"] for every
// type, else the types in the order given, each once.
func normalFilter(events []string) []string {
	if len(events) == 0 || slices.Contains(events, "*") {
		return []string{"*"}
	}
	out := make([]string, 0, len(events))
	for _, t := range events {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// owedFilter reports whether every filter the endpoint may hold from an
// event's birth (less the fan-out margin) on takes typ: the last one
// acknowledged before then, every later one, and a pending one.
func owedFilter(filters []filterVersion, typ string, born time.Time) bool {
	start := 0
	for i, f := range filters {
		if !f.pending && f.ackAt.Add(fanOutMargin).Before(born) {
			start = i
		}
	}
	for _, f := range filters[start:] {
		if !filterWants(f.events, typ) {
			return false
		}
	}
	return true
}

// anyFilterWants reports whether some filter the endpoint ever had (or
// may have had) takes typ: one no filter took must never reach it.
func anyFilterWants(filters []filterVersion, typ string) bool {
	for _, f := range filters {
		if filterWants(f.events, typ) {
			return true
		}
	}
	return false
}
