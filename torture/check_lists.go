package torture

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/fxd-labs/fxd/client"
)

// maxListPages bounds one list walk (200 items a page).
const maxListPages = 2_000

// listAll walks a list route page by page (?limit=200&starting_after=…)
// and returns every item, raw.
func (h *harness) listAll(ctx context.Context, c *client.Client, path string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	cursor := ""
	for range maxListPages {
		q := url.Values{"limit": {"200"}}
		if cursor != "" {
			q.Set("starting_after", cursor)
		}
		resp, err := h.get(ctx, c, path+"?"+q.Encode())
		if err != nil {
			return nil, err
		}
		if resp.Status != 200 {
			return nil, unexpected("list "+path, resp)
		}
		var page struct {
			Data       []json.RawMessage `json:"data"`
			HasMore    bool              `json:"has_more"`
			NextCursor *string           `json:"next_cursor"`
		}
		if err := decode(resp, &page); err != nil {
			return nil, err
		}
		out = append(out, page.Data...)
		if !page.HasMore || page.NextCursor == nil {
			return out, nil
		}
		cursor = *page.NextCursor
	}
	return nil, fmt.Errorf("list %s: more than %d pages", path, maxListPages)
}

// listed is a list's items by the record's unique name: ids seen.
type listed map[string][]string

// listNames lists path and names each item with nameOf (name, id).
func (h *harness) listNames(ctx context.Context, c *client.Client, path string, nameOf func(json.RawMessage) (string, string, error)) (listed, error) {
	items, err := h.listAll(ctx, c, path)
	if err != nil {
		return nil, err
	}
	out := listed{}
	for _, it := range items {
		name, id, err := nameOf(it)
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", path, err)
		}
		out[name] = append(out[name], id)
	}
	return out, nil
}

// expectation is what the history says of one record when a list is
// compared with it.
type expectation struct {
	t       *tracked
	present bool // acknowledged: it must be listed, exactly once
	absent  bool // refused by its answer, or deleted: it must not be
}

// comparePresence checks a list against the history: nothing listed
// twice, nothing listed that was never sent, every acknowledged record
// there exactly once (with its id), nothing refused or deleted there.
func (h *harness) comparePresence(kind string, l listed, exp []expectation) {
	for name, ids := range l {
		if len(ids) > 1 {
			h.fail("%s %q is listed %d times: %v", kind, name, len(ids), ids)
		}
		if !h.sentName(name) {
			h.fail("%s %q (%v) is listed but was never sent", kind, name, ids)
		}
	}
	for _, e := range exp {
		ids := l[e.t.name]
		switch {
		case e.present && len(ids) == 0:
			h.fail("acknowledged %s %q (%s, answered by generation %d) is lost", kind, e.t.name, e.t.id, e.t.create.gen)
		case e.present && e.t.id != "" && !strings.EqualFold(ids[0], e.t.id):
			h.fail("acknowledged %s %q is %s, listed as %s", kind, e.t.name, e.t.id, ids[0])
		case e.absent && len(ids) > 0:
			h.fail("%s %q should not exist (refused or deleted) but is listed as %v", kind, e.t.name, ids)
		}
		if e.present {
			h.countCheck(func(c *checkStats) { c.AckedChecked++ })
		}
	}
}

// expectCreate is the expectation of a record from its create's outcome.
func expectCreate(t *tracked) expectation {
	switch t.create.outcome {
	case outAcked:
		return expectation{t: t, present: true}
	case outAnswered:
		return expectation{t: t, absent: true}
	}
	return expectation{t: t}
}

// checkLists compares every list of account a with the history. Mid-run
// (final false) deletes in flight make a contact either; at the end
// every request is resolved and the contacts' fields are compared too.
func (h *harness) checkLists(ctx context.Context, a *account, final bool) error {
	c := a.checker
	snap := h.reg.snapshot()
	mine := func(t *tracked) bool { return t.worker.acct == a && t.create != nil }
	var exp []expectation
	for _, ct := range snap.contacts {
		if !mine(&ct.tracked) {
			continue
		}
		e := expectCreate(&ct.tracked)
		ct.locked(func() {
			switch {
			case ct.deleted: // acknowledged delete
				e.present, e.absent = false, true
			case ct.deleting && (!final || ct.unsure):
				e.present = false // a delete in flight or never answered: either
			}
		})
		exp = append(exp, e)
	}
	if err := h.compareList(ctx, c, kindContact, "/contacts", exp, nameField("name")); err != nil {
		return err
	}
	exp = exp[:0]
	for _, t := range snap.transfers {
		if mine(&t.tracked) {
			exp = append(exp, expectCreate(&t.tracked))
		}
	}
	if err := h.compareList(ctx, c, kindTransfer, "/transfers", exp, nameField("memo")); err != nil {
		return err
	}
	exp = exp[:0]
	for _, l := range snap.links {
		if mine(&l.tracked) {
			exp = append(exp, expectCreate(&l.tracked))
		}
	}
	if err := h.compareList(ctx, c, kindLink, "/payment-links", exp, nameField("description")); err != nil {
		return err
	}
	return h.checkMoreLists(ctx, a, c, snap, mine)
}

// checkMoreLists is checkLists for orders, endpoints and wallets.
func (h *harness) checkMoreLists(ctx context.Context, a *account, c *client.Client, snap recordLists, mine func(*tracked) bool) error {
	var exp []expectation
	for _, o := range snap.orders {
		if mine(&o.tracked) {
			exp = append(exp, expectCreate(&o.tracked))
		}
	}
	if err := h.compareList(ctx, c, kindOrder, "/fx/orders", exp, orderName); err != nil {
		return err
	}
	exp = exp[:0]
	for _, e := range snap.endpoints {
		if mine(&e.tracked) {
			exp = append(exp, expectCreate(&e.tracked))
		}
	}
	if err := h.compareList(ctx, c, kindEndpoint, "/webhooks", exp, nameField("description")); err != nil {
		return err
	}
	exp = exp[:0]
	for _, wr := range snap.wallets {
		if mine(&wr.tracked) {
			exp = append(exp, expectCreate(&wr.tracked))
		}
	}
	return h.compareList(ctx, c, kindWallet, "/wallets", exp, walletName)
}

func (h *harness) compareList(ctx context.Context, c *client.Client, kind, path string, exp []expectation,
	nameOf func(json.RawMessage) (string, string, error)) error {
	l, err := h.listNames(ctx, c, path, nameOf)
	if err != nil {
		return err
	}
	h.comparePresence(kind, l, exp)
	return nil
}

// nameField names an item by a string field (its id in "id").
func nameField(field string) func(json.RawMessage) (string, string, error) {
	return func(raw json.RawMessage) (string, string, error) {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			return "", "", err
		}
		name, _ := m[field].(string)
		id, _ := m["id"].(string)
		return name, id, nil
	}
}

// orderName names an order by its quote (accept is per quote).
func orderName(raw json.RawMessage) (string, string, error) {
	var o client.Order
	err := json.Unmarshal(raw, &o)
	return o.QuoteID, o.OrderID, err
}

// walletName names a wallet by its lower-case address.
func walletName(raw json.RawMessage) (string, string, error) {
	var w client.Wallet
	err := json.Unmarshal(raw, &w)
	a := strings.ToLower(w.Address)
	return a, a, err
}

// checkContactFields compares, at the end, every contact's listed fields
// with its last acknowledged ones (address, memo).
func (h *harness) checkContactFields(ctx context.Context) {
	snap := h.reg.snapshot()
	for _, a := range h.accounts {
		items, err := h.listAll(ctx, a.checker, "/contacts")
		if err != nil {
			h.fail("account %d: contacts: %v", a.idx, err)
			continue
		}
		byID := map[string]client.Contact{}
		for _, it := range items {
			var ct client.Contact
			if err := json.Unmarshal(it, &ct); err != nil {
				h.fail("contact %.200s: %v", it, err)
				continue
			}
			byID[ct.ID] = ct
		}
		for _, c := range snap.contacts {
			if c.worker.acct != a {
				continue
			}
			c.locked(func() {
				got, ok := byID[c.id]
				if c.id == "" || c.deleted || c.unsure || !ok {
					return
				}
				memo := ""
				if got.Memo != nil {
					memo = *got.Memo
				}
				if !strings.EqualFold(got.Address, c.address) || memo != c.memo {
					h.fail("contact %s (%s) is %s %q, last acknowledged as %s %q", c.id, c.name, got.Address, memo, c.address, c.memo)
				}
			})
		}
	}
}
