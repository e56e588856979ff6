package domain

import (
	"fmt"
	"math/big"
	"strings"
	"time"
)

// The commands of a payment link entity (Target KindLink). The host (the
// payments desk) derives the receive address, verifies on-chain logs and
// checks the account; Decide checks the transition and builds the row.

// CreateLink is POST /payment-links. Refusal is the host's answer (403
// not_permitted, 400 wallet), stored under the Idempotency-Key.
type CreateLink struct {
	ID, Account    string
	Currency       string
	Amount         *big.Int
	Description    string
	ExpiresAt      time.Time // zero: never
	PayoutWallet   string
	ReceiveAddress string
	TokenAddress   string
	ChainID        uint64
	FromBlock      uint64 // the chain head at creation
	URL            string
	Refusal        *Error
}

// CancelLink is PATCH /payment-links/{id} {"state":"cancelled"}.
type CancelLink struct{ Account string }

// PayLink reports verified Transfer logs of the link's token to its
// receive address (the watcher, or POST /pay/{id}/submit). A log counts
// once: one already counted changes nothing.
type PayLink struct{ Payments []LinkPayment }

// LinkForwarded reports the total the link's forwarder has sent to the
// payout wallet, as the chain's Forwarded logs sum it up.
type LinkForwarded struct {
	Total  *big.Int
	TxHash string
}

// ExpireLink expires an open link past its expires_at.
type ExpireLink struct{}

func (CreateLink) Target() Kind    { return KindLink }
func (CancelLink) Target() Kind    { return KindLink }
func (PayLink) Target() Kind       { return KindLink }
func (LinkForwarded) Target() Kind { return KindLink }
func (ExpireLink) Target() Kind    { return KindLink }

// maxDescriptionRunes bounds a link's description.
const maxDescriptionRunes = 500

// Handle runs req through the link's idempotency store and Decide.
func (s *LinkState) Handle(req Request, env Env) Outcome {
	return s.Idem.Handle(req.Idem, env, MaxIdemPerOrder, "payment link", func() ([]Event, Reply, *Error) {
		prev := ""
		if s.Link != nil {
			prev = s.Link.EventID
		}
		rows, reply, err := s.Decide(req.Cmd, env)
		return LinkEvents(prev, rows), reply, err
	})
}

// Decide validates cmd against the link and returns the new row (none for
// an answer) and the reply: the link as its owner sees it (201 on create).
// PayLink answers the public view.
func (s *LinkState) Decide(cmd Command, env Env) ([]*Link, Reply, *Error) {
	if c, ok := cmd.(CreateLink); ok {
		return s.create(c, env)
	}
	l := s.Link
	if l == nil {
		return nil, Reply{}, ErrNotFound("payment link")
	}
	switch c := cmd.(type) {
	case CancelLink:
		if l.Account != c.Account {
			return nil, Reply{}, ErrNotFound("payment link")
		}
		if !l.Open() {
			return nil, Reply{}, ErrInvalidState("payment link %s is %s", l.ID, l.State)
		}
		if l.PastExpiry(env.Now) {
			// Expired (Link.At), though the expiry job may not have run yet.
			return nil, Reply{}, ErrInvalidState("payment link %s expired at %s", l.ID, RFC3339(l.ExpiresAt))
		}
		return linkReply(l.next(env, LinkCancelled, nil), 200)
	case PayLink:
		return s.pay(c, env)
	case LinkForwarded:
		if c.Total == nil || c.Total.Cmp(l.Forwarded) <= 0 {
			return nil, jsonReply(200, ViewLink(l)), nil // nothing new: a repeat
		}
		total := new(big.Int).Set(c.Total)
		return linkReply(l.next(env, l.State, func(n *Link) { n.Forwarded, n.ForwardTxHash = total, cmpOr(strings.ToLower(c.TxHash), n.ForwardTxHash) }), 200)
	case ExpireLink:
		if !l.Open() || !l.PastExpiry(env.Now) {
			return nil, Reply{}, ErrInvalidState("payment link %s is %s and not past its expiry", l.ID, l.State)
		}
		return linkReply(l.next(env, LinkExpired, nil), 200)
	}
	panic(fmt.Sprintf("domain: decide of unknown payment link command %T", cmd))
}

func (s *LinkState) create(c CreateLink, env Env) ([]*Link, Reply, *Error) {
	if s.Link != nil {
		return nil, Reply{}, ErrInvalidState("payment link %s exists", s.Link.ID)
	}
	if c.Refusal != nil {
		return nil, Reply{}, c.Refusal
	}
	cur, err := RequiredCurrency("currency", c.Currency)
	if err != nil {
		return nil, Reply{}, err
	}
	if c.Amount == nil || c.Amount.Sign() <= 0 || c.Amount.Cmp(maxTransferUnits(cur.Decimals)) > 0 {
		return nil, Reply{}, ErrInvalid("amount must be more than 0 and at most %d", maxTransferWhole)
	}
	if err := checkNote("description", c.Description, maxDescriptionRunes); err != nil {
		return nil, Reply{}, err
	}
	if !c.ExpiresAt.IsZero() && !c.ExpiresAt.After(env.Now) {
		return nil, Reply{}, ErrInvalid("expires_at must be in the future")
	}
	for _, a := range []struct{ name, v string }{{"payout_wallet", c.PayoutWallet}, {"receive_address", c.ReceiveAddress}, {"token", c.TokenAddress}} {
		if _, err := NormalizeAddress(a.name, a.v); err != nil {
			return nil, Reply{}, err
		}
	}
	if !strings.HasPrefix(c.ID, KindLink.Prefix()) || c.Account == "" || c.URL == "" {
		return nil, Reply{}, ErrInvalid("link id, account and url are required")
	}
	l := &Link{
		ID: c.ID, Account: c.Account, State: LinkOpen, Currency: c.Currency, Amount: new(big.Int).Set(c.Amount),
		Received: new(big.Int), Forwarded: new(big.Int), ReceiveAddress: c.ReceiveAddress, PayoutWallet: c.PayoutWallet,
		TokenAddress: c.TokenAddress, ChainID: c.ChainID, FromBlock: c.FromBlock, URL: c.URL, Description: c.Description, ExpiresAt: c.ExpiresAt.UTC(),
		CreatedAt: env.Now, UpdatedAt: env.Now,
	}
	return linkReply([]*Link{l}, 201)
}

// pay counts the logs not counted yet: toward the amount while the link is
// open (paid once it is reached), as late money once it is closed. A link
// is closed from expires_at on, even before the expiry job ran: money
// counted after it, or mined after it, finds the link expired, as every
// view has shown it since (Link.At), so a link shown expired never turns
// paid. A Transfer of nothing is no payment (anyone can send one).
func (s *LinkState) pay(c PayLink, env Env) ([]*Link, Reply, *Error) {
	l := s.Link
	n := *l
	n.Payments = append([]LinkPayment(nil), l.Payments...)
	n.Received = new(big.Int).Set(l.Received)
	added := false
	for _, p := range c.Payments {
		h, err := normTxHash("tx_hash", p.TxHash)
		if err != nil || p.Amount == nil || p.Amount.Sign() < 0 {
			return nil, Reply{}, ErrInvalid("a payment needs a tx hash and an amount")
		}
		if p.Amount.Sign() == 0 || n.counted(h, p.LogIndex) || len(n.Payments) >= MaxLinkPayments {
			continue
		}
		if n.Open() && (n.PastExpiry(env.Now) || n.PastExpiry(p.MinedAt)) {
			n.State = LinkExpired // no event, as the expiry job's
		}
		p.TxHash, p.Amount, p.At, p.MinedAt = h, new(big.Int).Set(p.Amount), env.Now, time.Time{}
		if n.Open() {
			n.Received.Add(n.Received, p.Amount)
		} else {
			p.Late, p.EntryID = true, env.NewID(LatePaymentPrefix)
		}
		n.Payments = append(n.Payments, p)
		added = true
		if n.Open() && n.Received.Cmp(n.Amount) >= 0 {
			n.State, n.PaidAt, n.EventID = LinkPaid, env.Now, env.NewID("evt_")
		}
	}
	if !added {
		return nil, jsonReply(200, ViewPublicLink(l.At(env.Now))), nil
	}
	n.UpdatedAt = env.Now
	return []*Link{&n}, jsonReply(200, ViewPublicLink(&n)), nil
}

// At is the link as it stands at now: an open link past its expires_at is
// expired (a copy says so) though the expiry job has not recorded it yet.
// Every view of a link goes through it, so what a caller reads agrees with
// what a cancel or a payment decides at the same instant.
func (l *Link) At(now time.Time) *Link {
	if !l.Open() || !l.PastExpiry(now) {
		return l
	}
	n := *l
	n.State = LinkExpired
	return &n
}

// PastExpiry reports whether the link has an expiry and at is after it:
// a payment mined then is late, and the link can no longer be cancelled.
func (l *Link) PastExpiry(at time.Time) bool {
	return !l.ExpiresAt.IsZero() && at.After(l.ExpiresAt)
}

// counted reports whether the log was counted already.
func (l *Link) counted(txHash string, logIndex uint64) bool {
	for _, p := range l.Payments {
		if p.TxHash == txHash && p.LogIndex == logIndex {
			return true
		}
	}
	return false
}

func linkReply(rows []*Link, status int) ([]*Link, Reply, *Error) {
	return rows, jsonReply(status, ViewLink(rows[len(rows)-1])), nil
}

// next returns a copy of l in state with edit applied, stamped at env.Now.
func (l *Link) next(env Env, state string, edit func(*Link)) []*Link {
	n := *l
	n.State, n.UpdatedAt = state, env.Now
	if edit != nil {
		edit(&n)
	}
	return []*Link{&n}
}
