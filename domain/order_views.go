package domain

import (
	"encoding/json"
	"math/big"
)

// OrderView is an FX order on the wire (CONTRACT.md "Accept"). Field order
// is the order on the wire; keep it stable, idempotent replays compare bytes.
type OrderView struct {
	OrderID       string          `json:"order_id"`
	Route         string          `json:"route"`
	State         string          `json:"state"`
	Signing       json.RawMessage `json:"signing"`
	QuoteID       string          `json:"quote_id"`
	FromCurrency  string          `json:"from_currency"`
	ToCurrency    string          `json:"to_currency"`
	AmountIn      string          `json:"amount_in"`
	AmountOut     string          `json:"amount_out"`
	MinAmountOut  string          `json:"min_amount_out"`
	TxHash        *string         `json:"tx_hash"`
	FailureReason *string         `json:"failure_reason"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
}

// ViewOrder renders an order: amounts in currency units, tx_hash (the
// caller-side tx) and failure_reason null until set, signing as stored.
func ViewOrder(o *Order) OrderView {
	signing := json.RawMessage(o.Signing)
	if len(signing) == 0 {
		signing = json.RawMessage("null")
	}
	return OrderView{
		OrderID: o.ID, Route: o.Route, State: o.State, Signing: signing, QuoteID: o.QuoteID,
		FromCurrency: o.FromCurrency, ToCurrency: o.ToCurrency,
		AmountIn:      formatIn(o.AmountIn, o.FromCurrency),
		AmountOut:     formatIn(o.AmountOut, o.ToCurrency),
		MinAmountOut:  formatIn(o.MinAmountOut, o.ToCurrency),
		TxHash:        nullable(o.TxHash),
		FailureReason: nullable(o.FailureReason),
		CreatedAt:     RFC3339(o.CreatedAt), UpdatedAt: RFC3339(o.UpdatedAt),
	}
}

// OrderAcceptView is the answer of an accept: the order and the relay's
// pre-flight issues (CONTRACT.md).
type OrderAcceptView struct {
	OrderView
	Issues Issues `json:"issues"`
}

// ViewOrderAccept renders an accept answer.
func ViewOrderAccept(o *Order, issues Issues) OrderAcceptView {
	return OrderAcceptView{OrderView: ViewOrder(o), Issues: issues}
}

// formatIn renders base units in the currency's units.
func formatIn(v *big.Int, symbol string) string {
	if v == nil {
		return "0"
	}
	return FormatAmount(v, DecimalsOf(symbol))
}

// The webhook event types an order fires (SPEC.md "Events").
const (
	EventOrderSettled  = "fx.order.settled"
	EventOrderFailed   = "fx.order.failed"
	EventOrderRefunded = "fx.order.refunded"
)

// WebhookAPIVersion is the api_version of every event payload.
const WebhookAPIVersion = "1.0.0"
