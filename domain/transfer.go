package domain

import (
	"fmt"
	"math/big"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// Transfer states (CONTRACT.md "Transfers").
const (
	TransferCreated   = "created"
	TransferAccepted  = "accepted"  // cross-currency: the gasless leg is built
	TransferSubmitted = "submitted" // same: tx pending; cross: relayed, not yet mined
	TransferConfirmed = "confirmed"
	TransferFailed    = "failed"
	TransferExpired   = "expired"
)

// transferEdges is the graph a transfer row may follow; applyRow refuses
// any other step.
var transferEdges = map[string][]string{
	TransferCreated:   {TransferAccepted, TransferSubmitted, TransferConfirmed, TransferExpired},
	TransferAccepted:  {TransferSubmitted, TransferExpired, TransferFailed},
	TransferSubmitted: {TransferConfirmed, TransferFailed},
}

// TransferTerminal reports whether a transfer in state takes no command.
func TransferTerminal(state string) bool {
	return state == TransferConfirmed || state == TransferFailed || state == TransferExpired
}

// transferHasEvent: confirmed and failed fire transfer.confirmed/failed.
func transferHasEvent(state string) bool {
	return state == TransferConfirmed || state == TransferFailed
}

// Transfer is one transfer row. Immutable once built: a transition makes
// a new row.
type Transfer struct {
	ID           string // tr_…
	Account      string
	State        string
	FromCurrency string
	Currency     string
	Amount       *big.Int // base units of FromCurrency
	AmountOut    *big.Int // base units of Currency: the amount for a same-currency transfer, the pool's quote, then the actual
	MinAmountOut *big.Int // base units of Currency
	Recipient    string   // EIP-55 payee
	ContactID    string
	SourceWallet string // EIP-55 signer wallet
	Memo         string
	Signing      []byte        // the JSON "signing" object the host built
	Gasless      *GaslessTerms // cross-currency, from accept on
	Signature    string        // cross-currency: the caller's Permit2 signature
	// TxHash: same-currency, the caller's transaction; cross-currency, the
	// relay's. LogIndex is the index of the verified Transfer log (same).
	TxHash        string
	LogIndex      uint64
	FailureReason string
	EventID       string
	ExpiresAt     time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Cross reports whether the transfer swaps (from_currency ≠ currency).
func (t *Transfer) Cross() bool { return t.FromCurrency != t.Currency }

// Priced says the transfer's amount_out and min_amount_out are known: a
// same-currency transfer's from creation, a cross-currency one's once
// accept has priced its leg on the pool. The view shows them null until
// then, and so does the ledger's amount_out.
func (t *Transfer) Priced() bool { return !t.Cross() || t.Gasless != nil }

// TransferState is one transfer entity. The zero value is a transfer that
// does not exist yet.
type TransferState struct {
	Transfer *Transfer
	Idem     IdemStore
}

// NewTransferState returns an empty transfer entity.
func NewTransferState() *TransferState { return &TransferState{} }

// Clone copies the state; rows are shared, they are immutable.
func (s *TransferState) Clone() Entity {
	return &TransferState{Transfer: s.Transfer, Idem: s.Idem.Clone()}
}

// Exists reports whether the entity holds a row or a stored answer.
func (s *TransferState) Exists() bool { return s.Transfer != nil || s.Idem.Len() > 0 }

// InFlight is IdemStore.InFlight against the committed transfer state.
func (s *TransferState) InFlight(committed Entity, scope string, now time.Time) bool {
	return s.Idem.InFlight(&committed.(*TransferState).Idem, scope, now)
}

// Apply applies one event of a transfer record: a row or a stored answer.
func (s *TransferState) Apply(e *Event) {
	switch e.Kind {
	case EvTransferPut:
		s.applyRow(e.Transfer)
	case EvWebhookEventPut: // born in this record; the event entity and the store hold it
	case EvIdemPut:
		s.Idem.Put(e.Idem)
	default:
		panic(fmt.Sprintf("domain: apply of event kind %s to a transfer", e.Kind))
	}
}

// applyRow writes a row; a row off the transition graph is a broken
// invariant and panics.
func (s *TransferState) applyRow(t *Transfer) {
	if t == nil || t.ID == "" || t.Amount == nil || t.AmountOut == nil || t.MinAmountOut == nil {
		panic("domain: apply transfer_put without id or amounts")
	}
	if transferHasEvent(t.State) != (t.EventID != "") {
		panic(fmt.Sprintf("domain: apply transfer_put of %s: state %s with event id %q", t.ID, t.State, t.EventID))
	}
	old := s.Transfer
	if old == nil {
		if t.State != TransferCreated {
			panic(fmt.Sprintf("domain: apply transfer_put creates %s in state %s", t.ID, t.State))
		}
		s.Transfer = t
		return
	}
	if old.ID != t.ID || old.FromCurrency != t.FromCurrency || old.Currency != t.Currency {
		panic(fmt.Sprintf("domain: apply transfer_put of %s onto %s", t.ID, old.ID))
	}
	for _, next := range transferEdges[old.State] {
		if next == t.State {
			s.Transfer = t
			return
		}
	}
	panic(fmt.Sprintf("domain: apply transfer_put of %s: %s → %s is not a transition", t.ID, old.State, t.State))
}

// Row methods of a transfer.
func (t *Transfer) RowID() string                { return t.ID }
func (t *Transfer) RowAccount() string           { return t.Account }
func (t *Transfer) Live() bool                   { return !TransferTerminal(t.State) }
func (t *Transfer) RowEventID() string           { return t.EventID }
func (t *Transfer) MarshalRow(dst []byte) []byte { return MarshalTransfer(dst, t) }
func (t *Transfer) LookupKeys() []string         { return nil }

// Ledger is the transfer's entry: amount_in in from_currency, amount_out
// in currency (none until Priced), description the memo.
func (t *Transfer) Ledger() []LedgerEntry {
	var out *big.Int
	if t.Priced() {
		out = t.AmountOut
	}
	return []LedgerEntry{{
		ID: t.ID, Account: t.Account, Type: LedgerTransfer, State: t.State, FromCurrency: t.FromCurrency, ToCurrency: t.Currency,
		AmountIn: t.Amount, AmountOut: out, TxHash: t.TxHash, ReferenceID: t.ID, Description: t.Memo, CreatedAt: t.CreatedAt,
	}}
}

// MarshalTransfer encodes a transfer row; field numbers are the format.
func MarshalTransfer(dst []byte, t *Transfer) []byte {
	dst = appendString(dst, 1, t.ID)
	dst = appendString(dst, 2, t.Account)
	dst = appendString(dst, 3, t.State)
	dst = appendString(dst, 4, t.FromCurrency)
	dst = appendString(dst, 5, t.Currency)
	dst = appendAmount(dst, 6, t.Amount)
	dst = appendAmount(dst, 7, t.AmountOut)
	dst = appendAmount(dst, 8, t.MinAmountOut)
	dst = appendString(dst, 9, t.Recipient)
	dst = appendString(dst, 10, t.ContactID)
	dst = appendString(dst, 11, t.SourceWallet)
	dst = appendString(dst, 12, t.Memo)
	dst = appendBytes(dst, 13, t.Signing)
	if t.Gasless != nil {
		dst = appendMessage(dst, 14, false, func(b []byte) []byte { return marshalGasless(b, t.Gasless) })
	}
	dst = appendString(dst, 15, t.Signature)
	dst = appendString(dst, 16, t.TxHash)
	dst = appendUint(dst, 17, t.LogIndex)
	dst = appendString(dst, 18, t.FailureReason)
	dst = appendString(dst, 19, t.EventID)
	dst = appendTime(dst, 20, t.ExpiresAt)
	dst = appendTime(dst, 21, t.CreatedAt)
	return appendTime(dst, 22, t.UpdatedAt)
}

// UnmarshalTransfer decodes a transfer row; it never panics on bad input.
func UnmarshalTransfer(b []byte) (*Transfer, error) {
	t := &Transfer{}
	err := walk(b, func(num protowire.Number, v value) error {
		if p := transferString(t, num); p != nil {
			*p = string(v.b)
			return nil
		}
		var err error
		switch num {
		case 6:
			t.Amount, err = parseBaseUnits(v.b)
		case 7:
			t.AmountOut, err = parseBaseUnits(v.b)
		case 8:
			t.MinAmountOut, err = parseBaseUnits(v.b)
		case 13:
			t.Signing = append([]byte(nil), v.b...)
		case 14:
			t.Gasless, err = unmarshalGasless(v.b)
		case 17:
			t.LogIndex = v.u
		case 20:
			t.ExpiresAt = v.time()
		case 21:
			t.CreatedAt = v.time()
		case 22:
			t.UpdatedAt = v.time()
		}
		return err
	})
	if _, ok := transferEdges[t.State]; err == nil && !ok && !TransferTerminal(t.State) {
		err = fmt.Errorf("%w: transfer %s has state %q", errCodec, t.ID, t.State)
	}
	if err = requireID(err, t.ID, "transfer"); err != nil {
		return nil, err
	}
	return t, nil
}

// transferString is the string field numbered num, nil for another field.
// A switch, not a map: the applier decodes every transfer row it writes.
func transferString(t *Transfer, num protowire.Number) *string {
	switch num {
	case 1:
		return &t.ID
	case 2:
		return &t.Account
	case 3:
		return &t.State
	case 4:
		return &t.FromCurrency
	case 5:
		return &t.Currency
	case 9:
		return &t.Recipient
	case 10:
		return &t.ContactID
	case 11:
		return &t.SourceWallet
	case 12:
		return &t.Memo
	case 15:
		return &t.Signature
	case 16:
		return &t.TxHash
	case 18:
		return &t.FailureReason
	case 19:
		return &t.EventID
	}
	return nil
}
