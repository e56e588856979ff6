package domain

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// The commands of an order entity (Target KindOrder).

// CreateOrder is POST /fx/quotes/{id}/accept once the host has checked the
// quote (not expired, account permitted, signer registered) and built the
// signing object. Every field is chosen by the host.
type CreateOrder struct {
	ID           string // ord_…
	Account      string
	QuoteID      string
	Route        string
	FromCurrency string
	ToCurrency   string
	AmountIn     *big.Int
	AmountOut    *big.Int
	MinAmountOut *big.Int
	Signer       string
	Deadline     time.Time // CONTRACT.md: accept + 120 s
	// AcceptedAt is the host's reading that checked the quote's expiry and
	// set Deadline from, so that the deadline is the accept + 120 s
	// exactly (the chain reads between the two can take seconds).
	AcceptedAt time.Time
	// QuotedAt is when the quote this order is was made (SPEC.md's first
	// order state is quoted), the instant its id carries: the order's
	// created_at, so that lists sorted by id (GET /fx/orders, the ledger)
	// are newest first by created_at too. Zero: AcceptedAt.
	QuotedAt time.Time
	Signing  []byte        // JSON object
	Gasless  *GaslessTerms // route amm
	RFQ      *RFQTerms     // route rfq
}

// SubmitAMMSignature is POST /fx/orders/{id}/submit {signature} on an amm
// order. The host recovers the signature against the order's typed data
// first and says so in Verified; an unverified signature is 400
// invalid_signature and nothing is relayed. The row keeps the signature so
// the relay can be resumed after a restart.
type SubmitAMMSignature struct {
	Signature string // 0x-prefixed hex, 65 bytes
	Verified  bool
	// Preflight is the relay pre-flight's refusal (allowance, balance, a
	// simulated revert): nothing is relayed and the order stays accepted.
	Preflight *Error
}

// AcceptQuote is POST /fx/quotes/{id}/accept, sent to the order whose id
// derives from the quote's, so accepting twice lands on the same entity.
// An existing order of the same account is returned as it is (200, even
// after the quote expired) while the account may still accept it;
// otherwise the host's Refusal (quote expired or
// unknown, account or wallet not permitted) is the answer, else Create runs.
type AcceptQuote struct {
	Account string
	// SourceWallet is the body's source_wallet, if any: a re-accept
	// naming another wallet than the order's signer is refused, as the
	// first accept was.
	SourceWallet *string
	// NotPermitted: the desk found, for a re-accept, that the first
	// accept would be refused now: the account may not swap (KYC, launch
	// access), the order's signer is no longer one of its wallets, or
	// SourceWallet is none of them. The re-accept is then 403
	// not_permitted, failing closed as the first accept does (SPEC.md:
	// "If the account or source wallet is not permitted, accept … is
	// refused with 403").
	NotPermitted bool
	Create       CreateOrder
	Refusal      *Error
	// Issues is the pre-flight's view of the signer's allowance and
	// balance, part of every accept answer (re-accepts included).
	Issues Issues
}

// RelayMined reports the relayed amm order tx as mined: Success with the
// actual AmountOut (from the logs), or reverted with a Reason. A relay the
// chain refused before broadcast (gas estimation reverted) fails with no
// TxHash.
type RelayMined struct {
	TxHash    string
	Success   bool
	AmountOut *big.Int // Success only
	Reason    string   // revert only; a default is used when empty
}

// SubmitRFQTx is POST /fx/orders/{id}/submit {tx_hash} on an rfq order.
// Status is what the host found on chain: RFQTxVerified (mined with the
// QuoteEscrowed log) or RFQTxPending (not mined yet). Mined without the
// log is the host's 400 funding_not_verified and never reaches Decide.
type SubmitRFQTx struct {
	TxHash string
	Status string
}

// The statuses of SubmitRFQTx.
const (
	RFQTxVerified    = "verified"
	RFQTxPending     = "pending"
	RFQTxNotVerified = "not_verified" // mined without the QuoteEscrowed log
)

// FundingVerified is the chain watcher seeing the order's QuoteEscrowed
// log mined, whether or not the caller submitted the tx hash first.
type FundingVerified struct{ TxHash string }

// MakerSettled is the rfq maker's settlement tx mined.
type MakerSettled struct{ TxHash string }

// MakerMissed is the escrow refund tx mined after the maker missed the
// settlement deadline (--rfq-settle-timeout); the host sends the refund and
// reports it here only once it is mined.
type MakerMissed struct{ RefundTxHash string }

// ExpireOrder expires an accepted or awaiting_funding order whose deadline
// has passed at env.Now.
type ExpireOrder struct{}

func (CreateOrder) Target() Kind        { return KindOrder }
func (AcceptQuote) Target() Kind        { return KindOrder }
func (SubmitAMMSignature) Target() Kind { return KindOrder }
func (RelayMined) Target() Kind         { return KindOrder }
func (SubmitRFQTx) Target() Kind        { return KindOrder }
func (FundingVerified) Target() Kind    { return KindOrder }
func (MakerSettled) Target() Kind       { return KindOrder }
func (MakerMissed) Target() Kind        { return KindOrder }
func (ExpireOrder) Target() Kind        { return KindOrder }

// Failure reasons the domain writes.
const (
	ReasonRelayReverted = "relay transaction reverted"
	ReasonExpired       = "order deadline passed before funding"
	ReasonMakerMissed   = "maker did not settle before the settlement deadline; escrow refunded"
	maxReasonRunes      = 200
)

// checkSignatureForm refuses a submitted signature that is not one by its
// form, 400 invalid_request: 0x and the hex of 65 bytes (r ‖ s ‖ v) or 64
// (EIP-2098 compact), the OpenAPI document's pattern. invalid_signature is
// for a signature that does not recover to the signer.
func checkSignatureForm(sig string) *Error {
	if isHex0x(sig, 65, 64) {
		return nil
	}
	return ErrInvalid("signature must be 0x-prefixed hex of 65 bytes (r, s, v) or 64 (EIP-2098)")
}

// Decide validates cmd against the order and returns the new rows, oldest
// first (each is one EvOrderPut event), and the reply: 200 with the order
// view. It mutates nothing. A refusal returns no rows and an *Error:
// 409 invalid_state for a transition the state does not allow, 400
// invalid_request for a malformed command or a caller submit that does not
// fit the order's route, 404 for a command to an order that does not exist.
func (s *OrderState) Decide(cmd Command, env Env) ([]*Order, Reply, *Error) {
	switch c := cmd.(type) {
	case CreateOrder:
		return s.createOrder(c, env)
	case AcceptQuote:
		if s.Order != nil {
			if s.Order.Account != c.Account {
				return nil, Reply{}, ErrNotFound("quote")
			}
			if c.NotPermitted {
				return nil, Reply{}, ErrNotPermitted(MsgNotPermittedSwap)
			}
			if err := CheckTaker(c.SourceWallet, s.Order.Signer); err != nil {
				return nil, Reply{}, err
			}
			return nil, jsonReply(200, ViewOrderAccept(s.Order, c.Issues)), nil
		}
		if c.Refusal != nil {
			return nil, Reply{}, c.Refusal
		}
		rows, _, err := s.createOrder(c.Create, env)
		if err != nil {
			return nil, Reply{}, err
		}
		return rows, jsonReply(200, ViewOrderAccept(rows[0], c.Issues)), nil
	}
	o := s.Order
	if o == nil {
		return nil, Reply{}, ErrNotFound("order")
	}
	switch c := cmd.(type) {
	case SubmitAMMSignature:
		if o.Route != RouteAMM {
			return nil, Reply{}, ErrInvalid("order %s is routed rfq: submit tx_hash, not signature", o.ID)
		}
		if err := o.need(OrderAccepted); err != nil {
			return nil, Reply{}, err
		}
		if env.Now.After(o.Deadline) {
			return nil, Reply{}, ErrInvalidState("order %s passed its deadline", o.ID)
		}
		if err := checkSignatureForm(c.Signature); err != nil {
			return nil, Reply{}, err
		}
		if !c.Verified {
			return nil, Reply{}, ErrBadSignature("signature does not recover to the order's signer %s", o.Signer)
		}
		if c.Preflight != nil {
			return nil, Reply{}, c.Preflight
		}
		sig := c.Signature
		return reply(o.next(env, OrderAwaitingFunding, func(n *Order) { n.Signature = sig }))
	case RelayMined:
		if err := o.needRoute(RouteAMM, OrderAwaitingFunding); err != nil {
			return nil, Reply{}, err
		}
		if !c.Success {
			txHash := ""
			if c.TxHash != "" {
				h, err := normTxHash("tx_hash", c.TxHash)
				if err != nil {
					return nil, Reply{}, err
				}
				txHash = h
			}
			reason := c.Reason
			if reason == "" {
				reason = ReasonRelayReverted
			}
			if err := checkText("reason", reason, maxReasonRunes, false); err != nil {
				return nil, Reply{}, err
			}
			return reply(o.next(env, OrderFailed, func(n *Order) { n.TxHash, n.FailureReason = txHash, reason }))
		}
		txHash, err := normTxHash("tx_hash", c.TxHash)
		if err != nil {
			return nil, Reply{}, err
		}
		if c.AmountOut == nil || c.AmountOut.Sign() <= 0 || c.AmountOut.Cmp(o.MinAmountOut) < 0 {
			return nil, Reply{}, ErrInvalid("amount_out must be at least min_amount_out %s", o.MinAmountOut)
		}
		out := new(big.Int).Set(c.AmountOut)
		funded := o.next(env, OrderFunded, func(n *Order) { n.TxHash = txHash })
		settling := funded[0].next(env, OrderSettling, nil)
		settled := settling[0].next(env, OrderSettled, func(n *Order) { n.AmountOut = out })
		return reply(append(append(funded, settling...), settled...))
	case SubmitRFQTx:
		if o.Route != RouteRFQ {
			return nil, Reply{}, ErrInvalid("order %s is routed amm: submit signature, not tx_hash", o.ID)
		}
		txHash, err := normTxHash("tx_hash", c.TxHash)
		if err != nil {
			return nil, Reply{}, err
		}
		if o.TxHash == txHash && o.State != OrderAccepted && o.State != OrderAwaitingFunding && c.Status == RFQTxVerified {
			// The watcher saw the funding first: the caller's submit of the
			// same transaction is an answer, not a conflict.
			return nil, jsonReply(200, ViewOrder(o)), nil
		}
		if err := o.need(OrderAccepted, OrderAwaitingFunding); err != nil {
			return nil, Reply{}, err
		}
		switch c.Status {
		case RFQTxNotVerified:
			return nil, Reply{}, ErrFundingNotVerified("transaction %s is mined without the QuoteEscrowed log of order %s", txHash, o.ID)
		case RFQTxVerified: // funds are in escrow: the chain checked the deadline
			return reply(o.next(env, OrderFunded, func(n *Order) { n.TxHash = txHash }))
		case RFQTxPending:
			if env.Now.After(o.Deadline) {
				return nil, Reply{}, ErrInvalidState("order %s passed its deadline", o.ID)
			}
			if o.State == OrderAwaitingFunding && o.TxHash == txHash {
				return nil, jsonReply(200, ViewOrder(o)), nil // same pending tx again
			}
			return reply(o.next(env, OrderAwaitingFunding, func(n *Order) { n.TxHash = txHash }))
		}
		return nil, Reply{}, ErrInvalid("status must be verified or pending")
	case FundingVerified: // the caller may fund without submitting the hash
		if err := o.needRoute(RouteRFQ, OrderAccepted, OrderAwaitingFunding); err != nil {
			return nil, Reply{}, err
		}
		txHash, err := normTxHash("tx_hash", c.TxHash)
		if err != nil {
			return nil, Reply{}, err
		}
		return reply(o.next(env, OrderFunded, func(n *Order) { n.TxHash = txHash }))
	case MakerSettled:
		if err := o.needRoute(RouteRFQ, OrderFunded); err != nil {
			return nil, Reply{}, err
		}
		txHash, err := normTxHash("tx_hash", c.TxHash)
		if err != nil {
			return nil, Reply{}, err
		}
		settling := o.next(env, OrderSettling, func(n *Order) { n.SettleTxHash = txHash })
		return reply(append(settling, settling[0].next(env, OrderSettled, nil)...))
	case MakerMissed:
		if err := o.needRoute(RouteRFQ, OrderFunded); err != nil {
			return nil, Reply{}, err
		}
		txHash, err := normTxHash("refund_tx_hash", c.RefundTxHash)
		if err != nil {
			return nil, Reply{}, err
		}
		return reply(o.next(env, OrderRefunded, func(n *Order) { n.RefundTxHash, n.FailureReason = txHash, ReasonMakerMissed }))
	case ExpireOrder:
		if err := o.need(OrderAccepted, OrderAwaitingFunding); err != nil {
			return nil, Reply{}, err
		}
		if !env.Now.After(o.Deadline) {
			return nil, Reply{}, ErrInvalidState("order %s is before its deadline %s", o.ID, RFC3339(o.Deadline))
		}
		return reply(o.next(env, OrderExpired, func(n *Order) { n.FailureReason = ReasonExpired }))
	}
	panic(fmt.Sprintf("domain: decide of unknown order command %T", cmd))
}

// View answers GET /fx/orders/{id}: the order or 404.
func (s *OrderState) View() Reply {
	if s.Order == nil {
		return ErrNotFound("order").Reply()
	}
	return jsonReply(200, ViewOrder(s.Order))
}

func (s *OrderState) createOrder(c CreateOrder, env Env) ([]*Order, Reply, *Error) {
	if s.Order != nil {
		return nil, Reply{}, ErrInvalidState("order %s exists", s.Order.ID)
	}
	if !strings.HasPrefix(c.ID, "ord_") || len(c.ID) == len("ord_") {
		return nil, Reply{}, ErrInvalid("order id must be ord_…")
	}
	if c.Account == "" || c.QuoteID == "" {
		return nil, Reply{}, ErrInvalid("account and quote_id are required")
	}
	if c.Route != RouteAMM && c.Route != RouteRFQ {
		return nil, Reply{}, ErrInvalid("route must be amm or rfq")
	}
	if _, err := RequiredCurrency("from_currency", c.FromCurrency); err != nil {
		return nil, Reply{}, err
	}
	if _, err := RequiredCurrency("to_currency", c.ToCurrency); err != nil {
		return nil, Reply{}, err
	}
	if c.FromCurrency == c.ToCurrency {
		return nil, Reply{}, ErrInvalid("from_currency and to_currency must differ")
	}
	for _, a := range []struct {
		name string
		v    *big.Int
	}{{"amount_in", c.AmountIn}, {"amount_out", c.AmountOut}, {"min_amount_out", c.MinAmountOut}} {
		if a.v == nil || a.v.Sign() <= 0 || len(a.v.String()) > maxBaseUnitDigits {
			return nil, Reply{}, ErrInvalid("%s must be a positive integer of base units", a.name)
		}
	}
	if c.MinAmountOut.Cmp(c.AmountOut) > 0 {
		return nil, Reply{}, ErrInvalid("min_amount_out exceeds amount_out")
	}
	signer, err := NormalizeAddress("signer", c.Signer)
	if err != nil {
		return nil, Reply{}, err
	}
	if !c.Deadline.After(env.Now) {
		return nil, Reply{}, ErrInvalid("deadline must be after now")
	}
	// The deadline is after now (above), so after an accept not after now.
	if c.AcceptedAt.IsZero() || c.AcceptedAt.After(env.Now) {
		return nil, Reply{}, ErrInvalid("accepted_at must be set and not after now")
	}
	if c.QuotedAt.After(c.AcceptedAt) {
		return nil, Reply{}, ErrInvalid("quoted_at must not be after accepted_at")
	}
	if len(c.Signing) == 0 || !json.Valid(c.Signing) || c.Signing[0] != '{' {
		return nil, Reply{}, ErrInvalid("signing must be a JSON object")
	}
	if c.Route == RouteAMM && (c.Gasless == nil || c.Gasless.valid() != nil) || c.Route == RouteRFQ && c.RFQ == nil {
		return nil, Reply{}, ErrInvalid("the order's chain terms are missing")
	}
	o := &Order{
		ID: c.ID, Account: c.Account, QuoteID: c.QuoteID, Route: c.Route, State: OrderAccepted,
		FromCurrency: c.FromCurrency, ToCurrency: c.ToCurrency,
		AmountIn: new(big.Int).Set(c.AmountIn), AmountOut: new(big.Int).Set(c.AmountOut), MinAmountOut: new(big.Int).Set(c.MinAmountOut),
		Signer: signer, Deadline: c.Deadline.UTC(), Signing: append([]byte(nil), c.Signing...), Gasless: c.Gasless, RFQ: c.RFQ,
		CreatedAt: cmp.Or(c.QuotedAt, c.AcceptedAt).UTC(), UpdatedAt: env.Now,
	}
	return reply([]*Order{o})
}

// reply answers with the last row.
func reply(rows []*Order) ([]*Order, Reply, *Error) {
	return rows, jsonReply(200, ViewOrder(rows[len(rows)-1])), nil
}

// next returns a copy of o in state with edit applied, stamped at env.Now;
// a state that fires a webhook event gets its event id here, once.
func (o *Order) next(env Env, state string, edit func(*Order)) []*Order {
	n := *o
	n.State, n.UpdatedAt = state, env.Now
	if edit != nil {
		edit(&n)
	}
	if orderHasEvent(state) {
		n.EventID = env.NewID("evt_")
	}
	return []*Order{&n}
}

// need refuses unless the order is in one of states.
func (o *Order) need(states ...string) *Error {
	for _, st := range states {
		if o.State == st {
			return nil
		}
	}
	return ErrInvalidState("order %s is %s", o.ID, o.State)
}

// needRoute is need for the host-side commands of one route: another
// route's command is a transition the order does not have.
func (o *Order) needRoute(route string, states ...string) *Error {
	if o.Route != route {
		return ErrInvalidState("order %s is %s and routed %s", o.ID, o.State, o.Route)
	}
	return o.need(states...)
}

// normTxHash accepts a 0x-prefixed 32-byte hex hash and returns it in
// lower case, so a hash has one spelling in rows and views.
func normTxHash(field, h string) (string, *Error) {
	h = strings.ToLower(h)
	if !isHex0x(h, 32) {
		return "", ErrInvalid("%s must be a 0x-prefixed 32-byte hex hash", field)
	}
	return h, nil
}

// CheckTaker refuses a source_wallet that is malformed or not taker (a
// quote's taker, an order's signer: EIP-55); nil sourceWallet passes. The
// first accept and every repeat check it alike.
func CheckTaker(sourceWallet *string, taker string) *Error {
	if sourceWallet == nil {
		return nil
	}
	addr, err := NormalizeAddress("source_wallet", *sourceWallet)
	if err != nil {
		return err
	}
	if addr != taker {
		return ErrInvalid("source_wallet must be the quote's taker %s", taker)
	}
	return nil
}
