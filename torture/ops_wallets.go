package torture

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// errNoRoom: the account holds as many wallets as the workload lets it.
var errNoRoom = errors.New("torture: the account is at its cap")

// linkWallet makes a wallet and links it to the worker's account by SIWE:
// POST /wallets/challenge, personal_sign, POST /wallets.
func (w *worker) linkWallet(ctx context.Context, role walletRole) (*walletRec, error) {
	a := w.acct
	a.mu.Lock()
	if a.wallets >= maxWalletsPerAccount {
		a.mu.Unlock()
		return nil, errNoRoom
	}
	a.wallets++
	a.mu.Unlock()
	wl, err := wallet.New(w.h.eth, w.h.chainID)
	if err != nil {
		return nil, err
	}
	_, resp, err := w.write(ctx, "wallets.challenge", http.MethodPost, "/wallets/challenge", map[string]string{"address": wl.Address().Hex()}, true)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, unexpected("wallets.challenge", resp)
	}
	var ch client.WalletChallenge
	if err := decode(resp, &ch); err != nil {
		return nil, err
	}
	sig, err := wl.PersonalSign(ch.Message)
	if err != nil {
		return nil, err
	}
	w.h.noteName(strings.ToLower(wl.Address().Hex()))
	rec := &walletRec{w: wl, role: role}
	addr := strings.ToLower(wl.Address().Hex())
	rec.kind, rec.id, rec.name, rec.worker = kindWallet, addr, addr, w
	req, resp, err := w.write(ctx, "wallets.register", http.MethodPost, "/wallets", map[string]string{"message": ch.Message, "signature": sig}, true)
	rec.create = req
	if req != nil {
		w.h.reg.addWallet(rec) // an unresolved one may be linked
	}
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusCreated {
		return nil, unexpected("wallets.register", resp)
	}
	var got client.Wallet
	if err := decode(resp, &got); err != nil {
		return nil, err
	}
	if !strings.EqualFold(got.Address, wl.Address().Hex()) {
		return nil, fmt.Errorf("wallets.register: linked %s, want %s", got.Address, wl.Address().Hex())
	}
	req.recordID = rec.id
	if got.Label != nil {
		w.h.fail("wallets.register %s: a new wallet has label %q", rec.id, *got.Label)
	}
	a.mu.Lock()
	if role == rolePayout {
		a.payouts = append(a.payouts, rec)
	}
	switch {
	case got.Primary && a.primary != nil:
		w.h.fail("wallets.register %s: answered primary, but %s is (the first wallet is primary)", rec.id, a.primary.id)
	case got.Primary:
		a.primary = rec
	}
	a.mu.Unlock()
	return rec, nil
}

// registerPayoutWallet links one more payout wallet (until the cap).
func (w *worker) registerPayoutWallet(ctx context.Context) error {
	_, err := w.linkWallet(ctx, rolePayout)
	if errors.Is(err, errNoRoom) || errors.Is(err, errGaveUp) {
		return nil
	}
	return err
}

// payoutWallet is a payout wallet for a new link: a fresh one while the
// account has room (so the wallet's balance is that link's money alone),
// else one of the account's.
func (w *worker) payoutWallet(ctx context.Context) (*walletRec, error) {
	if w.rng.IntN(3) > 0 {
		rec, err := w.linkWallet(ctx, rolePayout)
		if err == nil {
			return rec, nil
		}
		if !errors.Is(err, errNoRoom) && !errors.Is(err, errGaveUp) {
			return nil, err
		}
	}
	a := w.acct
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.payouts) == 0 {
		return nil, errNoRoom
	}
	return a.payouts[w.rng.IntN(len(a.payouts))], nil
}
