package torture

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// createTransfer creates a transfer of amount from→to to payee (by
// contact_id when contactID is set) and registers it; nil when it was
// refused or never answered.
func (w *worker) createTransfer(ctx context.Context, from, to string, amount *big.Int, payee common.Address, contactID string) (*transferRec, *client.Transfer, error) {
	t := &transferRec{same: from == to, from: from, to: to, amount: amount, payee: payee}
	t.kind, t.name, t.worker, t.m = kindTransfer, w.name("transfer"), w, &crossTransfer
	if t.same {
		t.m = &sameTransfer
	}
	body := client.TransferRequest{FromCurrency: from, Currency: to, Amount: wallet.Decimal(amount, w.h.decimals),
		SourceWallet: w.trader.w.Address().Hex(), Memo: t.name}
	if contactID != "" {
		body.ContactID = contactID
	} else {
		body.Recipient = payee.Hex()
	}
	t.flight.Lock()
	defer t.flight.Unlock()
	req, resp, err := w.write(ctx, "transfers.create", http.MethodPost, "/transfers", body, true)
	t.create = req
	if err != nil {
		if req != nil {
			req.apply = func(status int, body []byte, _ bool) {
				var v client.Transfer
				if status == http.StatusCreated && json.Unmarshal(body, &v) == nil {
					t.locked(func() { t.id = v.ID })
				}
			}
			w.h.reg.addTransfer(t)
		}
		return nil, nil, nil
	}
	if resp.Status != http.StatusCreated {
		return nil, nil, unexpected("transfers.create", resp)
	}
	var v client.Transfer
	if err := decode(resp, &v); err != nil {
		return nil, nil, err
	}
	if contactID != "" && (!strings.EqualFold(v.Recipient, payee.Hex()) || deref(v.ContactID) != contactID) {
		w.h.fail("transfers.create by contact %s (address %s): answered recipient %s, contact_id %v", contactID, payee.Hex(), v.Recipient, deref(v.ContactID))
	}
	t.id, req.recordID = v.ID, v.ID
	w.h.observeAnswer(t, resp)
	w.h.reg.addTransfer(t)
	w.mu.Lock()
	w.transfers = append(w.transfers, t)
	w.mu.Unlock()
	return t, &v, nil
}

// submitTransfer submits a signature or a tx hash (st: the wallet's tx,
// whose revert makes transfer_not_verified an answer).
func (w *worker) submitTransfer(ctx context.Context, t *transferRec, body client.SubmitRequest, st *sentTx) error {
	t.flight.Lock()
	defer t.flight.Unlock()
	_, resp, err := w.write(ctx, "transfers.submit", http.MethodPost, "/transfers/"+t.id+"/submit", body, true)
	if err != nil {
		return nil
	}
	switch code := errorCode(resp.Body); {
	case resp.Status == http.StatusOK:
		w.h.observeAnswer(t, resp)
	case resp.Status == http.StatusConflict && code == "invalid_state":
		// Expired meanwhile.
	case st != nil && code == "transfer_not_verified" && !st.succeeded():
		// The tx reverted.
	default:
		return unexpected("transfers.submit", resp)
	}
	return nil
}

// transferSame pays a fresh payee in USDC: the trader signs and
// broadcasts signing.tx and submits its hash before the node has seen
// it, right after broadcasting it, or once it is mined. A few are never
// signed (they stay created).
func (w *worker) transferSame(ctx context.Context) error {
	amount, payee := w.amount(), w.randomAddress()
	contactID := ""
	if w.rng.IntN(100) < 20 {
		c, err := w.contactFor(ctx, payee, "")
		if c == nil || err != nil {
			return err
		}
		contactID = c.id
	}
	t, v, err := w.createTransfer(ctx, usdc, usdc, amount, payee, contactID)
	if t == nil || err != nil || w.rng.IntN(100) < 5 {
		return err
	}
	want, err := wallet.TransferData(payee, amount)
	if err != nil {
		return err
	}
	if v.Signing == nil || v.Signing.Tx == nil || !common.IsHexAddress(v.Signing.Tx.To) ||
		common.HexToAddress(v.Signing.Tx.To) != w.h.tokens[usdc] || !bytes.Equal(hexutil.MustDecode(v.Signing.Tx.Data), want) {
		w.h.fail("transfer %s: signing.tx is not transfer(%s, %s) on USDC: %+v", t.id, payee.Hex(), amount, v.Signing)
		return nil
	}
	st, err := w.h.prepareTx(ctx, w.trader.w, w.h.tokens[usdc], want, amount)
	if err != nil {
		return err
	}
	t.locked(func() { t.tx = st })
	submit := func() error {
		return w.submitTransfer(ctx, t, client.SubmitRequest{TxHash: st.tx.Hash().Hex()}, st)
	}
	switch mode := w.rng.IntN(100); {
	case mode < 30: // the service hears of the tx before the node does
		if err := submit(); err != nil {
			return err
		}
		return w.h.mine(ctx, w.trader.w, st)
	case mode < 65:
		w.h.broadcastOnce(ctx, w.trader.w, st)
		if err := submit(); err != nil {
			return err
		}
		return w.h.mine(ctx, w.trader.w, st)
	default:
		if err := w.h.mine(ctx, w.trader.w, st); err != nil {
			return err
		}
		return submit()
	}
}

// contactFor creates a contact for payee (a transfer then names it by
// contact_id), of currency unless it is "".
func (w *worker) contactFor(ctx context.Context, payee common.Address, currency string) (*contactRec, error) {
	c := &contactRec{address: payee.Hex()}
	c.kind, c.name, c.worker = kindContact, w.name("contact"), w
	body := map[string]string{"name": c.name, "address": c.address}
	if currency != "" {
		body["currency"] = currency
	}
	req, resp, err := w.write(ctx, "contacts.create", http.MethodPost, "/contacts", body, true)
	c.create = req
	if req != nil {
		defer func() { w.h.reg.addContact(c); w.own(c) }()
		req.apply = c.resolveCreate
	}
	if err != nil {
		return nil, nil
	}
	if resp.Status != http.StatusCreated {
		return nil, unexpected("contacts.create", resp)
	}
	var got client.Contact
	if err := decode(resp, &got); err != nil {
		return nil, err
	}
	c.id, req.recordID = got.ID, got.ID
	return c, nil
}

// transferCross pays a fresh payee in the other currency: create,
// accept (the pool prices it; a GaslessOrder with the payee as
// recipient), sign, submit; the service relays. A few stop after create
// or after accept and expire.
func (w *worker) transferCross(ctx context.Context) error { return w.crossTransfer(ctx, false) }

// transferCrossContact is transferCross naming the payee by contact_id: a
// fresh contact of the payee (half of them of the transfer's currency).
func (w *worker) transferCrossContact(ctx context.Context) error { return w.crossTransfer(ctx, true) }

func (w *worker) crossTransfer(ctx context.Context, byContact bool) error {
	from, to := w.direction()
	amount, payee := w.amount(), w.randomAddress()
	contactID := ""
	if byContact {
		currency := ""
		if w.rng.IntN(2) == 0 {
			currency = to
		}
		c, err := w.contactFor(ctx, payee, currency)
		if c == nil || err != nil {
			return err
		}
		contactID = c.id
	}
	t, _, err := w.createTransfer(ctx, from, to, amount, payee, contactID)
	if t == nil || err != nil || w.rng.IntN(100) < 4 {
		return err
	}
	acc, err := w.acceptTransfer(ctx, t)
	if acc == nil || err != nil || w.rng.IntN(100) < 4 {
		return nil
	}
	if err := w.checkGasless(acc.Signing, from, to, amount, payee); err != nil {
		w.h.fail("transfer %s: %v", t.id, err)
		return nil
	}
	sig, err := w.trader.w.SignTypedData(acc.Signing.TypedData)
	if err != nil {
		return err
	}
	return w.submitTransfer(ctx, t, client.SubmitRequest{Signature: sig}, nil)
}

// acceptTransfer accepts a cross-currency transfer (nil: refused or never
// answered).
func (w *worker) acceptTransfer(ctx context.Context, t *transferRec) (*client.AcceptedTransfer, error) {
	t.flight.Lock()
	defer t.flight.Unlock()
	_, resp, err := w.write(ctx, "transfers.accept", http.MethodPost, "/transfers/"+t.id+"/accept", nil, true)
	if err != nil {
		return nil, nil
	}
	if resp.Status == http.StatusConflict && errorCode(resp.Body) == "invalid_state" {
		return nil, nil // expired meanwhile
	}
	if resp.Status != http.StatusOK {
		return nil, unexpected("transfers.accept", resp)
	}
	var acc client.AcceptedTransfer
	if err := decode(resp, &acc); err != nil {
		return nil, err
	}
	w.h.observeAnswer(t, resp)
	return &acc, nil
}
