package torture

import (
	"context"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// checkChain compares the chain with the records once everything has
// settled. Every payee and payout address is the workload's alone, so
// each balance must be exactly what the records say: a transfer's payee
// holds its amount (cross-currency: the amount_out, at least
// min_amount_out) if and only if it is confirmed; a payout wallet holds
// every payment to its links, which hold nothing (forwarded once); a
// trader holds its starting balance less what its settled orders,
// confirmed transfers and mined transfer transactions took, plus what
// its settled orders gave (a refund gives the input back).
func (h *harness) checkChain(ctx context.Context) {
	snap := h.reg.snapshot()
	h.checkTransfersOnChain(ctx, snap.transfers)
	h.checkLinksOnChain(ctx, snap.links)
	h.checkTraders(ctx, snap)
}

// balanceIs compares one balance and counts the check.
func (h *harness) balanceIs(ctx context.Context, what string, token, owner common.Address, want *big.Int) {
	got, err := h.balanceOf(ctx, token, owner)
	if err != nil {
		h.anomaly("chain", what+": "+err.Error())
		return
	}
	h.countCheck(func(c *checkStats) { c.Balances++ })
	if got.Cmp(want) != 0 {
		h.fail("%s: %s holds %s, the records say %s", what, owner.Hex(), got, want)
	}
}

func (h *harness) checkTransfersOnChain(ctx context.Context, transfers []*transferRec) {
	for _, t := range transfers {
		if t.id == "" || t.final == nil {
			continue
		}
		f := t.final
		want := new(big.Int)
		switch {
		case f.State == "confirmed" && t.same:
			want.Set(t.amount)
			if !t.tx.succeeded() || f.TxHash == nil || !strings.EqualFold(*f.TxHash, t.tx.tx.Hash().Hex()) {
				h.fail("transfer %s is confirmed by tx %v, which is not the wallet's mined tx", t.id, deref(f.TxHash))
			}
		case f.State == "confirmed":
			if f.AmountOut == nil || f.MinAmountOut == nil {
				h.fail("confirmed transfer %s has no amount_out or min_amount_out", t.id)
				continue
			}
			want = h.units("transfer "+t.id, *f.AmountOut)
			if least := h.units("transfer "+t.id, *f.MinAmountOut); want.Cmp(least) < 0 {
				h.fail("transfer %s delivered %s, below its min_amount_out %s", t.id, *f.AmountOut, *f.MinAmountOut)
			}
		case t.same && t.tx.succeeded():
			h.fail("transfer %s is %s, but the wallet's tx %s moved the money", t.id, f.State, t.tx.tx.Hash().Hex())
			want.Set(t.amount)
		}
		h.balanceIs(ctx, "payee of transfer "+t.id+" ("+f.State+")", h.tokens[t.to], t.payee, want)
	}
}

// checkLinksOnChain: an open link's receive address holds what its
// payers sent (nothing is forwarded before the link closes); a closed
// one holds nothing, and its payout wallet got it all (late money
// included), once.
func (h *harness) checkLinksOnChain(ctx context.Context, links []*linkRec) {
	perPayout := map[common.Address]*big.Int{}
	for _, l := range links {
		paid := new(big.Int)
		for _, p := range l.payments {
			if p.succeeded() {
				paid.Add(paid, p.amount)
			}
		}
		if perPayout[l.payout] == nil {
			perPayout[l.payout] = new(big.Int)
		}
		if l.id == "" || l.final == nil {
			perPayout[l.payout].Add(perPayout[l.payout], paid) // never answered: nothing to compare but the payout
			continue
		}
		held := new(big.Int)
		if l.final.State == "open" {
			held.Set(paid)
		} else {
			perPayout[l.payout].Add(perPayout[l.payout], paid)
		}
		h.balanceIs(ctx, "receive address of "+l.final.State+" link "+l.id, h.tokens[usdc], l.receive, held)
		got := h.units("link "+l.id, l.final.AmountReceived)
		switch {
		case got.Cmp(paid) > 0:
			h.fail("link %s received %s, its payers sent %s", l.id, got, paid)
		case l.final.State == "paid" && got.Cmp(l.amount) < 0:
			h.fail("link %s is paid with %s of %s", l.id, got, l.amount)
		case l.final.State == "open" && got.Cmp(paid) != 0:
			h.fail("open link %s counts %s, its payers sent %s", l.id, got, paid)
		case l.final.State == "open" && got.Cmp(l.amount) >= 0:
			h.fail("link %s received %s of %s and is still open", l.id, got, l.amount)
		}
	}
	for addr, want := range perPayout {
		h.balanceIs(ctx, "payout wallet", h.tokens[usdc], addr, want)
	}
}

// checkTraders recomputes every trading wallet's balances from its
// records and compares them with the chain.
func (h *harness) checkTraders(ctx context.Context, snap recordLists) {
	want := map[common.Address]map[string]*big.Int{}
	for addr, b := range h.baseline {
		want[addr] = map[string]*big.Int{usdc: new(big.Int).Set(b[usdc]), eurc: new(big.Int).Set(b[eurc])}
	}
	for _, o := range snap.orders {
		h.orderEffect(o, want[o.worker.trader.w.Address()])
	}
	for _, t := range snap.transfers {
		b := want[t.worker.trader.w.Address()]
		switch {
		case t.same && t.tx.succeeded():
			b[t.from].Sub(b[t.from], t.amount)
		case !t.same && t.final != nil && t.final.State == "confirmed":
			b[t.from].Sub(b[t.from], t.amount)
		}
	}
	for addr, b := range want {
		for _, sym := range []string{usdc, eurc} {
			h.balanceIs(ctx, "trader "+sym, h.tokens[sym], addr, b[sym])
		}
	}
}

// orderEffect applies a finished order to its trader's expected balances.
func (h *harness) orderEffect(o *orderRec, b map[string]*big.Int) {
	if o.final == nil {
		return
	}
	switch o.final.State {
	case "settled":
		b[o.from].Sub(b[o.from], o.amountIn)
		b[o.to].Add(b[o.to], h.units("order "+o.id, o.final.AmountOut))
	case "expired":
		if o.funding.succeeded() {
			h.fail("rfq order %s expired, but its funding %s was mined: the input is in escrow", o.id, o.funding.tx.Hash().Hex())
			b[o.from].Sub(b[o.from], o.amountIn)
		}
	case "funded", "settling":
		// Still in escrow (settle reported it as still moving): counted
		// as there, so the trader's balance shows nothing else.
		if o.funding.succeeded() {
			b[o.from].Sub(b[o.from], o.amountIn)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}
