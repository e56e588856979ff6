package torture

import (
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// Record kinds, as the summary names them.
const (
	kindContact  = "contact"
	kindWallet   = "wallet"
	kindOrder    = "order"
	kindTransfer = "transfer"
	kindLink     = "payment_link"
	kindEndpoint = "webhook_endpoint"
)

// tracked is what every record of the workload shares: who made it, its
// unique name (a contact's name, a transfer's memo, a link's or an
// endpoint's description), and the states it was seen in, oldest first.
type tracked struct {
	kind   string
	id     string
	name   string
	worker *worker
	m      *machine // nil: no state machine (contacts, wallets)
	create *request

	// flight is held while a request about the record is in flight and
	// its answer is observed, so the states are seen in answer order.
	flight sync.Mutex

	mu     sync.Mutex
	states []string
}

// observe appends a state seen in an answer (never a replayed one: that
// is an old answer) or a GET.
func (t *tracked) observe(state string) {
	if state == "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := len(t.states); n == 0 || t.states[n-1] != state {
		t.states = append(t.states, state)
	}
}

// state is the latest state seen ("" before any).
func (t *tracked) state() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.states) == 0 {
		return ""
	}
	return t.states[len(t.states)-1]
}

// seen returns the states seen so far.
func (t *tracked) seen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.states...)
}

// locked runs f under the record's lock: every field a worker changes
// after the record is registered is read and written this way.
func (t *tracked) locked(f func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f()
}

// terminal reports whether the record reached a state nothing leaves.
func (t *tracked) terminal() bool { return t.m != nil && t.m.isTerminal(t.state()) }

// sentTx is a transaction a wallet of the workload signed: its hash is
// known before it is broadcast, and it is broadcast again until mined.
type sentTx struct {
	tx     *types.Transaction
	from   common.Address
	amount *big.Int // what it moves (payments, transfers, fundings)

	mu       sync.Mutex
	mined    bool
	reverted bool
}

func (s *sentTx) setMined(reverted bool) {
	s.mu.Lock()
	s.mined, s.reverted = true, reverted
	s.mu.Unlock()
}

// succeeded reports whether the tx is mined and did not revert.
func (s *sentTx) succeeded() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mined && !s.reverted
}

// contactRec is a contact: its last acknowledged fields.
type contactRec struct {
	tracked
	address string
	memo    string // "" none
	deleted bool
	// deleting: a delete was sent (a mid-run list may or may not show it).
	deleting bool
	// unsure: an update or delete never got an answer, so the stored
	// fields may be either.
	unsure bool
}

// walletRole is what the workload uses a wallet for.
type walletRole uint8

const (
	roleTrader walletRole = iota // a worker's trading wallet: never deleted
	rolePayout                   // a payout wallet of links (never trades): never deleted
	roleExtra                    // linked to be relabelled, made primary and deleted
)

// walletRec is a wallet linked to an account by SIWE, with its last
// acknowledged label. Its primary mark is the account's (account.primary).
type walletRec struct {
	tracked
	w    *wallet.Wallet
	role walletRole

	// Under the record's lock (locked):
	label       string // last acknowledged label ("" none: null)
	labelUnsure bool   // a label write never got an answer: the end resolves it
	deleting    bool   // a delete was sent (in flight, or never answered)
	deleted     bool   // a delete was acknowledged
}

// usable reports whether the wallet is linked for sure and no delete of
// it was ever sent: the workload may still write to it.
func (r *walletRec) usable() bool {
	ok := false
	r.locked(func() { ok = r.id != "" && r.create != nil && r.create.outcome == outAcked && !r.deleting })
	return ok
}

// orderRec is an FX order.
type orderRec struct {
	tracked
	route    string
	from, to string
	amountIn *big.Int
	funding  *sentTx // rfq: the escrow funding
	final    *client.Order
}

// transferRec is a transfer to a fresh payee.
type transferRec struct {
	tracked
	same     bool
	from, to string
	amount   *big.Int // in from
	payee    common.Address
	tx       *sentTx // same-currency: the wallet's ERC-20 transfer
	final    *client.Transfer
}

// linkRec is a payment link paid by strangers.
type linkRec struct {
	tracked
	amount   *big.Int
	payout   common.Address
	receive  common.Address
	payments []*sentTx
	final    *client.PaymentLink
}

// endpointRec is a webhook endpoint at one of the receivers; its url
// (the receiver's, then "/" and its name) never changes.
type endpointRec struct {
	tracked
	recv *receiver
	path string
	// pinned: one of the setup's endpoints, never deleted (the delivery
	// checks lean on them).
	pinned bool

	// Under the record's lock (locked):
	ackedAt time.Time
	// filters are the event filters the endpoint had or may have had,
	// oldest first: the create's, then every PATCH of events that was not
	// refused (one never answered stays, pending, until the end).
	filters []filterVersion
	desc    string // last acknowledged description ("" none: null)
	// descUnsure: a description write never got an answer.
	descUnsure bool
	// rotating: a rotate-secret never got an answer; no other is sent
	// (the receiver would not know which secrets sign).
	rotating  bool
	rotatedAt time.Time // the last rotation's acknowledgement
	deleting  bool      // a delete was sent (in flight, or never answered)
	deleted   bool      // a delete was acknowledged, at deletedAt
	deletedAt time.Time
}

// gone reports whether a delete of the endpoint was ever sent: nothing is
// sent about it any more, and its GET may be 404.
func (e *endpointRec) gone() bool {
	g := false
	e.locked(func() { g = e.deleting || e.deleted })
	return g
}

// recordLists are the records of the run, by kind.
type recordLists struct {
	contacts  []*contactRec
	wallets   []*walletRec
	orders    []*orderRec
	transfers []*transferRec
	links     []*linkRec
	endpoints []*endpointRec
}

// registry holds every record of the run.
type registry struct {
	mu sync.Mutex
	recordLists
}

// addContact and friends register a record once its create was answered.
func (r *registry) addContact(c *contactRec) {
	r.mu.Lock()
	r.contacts = append(r.contacts, c)
	r.mu.Unlock()
}
func (r *registry) addWallet(w *walletRec) {
	r.mu.Lock()
	r.wallets = append(r.wallets, w)
	r.mu.Unlock()
}
func (r *registry) addOrder(o *orderRec) { r.mu.Lock(); r.orders = append(r.orders, o); r.mu.Unlock() }
func (r *registry) addTransfer(t *transferRec) {
	r.mu.Lock()
	r.transfers = append(r.transfers, t)
	r.mu.Unlock()
}
func (r *registry) addLink(l *linkRec) { r.mu.Lock(); r.links = append(r.links, l); r.mu.Unlock() }
func (r *registry) addEndpoint(e *endpointRec) {
	r.mu.Lock()
	r.endpoints = append(r.endpoints, e)
	r.mu.Unlock()
}

// snapshot copies the lists (the records themselves are shared).
func (r *registry) snapshot() recordLists {
	r.mu.Lock()
	defer r.mu.Unlock()
	return recordLists{
		contacts: append([]*contactRec(nil), r.contacts...), wallets: append([]*walletRec(nil), r.wallets...),
		orders: append([]*orderRec(nil), r.orders...), transfers: append([]*transferRec(nil), r.transfers...),
		links: append([]*linkRec(nil), r.links...), endpoints: append([]*endpointRec(nil), r.endpoints...),
	}
}
