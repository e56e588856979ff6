package actors

import (
	"context"

	"github.com/fxd-labs/fxd/domain"
)

// AccountInfo is what the FX desk needs of an account: its profile row
// (KYC and permissions) and its signer wallets. Rows are immutable, so
// sharing them with another goroutine is safe.
type AccountInfo struct {
	Account *domain.Account
	Wallets map[string]*domain.Wallet // by EIP-55 address
	// View is the answer to GET /account (domain.GetAccount), rendered
	// once per change instead of once per read.
	View domain.Reply
}

// Primary returns the primary wallet's address, "" if none.
func (i AccountInfo) Primary() string {
	for a, w := range i.Wallets {
		if w.Primary {
			return a
		}
	}
	return ""
}

// SwapPermitted reports whether KYC and launch access let the account
// trade (SPEC.md: refused fail-closed otherwise).
func (i AccountInfo) SwapPermitted() bool {
	return i.Account != nil && i.Account.KYC == domain.KYCApproved && i.Account.Swap
}

// PayPermitted reports whether KYC and launch access let the account pay
// (SPEC.md: refused fail-closed otherwise).
func (i AccountInfo) PayPermitted() bool {
	return i.Account != nil && i.Account.KYC == domain.KYCApproved && i.Account.Pay
}

// Allows reports whether permitted(i) holds and wallet is one of the
// account's wallets: the rule CheckPermitted enforces, for a caller that
// holds the info already.
func (i AccountInfo) Allows(permitted func(AccountInfo) bool, wallet string) bool {
	return permitted(i) && i.Wallets[wallet] != nil
}

// CheckPermitted refuses, failing closed, an action of account acct that
// moves money from wallet (SPEC.md: "The account must be permitted (KYC /
// launch access) for the action, otherwise the operation is refused"):
// 403 not_permitted with msg unless permitted(info) and wallet is one of
// the account's wallets, 503 when the account cannot be read. The desks
// call it where a step commits the account's money: a cross-currency
// transfer's accept (a repeated one too), and the signature submits that
// relay, so a permission revoked after accept stops the relay.
func (e *Engine) CheckPermitted(ctx context.Context, acct, wallet string, permitted func(AccountInfo) bool, msg string) *domain.Error {
	info, err := e.AccountInfo(ctx, acct)
	if err != nil {
		return domain.ErrUnavailable("account: %v", err)
	}
	if !info.Allows(permitted, wallet) {
		return domain.ErrNotPermitted(msg)
	}
	return nil
}

// AccountInfo reads an account's committed profile and wallets: from the
// view its actor published when it is in memory, else by activating it.
func (e *Engine) AccountInfo(ctx context.Context, acct string) (AccountInfo, error) {
	if info := e.published(acct); info != nil {
		return *info, nil
	}
	done := make(chan AccountInfo, 1)
	return request(ctx, e, acct, done, accountInfoMsg{done: done})
}

// publishInfo replaces the actor's published view from committed state.
func (a *entityActor) publishInfo() {
	st := a.committed.(*domain.AccountState)
	ws := make(map[string]*domain.Wallet, len(st.Wallets))
	for k, w := range st.Wallets {
		ws[k] = w
	}
	a.entry.info.Store(&AccountInfo{Account: st.Account, Wallets: ws, View: st.Ask(domain.GetAccount{})})
}

// published returns the view an active account's actor published, nil if
// the account is not in memory or nobody asked for the view yet. The actor
// replaces the view in commit, before any write's reply leaves, so a reader
// never sees less than what was acknowledged to anyone.
func (e *Engine) published(acct string) *AccountInfo {
	sh := e.reg.shard(acct)
	sh.mu.Lock()
	en := sh.m[acct]
	sh.mu.Unlock()
	if en == nil {
		return nil
	}
	return en.info.Load()
}
