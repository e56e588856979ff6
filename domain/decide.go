package domain

import (
	"fmt"
	"sort"
	"time"
)

// Decide validates cmd against the state and returns the events that carry
// it out and the reply. It mutates nothing: the host appends the events to
// the log and applies them once they are durable. A refusal returns no
// events and an *Error.
func (s *AccountState) Decide(cmd Command, env Env) ([]Event, Reply, *Error) {
	if _, ok := cmd.(CreateAccount); !ok && s.Account == nil {
		return nil, Reply{}, ErrNotFound("account")
	}
	now := env.Now
	switch c := cmd.(type) {
	case CreateAccount:
		return s.createAccount(c, now)
	case UpdateAccount:
		return s.updateAccount(c, now)
	case CreateKey:
		return s.createKey(c, now)
	case RevokeKey:
		return s.revokeKey(c, now)
	case CreateContact:
		return s.createContact(c, env)
	case UpdateContact:
		return s.updateContact(c, now)
	case DeleteContact:
		return s.deleteContact(c)
	case CreateChallenge:
		return s.createChallenge(c, env)
	case RegisterWallet:
		return s.registerWallet(c, now)
	case UpdateWallet:
		return s.updateWallet(c, now)
	case DeleteWallet:
		return s.deleteWallet(c)
	case RecordAnswer:
		return nil, c.Reply, nil
	case ReserveID:
		if c.Prefix == "" || c.Prefix == KindAccount.Prefix() {
			return nil, Reply{}, ErrInvalid("reserve: bad prefix %q", c.Prefix)
		}
		return nil, jsonReply(200, ReservedID{ID: env.NewID(c.Prefix)}), nil
	}
	panic(fmt.Sprintf("domain: decide of unknown command %T", cmd))
}

func (s *AccountState) createAccount(c CreateAccount, now time.Time) ([]Event, Reply, *Error) {
	if s.Account != nil {
		return nil, Reply{}, ErrInvalidState("account %s exists", s.Account.ID)
	}
	if c.ID == "" { // the codec refuses a row without id: the log would not read back
		return nil, Reply{}, ErrInvalid("id is required")
	}
	if err := checkText("name", c.Name, maxNameRunes, false); err != nil {
		return nil, Reply{}, err
	}
	if err := checkKYC(c.KYC); err != nil {
		return nil, Reply{}, err
	}
	a := &Account{ID: c.ID, Name: c.Name, KYC: c.KYC, Swap: c.Swap, Pay: c.Pay, Env: c.Env, CreatedAt: now, UpdatedAt: now}
	return []Event{{Kind: EvAccountPut, Account: a}}, jsonReply(201, ViewAccount(a)), nil
}

func checkKYC(k string) *Error {
	switch k {
	case KYCApproved, KYCPending, KYCRejected:
		return nil
	}
	return ErrInvalid("kyc must be approved, pending or rejected")
}

func (s *AccountState) updateAccount(c UpdateAccount, now time.Time) ([]Event, Reply, *Error) {
	a := *s.Account
	if c.KYC != nil {
		if err := checkKYC(*c.KYC); err != nil {
			return nil, Reply{}, err
		}
		a.KYC = *c.KYC
	}
	if c.Swap != nil {
		a.Swap = *c.Swap
	}
	if c.Pay != nil {
		a.Pay = *c.Pay
	}
	a.UpdatedAt = now
	return []Event{{Kind: EvAccountPut, Account: &a}}, jsonReply(200, s.viewAccountAs(&a)), nil
}

func (s *AccountState) createKey(c CreateKey, now time.Time) ([]Event, Reply, *Error) {
	if c.KeyID == "" { // the codec refuses a row without id: the log would not read back
		return nil, Reply{}, ErrInvalid("key_id is required")
	}
	if len(c.PublicKey) != 32 {
		return nil, Reply{}, ErrInvalid("public_key must be 32 bytes of Ed25519 public key")
	}
	if c.Scopes == 0 || c.Scopes&^AllScopes != 0 {
		return nil, Reply{}, ErrInvalid("scopes must be a non-empty subset of read, trade, pay, wallets, webhooks")
	}
	if _, ok := s.Keys[c.KeyID]; ok {
		return nil, Reply{}, ErrInvalidState("key %s exists", c.KeyID)
	}
	if len(s.Keys) >= MaxKeysPerAccount {
		return nil, Reply{}, ErrInvalidState("account has %d keys, the maximum", MaxKeysPerAccount)
	}
	k := &APIKey{ID: c.KeyID, Account: s.Account.ID, PublicKey: append([]byte(nil), c.PublicKey...), Scopes: c.Scopes, CreatedAt: now}
	return []Event{{Kind: EvKeyPut, Key: k}}, jsonReply(201, ViewKey(k)), nil
}

func (s *AccountState) revokeKey(c RevokeKey, now time.Time) ([]Event, Reply, *Error) {
	old := s.Keys[c.KeyID]
	if old == nil {
		return nil, Reply{}, ErrNotFound("key")
	}
	if old.Revoked { // revoking twice is a no-op answer, not an error
		return nil, jsonReply(200, ViewKey(old)), nil
	}
	k := *old
	k.Revoked, k.RevokedAt = true, now
	return []Event{{Kind: EvKeyPut, Key: &k}}, jsonReply(200, ViewKey(&k)), nil
}

func (s *AccountState) createContact(c CreateContact, env Env) ([]Event, Reply, *Error) {
	if len(s.Contacts) >= MaxContactsPerAccount {
		return nil, Reply{}, ErrInvalidState("account has %d contacts, the maximum", MaxContactsPerAccount)
	}
	ct := &Contact{Account: s.Account.ID, Name: c.Name, Address: c.Address}
	if c.Currency != nil {
		ct.Currency = *c.Currency
	}
	if c.Memo != nil {
		ct.Memo = *c.Memo
	}
	if err := validateContact(ct); err != nil {
		return nil, Reply{}, err
	}
	ct.ID = env.NewID(ContactPrefix)
	ct.CreatedAt, ct.UpdatedAt = env.Now, env.Now
	return []Event{{Kind: EvContactPut, Contact: ct}}, jsonReply(201, ViewContact(ct)), nil
}

// validateContact checks every field and checksums the address in place
// (ct is a fresh value not yet shared).
func validateContact(ct *Contact) *Error {
	if err := checkText("name", ct.Name, maxNameRunes, false); err != nil {
		return err
	}
	addr, err := NormalizeRecipient("address", ct.Address)
	if err != nil {
		return err
	}
	ct.Address = addr
	if ct.Currency != "" {
		if _, err := CurrencyBySymbol(ct.Currency); err != nil {
			return err
		}
	}
	return checkNote("memo", ct.Memo, maxMemoRunes)
}

func (s *AccountState) updateContact(c UpdateContact, now time.Time) ([]Event, Reply, *Error) {
	old := s.Contacts[c.ID]
	if old == nil {
		return nil, Reply{}, ErrNotFound("contact")
	}
	ct := *old
	if c.Name != nil {
		ct.Name = *c.Name
	}
	if c.Address != nil {
		ct.Address = *c.Address
	}
	if c.Currency != nil {
		ct.Currency = *c.Currency
	}
	if c.Memo != nil {
		ct.Memo = *c.Memo
	}
	if err := validateContact(&ct); err != nil {
		return nil, Reply{}, err
	}
	ct.UpdatedAt = now
	return []Event{{Kind: EvContactPut, Contact: &ct}}, jsonReply(200, ViewContact(&ct)), nil
}

func (s *AccountState) deleteContact(c DeleteContact) ([]Event, Reply, *Error) {
	if s.Contacts[c.ID] == nil {
		return nil, Reply{}, ErrNotFound("contact")
	}
	return []Event{{Kind: EvContactDeleted, ID: c.ID}}, jsonReply(200, DeletedView{ID: c.ID, Deleted: true}), nil
}

// Ask answers a query from the state.
func (s *AccountState) Ask(q Query) Reply {
	if s.Account == nil {
		return ErrNotFound("account").Reply()
	}
	switch q := q.(type) {
	case GetAccount:
		return jsonReply(200, s.viewAccount())
	case ListWallets:
		page, err := walletPage(s.SortedWallets(), q.Page)
		if err != nil {
			return err.Reply()
		}
		return jsonReply(200, page)
	case ListContacts:
		return jsonReply(200, Paginate(s.SortedContacts(), func(c *Contact) string { return c.ID }, ViewContact, q.Page))
	case GetContact:
		if c := s.Contacts[q.ID]; c != nil {
			return jsonReply(200, ViewContact(c))
		}
		return ErrNotFound("contact").Reply()
	case GetKey:
		if k := s.Keys[q.KeyID]; k != nil {
			return jsonReply(200, ViewKey(k))
		}
		return ErrNotFound("key").Reply()
	}
	panic(fmt.Sprintf("domain: ask of unknown query %T", q))
}

// viewAccount renders the account with its wallets (primary first).
func (s *AccountState) viewAccount() AccountView { return s.viewAccountAs(s.Account) }

func (s *AccountState) viewAccountAs(a *Account) AccountView {
	v := ViewAccount(a)
	ws := s.SortedWallets()
	sort.SliceStable(ws, func(i, j int) bool { return ws[i].Primary && !ws[j].Primary })
	v.Wallets = make([]WalletView, 0, len(ws))
	for _, w := range ws {
		v.Wallets = append(v.Wallets, ViewWallet(w))
	}
	return v
}
