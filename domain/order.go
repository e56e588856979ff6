package domain

import (
	"fmt"
	"math/big"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// FX order routes.
const (
	RouteAMM = "amm"
	RouteRFQ = "rfq"
)

// FX order states (SPEC.md "States and transitions"). OrderQuoted is the
// quote itself: an order row starts at OrderAccepted and never holds it.
const (
	OrderQuoted          = "quoted"
	OrderAccepted        = "accepted"
	OrderAwaitingFunding = "awaiting_funding"
	OrderFunded          = "funded"
	OrderSettling        = "settling"
	OrderSettled         = "settled"
	OrderFailed          = "failed"
	OrderExpired         = "expired"
	OrderRefunded        = "refunded"
)

// OrderStates lists every state, in the order of SPEC.md.
var OrderStates = []string{OrderQuoted, OrderAccepted, OrderAwaitingFunding, OrderFunded, OrderSettling, OrderSettled, OrderFailed, OrderExpired, OrderRefunded}

// orderEdges is the transition graph an order row may follow; Apply refuses
// any other step. Terminal states have no edges. awaiting_funding →
// awaiting_funding is an rfq resubmit with a new pending tx hash.
var orderEdges = map[string][]string{
	OrderAccepted:        {OrderAwaitingFunding, OrderFunded, OrderExpired},
	OrderAwaitingFunding: {OrderAwaitingFunding, OrderFunded, OrderFailed, OrderExpired},
	OrderFunded:          {OrderSettling, OrderRefunded},
	OrderSettling:        {OrderSettled},
}

// OrderTerminal reports whether state accepts no further command.
func OrderTerminal(state string) bool {
	switch state {
	case OrderSettled, OrderFailed, OrderExpired, OrderRefunded:
		return true
	}
	return false
}

// orderHasEvent reports whether reaching state fires a webhook event
// (fx.order.settled / failed / refunded), so the row carries its EventID.
func orderHasEvent(state string) bool {
	return state == OrderSettled || state == OrderFailed || state == OrderRefunded
}

func knownOrderState(s string) bool {
	_, ok := orderEdges[s]
	return ok || OrderTerminal(s)
}

// Order is one FX order row. Rows are immutable once built: a transition
// makes a new row (amounts included; never mutate a *big.Int of a row).
type Order struct {
	ID           string // ord_…
	Account      string
	QuoteID      string
	Route        string // RouteAMM | RouteRFQ
	State        string
	FromCurrency string
	ToCurrency   string
	AmountIn     *big.Int // base units of FromCurrency
	AmountOut    *big.Int // base units of ToCurrency: quoted, then actual once settled
	MinAmountOut *big.Int // base units of ToCurrency
	Signer       string   // EIP-55 taker address
	Deadline     time.Time
	// TxHash is the caller-side transaction: amm the relayed order tx, rfq
	// the caller's escrow funding tx. SettleTxHash is the rfq maker's
	// settlement tx, RefundTxHash the rfq escrow refund tx.
	TxHash        string
	SettleTxHash  string
	RefundTxHash  string
	FailureReason string
	Signing       []byte // the JSON "signing" object the host built at accept
	// Gasless (amm) and RFQ (rfq) are the order's chain terms, typed, so
	// the chain side never parses Signing back.
	Gasless *GaslessTerms
	RFQ     *RFQTerms
	// Signature is the caller's Permit2 signature of an amm order (0x hex),
	// kept from submit so the relay resumes after a restart.
	Signature string
	// EventID is the id of the fx.order.settled/failed/refunded event, set
	// once by the transition into that state; replays keep it.
	EventID   string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// OrderState is one order entity. The zero value is an order that does not
// exist yet.
type OrderState struct {
	Order *Order // nil until created
	// Idem holds the stored answers of requests aimed at this order (at
	// most MaxIdemPerOrder live ones).
	Idem IdemStore
}

// NewOrderState returns an empty order entity.
func NewOrderState() *OrderState { return &OrderState{} }

// Clone copies the state; rows are shared, they are immutable.
func (s *OrderState) Clone() Entity { return &OrderState{Order: s.Order, Idem: s.Idem.Clone()} }

// applyRow writes one order row (the payload of an EvOrderPut event). It is
// total for every row Decide produces; a row that does not follow the
// transition graph from the current row is a broken invariant and panics.
func (s *OrderState) applyRow(o *Order) {
	if o == nil || o.ID == "" {
		panic("domain: apply order_put without an order")
	}
	if o.AmountIn == nil || o.AmountOut == nil || o.MinAmountOut == nil {
		panic(fmt.Sprintf("domain: apply order_put of %s without amounts", o.ID))
	}
	if orderHasEvent(o.State) != (o.EventID != "") {
		panic(fmt.Sprintf("domain: apply order_put of %s: state %s with event id %q", o.ID, o.State, o.EventID))
	}
	old := s.Order
	if old == nil {
		if o.State != OrderAccepted {
			panic(fmt.Sprintf("domain: apply order_put creates %s in state %s", o.ID, o.State))
		}
		s.Order = o
		return
	}
	if old.ID != o.ID || old.Route != o.Route {
		panic(fmt.Sprintf("domain: apply order_put of %s/%s onto %s/%s", o.ID, o.Route, old.ID, old.Route))
	}
	ok := false
	for _, next := range orderEdges[old.State] {
		ok = ok || next == o.State
	}
	if !ok {
		panic(fmt.Sprintf("domain: apply order_put of %s: %s → %s is not a transition", o.ID, old.State, o.State))
	}
	s.Order = o
}

// ApplyAll applies rows in order.
func (s *OrderState) ApplyAll(rows []*Order) {
	for _, o := range rows {
		s.applyRow(o)
	}
}

// MarshalOrder encodes an order row. Amounts are base-10 strings of their
// base units; field numbers are the format, never reuse one.
func MarshalOrder(dst []byte, o *Order) []byte {
	dst = appendString(dst, 1, o.ID)
	dst = appendString(dst, 2, o.Account)
	dst = appendString(dst, 3, o.QuoteID)
	dst = appendString(dst, 4, o.Route)
	dst = appendString(dst, 5, o.State)
	dst = appendString(dst, 6, o.FromCurrency)
	dst = appendString(dst, 7, o.ToCurrency)
	dst = appendAmount(dst, 8, o.AmountIn)
	dst = appendAmount(dst, 9, o.AmountOut)
	dst = appendAmount(dst, 10, o.MinAmountOut)
	dst = appendString(dst, 11, o.Signer)
	dst = appendTime(dst, 12, o.Deadline)
	dst = appendString(dst, 13, o.TxHash)
	dst = appendString(dst, 14, o.SettleTxHash)
	dst = appendString(dst, 15, o.RefundTxHash)
	dst = appendString(dst, 16, o.FailureReason)
	dst = appendBytes(dst, 17, o.Signing)
	dst = appendString(dst, 18, o.EventID)
	dst = appendTime(dst, 19, o.CreatedAt)
	dst = appendTime(dst, 20, o.UpdatedAt)
	dst = appendString(dst, 21, o.Signature)
	if o.Gasless != nil {
		dst = appendMessage(dst, 22, false, func(b []byte) []byte { return marshalGasless(b, o.Gasless) })
	}
	if o.RFQ != nil {
		dst = appendMessage(dst, 23, false, func(b []byte) []byte { return marshalRFQ(b, o.RFQ) })
	}
	return dst
}

// UnmarshalOrder decodes an order row; it never panics on bad input and
// refuses a row without id, with an unknown route or state, or with an
// amount that is not a canonical non-negative integer.
func UnmarshalOrder(b []byte) (*Order, error) {
	o := &Order{}
	err := walk(b, func(num protowire.Number, v value) error {
		var err error
		switch num {
		case 1:
			o.ID = string(v.b)
		case 2:
			o.Account = string(v.b)
		case 3:
			o.QuoteID = string(v.b)
		case 4:
			o.Route = string(v.b)
		case 5:
			o.State = string(v.b)
		case 6:
			o.FromCurrency = string(v.b)
		case 7:
			o.ToCurrency = string(v.b)
		case 8:
			o.AmountIn, err = parseBaseUnits(v.b)
		case 9:
			o.AmountOut, err = parseBaseUnits(v.b)
		case 10:
			o.MinAmountOut, err = parseBaseUnits(v.b)
		case 11:
			o.Signer = string(v.b)
		case 12:
			o.Deadline = v.time()
		case 13:
			o.TxHash = string(v.b)
		case 14:
			o.SettleTxHash = string(v.b)
		case 15:
			o.RefundTxHash = string(v.b)
		case 16:
			o.FailureReason = string(v.b)
		case 17:
			o.Signing = append([]byte(nil), v.b...)
		case 18:
			o.EventID = string(v.b)
		case 19:
			o.CreatedAt = v.time()
		case 20:
			o.UpdatedAt = v.time()
		case 21:
			o.Signature = string(v.b)
		case 22:
			o.Gasless, err = unmarshalGasless(v.b)
		case 23:
			o.RFQ, err = unmarshalRFQ(v.b)
		}
		return err
	})
	if err == nil && o.Route != RouteAMM && o.Route != RouteRFQ {
		err = fmt.Errorf("%w: order %s has route %q", errCodec, o.ID, o.Route)
	}
	if err == nil && !knownOrderState(o.State) {
		err = fmt.Errorf("%w: order %s has state %q", errCodec, o.ID, o.State)
	}
	if err = requireID(err, o.ID, "order"); err != nil {
		return nil, err
	}
	return o, nil
}

// appendAmount writes v in base 10; nil is omitted and reads back as nil.
func appendAmount(dst []byte, num protowire.Number, v *big.Int) []byte {
	if v == nil {
		return dst
	}
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	return protowire.AppendString(dst, v.String())
}

// maxBaseUnitDigits bounds a stored amount (uint256 has 78 digits).
const maxBaseUnitDigits = 78

// parseBaseUnits reads what appendAmount wrote: digits only, no leading
// zero, so a decoded row re-encodes to the same bytes.
func parseBaseUnits(b []byte) (*big.Int, error) {
	s := string(b)
	if s == "" || len(s) > maxBaseUnitDigits || !allDigits(s) || (len(s) > 1 && s[0] == '0') {
		return nil, fmt.Errorf("amount %q is not a base-unit integer", s)
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("amount %q is not a base-unit integer", s)
	}
	return v, nil
}
