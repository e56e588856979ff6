package torture

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// linkPaidWait bounds the wait for a link to be paid before money is sent
// late (a deadline, not an expectation).
const linkPaidWait = time.Minute

// createLink creates a USDC link paying out to a payout wallet of the
// account (nil: refused, never answered, or no payout wallet).
func (w *worker) createLink(ctx context.Context) (*linkRec, error) {
	payout, err := w.payoutWallet(ctx)
	if payout == nil || err != nil {
		return nil, nil
	}
	l := &linkRec{amount: w.amount(), payout: payout.w.Address()}
	l.kind, l.name, l.worker, l.m = kindLink, w.name("link"), w, &paymentLink
	body := client.PaymentLinkRequest{Currency: usdc, Amount: wallet.Decimal(l.amount, w.h.decimals), Description: l.name,
		PayoutWallet: payout.w.Address().Hex()}
	l.flight.Lock()
	defer l.flight.Unlock()
	req, resp, err := w.write(ctx, "links.create", http.MethodPost, "/payment-links", body, true)
	l.create = req
	if err != nil {
		if req != nil {
			req.apply = func(status int, body []byte, _ bool) {
				var v client.PaymentLink
				if status == http.StatusCreated && json.Unmarshal(body, &v) == nil {
					l.locked(func() { l.id, l.receive = v.ID, common.HexToAddress(v.ReceiveAddress) })
				}
			}
			w.h.reg.addLink(l)
		}
		return nil, nil
	}
	if resp.Status != http.StatusCreated {
		return nil, unexpected("links.create", resp)
	}
	var v client.PaymentLink
	if err := decode(resp, &v); err != nil {
		return nil, err
	}
	l.id, req.recordID, l.receive = v.ID, v.ID, common.HexToAddress(v.ReceiveAddress)
	w.h.observeAnswer(l, resp)
	w.h.reg.addLink(l)
	w.mu.Lock()
	w.links = append(w.links, l)
	w.mu.Unlock()
	return l, nil
}

// payLink creates a link and has strangers pay it: at once in full, in
// two parts, in full and then late (after it is paid), in part only,
// more than asked, or not at all. Half the payments are also reported
// with POST /pay/{id}/submit (public); the rest the watcher finds.
func (w *worker) payLink(ctx context.Context) error {
	l, err := w.createLink(ctx)
	if l == nil || err != nil {
		return err
	}
	cent := big.NewInt(10_000)
	switch plan := w.rng.IntN(100); {
	case plan < 45:
		return w.payStranger(ctx, l, l.amount)
	case plan < 65:
		part := new(big.Int).Mul(big.NewInt(1+w.rng.Int64N(9)), new(big.Int).Div(l.amount, big.NewInt(10)))
		part.Div(part, cent).Mul(part, cent)
		if err := w.payStranger(ctx, l, part); err != nil {
			return err
		}
		return w.payStranger(ctx, l, new(big.Int).Sub(l.amount, part))
	case plan < 75:
		if err := w.payStranger(ctx, l, l.amount); err != nil {
			return err
		}
		w.awaitState(ctx, l, "paid", linkPaidWait)
		return w.payStranger(ctx, l, big.NewInt(1_000_000))
	case plan < 85:
		return w.payStranger(ctx, l, new(big.Int).Div(l.amount, big.NewInt(2)))
	case plan < 93:
		return w.payStranger(ctx, l, new(big.Int).Add(l.amount, big.NewInt(1_000_000)))
	default:
		return nil
	}
}

// payStranger: a fresh wallet, funded by the faucet, sends amount to the
// link's receive address (a plain ERC-20 transfer).
func (w *worker) payStranger(ctx context.Context, l *linkRec, amount *big.Int) error {
	if amount.Sign() <= 0 {
		return nil
	}
	stranger, err := wallet.New(w.h.eth, w.h.chainID)
	if err != nil {
		return err
	}
	if err := w.h.faucet(ctx, stranger.Address(), usdc, amount); err != nil {
		return err
	}
	data, err := wallet.TransferData(l.receive, amount)
	if err != nil {
		return err
	}
	st, err := w.h.prepareTx(ctx, stranger, w.h.tokens[usdc], data, amount)
	if err != nil {
		return err
	}
	l.locked(func() { l.payments = append(l.payments, st) })
	if err := w.h.mine(ctx, stranger, st); err != nil {
		return err
	}
	if w.rng.IntN(2) == 0 {
		return w.submitPayment(ctx, l, st)
	}
	return nil
}

// submitPayment tells the service of a payment (public route, no key).
func (w *worker) submitPayment(ctx context.Context, l *linkRec, st *sentTx) error {
	r := &request{worker: w.idx, op: "links.submit", method: http.MethodPost, path: "/pay/" + l.id + "/submit",
		body: []byte(`{"tx_hash":"` + st.tx.Hash().Hex() + `"}`)}
	if !w.h.hist.add(r) {
		return errHistoryFull
	}
	resp, err := w.h.deliverPublic(ctx, r)
	if err != nil {
		return nil
	}
	if resp.Status != http.StatusOK && !(errorCode(resp.Body) == "transfer_not_verified" && !st.succeeded()) {
		return unexpected("links.submit", resp)
	}
	return nil
}

// awaitState reads rec until it is in state, up to d.
func (w *worker) awaitState(ctx context.Context, rec live, state string, d time.Duration) {
	give := time.Now().Add(d)
	for ctx.Err() == nil && time.Now().Before(give) && rec.base().state() != state {
		w.h.refresh(ctx, w.c, rec)
		sleep(ctx, 500*time.Millisecond)
	}
}

// cancelLink creates a link and cancels it (PATCH state cancelled); some
// are paid afterwards anyway: late money, forwarded all the same.
func (w *worker) cancelLink(ctx context.Context) error {
	l, err := w.createLink(ctx)
	if l == nil || err != nil {
		return err
	}
	l.flight.Lock()
	_, resp, err := w.write(ctx, "links.cancel", http.MethodPatch, "/payment-links/"+l.id, client.PaymentLinkUpdate{State: "cancelled"}, true)
	if err == nil && resp.Status == http.StatusOK {
		w.h.observeAnswer(l, resp)
	}
	l.flight.Unlock()
	if err != nil {
		return nil
	}
	if resp.Status != http.StatusOK {
		return unexpected("links.cancel", resp)
	}
	if w.rng.IntN(100) < 30 {
		return w.payStranger(ctx, l, l.amount)
	}
	return nil
}
