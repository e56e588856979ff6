package maker

import (
	"container/heap"
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/rfq"
)

// quoteMsg asks the actor for a firm quote; the answer goes to done (one
// slot, so the actor never blocks on a caller that gave up).
type quoteMsg struct {
	ctx  context.Context
	req  Request
	done chan<- quoteReply
}

type quoteReply struct {
	firm *Firm
	err  error
}

// signMsg asks the actor to sign a quote it made and still holds.
type signMsg struct {
	ctx   context.Context
	quote rfq.Quote
	done  chan<- signReply
}

type signReply struct {
	sig []byte
	err error
}

// refreshMsg asks the actor to re-read the balances if due (Offer found
// its snapshot stale) and publish its snapshot.
type refreshMsg struct {
	ctx  context.Context
	done chan<- error
}

// inventoryMsg asks the actor what it can still promise of each token.
type inventoryMsg struct {
	ctx  context.Context
	done chan<- inventoryReply
}

type inventoryReply struct {
	available map[common.Address]*big.Int
	err       error
}

// settledMsg: a settle this maker sent was mined (fill is what it exchanged,
// nil if its event was not found) or was not seen mined in time. Either way
// the balances are stale.
type settledMsg struct {
	id   common.Hash
	fill *fill
}

// fill is the terms of a quote as the escrow records and settles them. A
// settle names only the execution id, and the escrow's QuoteSettled event
// carries these terms but not the quote's hash, so they are what ties a
// settle to the reservation it releases. Two live quotes with equal terms are
// interchangeable for that purpose: releasing either leaves the same total
// reserved.
type fill struct {
	taker, tokenIn, tokenOut common.Address
	amountIn, amountOut      *big.Int
}

func (f *fill) matches(g *fill) bool {
	return f.taker == g.taker && f.tokenIn == g.tokenIn && f.tokenOut == g.tokenOut &&
		f.amountIn.Cmp(g.amountIn) == 0 && f.amountOut.Cmp(g.amountOut) == 0
}

// reservation is one unexpired commitment: a firm quote the actor made
// (Quote) or an offer it committed to at Sign. Its amountOut of tokenOut is
// held back from the inventory until the quote expires or its settle is
// mined; a released reservation (settled) holds nothing but is kept until
// expiry, so that the quote is neither signed nor reserved again.
type reservation struct {
	hash     [32]byte // rfq.QuoteHash
	expiry   uint64   // Quote.expiry, unix seconds
	terms    fill
	index    int    // position in the expiry heap
	sig      []byte // the EIP-712 signature, made at the first Sign
	released bool   // settled: its output left the balance
}

// expiryHeap orders reservations by expiry, soonest first, so expiring them
// costs O(log n) each instead of a scan per quote.
type expiryHeap []*reservation

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].expiry < h[j].expiry }
func (h expiryHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *expiryHeap) Push(x any) {
	r := x.(*reservation)
	r.index = len(*h)
	*h = append(*h, r)
}
func (h *expiryHeap) Pop() any {
	old := *h
	r := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	r.index = -1
	return r
}

// makerActor is a maker's state. Only its Receive touches it, one message at
// a time, so it needs no locks.
type makerActor struct {
	*terms
	key     *ecdsa.PrivateKey
	chainID *big.Int
	escrow  common.Address
	tokens  []token
	lim     limits
	pending *atomic.Int64             // the client's count of waiting requests
	snap    *atomic.Pointer[snapshot] // published after every message
	life    context.Context           // ends at Stop; bounds chain reads

	// Balances as last read from the chain.
	balances map[common.Address]*big.Int
	readAt   time.Time // last successful read
	triedAt  time.Time // last attempt
	readErr  error     // of the last attempt
	stale    bool      // a settle was mined (or may have been) since readAt

	reserved map[common.Address]*big.Int // sum of live reservations by token
	byHash   map[[32]byte]*reservation
	byExpiry expiryHeap
}

func newActor(cfg Config, t *terms, tokens []token, balances map[common.Address]*big.Int, l *Local, lim limits) *makerActor {
	a := &makerActor{
		terms: t, key: cfg.Key, chainID: cfg.ChainID, escrow: cfg.Escrow, tokens: tokens, lim: lim,
		pending: &l.pending, snap: &l.snap, life: l.life,
		balances: balances, readAt: cfg.Now(),
		reserved: make(map[common.Address]*big.Int, len(tokens)),
		byHash:   make(map[[32]byte]*reservation),
	}
	for _, t := range tokens {
		a.reserved[t.addr] = new(big.Int)
	}
	a.publish()
	return a
}

// Receive is the actor's mailbox loop body.
func (a *makerActor) Receive(c actor.Context) {
	switch m := c.Message().(type) {
	case quoteMsg:
		a.pending.Add(-1)
		f, err := a.quote(m.ctx, m.req)
		m.done <- quoteReply{firm: f, err: err}
	case signMsg:
		a.pending.Add(-1)
		sig, err := a.sign(m.ctx, &m.quote)
		m.done <- signReply{sig: sig, err: err}
	case inventoryMsg:
		a.pending.Add(-1)
		inv, err := a.inventory(m.ctx)
		m.done <- inventoryReply{available: inv, err: err}
	case refreshMsg:
		a.pending.Add(-1)
		m.done <- a.refreshNow(m.ctx)
	case settledMsg:
		a.settled(m)
	default:
		return // protoactor's lifecycle messages change nothing
	}
	a.publish()
}

// publish makes the actor's inventory Offer's snapshot.
func (a *makerActor) publish() {
	s := &snapshot{
		available: make(map[common.Address]*big.Int, len(a.tokens)),
		readAt:    a.readAt, triedAt: a.triedAt, readErr: a.readErr, stale: a.stale,
		full: len(a.byHash) >= a.lim.maxReservations,
	}
	for _, t := range a.tokens {
		s.available[t.addr] = a.available(t.addr)
	}
	a.snap.Store(s)
}

// refreshNow re-reads the balances if due (refreshDue).
func (a *makerActor) refreshNow(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("maker %s: request abandoned: %w", a.name, err)
	}
	now := a.now()
	a.expire(unixSec(now))
	return a.refresh(now)
}

func unixSec(t time.Time) uint64 { return uint64(max(t.Unix(), 0)) }

func (a *makerActor) quote(ctx context.Context, r Request) (*Firm, error) {
	// The caller stopped waiting: a quote now would reserve inventory for a
	// promise nobody received.
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("maker %s: request abandoned: %w", a.name, err)
	}
	now := a.now()
	a.expire(unixSec(now))
	out, err := a.amountOut(r, unixSec(now))
	if err != nil {
		return nil, err
	}
	if len(a.byHash) >= a.lim.maxReservations {
		return nil, a.decline("%d firm quotes outstanding", len(a.byHash))
	}
	if err := a.refresh(now); err != nil {
		return nil, fmt.Errorf("%w: %s: inventory unknown: %w", ErrNoQuote, a.name, err)
	}
	if avail := a.available(r.TokenOut); out.Cmp(avail) > 0 {
		return nil, a.decline("needs %s of %s, has %s available", out, r.TokenOut.Hex(), avail)
	}

	salt, err := newSalt()
	if err != nil {
		return nil, err
	}
	q := rfq.Quote{
		Maker: a.addr, Taker: r.Taker, TokenIn: r.TokenIn, TokenOut: r.TokenOut,
		AmountIn: new(big.Int).Set(r.AmountIn), AmountOut: out,
		Expiry: new(big.Int).SetUint64(r.Expiry), Salt: salt,
	}
	if err := q.Validate(); err != nil {
		// An amount beyond the escrow's uint96 (a MaxQuote set that high).
		return nil, fmt.Errorf("%w: %s: %w", ErrNoQuote, a.name, err)
	}
	a.reserve(rfq.QuoteHash(&q), &q)
	return &Firm{Maker: a.name, Quote: q}, nil
}

// sign signs a quote this maker holds: a firm quote it made (Quote), whose
// reservation is the commitment, or an offer it made (Offer), to which it
// commits now. The EIP-712 signature, needed only by the escrow call, is
// made once, when the quote is accepted, not for every quote asked for.
func (a *makerActor) sign(ctx context.Context, q *rfq.Quote) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("maker %s: request abandoned: %w", a.name, err)
	}
	now := a.now()
	a.expire(unixSec(now))
	if q.Maker != a.addr {
		return nil, a.invalid("quote of maker %s", q.Maker.Hex())
	}
	hash := rfq.QuoteHash(q)
	r := a.byHash[hash]
	if r == nil {
		var err error
		if r, err = a.commit(q, hash, now); err != nil {
			return nil, err
		}
	}
	if r.sig != nil {
		return r.sig, nil
	}
	sig, err := rfq.SignQuote(a.key, a.chainID, a.escrow, q)
	if err != nil {
		return nil, fmt.Errorf("maker %s: %w", a.name, err)
	}
	r.sig = sig
	return sig, nil
}

// commit makes an offer of this maker a commitment: it must carry the
// maker's tag (madeOffer), be live, and the inventory must still hold its
// output. The offer was priced against balances at most
// BalanceRefreshInterval old, as Quote prices; here they are re-read only
// if a settle changed them since (or the last read failed), so an accept
// does not wait for the chain once a second.
func (a *makerActor) commit(q *rfq.Quote, hash [32]byte, now time.Time) (*reservation, error) {
	if !madeOffer(&a.offerKey, q) {
		return nil, a.decline("no live quote %x (expired, settled, or never made)", hash)
	}
	if exp := q.Expiry.Uint64(); exp < unixSec(now) {
		return nil, a.decline("quote %x expired at %d", hash, exp)
	}
	if len(a.byHash) >= a.lim.maxReservations {
		return nil, a.decline("%d firm quotes outstanding", len(a.byHash))
	}
	if a.stale || a.readErr != nil {
		if err := a.refresh(now); err != nil {
			return nil, fmt.Errorf("%w: %s: inventory unknown: %w", ErrNoQuote, a.name, err)
		}
	}
	if avail := a.available(q.TokenOut); q.AmountOut.Cmp(avail) > 0 {
		return nil, a.decline("needs %s of %s, has %s available", q.AmountOut, q.TokenOut.Hex(), avail)
	}
	return a.reserve(hash, q), nil
}

// reserve holds q's output back until its expiry (or its settle).
func (a *makerActor) reserve(hash [32]byte, q *rfq.Quote) *reservation {
	r := &reservation{
		hash: hash, expiry: q.Expiry.Uint64(),
		terms: fill{
			taker: q.Taker, tokenIn: q.TokenIn, tokenOut: q.TokenOut,
			amountIn: new(big.Int).Set(q.AmountIn), amountOut: new(big.Int).Set(q.AmountOut),
		},
	}
	a.byHash[r.hash] = r
	heap.Push(&a.byExpiry, r)
	a.reserved[r.terms.tokenOut].Add(a.reserved[r.terms.tokenOut], r.terms.amountOut)
	return r
}

// release stops holding r's output (its settle paid it out, or it expired).
func (a *makerActor) release(r *reservation) {
	if !r.released {
		r.released = true
		a.reserved[r.terms.tokenOut].Sub(a.reserved[r.terms.tokenOut], r.terms.amountOut)
	}
}

// expire drops the reservations of quotes that can no longer be escrowed:
// the escrow accepts a quote while block.timestamp <= expiry, so a quote
// lives through its expiry second.
func (a *makerActor) expire(nowSec uint64) {
	for len(a.byExpiry) > 0 && a.byExpiry[0].expiry < nowSec {
		r := heap.Pop(&a.byExpiry).(*reservation)
		a.release(r)
		delete(a.byHash, r.hash)
	}
}

// available is the balance of tok not promised to a live quote (never below zero).
func (a *makerActor) available(tok common.Address) *big.Int {
	v := new(big.Int).Sub(a.balances[tok], a.reserved[tok])
	if v.Sign() < 0 {
		v.SetInt64(0)
	}
	return v
}

// refresh re-reads the balances if they are older than
// BalanceRefreshInterval or a settle changed them. A failed read is retried
// at most once per interval; until a read succeeds the maker declines, since
// old balances may promise tokens a settle already paid out.
func (a *makerActor) refresh(now time.Time) error {
	if due, err := refreshDue(now, a.readAt, a.triedAt, a.stale, a.readErr); !due {
		return err
	}
	a.triedAt = now
	ctx, cancel := context.WithTimeout(a.life, chainCallTimeout)
	defer cancel()
	b, err := readBalances(ctx, a.tokens, a.addr)
	if err != nil {
		a.readErr = err
		a.log.Warn("maker: reading balances failed; declining quotes until it works", "err", err.Error())
		return err
	}
	a.balances, a.readAt, a.readErr, a.stale = b, now, nil, false
	return nil
}

func (a *makerActor) inventory(ctx context.Context) (map[common.Address]*big.Int, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("maker %s: request abandoned: %w", a.name, err)
	}
	now := a.now()
	a.expire(unixSec(now))
	if err := a.refresh(now); err != nil {
		return nil, fmt.Errorf("maker %s: inventory: %w", a.name, err)
	}
	out := make(map[common.Address]*big.Int, len(a.tokens))
	for _, t := range a.tokens {
		out[t.addr] = a.available(t.addr)
	}
	return out, nil
}

// settled releases the reservation of the quote a mined settle executed (its
// output has left the balance now, so keeping it reserved would count it
// twice) and marks the balances stale so the next request re-reads them.
func (a *makerActor) settled(m settledMsg) {
	a.stale = true
	if m.fill == nil {
		return
	}
	var match *reservation
	for _, r := range a.byHash {
		if !r.released && r.terms.matches(m.fill) && (match == nil || r.expiry < match.expiry) {
			match = r
		}
	}
	if match == nil {
		// The quote already expired (settled after its expiry), or it was
		// quoted before this process started.
		return
	}
	// The record stays until its expiry, so the quote is never committed
	// to (or reserved) again.
	a.release(match)
	a.log.Debug("maker: settle released its reservation", "execution_id", m.id.Hex(), "quote_hash", common.Hash(match.hash).Hex())
}
