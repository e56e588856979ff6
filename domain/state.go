package domain

import (
	"fmt"
	"maps"
	"sort"
	"time"
)

// AccountState is everything an account entity owns. The zero value (via
// NewAccountState) is an account that does not exist yet.
type AccountState struct {
	Account  *Account // nil until created
	Keys     map[string]*APIKey
	Contacts map[string]*Contact
	Idem     map[string]*IdemRecord // by IdemRecord.Scope
	// Wallets by EIP-55 address; Challenges by nonce.
	Wallets    map[string]*Wallet
	Challenges map[string]*Challenge
	// idemOrder holds idempotency scopes oldest first, so expiry in Apply
	// is O(expired) and deterministic (it depends only on event times).
	idemOrder []string
}

// NewAccountState returns an empty state.
func NewAccountState() *AccountState {
	return &AccountState{
		Keys:       map[string]*APIKey{},
		Contacts:   map[string]*Contact{},
		Idem:       map[string]*IdemRecord{},
		Wallets:    map[string]*Wallet{},
		Challenges: map[string]*Challenge{},
	}
}

// Apply writes one event into the state. It is total for every event Decide
// can produce; an event that contradicts the state is a broken invariant
// (the log holds only what Decide accepted) and panics.
func (s *AccountState) Apply(e *Event) {
	switch e.Kind {
	case EvAccountPut:
		s.Account = e.Account
	case EvKeyPut:
		s.Keys[e.Key.ID] = e.Key
	case EvContactPut:
		s.Contacts[e.Contact.ID] = e.Contact
	case EvContactDeleted:
		if _, ok := s.Contacts[e.ID]; !ok {
			panic(fmt.Sprintf("domain: apply contact_deleted of unknown contact %s", e.ID))
		}
		delete(s.Contacts, e.ID)
	case EvIdemPut:
		s.expireIdem(e.Idem.CreatedAt)
		if _, ok := s.Idem[e.Idem.Scope]; !ok {
			s.idemOrder = append(s.idemOrder, e.Idem.Scope)
		}
		s.Idem[e.Idem.Scope] = e.Idem
	case EvWalletPut:
		s.Wallets[e.Wallet.Address] = e.Wallet
	case EvWalletDeleted:
		if _, ok := s.Wallets[e.ID]; !ok {
			panic(fmt.Sprintf("domain: apply wallet_deleted of unknown wallet %s", e.ID))
		}
		delete(s.Wallets, e.ID)
	case EvChallengePut:
		s.Challenges[e.Challenge.Nonce] = e.Challenge
	case EvChallengeDeleted:
		if _, ok := s.Challenges[e.ID]; !ok {
			panic(fmt.Sprintf("domain: apply challenge_deleted of unknown nonce %s", e.ID))
		}
		delete(s.Challenges, e.ID)
	default:
		panic(fmt.Sprintf("domain: apply of unknown event kind %d", e.Kind))
	}
}

// ApplyRecord applies every event of a record in order.
func (s *AccountState) ApplyRecord(r *Record) {
	for i := range r.Events {
		s.Apply(&r.Events[i])
	}
}

// expireIdem drops records older than the retention at time now. It runs
// only inside Apply, so two replicas that apply the same events hold the
// same records.
func (s *AccountState) expireIdem(now time.Time) {
	cut := s.expiredIdem(now)
	for _, scope := range s.idemOrder[:cut] {
		delete(s.Idem, scope)
	}
	if cut > 0 {
		s.idemOrder = append(s.idemOrder[:0], s.idemOrder[cut:]...)
	}
}

// expiredIdem counts the records expireIdem(now) drops: the expired prefix
// of idemOrder. It reads only.
func (s *AccountState) expiredIdem(now time.Time) int {
	n := 0
	for n < len(s.idemOrder) && now.Sub(s.Idem[s.idemOrder[n]].CreatedAt) >= IdemRetention {
		n++
	}
	return n
}

// LoadIdem inserts stored idempotency records (from the snapshot store) in
// creation order, skipping those already expired at now.
func (s *AccountState) LoadIdem(records []*IdemRecord, now time.Time) {
	sort.Slice(records, func(i, j int) bool { return records[i].CreatedAt.Before(records[j].CreatedAt) })
	for _, r := range records {
		if now.Sub(r.CreatedAt) >= IdemRetention {
			continue
		}
		if _, ok := s.Idem[r.Scope]; !ok {
			s.idemOrder = append(s.idemOrder, r.Scope)
		}
		s.Idem[r.Scope] = r
	}
}

// LiveIdem returns the stored answer for scope if it is younger than the
// retention at now.
func (s *AccountState) LiveIdem(scope string, now time.Time) *IdemRecord {
	r := s.Idem[scope]
	if r == nil || now.Sub(r.CreatedAt) >= IdemRetention {
		return nil
	}
	return r
}

// SortedContacts returns the contacts newest first (ids sort by creation).
func (s *AccountState) SortedContacts() []*Contact {
	out := make([]*Contact, 0, len(s.Contacts))
	for _, c := range s.Contacts {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID > out[j].ID })
	return out
}

// Clone copies the maps of the state; rows are shared, they are immutable.
func (s *AccountState) Clone() *AccountState {
	return &AccountState{
		Account:    s.Account,
		Keys:       maps.Clone(s.Keys),
		Contacts:   maps.Clone(s.Contacts),
		Idem:       maps.Clone(s.Idem),
		Wallets:    maps.Clone(s.Wallets),
		Challenges: maps.Clone(s.Challenges),
		idemOrder:  append([]string(nil), s.idemOrder...),
	}
}
