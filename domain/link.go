package domain

import (
	"fmt"
	"math/big"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// Payment link states (CONTRACT.md "Payment links").
const (
	LinkOpen      = "open"
	LinkPaid      = "paid"
	LinkCancelled = "cancelled"
	LinkExpired   = "expired"
	// LedgerLate is the ledger state of money that reached a link after it
	// closed (it is forwarded all the same).
	LedgerLate = "late"
)

// EventLinkPaid is the webhook event a link fires when paid.
const EventLinkPaid = "payment_link.paid"

// MaxLinkPayments bounds the payments one link records; payments beyond
// it are still forwarded (forwarding moves the receive address's whole
// balance) but not listed.
const MaxLinkPayments = 1000

// LinkPayment is one verified ERC-20 Transfer log to a link's receive
// address, counted once (by TxHash and LogIndex).
type LinkPayment struct {
	TxHash   string // lower-case 0x hex
	LogIndex uint64
	Amount   *big.Int // base units of the link's currency
	// Late: it arrived after the link closed; EntryID is its own ledger
	// entry (state late).
	Late    bool
	EntryID string
	At      time.Time
	// MinedAt is the block's time when the host knows it (command only,
	// not stored): money mined after the link's expiry is late even when
	// it is counted before the expiry job ran. Zero: the decision's now.
	MinedAt time.Time
}

// Link is one payment link row. Immutable once built.
type Link struct {
	ID             string // pl_…
	Account        string
	State          string
	Currency       string
	Amount         *big.Int // base units
	Received       *big.Int // counted while open (late money is not)
	Forwarded      *big.Int // moved on to the payout wallet, every payment included
	ReceiveAddress string   // EIP-55: the CREATE2 address of the link's forwarder
	PayoutWallet   string   // EIP-55: the only possible destination
	TokenAddress   string   // EIP-55
	ChainID        uint64
	URL            string // <public base>/pay/{id}
	Description    string
	ExpiresAt      time.Time // zero: never
	PaidAt         time.Time
	Payments       []LinkPayment
	ForwardTxHash  string // the last forward seen
	// FromBlock is the chain head when the link was made: no payment to
	// its fresh address can be older, so log scans start there.
	FromBlock uint64
	EventID   string // payment_link.paid
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Open reports whether the link still takes payments toward its amount.
func (l *Link) Open() bool { return l.State == LinkOpen }

// Unforwarded is what the link received and has not yet seen forwarded.
func (l *Link) Unforwarded() *big.Int {
	total := new(big.Int)
	for _, p := range l.Payments {
		total.Add(total, p.Amount)
	}
	return total.Sub(total, l.Forwarded)
}

// linkEdges is the graph a link row may follow: open → paid | cancelled |
// expired; every state may be rewritten in place (payments, forwards).
var linkEdges = map[string][]string{
	LinkOpen:      {LinkOpen, LinkPaid, LinkCancelled, LinkExpired},
	LinkPaid:      {LinkPaid},
	LinkCancelled: {LinkCancelled},
	LinkExpired:   {LinkExpired},
}

// LinkState is one payment link entity. The zero value is a link that
// does not exist yet.
type LinkState struct {
	Link *Link
	Idem IdemStore
}

// NewLinkState returns an empty link entity.
func NewLinkState() *LinkState { return &LinkState{} }

// Clone copies the state; rows are shared, they are immutable.
func (s *LinkState) Clone() Entity { return &LinkState{Link: s.Link, Idem: s.Idem.Clone()} }

// Exists reports whether the entity holds a row or a stored answer.
func (s *LinkState) Exists() bool { return s.Link != nil || s.Idem.Len() > 0 }

// InFlight is IdemStore.InFlight against the committed link state.
func (s *LinkState) InFlight(committed Entity, scope string, now time.Time) bool {
	return s.Idem.InFlight(&committed.(*LinkState).Idem, scope, now)
}

// Apply applies one event of a link record: a row or a stored answer.
func (s *LinkState) Apply(e *Event) {
	switch e.Kind {
	case EvLinkPut:
		s.applyRow(e.Link)
	case EvWebhookEventPut: // born in this record; the event entity and the store hold it
	case EvIdemPut:
		s.Idem.Put(e.Idem)
	default:
		panic(fmt.Sprintf("domain: apply of event kind %s to a payment link", e.Kind))
	}
}

func (s *LinkState) applyRow(l *Link) {
	if l == nil || l.ID == "" || l.Amount == nil || l.Received == nil || l.Forwarded == nil {
		panic("domain: apply link_put without id or amounts")
	}
	if (l.State == LinkPaid) != (l.EventID != "") {
		panic(fmt.Sprintf("domain: apply link_put of %s: state %s with event id %q", l.ID, l.State, l.EventID))
	}
	old := s.Link
	if old == nil {
		if l.State != LinkOpen {
			panic(fmt.Sprintf("domain: apply link_put creates %s in state %s", l.ID, l.State))
		}
		s.Link = l
		return
	}
	if old.ID != l.ID || old.ReceiveAddress != l.ReceiveAddress || len(l.Payments) < len(old.Payments) || l.Forwarded.Cmp(old.Forwarded) < 0 {
		panic(fmt.Sprintf("domain: apply link_put of %s: not a successor of the current row", l.ID))
	}
	for _, next := range linkEdges[old.State] {
		if next == l.State {
			s.Link = l
			return
		}
	}
	panic(fmt.Sprintf("domain: apply link_put of %s: %s → %s is not a transition", l.ID, old.State, l.State))
}

// Row methods of a payment link. A link stays live while it is open or
// holds money not yet forwarded: its chain side must finish the forward.
func (l *Link) RowID() string                { return l.ID }
func (l *Link) RowAccount() string           { return l.Account }
func (l *Link) Live() bool                   { return l.Open() || l.Unforwarded().Sign() > 0 }
func (l *Link) RowEventID() string           { return l.EventID }
func (l *Link) MarshalRow(dst []byte) []byte { return MarshalLink(dst, l) }
func (l *Link) LookupKeys() []string         { return []string{AddressKey(l.ReceiveAddress)} }

// Ledger is the link's entries: the link itself (amount_in the amount
// asked, amount_out what it received, tx_hash the last payment) and one
// entry per late payment.
func (l *Link) Ledger() []LedgerEntry {
	out := []LedgerEntry{{ID: l.ID, Account: l.Account, Type: LedgerPaymentLink, State: l.State, FromCurrency: l.Currency,
		ToCurrency: l.Currency, AmountIn: l.Amount, AmountOut: l.Received, ReferenceID: l.ID, Description: l.Description, CreatedAt: l.CreatedAt}}
	for _, p := range l.Payments {
		if p.Late {
			out = append(out, LedgerEntry{ID: p.EntryID, Account: l.Account, Type: LedgerPaymentLink, State: LedgerLate,
				FromCurrency: l.Currency, ToCurrency: l.Currency, AmountIn: p.Amount, AmountOut: p.Amount, TxHash: p.TxHash,
				ReferenceID: l.ID, Description: l.Description, CreatedAt: p.At})
		} else {
			out[0].TxHash = p.TxHash
		}
	}
	return out
}

// MarshalLink encodes a link row; field numbers are the format.
func MarshalLink(dst []byte, l *Link) []byte {
	// The string fields, indexed by field number (empty ones are omitted).
	for num, s := range []string{1: l.ID, 2: l.Account, 3: l.State, 4: l.Currency, 8: l.ReceiveAddress, 9: l.PayoutWallet,
		10: l.TokenAddress, 12: l.URL, 13: l.Description, 17: l.ForwardTxHash, 18: l.EventID} {
		dst = appendString(dst, protowire.Number(num), s)
	}
	dst = appendAmount(dst, 5, l.Amount)
	dst = appendAmount(dst, 6, l.Received)
	dst = appendAmount(dst, 7, l.Forwarded)
	dst = appendUint(dst, 11, l.ChainID)
	dst = appendTime(dst, 14, l.ExpiresAt)
	dst = appendTime(dst, 15, l.PaidAt)
	for i := range l.Payments {
		dst = appendMessage(dst, 16, false, func(b []byte) []byte { return marshalLinkPayment(b, &l.Payments[i]) })
	}
	dst = appendTime(dst, 19, l.CreatedAt)
	dst = appendTime(dst, 20, l.UpdatedAt)
	return appendUint(dst, 21, l.FromBlock)
}

// UnmarshalLink decodes a link row; it never panics on bad input.
func UnmarshalLink(b []byte) (*Link, error) {
	l := &Link{}
	err := walk(b, func(num protowire.Number, v value) error {
		var err error
		if p := l.stringField(num); p != nil {
			*p = string(v.b)
			return nil
		}
		switch num {
		case 5:
			l.Amount, err = parseBaseUnits(v.b)
		case 6:
			l.Received, err = parseBaseUnits(v.b)
		case 7:
			l.Forwarded, err = parseBaseUnits(v.b)
		case 11:
			l.ChainID = v.u
		case 14:
			l.ExpiresAt = v.time()
		case 15:
			l.PaidAt = v.time()
		case 16:
			if len(l.Payments) >= MaxLinkPayments {
				return fmt.Errorf("more than %d payments", MaxLinkPayments)
			}
			var p LinkPayment
			p, err = unmarshalLinkPayment(v.b)
			l.Payments = append(l.Payments, p)
		case 19:
			l.CreatedAt = v.time()
		case 20:
			l.UpdatedAt = v.time()
		case 21:
			l.FromBlock = v.u
		}
		return err
	})
	if _, ok := linkEdges[l.State]; err == nil && !ok {
		err = fmt.Errorf("%w: link %s has state %q", errCodec, l.ID, l.State)
	}
	if err == nil && (l.Amount == nil || l.Received == nil || l.Forwarded == nil) {
		err = fmt.Errorf("%w: link %s without amounts", errCodec, l.ID)
	}
	if err = requireID(err, l.ID, "payment link"); err != nil {
		return nil, err
	}
	return l, nil
}

// stringField is the string field numbered num, nil for another field.
func (l *Link) stringField(num protowire.Number) *string {
	switch num {
	case 1:
		return &l.ID
	case 2:
		return &l.Account
	case 3:
		return &l.State
	case 4:
		return &l.Currency
	case 8:
		return &l.ReceiveAddress
	case 9:
		return &l.PayoutWallet
	case 10:
		return &l.TokenAddress
	case 12:
		return &l.URL
	case 13:
		return &l.Description
	case 17:
		return &l.ForwardTxHash
	case 18:
		return &l.EventID
	}
	return nil
}

func marshalLinkPayment(dst []byte, p *LinkPayment) []byte {
	dst = appendString(dst, 1, p.TxHash)
	dst = appendUint(dst, 2, p.LogIndex)
	dst = appendAmount(dst, 3, p.Amount)
	dst = appendBool(dst, 4, p.Late)
	dst = appendString(dst, 5, p.EntryID)
	return appendTime(dst, 6, p.At)
}

func unmarshalLinkPayment(b []byte) (LinkPayment, error) {
	var p LinkPayment
	err := walk(b, func(num protowire.Number, v value) error {
		var err error
		switch num {
		case 1:
			p.TxHash = string(v.b)
		case 2:
			p.LogIndex = v.u
		case 3:
			p.Amount, err = parseBaseUnits(v.b)
		case 4:
			p.Late = v.u != 0
		case 5:
			p.EntryID = string(v.b)
		case 6:
			p.At = v.time()
		}
		return err
	})
	if err == nil && (p.TxHash == "" || p.Amount == nil) {
		err = fmt.Errorf("%w: link payment without tx hash or amount", errCodec)
	}
	return p, err
}
