package torture

import (
	"context"
	"encoding/json"
	"math/big"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// Waits of the end (deadlines, never expectations).
const (
	settlePoll      = 2 * time.Second
	finalReplaysPer = 40 // acknowledged writes re-sent per worker at the end
)

// resolve sends every request that never got an answer again, with its
// Idempotency-Key: it replays if it executed (and was durable), or
// executes now. Its record learns the answer.
func (h *harness) resolve(ctx context.Context) {
	for _, r := range h.hist.takeUnresolved() {
		var resp *client.Response
		var err error
		if strings.HasPrefix(r.path, "/pay/") {
			resp, err = h.deliverPublic(ctx, r)
		} else {
			resp, err = h.deliver(ctx, h.workers[r.worker].c, r)
		}
		h.countCheck(func(c *checkStats) { c.Unresolved++ })
		if err != nil {
			h.fail("%s %s (key %s): still no answer at the end", r.method, r.path, r.idemKey)
			continue
		}
		if r.apply != nil {
			r.apply(resp.Status, resp.Body, replayed(resp))
		}
	}
}

// settle waits until no record has chain work left (orders and
// submitted or accepted transfers terminal, every closed link's money
// forwarded) or SettleTimeout passes; what is still moving then is a
// failure. It reads every list once, then only what moves.
func (h *harness) settle(ctx context.Context) {
	give := time.Now().Add(h.cfg.SettleTimeout)
	h.refreshLists(ctx, "/fx/orders", "/transfers", "/payment-links", "/webhooks")
	for {
		moving := h.moving(ctx)
		if len(moving) == 0 {
			return
		}
		if time.Now().After(give) || ctx.Err() != nil {
			for i, m := range moving {
				if i == 20 {
					h.fail("… and %d more records still moving", len(moving)-20)
					break
				}
				h.fail("still moving %v after the end: %s", h.cfg.SettleTimeout, m.what)
			}
			return
		}
		sleep(ctx, settlePoll)
		for _, m := range moving {
			if m.rec != nil {
				h.refresh(ctx, m.rec.base().worker.acct.checker, m.rec)
			}
		}
	}
}

// movingRec is a record with chain work left.
type movingRec struct {
	what string
	rec  live
}

// moving lists the records with chain work left.
func (h *harness) moving(ctx context.Context) []movingRec {
	snap := h.reg.snapshot()
	var out []movingRec
	for _, o := range snap.orders {
		if o.id != "" && !o.terminal() {
			out = append(out, movingRec{"order " + o.id + " " + o.state(), o})
		}
	}
	for _, t := range snap.transfers {
		if s := t.state(); t.id != "" && (s == "submitted" || s == "accepted") {
			out = append(out, movingRec{"transfer " + t.id + " " + s, t})
		}
	}
	for _, l := range snap.links {
		if l.id == "" || len(l.payments) == 0 || l.state() == "open" {
			continue // an open link keeps its money until it closes
		}
		if b, err := h.balanceOf(ctx, h.tokens[usdc], l.receive); err != nil || b.Sign() != 0 {
			out = append(out, movingRec{"link " + l.id + " with money not forwarded at " + l.receive.Hex(), nil})
		}
	}
	return out
}

// refreshLists reads every account's lists of paths (orders, transfers,
// links, endpoints) and notes each record's state (the workers are
// stopped: one reader, in order).
func (h *harness) refreshLists(ctx context.Context, paths ...string) {
	byID := map[string]live{}
	snap := h.reg.snapshot()
	for _, o := range snap.orders {
		byID[o.id] = o
	}
	for _, t := range snap.transfers {
		byID[t.id] = t
	}
	for _, l := range snap.links {
		byID[l.id] = l
	}
	for _, e := range snap.endpoints {
		byID[e.id] = e
	}
	for _, a := range h.accounts {
		for _, path := range paths {
			items, err := h.listAll(ctx, a.checker, path)
			if err != nil {
				h.anomaly("end", err.Error())
				continue
			}
			for _, it := range items {
				var head struct {
					ID      string `json:"id"`
					OrderID string `json:"order_id"`
				}
				if json.Unmarshal(it, &head) != nil {
					continue
				}
				rec := byID[head.ID+head.OrderID]
				if rec == nil || rec.base().id == "" {
					continue
				}
				if state, err := rec.absorb(it); err == nil {
					rec.base().observe(state)
				}
			}
		}
	}
}

// finalReplaySample is what the end re-sends: every acknowledged write
// that had an unanswered attempt first (the interesting ones), then the
// latest and random ones, up to finalReplaysPer per worker.
func (h *harness) finalReplaySample(pick func(int) int) []*request {
	all := h.hist.snapshotReplayable()
	limit := finalReplaysPer * len(h.workers)
	var out []*request
	for _, r := range all {
		if r.unknowns > 0 && len(out) < limit/2 {
			out = append(out, r)
		}
	}
	return append(out, h.hist.replaySample(limit-len(out), pick)...)
}

// units parses an API amount (currency units) into base units; a bad
// one is a failure and counts as zero.
func (h *harness) units(what, amount string) *big.Int {
	u, err := wallet.Units(amount, h.decimals)
	if err != nil {
		h.fail("%s: %v", what, err)
		return new(big.Int)
	}
	return u
}
