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

// listNames lists path and names each item with nameOf (name, id); it
// returns the items too.
func (h *harness) listNames(ctx context.Context, c *client.Client, path string,
	nameOf func(json.RawMessage) (string, string, error)) (listed, []json.RawMessage, error) {
	items, err := h.listAll(ctx, c, path)
	if err != nil {
		return nil, nil, err
	}
	out := listed{}
	for _, it := range items {
		name, id, err := nameOf(it)
		if err != nil {
			return nil, nil, fmt.Errorf("list %s: %w", path, err)
		}
		out[name] = append(out[name], id)
	}
	return out, items, nil
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

// listCheck is one list of an account and how the history sees it.
type listCheck struct {
	kind, path string
	nameOf     func(json.RawMessage) (string, string, error)
	// expect is what the history says of the account's records of the
	// kind, from a snapshot of the registry; final: every request was
	// resolved.
	expect func(snap recordLists, final bool) []expectation
}

// checkLists compares every list of account a with the history: each is
// held to what the history said both before and after it was read (so a
// create or delete answered meanwhile makes its record either). At the
// end (final) every request is resolved. The wallets' and endpoints'
// fields are compared too (checkWalletFields, checkEndpointFields).
func (h *harness) checkLists(ctx context.Context, a *account, final bool) error {
	mine := func(t *tracked) bool { return t.worker.acct == a && t.create != nil }
	for _, lc := range accountLists(mine) {
		var wallets, endpoints editGauge
		if lc.kind == kindWallet {
			wallets = a.gauge(&a.walletEdits)
		}
		if lc.kind == kindEndpoint {
			endpoints = a.gauge(&a.endpointEdits)
		}
		before := lc.expect(h.reg.snapshot(), final)
		l, items, err := h.listNames(ctx, a.checker, lc.path, lc.nameOf)
		if err != nil {
			return err
		}
		after := lc.expect(h.reg.snapshot(), final)
		h.comparePresence(lc.kind, l, bothSay(before, after))
		switch lc.kind {
		case kindWallet:
			if quiet(wallets, a.gauge(&a.walletEdits)) {
				h.checkWalletFields(a, items, mine)
			}
		case kindEndpoint:
			if quiet(endpoints, a.gauge(&a.endpointEdits)) {
				h.checkEndpointFields(items, mine)
			}
		}
	}
	return nil
}

// bothSay keeps of two expectations of the same records what both say:
// present only if present in both, absent only if absent in both; a
// record only in the later one (registered meanwhile) is either.
func bothSay(before, after []expectation) []expectation {
	later := make(map[*tracked]expectation, len(after))
	for _, e := range after {
		later[e.t] = e
	}
	out := make([]expectation, 0, len(before))
	for _, e := range before {
		l, ok := later[e.t]
		e.present = e.present && ok && l.present
		e.absent = e.absent && ok && l.absent
		out = append(out, e)
	}
	return out
}

// accountLists are the lists checkLists walks, for the records mine takes.
func accountLists(mine func(*tracked) bool) []listCheck {
	created := func(kind string) func(recordLists, bool) []expectation {
		return func(snap recordLists, _ bool) []expectation {
			var exp []expectation
			add := func(t *tracked) {
				if mine(t) {
					exp = append(exp, expectCreate(t))
				}
			}
			switch kind {
			case kindTransfer:
				for _, t := range snap.transfers {
					add(&t.tracked)
				}
			case kindLink:
				for _, l := range snap.links {
					add(&l.tracked)
				}
			case kindOrder:
				for _, o := range snap.orders {
					add(&o.tracked)
				}
			}
			return exp
		}
	}
	return []listCheck{
		{kindContact, "/contacts", nameField("name"), func(snap recordLists, final bool) []expectation {
			return contactExpectations(snap, final, mine)
		}},
		{kindTransfer, "/transfers", nameField("memo"), created(kindTransfer)},
		{kindLink, "/payment-links", nameField("description"), created(kindLink)},
		{kindOrder, "/fx/orders", orderName, created(kindOrder)},
		{kindEndpoint, "/webhooks", endpointName, func(snap recordLists, _ bool) []expectation {
			return deletableExpectations(snap.endpoints, mine)
		}},
		{kindWallet, "/wallets", walletName, func(snap recordLists, _ bool) []expectation {
			return deletableExpectations(snap.wallets, mine)
		}},
	}
}

// contactExpectations: a deleted contact is absent; one whose delete is in
// flight (or, at the end, never answered) is either.
func contactExpectations(snap recordLists, final bool, mine func(*tracked) bool) []expectation {
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
				e.present = false
			}
		})
		exp = append(exp, e)
	}
	return exp
}

// deletable is a record the workload deletes: its tracking and, under its
// lock, whether a delete was acknowledged or only sent.
type deletable interface {
	deletion() (t *tracked, deleted, deleting bool)
}

func (e *endpointRec) deletion() (t *tracked, deleted, deleting bool) {
	e.locked(func() { deleted, deleting = e.deleted, e.deleting })
	return &e.tracked, deleted, deleting
}

func (r *walletRec) deletion() (t *tracked, deleted, deleting bool) {
	r.locked(func() { deleted, deleting = r.deleted, r.deleting })
	return &r.tracked, deleted, deleting
}

// deletableExpectations: a record whose delete was acknowledged is absent;
// one whose delete was sent and not acknowledged is either.
func deletableExpectations[R deletable](recs []R, mine func(*tracked) bool) []expectation {
	var exp []expectation
	for _, r := range recs {
		t, deleted, deleting := r.deletion()
		if !mine(t) {
			continue
		}
		e := expectCreate(t)
		switch {
		case deleted:
			e.present, e.absent = false, true
		case deleting:
			e.present = false
		}
		exp = append(exp, e)
	}
	return exp
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

// endpointName names an endpoint by its url's path (the receiver's path
// is "/" and the endpoint's name; its description may be edited).
func endpointName(raw json.RawMessage) (string, string, error) {
	var e client.Webhook
	if err := json.Unmarshal(raw, &e); err != nil {
		return "", "", err
	}
	u, err := url.Parse(e.URL)
	if err != nil {
		return "", "", fmt.Errorf("endpoint %s: url %q: %w", e.ID, e.URL, err)
	}
	return strings.TrimPrefix(u.Path, "/"), e.ID, nil
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
