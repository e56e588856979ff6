package httpd

import (
	"strings"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
)

// cursor is what a list's ?starting_after may be: an id of one of the
// kinds the list holds, by their prefixes. Any well-formed id is a place
// in the list's id order (one deleted, or never seen, included: the list
// goes on after where it would be), but a string that is no such id is
// 400 invalid_request: answered as a position, a mistyped cursor would
// read as a first page, or an empty one, and a client paging through
// would never learn why. GET /wallets, whose cursor is an address, has
// the account check it (domain.walletPage).
type cursor struct {
	what     string   // "a contact id", for the message
	prefixes []string // the id prefixes the list's items carry
	// attempt: "<id>:<attempt>" is a cursor too (the deliveries list).
	attempt bool
}

var (
	noCursor       = cursor{}
	contactCursor  = cursor{what: "a contact id", prefixes: []string{domain.ContactPrefix}}
	orderCursor    = cursor{what: "an order id", prefixes: []string{domain.KindOrder.Prefix()}}
	transferCursor = cursor{what: "a transfer id", prefixes: []string{domain.KindTransfer.Prefix()}}
	linkCursor     = cursor{what: "a payment link id", prefixes: []string{domain.KindLink.Prefix()}}
	// The ledger's entries are its orders, transfers and links, and the
	// late payments to a link.
	entryCursor = cursor{what: "a transaction id", prefixes: []string{domain.KindOrder.Prefix(), domain.KindTransfer.Prefix(),
		domain.KindLink.Prefix(), domain.LatePaymentPrefix}}
	endpointCursor = cursor{what: "a webhook endpoint id", prefixes: []string{domain.KindEndpoint.Prefix()}}
	eventCursor    = cursor{what: "an event id", prefixes: []string{domain.KindEvent.Prefix()}}
	deliveryCursor = cursor{what: `a delivery id, or "<delivery id>:<attempt>"`, prefixes: []string{domain.DeliveryPrefix}, attempt: true}
)

// check refuses a starting_after that is not one of c's cursors; ""
// (none given) passes.
func (c cursor) check(s string) *domain.Error {
	if s == "" || len(c.prefixes) == 0 {
		return nil
	}
	if c.attempt && strings.IndexByte(s, ':') >= 0 {
		id, _, ok := domain.SplitAttemptCursor(s)
		if !ok {
			return c.refuse()
		}
		s = id
	}
	for _, p := range c.prefixes {
		if _, ok := ids.Parse(p, s); ok {
			return nil
		}
	}
	return c.refuse()
}

func (c cursor) refuse() *domain.Error {
	return domain.ErrInvalid("starting_after must be %s (the next_cursor of a page of this list)", c.what)
}
