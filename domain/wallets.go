package domain

import (
	"sort"
	"time"

	"github.com/fxd-labs/fxd/chain/siwe"
)

// Wallet is a signer wallet linked to an account by a SIWE proof.
type Wallet struct {
	Address   string // EIP-55 checksummed; the row id
	Account   string
	Primary   bool
	Label     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Challenge is an issued SIWE message waiting for its signature. Its nonce
// is single use: registering deletes it, and an expired one is useless.
type Challenge struct {
	Nonce     string
	Address   string
	Message   string // the exact text the wallet must sign
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Wallet limits.
const (
	MaxWalletsPerAccount    = 100
	MaxChallengesPerAccount = 20
	ChallengeLifetime       = 10 * time.Minute
	siweStatement           = "Link this wallet to your fxd account."
)

// CreateChallenge is POST /wallets/challenge. Domain, URI and ChainID are
// filled by the host from the request and the chain; Address from the body.
type CreateChallenge struct {
	Address string `json:"address"`
	Domain  string `json:"-"`
	URI     string `json:"-"`
	ChainID uint64 `json:"-"`
}

// RegisterWallet is POST /wallets. The host parses the message and
// recovers the signer (crypto stays off the actor); Decide checks both
// against the challenge it issued.
type RegisterWallet struct {
	Message   string       `json:"message"`
	Signature string       `json:"signature"`
	Parsed    siwe.Message `json:"-"`
	Signer    string       `json:"-"` // EIP-55 address recovered from the signature
}

// UpdateWallet is PATCH /wallets/{address}.
type UpdateWallet struct {
	Address string  `json:"-"`
	Primary *bool   `json:"primary"`
	Label   *string `json:"label"`
}

// DeleteWallet is DELETE /wallets/{address}.
type DeleteWallet struct{ Address string }

// ListWallets is GET /wallets.
type ListWallets struct{ Page Page }

func (CreateChallenge) Target() Kind  { return KindAccount }
func (RegisterWallet) Target() Kind   { return KindAccount }
func (UpdateWallet) Target() Kind     { return KindAccount }
func (DeleteWallet) Target() Kind     { return KindAccount }
func (ListWallets) queryName() string { return "list_wallets" }

// WalletView is one wallet on the wire.
type WalletView struct {
	Address   string  `json:"address"`
	Primary   bool    `json:"primary"`
	Label     *string `json:"label"`
	CreatedAt string  `json:"created_at"`
}

// ViewWallet renders a wallet.
func ViewWallet(w *Wallet) WalletView {
	return WalletView{Address: w.Address, Primary: w.Primary, Label: nullable(w.Label), CreatedAt: RFC3339(w.CreatedAt)}
}

// ChallengeView is the answer to POST /wallets/challenge.
type ChallengeView struct {
	Message   string `json:"message"`
	Nonce     string `json:"nonce"`
	ExpiresAt string `json:"expires_at"`
}

func (s *AccountState) createChallenge(c CreateChallenge, env Env) ([]Event, Reply, *Error) {
	addr, err := NormalizeRecipient("address", c.Address) // no key signs for the zero address
	if err != nil {
		return nil, Reply{}, err
	}
	now := env.Now
	var events []Event
	// Drop expired challenges, and the oldest live ones past the bound, so
	// the table stays small without ever refusing a new challenge.
	live := make([]*Challenge, 0, len(s.Challenges))
	for _, ch := range s.Challenges {
		if !now.Before(ch.ExpiresAt) {
			events = append(events, Event{Kind: EvChallengeDeleted, ID: ch.Nonce})
		} else {
			live = append(live, ch)
		}
	}
	sort.Slice(live, func(i, j int) bool { return live[i].Nonce < live[j].Nonce })
	for len(live) >= MaxChallengesPerAccount {
		events = append(events, Event{Kind: EvChallengeDeleted, ID: live[0].Nonce})
		live = live[1:]
	}
	sortEventsByID(events)
	nonce := env.NewID("siwe") // alphanumeric, 80 random bits in production
	// The message shows whole seconds; store exactly what it says.
	now = now.Truncate(time.Second)
	msg := siwe.Message{
		Domain: c.Domain, Address: addr, Statement: siweStatement, URI: c.URI, Version: "1",
		ChainID: c.ChainID, Nonce: nonce, IssuedAt: now, ExpirationTime: now.Add(ChallengeLifetime),
	}
	ch := &Challenge{Nonce: nonce, Address: addr, Message: msg.String(), CreatedAt: now, ExpiresAt: now.Add(ChallengeLifetime)}
	events = append(events, Event{Kind: EvChallengePut, Challenge: ch})
	return events, jsonReply(200, ChallengeView{Message: ch.Message, Nonce: nonce, ExpiresAt: RFC3339(ch.ExpiresAt)}), nil
}

// sortEventsByID keeps Decide deterministic: map iteration order must not
// leak into the log.
func sortEventsByID(events []Event) {
	sort.Slice(events, func(i, j int) bool { return events[i].ID < events[j].ID })
}

func (s *AccountState) registerWallet(c RegisterWallet, now time.Time) ([]Event, Reply, *Error) {
	ch := s.Challenges[c.Parsed.Nonce]
	if ch == nil || !now.Before(ch.ExpiresAt) {
		return nil, Reply{}, ErrInvalid("unknown, used or expired challenge nonce; request a new challenge")
	}
	if c.Message != ch.Message {
		return nil, Reply{}, ErrInvalid("message differs from the issued challenge")
	}
	if c.Signer != ch.Address {
		return nil, Reply{}, ErrBadSignature("signature does not recover to the challenge's address")
	}
	if s.Wallets[ch.Address] != nil {
		return nil, Reply{}, ErrInvalidState("wallet %s is already linked", ch.Address)
	}
	if len(s.Wallets) >= MaxWalletsPerAccount {
		return nil, Reply{}, ErrInvalidState("account has %d wallets, the maximum", MaxWalletsPerAccount)
	}
	w := &Wallet{Address: ch.Address, Account: s.Account.ID, Primary: s.primaryWallet() == nil, CreatedAt: now, UpdatedAt: now}
	return []Event{{Kind: EvChallengeDeleted, ID: ch.Nonce}, {Kind: EvWalletPut, Wallet: w}}, jsonReply(201, ViewWallet(w)), nil
}

func (s *AccountState) primaryWallet() *Wallet {
	for _, w := range s.Wallets {
		if w.Primary {
			return w
		}
	}
	return nil
}

func (s *AccountState) updateWallet(c UpdateWallet, now time.Time) ([]Event, Reply, *Error) {
	old := s.Wallets[c.Address]
	if old == nil {
		return nil, Reply{}, ErrNotFound("wallet")
	}
	w := *old
	var events []Event
	if c.Label != nil {
		if err := checkText("label", *c.Label, maxNameRunes, true); err != nil {
			return nil, Reply{}, err
		}
		w.Label = *c.Label
	}
	if c.Primary != nil {
		if !*c.Primary && old.Primary {
			return nil, Reply{}, ErrInvalid("an account always has a primary wallet: make another wallet primary instead")
		}
		if *c.Primary && !old.Primary {
			if p := s.primaryWallet(); p != nil {
				demoted := *p
				demoted.Primary, demoted.UpdatedAt = false, now
				events = append(events, Event{Kind: EvWalletPut, Wallet: &demoted})
			}
			w.Primary = true
		}
	}
	w.UpdatedAt = now
	events = append(events, Event{Kind: EvWalletPut, Wallet: &w})
	return events, jsonReply(200, ViewWallet(&w)), nil
}

func (s *AccountState) deleteWallet(c DeleteWallet) ([]Event, Reply, *Error) {
	w := s.Wallets[c.Address]
	if w == nil {
		return nil, Reply{}, ErrNotFound("wallet")
	}
	if w.Primary && len(s.Wallets) > 1 {
		return nil, Reply{}, ErrInvalidState("the primary wallet cannot be deleted while other wallets remain; make another wallet primary first")
	}
	return []Event{{Kind: EvWalletDeleted, ID: c.Address}}, jsonReply(200, DeletedView{ID: c.Address, Deleted: true}), nil
}

// SortedWallets returns the wallets newest first (address breaks ties).
func (s *AccountState) SortedWallets() []*Wallet {
	out := make([]*Wallet, 0, len(s.Wallets))
	for _, w := range s.Wallets {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].Address > out[j].Address
	})
	return out
}

// walletPage pages wallets (sorted newest first, not by id): the cursor is
// found by its address.
func walletPage(ws []*Wallet, p Page) (ListView[WalletView], *Error) {
	start := 0
	if p.StartingAfter != "" {
		start = -1
		for i, w := range ws {
			if w.Address == p.StartingAfter {
				start = i + 1
				break
			}
		}
		if start < 0 {
			return ListView[WalletView]{}, ErrInvalid("starting_after is not a wallet of this account")
		}
	}
	return Paginate(ws[start:], func(w *Wallet) string { return w.Address }, ViewWallet, Page{Limit: p.Limit}), nil
}
