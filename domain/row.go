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
	case EvEndpointPut:
		return e.Endpoint
	case EvWebhookEventPut:
		return e.WebhookEvent
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
	case KindEndpoint:
		return UnmarshalEndpoint(b)
	case KindEvent:
		return UnmarshalWebhookEvent(b)
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
	case *EndpointState:
		if st.Endpoint != nil {
			return st.Endpoint
		}
	case *EventState:
		if st.Event != nil {
			return st.Event
		}
	}
	return nil
}

// storedEntity is an entity of a row kind: one main row and its stored
// answers, as the store holds them.
type storedEntity interface {
	Entity
	setRow(Row)
	idem() *IdemStore
}

func (s *OrderState) setRow(r Row)        { s.Order = r.(*Order) }
func (s *TransferState) setRow(r Row)     { s.Transfer = r.(*Transfer) }
func (s *LinkState) setRow(r Row)         { s.Link = r.(*Link) }
func (s *EndpointState) setRow(r Row)     { s.Endpoint = r.(*Endpoint) }
func (s *EventState) setRow(r Row)        { s.Event = r.(*WebhookEvent) }
func (s *OrderState) idem() *IdemStore    { return &s.Idem }
func (s *TransferState) idem() *IdemStore { return &s.Idem }
func (s *LinkState) idem() *IdemStore     { return &s.Idem }
func (s *EndpointState) idem() *IdemStore { return &s.Idem }
func (s *EventState) idem() *IdemStore    { return &s.Idem }

// LoadEntity rebuilds an entity of kind k from its stored row (nil if it
// has none) and its stored answers live at now.
func LoadEntity(k Kind, row Row, idem []*IdemRecord, env Env) Entity {
	s, ok := NewEntity(k).(storedEntity)
	if !ok {
		panic(fmt.Sprintf("domain: no stored entity of kind %s", k))
	}
	if row != nil {
		s.setRow(row)
	}
	s.idem().Load(idem, env.Now)
	return s
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
