package domain

import (
	"fmt"
	"strings"
	"time"
)

// Kind is a kind of entity the engine hosts. The numbers are part of the
// store's key format: never reuse or renumber one.
type Kind uint8

// The entity kinds.
const (
	KindAccount  Kind = 1
	KindOrder    Kind = 2
	KindTransfer Kind = 3
	KindLink     Kind = 4
)

// Id prefixes of the records that live inside an entity rather than being
// one: what makes them (env.NewID) and what checks a client's copy of one
// (the lists' cursors) spell them the same.
const (
	ContactPrefix     = "ct_"  // an account's contact
	LatePaymentPrefix = "plp_" // a payment to a link after it closed: a ledger entry of its own
	DeliveryPrefix    = "dlv_" // an event's delivery to one webhook endpoint
)

// kindPrefixes maps each kind to the id prefix of its entities.
var kindPrefixes = [...]string{KindAccount: "acct_", KindOrder: "ord_", KindTransfer: "tr_", KindLink: "pl_", KindClaim: "txc_", KindEndpoint: "wh_", KindEvent: "evt_"}

func (k Kind) String() string {
	switch k {
	case KindAccount:
		return "account"
	case KindOrder:
		return "order"
	case KindTransfer:
		return "transfer"
	case KindLink:
		return "payment_link"
	case KindClaim:
		return "claim"
	case KindEndpoint:
		return "webhook_endpoint"
	case KindEvent:
		return "event"
	}
	return fmt.Sprintf("kind_%d", uint8(k))
}

// Prefix is the id prefix of the kind's entities ("ord_", …).
func (k Kind) Prefix() string {
	if int(k) < len(kindPrefixes) {
		return kindPrefixes[k]
	}
	return ""
}

// KindOf returns the kind of the entity id names, by its prefix.
func KindOf(id string) (Kind, bool) {
	for k, p := range kindPrefixes {
		if p != "" && strings.HasPrefix(id, p) && len(id) > len(p) {
			return Kind(k), true
		}
	}
	return 0, false
}

// Command is anything an entity can be asked to do; Target names the kind
// of entity that decides it, so a command can never reach an entity of
// another kind. Commands carry plain values only (no pointers into request
// buffers), so they can cross goroutines and, later, nodes.
type Command interface{ Target() Kind }

// Entity is the pure state machine of one entity, as the engine hosts it:
// Handle decides (idempotency, then Decide) without mutating, Apply writes
// one durable event. Every kind (account, order, transfer, payment link)
// implements it, so one host serves them all.
type Entity interface {
	Handle(req Request, env Env) Outcome
	Apply(e *Event)
	// InFlight: scope's answer is decided in this (speculative) state and
	// not yet in committed, the durable one.
	InFlight(committed Entity, scope string, now time.Time) bool
	Clone() Entity
	// Exists: the entity holds anything (a row or a stored answer).
	Exists() bool
}

// NewEntity returns the empty state of an entity of kind k.
func NewEntity(k Kind) Entity {
	switch k {
	case KindAccount:
		return NewAccountState()
	case KindOrder:
		return NewOrderState()
	case KindTransfer:
		return NewTransferState()
	case KindClaim:
		return NewClaimState()
	case KindLink:
		return NewLinkState()
	case KindEndpoint:
		return NewEndpointState()
	case KindEvent:
		return NewEventState()
	}
	panic(fmt.Sprintf("domain: no entity of kind %s", k))
}
