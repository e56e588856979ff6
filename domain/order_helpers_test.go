package domain

import (
	"math/big"
	"time"
)

// Order test fixtures. The deadline is t0 + 120 s (CONTRACT.md); tIn is a
// time inside it and tLate one past it.
var (
	ordDeadline = t0.Add(120 * time.Second)
	tIn         = t0.Add(30 * time.Second)
	tLate       = t0.Add(121 * time.Second)
)

const (
	ordID     = "ord_000001"
	quoteID   = "q_000001"
	hashFund  = "0x1111111111111111111111111111111111111111111111111111111111111111"
	hashOther = "0x2222222222222222222222222222222222222222222222222222222222222222"
	hashMaker = "0x3333333333333333333333333333333333333333333333333333333333333333"
	hashRefnd = "0x4444444444444444444444444444444444444444444444444444444444444444"
	signingJS = `{"type":"permit2_witness","order":{"amountIn":"1250500000"}}`
)

func bi(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return v
}

// createOrderCmd is a valid accept of 1250.5 USDC → 1150.25 EURC.
func createOrderCmd(route string) CreateOrder {
	c := CreateOrder{
		ID: ordID, Account: acctID, QuoteID: quoteID, Route: route,
		FromCurrency: "USDC", ToCurrency: "EURC",
		AmountIn: bi("1250500000"), AmountOut: bi("1150250000"), MinAmountOut: bi("1144498750"),
		Signer: addrLower, Deadline: ordDeadline, AcceptedAt: t0, Signing: []byte(signingJS),
	}
	c.Gasless, c.RFQ = orderTerms(route)
	return c
}

// orderTerms are the typed chain terms of an order of route.
func orderTerms(route string) (*GaslessTerms, *RFQTerms) {
	if route == RouteAMM {
		return &GaslessTerms{Signer: addrSum, TokenIn: tokenUSDC, TokenOut: tokenEURC, AmountIn: bi("1250500000"),
			MinAmountOut: bi("1144498750"), Recipient: addrSum, Pool: poolAddr, Deadline: bi("1767225720"), Nonce: bi("9")}, nil
	}
	return nil, &RFQTerms{Maker: addr2Sum, Taker: addrSum, TokenIn: tokenUSDC, TokenOut: tokenEURC, AmountIn: bi("1250500000"),
		AmountOut: bi("1150250000"), Expiry: bi("1767225900"), Salt: bi("5"), ExecutionID: hashFund, QuoteHash: hashOther}
}

// acceptedRow is the row createOrderCmd makes at t0.
func acceptedRow(route string) *Order {
	return withTerms(&Order{
		ID: ordID, Account: acctID, QuoteID: quoteID, Route: route, State: OrderAccepted,
		FromCurrency: "USDC", ToCurrency: "EURC",
		AmountIn: bi("1250500000"), AmountOut: bi("1150250000"), MinAmountOut: bi("1144498750"),
		Signer: addrSum, Deadline: ordDeadline, Signing: []byte(signingJS),
		CreatedAt: t0, UpdatedAt: t0,
	})
}

// withTerms is acceptedRow with its chain terms, as createOrderCmd makes it.
func withTerms(o *Order) *Order {
	o.Gasless, o.RFQ = orderTerms(o.Route)
	return o
}

// orderAt is an order entity resting in state (rows built directly, so the
// table also covers states a route only passes through inside one record).
func orderAt(route, state string) *OrderState {
	o := acceptedRow(route)
	o.State = state
	switch state {
	case OrderAwaitingFunding:
		if route == RouteRFQ {
			o.TxHash = hashFund
		}
	case OrderFunded, OrderSettling, OrderSettled, OrderFailed, OrderRefunded:
		o.TxHash = hashFund
	case OrderExpired:
		o.FailureReason = ReasonExpired
	}
	if orderHasEvent(state) {
		o.EventID = "evt_old"
	}
	return &OrderState{Order: o}
}

// fullOrder sets every field, for the codec.
func fullOrder() *Order {
	return &Order{
		ID: ordID, Account: acctID, QuoteID: quoteID, Route: RouteRFQ, State: OrderRefunded,
		FromCurrency: "USDC", ToCurrency: "EURC",
		AmountIn:  bi("115792089237316195423570985008687907853269984665640564039457584007913129639935"),
		AmountOut: bi("0"), MinAmountOut: bi("1"),
		Signer: addrSum, Deadline: tNeg, TxHash: hashFund, SettleTxHash: hashMaker, RefundTxHash: hashRefnd,
		FailureReason: "maker — 遅延", Signing: []byte(signingJS), EventID: "evt_000009",
		CreatedAt: tEpoch, UpdatedAt: tNanos,
	}
}

func ptrLedger(o *Order) *LedgerEntry { e := o.ledger(); return &e }
