package domain

import (
	"fmt"
	"strings"
)

// Row is the main row of an entity that belongs to an account and lives
// in the store under its own id: an FX order, a transfer, a payment link.
// The store keeps one keyspace for all of them (their rows, the account's
// list of each kind, the live ones to resume at start, the events they
// fired, their ledger entries), keyed by the row's id, whose prefix names
// its kind. Rows are immutable once built.
type Row interface {
	RowID() string
	RowAccount() string
	// Live: not in an end state; its chain side resumes after a restart.
	Live() bool
	// RowEventID is the id of the webhook event the row's transition fired
	// ("" if none).
	RowEventID() string
	// LookupKeys are keys the store finds the row by besides its id (a
	// payment link: its receive address, which the watcher sees in a log).
	LookupKeys() []string
	// Ledger is the row's entries in the account's ledger (one per record;
	// a payment link adds one per late payment).
	Ledger() []LedgerEntry
	MarshalRow(dst []byte) []byte
}

// Row returns the entity row an event carries, nil for other events.
func (e *Event) Row() Row {
	switch e.Kind {
	case EvOrderPut:
		return e.Order
	case EvTransferPut:
		return e.Transfer
	case EvLinkPut:
		return e.Link
	}
	return nil
}

// UnmarshalRow decodes a row stored under id (whose prefix names its kind).
func UnmarshalRow(id string, b []byte) (Row, error) {
	k, _ := KindOf(id)
	switch k {
	case KindOrder:
		return UnmarshalOrder(b)
	case KindTransfer:
		return UnmarshalTransfer(b)
	case KindLink:
		return UnmarshalLink(b)
	}
	return nil, fmt.Errorf("%w: no row kind for id %q", errCodec, id)
}

// MainRow is the row an entity of a row kind holds, nil for none (an
// account, or an entity holding only stored answers).
func MainRow(s Entity) Row {
	switch st := s.(type) {
	case *OrderState:
		if st.Order != nil {
			return st.Order
		}
	case *TransferState:
		if st.Transfer != nil {
			return st.Transfer
		}
	case *LinkState:
		if st.Link != nil {
			return st.Link
		}
	}
	return nil
}

// LoadEntity rebuilds an entity of kind k from its stored row (nil if it
// has none) and its stored answers live at now.
func LoadEntity(k Kind, row Row, idem []*IdemRecord, env Env) Entity {
	switch k {
	case KindOrder:
		s := NewOrderState()
		if row != nil {
			s.Order = row.(*Order)
		}
		s.Idem.Load(idem, env.Now)
		return s
	case KindTransfer:
		s := NewTransferState()
		if row != nil {
			s.Transfer = row.(*Transfer)
		}
		s.Idem.Load(idem, env.Now)
		return s
	case KindLink:
		s := NewLinkState()
		if row != nil {
			s.Link = row.(*Link)
		}
		s.Idem.Load(idem, env.Now)
		return s
	}
	panic(fmt.Sprintf("domain: no stored entity of kind %s", k))
}

// AddressKey is the lookup key of a row by an address it owns.
func AddressKey(addr string) string { return "addr:" + strings.ToLower(addr) }

// Row methods of an FX order.
func (o *Order) RowID() string                { return o.ID }
func (o *Order) RowAccount() string           { return o.Account }
func (o *Order) Live() bool                   { return !OrderTerminal(o.State) }
func (o *Order) RowEventID() string           { return o.EventID }
func (o *Order) MarshalRow(dst []byte) []byte { return MarshalOrder(dst, o) }
func (o *Order) LookupKeys() []string         { return nil }
