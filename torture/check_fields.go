package torture

import (
	"encoding/json"
	"strings"

	"github.com/fxd-labs/fxd/client"
)

// checkWalletFields compares the wallets of account a as listed (items,
// read while no wallet write was in flight) with the last acknowledged
// labels and primary mark. A wallet whose label write, or the account's
// primary move, never got an answer is left to the end.
func (h *harness) checkWalletFields(a *account, items []json.RawMessage, mine func(*tracked) bool) {
	byID := map[string]*walletRec{}
	for _, r := range h.reg.snapshot().wallets {
		if mine(&r.tracked) {
			byID[strings.ToLower(r.id)] = r
		}
	}
	a.mu.Lock()
	primary, primaryKnown := a.primary, a.primary != nil && !a.primaryUnsure
	a.mu.Unlock()
	primaries := 0
	for _, it := range items {
		var got client.Wallet
		if err := json.Unmarshal(it, &got); err != nil {
			h.fail("GET /wallets: an item %.200s: %v", it, err)
			continue
		}
		if got.Primary {
			primaries++
		}
		r := byID[strings.ToLower(got.Address)]
		if r == nil {
			continue // comparePresence judges wallets the history does not know
		}
		label, sure := "", false
		r.locked(func() { label, sure = r.label, !r.labelUnsure && !r.deleting })
		if sure && labelOf(got.Label) != label {
			h.fail("wallet %s is listed with label %q, last acknowledged %q", r.id, labelOf(got.Label), label)
		}
		if primaryKnown && got.Primary != (r == primary) {
			h.fail("wallet %s is listed with primary %v, but the last acknowledged primary is %s", r.id, got.Primary, primary.id)
		}
		h.countCheck(func(c *checkStats) { c.WalletFields++ })
	}
	if len(items) > 0 && primaries != 1 {
		h.fail("account %s lists %d wallets and %d primaries (an account with wallets has exactly one)", a.id, len(items), primaries)
	}
}

// checkEndpointFields compares the endpoints as listed (items, read while
// no endpoint write was in flight) with the last acknowledged description
// and events filter. An endpoint with a write never answered, or a delete
// sent, is left to the end.
func (h *harness) checkEndpointFields(items []json.RawMessage, mine func(*tracked) bool) {
	byID := map[string]*endpointRec{}
	for _, e := range h.reg.snapshot().endpoints {
		if mine(&e.tracked) {
			var id string
			e.locked(func() { id = e.id })
			if id != "" {
				byID[id] = e
			}
		}
	}
	for _, it := range items {
		var got client.Webhook
		if err := json.Unmarshal(it, &got); err != nil {
			h.fail("GET /webhooks: an item %.200s: %v", it, err)
			continue
		}
		e := byID[got.ID]
		if e == nil {
			continue // comparePresence judges endpoints the history does not know
		}
		unsure := false
		e.locked(func() { unsure = e.deleting || e.deleted || e.descUnsure || e.filters[len(e.filters)-1].pending })
		if unsure {
			continue
		}
		if err := e.sameFields(got); err != nil {
			h.fail("endpoint %s as listed %v", e.id, err)
		}
		h.countCheck(func(c *checkStats) { c.EndpointFields++ })
	}
}
