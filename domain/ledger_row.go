package domain

import (
	"fmt"
	"time"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
)

// LedgerRow is a stored ledger entry read in place: its fields are slices
// of the stored bytes, valid only while those are (a store iterator's
// value, until the iterator moves). The export reads a million of them
// through this, allocating nothing per row; the list decodes the few it
// shows into LedgerEntry.
type LedgerRow struct {
	Raw                                       []byte // the whole stored entry
	ID, Type, State, FromCurrency, ToCurrency []byte
	AmountIn, AmountOut                       []byte // base-unit decimal digits, as stored
	TxHash, ReferenceID, Description          []byte
	CreatedAt                                 time.Time
}

// ParseLedgerRow reads b (MarshalLedger's bytes) into r without copying.
func ParseLedgerRow(b []byte, r *LedgerRow) error {
	*r = LedgerRow{Raw: b}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return fmt.Errorf("%w: ledger entry: %v", errCodec, protowire.ParseError(n))
		}
		b = b[n:]
		var u uint64
		var v []byte
		switch typ {
		case protowire.VarintType:
			u, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			return fmt.Errorf("%w: ledger entry field %d has wire type %d", errCodec, num, typ)
		}
		if n < 0 {
			return fmt.Errorf("%w: ledger entry field %d: %v", errCodec, num, protowire.ParseError(n))
		}
		b = b[n:]
		if num == 12 {
			r.CreatedAt = time.Unix(0, protowire.DecodeZigZag(u)).UTC()
		} else if p := r.field(num); p != nil {
			*p = v
		}
	}
	if len(r.ID) == 0 || !baseUnitDigits(r.AmountIn) || !baseUnitDigits(r.AmountOut) {
		return fmt.Errorf("%w: ledger entry without id or with a bad amount", errCodec)
	}
	return nil
}

// field is the bytes field numbered num (MarshalLedger's numbers; the
// account, field 2, is not shown and not kept).
func (r *LedgerRow) field(num protowire.Number) *[]byte {
	switch num {
	case 1:
		return &r.ID
	case 3:
		return &r.Type
	case 4:
		return &r.State
	case 5:
		return &r.FromCurrency
	case 6:
		return &r.ToCurrency
	case 7:
		return &r.AmountIn
	case 8:
		return &r.AmountOut
	case 9:
		return &r.TxHash
	case 10:
		return &r.ReferenceID
	case 11:
		return &r.Description
	}
	return nil
}

// baseUnitDigits: what appendAmount wrote, or nothing (an amount not known
// yet: a transfer's amount_out before its accept).
func baseUnitDigits(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	if len(b) > maxBaseUnitDigits || len(b) > 1 && b[0] == '0' {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// MatchRow is Match on a row read in place.
func (f LedgerFilter) MatchRow(r *LedgerRow) bool {
	at := r.CreatedAt.Truncate(time.Second)
	return (f.Type == "" || string(r.Type) == f.Type) &&
		(f.Currency == "" || string(r.FromCurrency) == f.Currency || string(r.ToCurrency) == f.Currency) &&
		(f.From.IsZero() || !at.Before(f.From)) &&
		(f.To.IsZero() || !at.After(f.To))
}

// CSVCells renders the row as the export's cells, in LedgerCSVHeader's
// order: the values of its JSON view (ViewLedger; a test holds them
// equal), every cell that starts with = + - @, a tab or a carriage return
// prefixed with ' (OWASP), so a spreadsheet shows it as text. Amounts are
// never negative, so numeric cells never need it and stay numbers. The
// text it makes goes into buf, which it returns grown. The cells view buf
// and the row's bytes without copying: use them before buf or the row
// change (the export appends them to its page at once).
func CSVCells(cells []string, buf []byte, r *LedgerRow) ([]string, []byte) {
	buf = buf[:0]
	var offs [len(LedgerCSVHeader) + 1]int
	for i, part := range [...][]byte{r.ID, r.Type, r.State, r.FromCurrency, r.ToCurrency, nil, nil, r.TxHash, r.ReferenceID, r.Description, nil} {
		offs[i] = len(buf)
		if len(part) > 0 && neutralize(part[0]) {
			buf = append(buf, '\'')
		}
		switch i {
		case 5:
			buf = AppendUnits(buf, r.AmountIn, DecimalsOf(string(r.FromCurrency)))
		case 6:
			if len(r.AmountOut) > 0 { // absent: unknown yet, an empty cell (null in the JSON view)
				buf = AppendUnits(buf, r.AmountOut, DecimalsOf(string(r.ToCurrency)))
			}
		case 10:
			buf = r.CreatedAt.AppendFormat(buf, time.RFC3339)
		default:
			buf = append(buf, part...)
		}
	}
	offs[len(LedgerCSVHeader)] = len(buf)
	cells = cells[:0]
	for i := range LedgerCSVHeader {
		cells = append(cells, unsafe.String(unsafe.SliceData(buf[offs[i]:]), offs[i+1]-offs[i]))
	}
	return cells, buf
}

// neutralize: a cell starting with c is a formula to a spreadsheet.
func neutralize(c byte) bool {
	return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r'
}
