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
	Idem     IdemStore
	// Wallets by EIP-55 address; Challenges by nonce.
	Wallets    map[string]*Wallet
	Challenges map[string]*Challenge
}

// NewAccountState returns an empty state. Its maps stay nil until their
// first entry: an active actor holds two states (speculative and
// committed), and most accounts never have a wallet or a challenge, so
// empty maps made up front were a good part of an account's memory.
func NewAccountState() *AccountState { return &AccountState{} }

// putIn sets m[k] = v, making the map on its first entry.
func putIn[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = make(map[K]V, 1)
	}
	(*m)[k] = v
}

// AddKey, AddContact, AddWallet and AddChallenge install a row (Apply, and
// the store when it loads an account).
func (s *AccountState) AddKey(k *APIKey)          { putIn(&s.Keys, k.ID, k) }
func (s *AccountState) AddContact(c *Contact)     { putIn(&s.Contacts, c.ID, c) }
func (s *AccountState) AddWallet(w *Wallet)       { putIn(&s.Wallets, w.Address, w) }
func (s *AccountState) AddChallenge(c *Challenge) { putIn(&s.Challenges, c.Nonce, c) }

// Apply writes one event into the state. It is total for every event Decide
// can produce; an event that contradicts the state is a broken invariant
// (the log holds only what Decide accepted) and panics.
func (s *AccountState) Apply(e *Event) {
	switch e.Kind {
	case EvAccountPut:
		s.Account = e.Account
	case EvKeyPut:
		s.AddKey(e.Key)
	case EvContactPut:
		s.AddContact(e.Contact)
	case EvContactDeleted:
		if _, ok := s.Contacts[e.ID]; !ok {
			panic(fmt.Sprintf("domain: apply contact_deleted of unknown contact %s", e.ID))
		}
		delete(s.Contacts, e.ID)
	case EvIdemPut:
		s.Idem.Put(e.Idem)
	case EvWalletPut:
		s.AddWallet(e.Wallet)
	case EvWalletDeleted:
		if _, ok := s.Wallets[e.ID]; !ok {
			panic(fmt.Sprintf("domain: apply wallet_deleted of unknown wallet %s", e.ID))
		}
		delete(s.Wallets, e.ID)
	case EvChallengePut:
		s.AddChallenge(e.Challenge)
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
func (s *AccountState) Clone() Entity { return s.CloneAccount() }

// CloneAccount is Clone with its concrete type.
func (s *AccountState) CloneAccount() *AccountState {
	return &AccountState{
		Account:    s.Account,
		Keys:       maps.Clone(s.Keys),
		Contacts:   maps.Clone(s.Contacts),
		Idem:       s.Idem.Clone(),
		Wallets:    maps.Clone(s.Wallets),
		Challenges: maps.Clone(s.Challenges),
	}
}

// InFlight is IdemStore.InFlight against the committed account state.
func (s *AccountState) InFlight(committed Entity, scope string, now time.Time) bool {
	return s.Idem.InFlight(&committed.(*AccountState).Idem, scope, now)
}

// Exists reports whether the account was created.
func (s *AccountState) Exists() bool { return s.Account != nil }
