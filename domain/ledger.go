package domain

import (
	"fmt"
	"math/big"
	"time"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/fxd-labs/fxd/internal/rfc3339"
)

// Ledger entry types (GET /transactions).
const (
	LedgerFXAMM       = "fx_amm"
	LedgerFXRFQ       = "fx_rfq"
	LedgerTransfer    = "transfer"
	LedgerPaymentLink = "payment_link"
)

// LedgerEntry is one entry of an account's unified ledger (CONTRACT.md
// "Ledger"): one per FX order, transfer and payment link, rewritten in
// place as the record moves (the id is stable: the record's own), plus one
// per payment that reaches a link after it closed (state "late"). The
// store keeps it in the account's ledger index, written in the same batch
// as the row, so a page is one range read.
type LedgerEntry struct {
	ID           string
	Account      string
	Type         string
	State        string
	FromCurrency string
	ToCurrency   string
	AmountIn     *big.Int // base units of FromCurrency
	AmountOut    *big.Int // base units of ToCurrency
	TxHash       string
	ReferenceID  string
	Description  string
	CreatedAt    time.Time
}

// LedgerEntryView is a ledger entry on the wire. Field order is the wire
// order and the CSV column order.
type LedgerEntryView struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	State        string  `json:"state"`
	FromCurrency string  `json:"from_currency"`
	ToCurrency   string  `json:"to_currency"`
	AmountIn     string  `json:"amount_in"`
	AmountOut    *string `json:"amount_out"` // null while unknown: a cross-currency transfer before its accept
	TxHash       *string `json:"tx_hash"`
	ReferenceID  string  `json:"reference_id"`
	Description  *string `json:"description"`
	CreatedAt    string  `json:"created_at"`
}

// optionalIn is formatIn of an amount that may be unknown (nil: null).
func optionalIn(v *big.Int, symbol string) *string {
	if v == nil {
		return nil
	}
	s := formatIn(v, symbol)
	return &s
}

// ViewLedger renders an entry: amounts in currency units.
func ViewLedger(e *LedgerEntry) LedgerEntryView {
	return LedgerEntryView{
		ID: e.ID, Type: e.Type, State: e.State, FromCurrency: e.FromCurrency, ToCurrency: e.ToCurrency,
		AmountIn: formatIn(e.AmountIn, e.FromCurrency), AmountOut: optionalIn(e.AmountOut, e.ToCurrency),
		TxHash: nullable(e.TxHash), ReferenceID: e.ReferenceID, Description: nullable(e.Description),
		CreatedAt: RFC3339(e.CreatedAt),
	}
}

// Ledger is the order's entry: its id, its current state, reference_id the
// order too.
func (o *Order) Ledger() []LedgerEntry { return []LedgerEntry{o.ledger()} }

func (o *Order) ledger() LedgerEntry {
	typ := LedgerFXAMM
	if o.Route == RouteRFQ {
		typ = LedgerFXRFQ
	}
	return LedgerEntry{
		ID: o.ID, Account: o.Account, Type: typ, State: o.State, FromCurrency: o.FromCurrency, ToCurrency: o.ToCurrency,
		AmountIn: o.AmountIn, AmountOut: o.AmountOut, TxHash: o.TxHash, ReferenceID: o.ID, CreatedAt: o.CreatedAt,
	}
}

// MarshalLedger encodes an entry; field numbers are the format.
func MarshalLedger(dst []byte, e *LedgerEntry) []byte {
	dst = appendString(dst, 1, e.ID)
	dst = appendString(dst, 2, e.Account)
	dst = appendString(dst, 3, e.Type)
	dst = appendString(dst, 4, e.State)
	dst = appendString(dst, 5, e.FromCurrency)
	dst = appendString(dst, 6, e.ToCurrency)
	dst = appendAmount(dst, 7, e.AmountIn)
	dst = appendAmount(dst, 8, e.AmountOut)
	dst = appendString(dst, 9, e.TxHash)
	dst = appendString(dst, 10, e.ReferenceID)
	dst = appendString(dst, 11, e.Description)
	return appendTime(dst, 12, e.CreatedAt)
}

// UnmarshalLedger decodes an entry; it never panics on bad input.
func UnmarshalLedger(b []byte) (*LedgerEntry, error) {
	e := &LedgerEntry{}
	err := walk(b, func(num protowire.Number, v value) error {
		var err error
		switch num {
		case 1:
			e.ID = string(v.b)
		case 2:
			e.Account = string(v.b)
		case 3:
			e.Type = string(v.b)
		case 4:
			e.State = string(v.b)
		case 5:
			e.FromCurrency = string(v.b)
		case 6:
			e.ToCurrency = string(v.b)
		case 7:
			e.AmountIn, err = parseBaseUnits(v.b)
		case 8:
			e.AmountOut, err = parseBaseUnits(v.b)
		case 9:
			e.TxHash = string(v.b)
		case 10:
			e.ReferenceID = string(v.b)
		case 11:
			e.Description = string(v.b)
		case 12:
			e.CreatedAt = v.time()
		}
		return err
	})
	if err = requireID(err, e.ID, "ledger entry"); err != nil {
		return nil, fmt.Errorf("ledger entry: %w", err)
	}
	return e, nil
}

// LedgerFilter selects ledger entries (GET /transactions and its export):
// Type and Currency ("" = any; currency matches either side), From and To
// bound created_at inclusively (zero = unbounded).
type LedgerFilter struct {
	Type     string
	Currency string
	From, To time.Time
}

// ParseLedgerFilter reads the query parameters; a bad value is 400.
func ParseLedgerFilter(typ, currency, from, to string) (LedgerFilter, *Error) {
	var f LedgerFilter
	switch typ {
	case "", LedgerFXAMM, LedgerFXRFQ, LedgerTransfer, LedgerPaymentLink:
		f.Type = typ
	default:
		return f, ErrInvalid("type must be fx_amm, fx_rfq, transfer or payment_link")
	}
	if currency != "" {
		if _, err := CurrencyBySymbol(currency); err != nil {
			return f, err
		}
		f.Currency = currency
	}
	for _, b := range []struct {
		name, v string
		dst     *time.Time
	}{{"from", from, &f.From}, {"to", to, &f.To}} {
		if b.v == "" {
			continue
		}
		t, err := parseQueryTime(b.v)
		if err != nil {
			return f, ErrInvalid("%s must be an RFC 3339 time", b.name)
		}
		*b.dst = t.UTC()
	}
	if !f.From.IsZero() && !f.To.IsZero() && f.To.Before(f.From) {
		return f, ErrInvalid("to is before from")
	}
	return f, nil
}

// parseQueryTime reads an RFC 3339 time from a query string. A positive
// offset sent unencoded (?from=2026-01-01T00:00:00+01:00) arrives as a
// space, since a query's "+" decodes as one: a space where the offset's
// sign stands is read as "+", the only thing it can have been.
func parseQueryTime(v string) (time.Time, error) {
	t, err := rfc3339.Parse(v)
	if err != nil && len(v) > 6 && v[len(v)-6] == ' ' {
		if t2, err2 := rfc3339.Parse(v[:len(v)-6] + "+" + v[len(v)-5:]); err2 == nil {
			return t2, nil
		}
	}
	return t, err
}

// Match reports whether the filter selects e. created_at is compared as
// it is shown, in whole seconds, so an entry shown at T is within to=T.
func (f LedgerFilter) Match(e *LedgerEntry) bool {
	at := e.CreatedAt.Truncate(time.Second)
	return (f.Type == "" || e.Type == f.Type) &&
		(f.Currency == "" || e.FromCurrency == f.Currency || e.ToCurrency == f.Currency) &&
		(f.From.IsZero() || !at.Before(f.From)) &&
		(f.To.IsZero() || !at.After(f.To))
}

// LedgerCSVHeader is the export's header row: the entry's JSON field names.
var LedgerCSVHeader = [...]string{"id", "type", "state", "from_currency", "to_currency", "amount_in", "amount_out",
	"tx_hash", "reference_id", "description", "created_at"}
