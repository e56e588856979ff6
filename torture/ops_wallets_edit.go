package torture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/fxd-labs/fxd/client"
)

// A worker's extra wallets are linked only to be relabelled, made primary
// and deleted: nothing else uses them, so deleting one never takes a
// wallet from a trade, a transfer or a link. Trading and payout wallets
// are relabelled, never deleted; the primary mark moves from a trading
// wallet to an extra one and back (the workload names its wallet in every
// request, so the mark only decides who is primary).

// editableWallet picks one of the account's wallets that is linked for
// sure: the worker's own trading and extra wallets, or a payout wallet.
func (w *worker) editableWallet() *walletRec {
	cands := []*walletRec{w.trader}
	w.mu.Lock()
	cands = append(cands, w.extras...)
	w.mu.Unlock()
	w.acct.mu.Lock()
	cands = append(cands, w.acct.payouts...)
	w.acct.mu.Unlock()
	var out []*walletRec
	for _, r := range cands {
		if r.usable() {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out[w.rng.IntN(len(out))]
}

// labelWallet: PATCH /wallets/{address} {"label"} (sometimes "" to clear
// it) on a linked wallet.
func (w *worker) labelWallet(ctx context.Context) error {
	r := w.editableWallet()
	if r == nil {
		return nil
	}
	return w.setLabel(ctx, r)
}

// setLabel relabels r; the answer must show the label.
func (w *worker) setLabel(ctx context.Context, r *walletRec) error {
	label := ""
	if w.rng.IntN(5) > 0 {
		label = w.name("label")
	}
	r.flight.Lock()
	defer r.flight.Unlock()
	skip := false
	r.locked(func() { skip = r.deleting || r.labelUnsure })
	if skip {
		return nil
	}
	a := w.acct
	defer a.beginEdit(&a.walletEdits)()
	req, resp, err := w.write(ctx, "wallets.label", http.MethodPatch, walletPath(r), map[string]string{"label": label}, true)
	if err != nil {
		r.locked(func() { r.labelUnsure = true })
		if req != nil {
			req.apply = func(status int, _ []byte, _ bool) {
				r.locked(func() {
					r.labelUnsure = false
					if status == http.StatusOK {
						r.label = label
					}
				})
			}
		}
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("wallets.label", resp)
	}
	r.locked(func() { r.label = label })
	var got client.Wallet
	if err := decode(resp, &got); err != nil {
		return err
	}
	if !strings.EqualFold(got.Address, r.id) || labelOf(got.Label) != label {
		w.h.fail("wallets.label %s: answered %.200s, want the label %q", r.id, resp.Body, label)
	}
	return nil
}

// labelOf is a wallet's label as the harness keeps it: "" for none (the
// service answers null once a label is cleared with "").
func labelOf(l *string) string {
	if l == nil {
		return ""
	}
	return *l
}

// walletPath is a wallet's own path (the address as EIP-55, as a client
// would send it).
func walletPath(r *walletRec) string { return "/wallets/" + r.w.Address().Hex() }

// walletExtra: link an extra wallet, maybe relabel it, maybe move the
// primary mark to it and back (provoking the refusals on the way), then
// delete it or keep it; or delete an extra kept earlier.
func (w *worker) walletExtra(ctx context.Context) error {
	if old := w.keptExtra(); old != nil && w.rng.IntN(100) < 40 {
		return w.deleteWallet(ctx, old)
	}
	r, err := w.linkWallet(ctx, roleExtra)
	if r == nil || err != nil {
		if isNoRoom(err) {
			return nil
		}
		return err
	}
	if w.rng.IntN(2) == 0 {
		if err := w.setLabel(ctx, r); err != nil {
			return err
		}
	}
	if w.rng.IntN(100) < 60 {
		back, err := w.flipPrimary(ctx, r)
		if !back || err != nil {
			return err // the mark may still be on r: it stays, never deleted
		}
	}
	if w.rng.IntN(100) < 70 {
		return w.deleteWallet(ctx, r)
	}
	w.mu.Lock()
	w.extras = append(w.extras, r)
	w.mu.Unlock()
	return nil
}

// keptExtra is one of the worker's kept extra wallets that may be deleted.
func (w *worker) keptExtra() *walletRec {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*walletRec
	for _, r := range w.extras {
		if r.usable() {
			out = append(out, r)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out[w.rng.IntN(len(out))]
}

// deleteWallet: DELETE /wallets/{address} of an extra wallet that is not
// primary → 200 {"id","deleted":true}; the lists must not hold it.
func (w *worker) deleteWallet(ctx context.Context, r *walletRec) error {
	r.flight.Lock()
	defer r.flight.Unlock()
	resp := w.sendWalletDelete(ctx, r, "wallets.delete")
	if resp == nil {
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("wallets.delete", resp)
	}
	if err := deletedAnswer(resp, r.id); err != nil {
		w.h.fail("wallets.delete %s: %v", r.id, err)
	}
	w.acct.walletDeleted(r)
	return nil
}

// walletDeleted records an acknowledged delete (the account has room
// again).
func (a *account) walletDeleted(r *walletRec) {
	r.locked(func() { r.deleted = true })
	a.mu.Lock()
	a.wallets--
	a.mu.Unlock()
}

// isNoRoom: the account is at its cap, or the link never got an answer.
func isNoRoom(err error) bool { return errors.Is(err, errNoRoom) || errors.Is(err, errGaveUp) }

// decodeWallet decodes a wallet answer and checks it is r.
func decodeWallet(resp *client.Response, r *walletRec) (client.Wallet, error) {
	var got client.Wallet
	if err := json.Unmarshal(resp.Body, &got); err != nil {
		return got, fmt.Errorf("%s: %w in %.200s", resp.Target, err, resp.Body)
	}
	if !strings.EqualFold(got.Address, r.id) {
		return got, fmt.Errorf("%s: answered wallet %s", resp.Target, got.Address)
	}
	return got, nil
}

// flipPrimary moves the primary mark to x and back: PATCH x
// {"primary":true} → 200, x primary; sometimes PATCH x {"primary":false}
// → 400 (an account always has a primary); DELETE x → 409 invalid_state
// (the primary while other wallets remain); PATCH old {"primary":true} →
// 200. It reports whether x is then surely not primary (false: a write
// never got an answer, and where the mark is is known only at the end).
func (w *worker) flipPrimary(ctx context.Context, x *walletRec) (bool, error) {
	a := w.acct
	a.flipMu.Lock()
	defer a.flipMu.Unlock()
	a.mu.Lock()
	old, unsure := a.primary, a.primaryUnsure
	a.mu.Unlock()
	if old == nil || unsure || old == x {
		return old != x, nil
	}
	if ok, err := w.markPrimary(ctx, x); !ok || err != nil {
		return false, err
	}
	if w.rng.IntN(2) == 0 {
		if err := w.refuseUnmark(ctx, x); err != nil {
			return false, err
		}
	}
	if ok, err := w.refuseDeletePrimary(ctx, x); !ok || err != nil {
		return false, err
	}
	return w.markPrimary(ctx, old)
}

// markPrimary: PATCH r {"primary":true} → 200, r primary, its label kept.
// false: no answer (the account's mark is then unsure until the end).
func (w *worker) markPrimary(ctx context.Context, r *walletRec) (bool, error) {
	a := w.acct
	r.flight.Lock()
	defer r.flight.Unlock()
	defer a.beginEdit(&a.walletEdits)()
	req, resp, err := w.write(ctx, "wallets.primary", http.MethodPatch, walletPath(r), map[string]bool{"primary": true}, true)
	if err != nil {
		a.mu.Lock()
		a.primaryUnsure = true
		a.mu.Unlock()
		if req != nil {
			req.apply = func(status int, _ []byte, _ bool) {
				a.mu.Lock()
				defer a.mu.Unlock()
				a.primaryUnsure = false
				if status == http.StatusOK {
					a.primary = r
				}
			}
		}
		return false, nil
	}
	if resp.Status != http.StatusOK {
		return false, unexpected("wallets.primary", resp)
	}
	got, err := decodeWallet(resp, r)
	if err != nil {
		return false, err
	}
	a.mu.Lock()
	a.primary = r
	a.mu.Unlock()
	label, sure := "", false
	r.locked(func() { label, sure = r.label, !r.labelUnsure })
	if !got.Primary || (sure && labelOf(got.Label) != label) {
		w.h.fail("wallets.primary %s: answered %.200s, want primary with the label %q", r.id, resp.Body, label)
	}
	return true, nil
}

// refuseUnmark: PATCH the primary x {"primary":false} → 400
// invalid_request, nothing changed (an account always has a primary).
func (w *worker) refuseUnmark(ctx context.Context, x *walletRec) error {
	x.flight.Lock()
	defer x.flight.Unlock()
	_, resp, err := w.write(ctx, "wallets.unprimary", http.MethodPatch, walletPath(x), map[string]bool{"primary": false}, true)
	if err != nil {
		return nil // resent at the end: 400, or 200 changing nothing once the mark moved on
	}
	if resp.Status != http.StatusBadRequest || errorCode(resp.Body) != "invalid_request" {
		return unexpected("wallets.unprimary (the primary)", resp)
	}
	return nil
}

// refuseDeletePrimary: DELETE the primary x while other wallets remain →
// 409 invalid_state. false: no answer (resent at the end, it may delete
// x once the mark moved back).
func (w *worker) refuseDeletePrimary(ctx context.Context, x *walletRec) (bool, error) {
	x.flight.Lock()
	defer x.flight.Unlock()
	resp := w.sendWalletDelete(ctx, x, "wallets.delete_primary")
	if resp == nil {
		return false, nil
	}
	if resp.Status != http.StatusConflict || errorCode(resp.Body) != "invalid_state" {
		return false, unexpected("wallets.delete_primary (the primary, other wallets remain)", resp)
	}
	x.locked(func() { x.deleting = false })
	return true, nil
}

// sendWalletDelete sends DELETE /wallets/{address} of r (the caller holds
// r's flight), marking r deleting first. nil: no answer; the end resends
// it and settleDeleteFor records what it did.
func (w *worker) sendWalletDelete(ctx context.Context, r *walletRec, opName string) *client.Response {
	r.locked(func() { r.deleting = true })
	req, resp, err := w.write(ctx, opName, http.MethodDelete, walletPath(r), nil, true)
	if err != nil {
		if req != nil {
			req.apply = r.settleDeleteFor(w.acct)
		}
		return nil
	}
	return resp
}

// settleDeleteFor is the apply of a wallet delete resolved at the end:
// 200 deleted it; any other answer left it linked.
func (r *walletRec) settleDeleteFor(a *account) func(int, []byte, bool) {
	return func(status int, _ []byte, _ bool) {
		if status == http.StatusOK {
			a.walletDeleted(r)
			return
		}
		r.locked(func() { r.deleting = false })
	}
}
