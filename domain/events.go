package domain

import "fmt"

// EventKind names what an event writes. The numbers are part of the log
// format: never reuse or renumber one.
type EventKind uint8

// The event kinds of an account entity.
const (
	EvAccountPut       EventKind = 1 // Account holds the new profile row
	EvKeyPut           EventKind = 2 // Key holds the new API key row
	EvContactPut       EventKind = 3 // Contact holds the new contact row
	EvContactDeleted   EventKind = 4 // ID names the deleted contact
	EvIdemPut          EventKind = 5 // Idem holds the stored answer
	EvWalletPut        EventKind = 6 // Wallet holds the new wallet row
	EvWalletDeleted    EventKind = 7 // ID names the unlinked wallet address
	EvChallengePut     EventKind = 8 // Challenge holds the issued SIWE challenge
	EvChallengeDeleted EventKind = 9 // ID names the used or expired nonce
	// EvMetaPut is a service-level fact (entity ""), e.g. the genesis hash
	// of the chain this log belongs to: ID is the key, Value the value.
	EvMetaPut EventKind = 10
	// EvOrderPut holds the new row of an FX order (entity: the order id).
	EvOrderPut EventKind = 11
	// EvTransferPut holds the new row of a transfer (entity: its id).
	EvTransferPut EventKind = 12
	// EvClaimPut records that a transaction log confirmed a record
	// (entity: the claim id of the transaction).
	EvClaimPut EventKind = 13
	// EvLinkPut holds the new row of a payment link (entity: its id).
	EvLinkPut EventKind = 14
	// EvEndpointPut holds the new row of a webhook endpoint.
	EvEndpointPut EventKind = 15
	// EvWebhookEventPut holds a webhook event's row: its birth, in the
	// record of the transition that fired it, then its fan-out and each
	// attempt, in the event's own records (entity: the event id).
	EvWebhookEventPut EventKind = 16
)

func (k EventKind) String() string {
	switch k {
	case EvAccountPut:
		return "account_put"
	case EvKeyPut:
		return "key_put"
	case EvContactPut:
		return "contact_put"
	case EvContactDeleted:
		return "contact_deleted"
	case EvIdemPut:
		return "idem_put"
	case EvWalletPut:
		return "wallet_put"
	case EvWalletDeleted:
		return "wallet_deleted"
	case EvChallengePut:
		return "challenge_put"
	case EvChallengeDeleted:
		return "challenge_deleted"
	case EvMetaPut:
		return "meta_put"
	case EvOrderPut:
		return "order_put"
	case EvTransferPut:
		return "transfer_put"
	case EvClaimPut:
		return "claim_put"
	case EvLinkPut:
		return "link_put"
	case EvEndpointPut:
		return "endpoint_put"
	case EvWebhookEventPut:
		return "webhook_event_put"
	}
	return fmt.Sprintf("event_%d", uint8(k))
}

// Event is one change to one row. Exactly the field that matches Kind is set.
type Event struct {
	Kind      EventKind
	Account   *Account
	Key       *APIKey
	Contact   *Contact
	ID        string
	Idem      *IdemRecord
	Wallet    *Wallet
	Challenge *Challenge
	Value     string    // EvMetaPut only
	Order     *Order    // EvOrderPut
	Transfer  *Transfer // EvTransferPut
	Claim     *Claim    // EvClaimPut
	Link      *Link     // EvLinkPut
	// Endpoint: EvEndpointPut.
	Endpoint *Endpoint
	// WebhookEvent: EvWebhookEventPut.
	WebhookEvent *WebhookEvent
}

// TransferEvents wraps TransferState.Decide's rows as log events, with
// the birth of the webhook event a transition fires (prev: the current
// row's event id).
func TransferEvents(prev string, rows []*Transfer) []Event {
	return rowEvents(prev, rows, func(t *Transfer) Event { return Event{Kind: EvTransferPut, Transfer: t} })
}

// LinkEvents wraps LinkState.Decide's rows as log events (see TransferEvents).
func LinkEvents(prev string, rows []*Link) []Event {
	return rowEvents(prev, rows, func(l *Link) Event { return Event{Kind: EvLinkPut, Link: l} })
}

// OrderEvents wraps OrderState.Decide's rows as log events (see TransferEvents).
func OrderEvents(prev string, rows []*Order) []Event {
	return rowEvents(prev, rows, func(o *Order) Event { return Event{Kind: EvOrderPut, Order: o} })
}

// Record is what one log entry holds: the events one command caused for one
// entity, applied together or not at all.
type Record struct {
	Entity string // the account id
	Events []Event
}

// Limits on what one record may hold; the decoder refuses more.
const (
	MaxEventsPerRecord = 64
	MaxRowBytes        = 256 << 10
)
