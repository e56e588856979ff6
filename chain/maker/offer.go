package maker

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/rfq"
)

// ErrStale: Offer needs the maker's balances re-read first (they are older
// than BalanceRefreshInterval, or a settle changed them). Refresh, then
// Offer again.
var ErrStale = errors.New("maker: inventory snapshot is stale")

// Offerer is a Maker that prices firm quotes on the caller's goroutine,
// from an inventory snapshot its actor publishes, without a message to the
// actor and without reserving anything: the maker commits to an offer when
// it is accepted (Sign). A caller asking several makers costs no messages,
// channels or timers per quote.
type Offerer interface {
	Maker
	// Offer prices r now. Declines wrap ErrNoQuote, a malformed request
	// gives ErrInvalidRequest, and ErrStale asks for RefreshAsync first.
	// The quote's salt proves to this maker, at Sign, that it made the
	// quote with exactly these terms.
	Offer(r Request) (*Firm, error)
	// RefreshAsync asks the actor to bring the snapshot up to date
	// (re-reading balances if due); wait gives the outcome, bounded by ctx.
	RefreshAsync(ctx context.Context) (wait func() error)
}

var _ Offerer = (*Local)(nil)

// terms are what a maker is and how it prices: fixed at Start, shared by
// its actor (Quote, Sign) and by Offer on callers' goroutines.
type terms struct {
	name      string
	addr      common.Address
	spreadBps uint64
	price     PriceSource
	maxQuote  *big.Int
	trades    map[common.Address]bool
	now       func() time.Time
	log       *slog.Logger
	// offerKey authenticates offers (offerTag): random per process, so an
	// offer outlives neither the process nor the desk's book that holds it.
	offerKey [32]byte
}

// decline is an ErrNoQuote with the maker's name and the reason.
func (t *terms) decline(format string, args ...any) error {
	err := fmt.Errorf("%w: %s: "+format, append([]any{ErrNoQuote, t.name}, args...)...)
	t.log.Debug("maker: declined", "reason", err.Error())
	return err
}

func (t *terms) invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s: "+format, append([]any{ErrInvalidRequest, t.name}, args...)...)
}

// amountOut checks r at nowSec and prices it: what the maker pays for r,
// or why it refuses (ErrInvalidRequest) or declines (ErrNoQuote). It
// looks at no inventory: that is the caller's (the actor's state, or a
// snapshot of it).
func (t *terms) amountOut(r Request, nowSec uint64) (*big.Int, error) {
	switch {
	case r.Taker == (common.Address{}):
		return nil, t.invalid("zero taker")
	case r.TokenIn == r.TokenOut:
		return nil, t.invalid("tokenIn equals tokenOut")
	case r.AmountIn == nil || r.AmountIn.Sign() <= 0:
		return nil, t.invalid("amountIn must be positive")
	case r.Expiry <= nowSec:
		return nil, t.invalid("expiry %d is not after now (%d)", r.Expiry, nowSec)
	}
	if !t.trades[r.TokenIn] || !t.trades[r.TokenOut] {
		return nil, t.decline("does not trade %s -> %s", r.TokenIn.Hex(), r.TokenOut.Hex())
	}
	if r.Expiry-nowSec > uint64(MaxQuoteTTL/time.Second) {
		return nil, t.decline("expiry %d is more than %v ahead", r.Expiry, MaxQuoteTTL)
	}
	if r.AmountIn.Cmp(t.maxQuote) > 0 {
		return nil, t.decline("amountIn %s above the maximum %s", r.AmountIn, t.maxQuote)
	}
	mid, ok := t.price(r.TokenIn, r.TokenOut)
	if !ok || mid == nil || mid.Sign() <= 0 {
		return nil, t.decline("no price for %s -> %s", r.TokenIn.Hex(), r.TokenOut.Hex())
	}
	out := AmountOut(r.AmountIn, mid, t.spreadBps)
	if out.Sign() == 0 {
		return nil, t.decline("amountIn %s is too small: it buys nothing", r.AmountIn)
	}
	return out, nil
}

// snapshot is the maker's inventory as its actor last left it, published
// after every message for Offer. Immutable once published.
type snapshot struct {
	available map[common.Address]*big.Int // balance − reserved, never below zero; one entry per traded token
	readAt    time.Time                   // last successful balance read
	triedAt   time.Time                   // last attempt
	readErr   error                       // of the last attempt
	stale     bool                        // a settle was mined (or may have been) since readAt
	full      bool                        // MaxReservations commitments: Sign would decline
}

// refreshDue is the balance refresh rule: balances older than
// BalanceRefreshInterval, or made stale by a settle, are re-read; a failed
// read is retried at most once per interval, and until one succeeds the
// maker declines with its error (old balances may promise tokens a settle
// already paid out).
func refreshDue(now, readAt, triedAt time.Time, stale bool, readErr error) (bool, error) {
	if !stale && now.Sub(readAt) < BalanceRefreshInterval {
		return false, nil
	}
	if readErr != nil && now.Sub(triedAt) < BalanceRefreshInterval {
		return false, readErr
	}
	return true, nil
}

// Offer prices r from the published snapshot (see Offerer). Nothing is
// reserved: the maker commits at Sign, which checks the inventory again.
func (l *Local) Offer(r Request) (*Firm, error) {
	if l.life.Err() != nil {
		return nil, fmt.Errorf("maker %s: %w", l.name, ErrStopped)
	}
	t := l.terms
	now := t.now()
	out, err := t.amountOut(r, unixSec(now))
	if err != nil {
		return nil, err
	}
	s := l.snap.Load()
	switch due, rerr := refreshDue(now, s.readAt, s.triedAt, s.stale, s.readErr); {
	case rerr != nil:
		return nil, fmt.Errorf("%w: %s: inventory unknown: %w", ErrNoQuote, t.name, rerr)
	case due:
		return nil, fmt.Errorf("maker %s: %w", t.name, ErrStale)
	case s.full:
		return nil, t.decline("%d firm quotes outstanding", l.limits.maxReservations)
	}
	if avail := s.available[r.TokenOut]; avail == nil || out.Cmp(avail) > 0 {
		return nil, t.decline("needs %s of %s, has %s available", out, r.TokenOut.Hex(), avail)
	}
	f, err := newOffer(t, r, out)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// RefreshAsync asks the actor to re-read the balances if due and publish
// its snapshot; wait returns the read's error, if any.
func (l *Local) RefreshAsync(ctx context.Context) func() error {
	done := make(chan error, 1)
	wait := askAsync(ctx, l, done, func(ctx context.Context) any { return refreshMsg{ctx: ctx, done: done} })
	return func() error {
		err, werr := wait()
		if werr != nil {
			return werr
		}
		return err
	}
}

// offerBlock is an offered Firm together with the numbers its quote points
// to and their digits, so that an offer is one allocation instead of one
// per number.
type offerBlock struct {
	firm                Firm
	amountIn, exp, salt big.Int
	wIn, wExp, wSalt    [4]big.Word // room for 128 bits on 32-bit platforms too
	nonce               [8]byte
}

// newOffer builds the offer's quote; its salt is a random nonce followed by
// offerTag, so the salt proves the terms to this maker at Sign.
func newOffer(t *terms, r Request, out *big.Int) (*Firm, error) {
	b := &offerBlock{}
	b.amountIn.SetBits(b.wIn[:0])
	b.exp.SetBits(b.wExp[:0])
	b.salt.SetBits(b.wSalt[:0])
	q := &b.firm.Quote
	*q = rfq.Quote{Maker: t.addr, Taker: r.Taker, TokenIn: r.TokenIn, TokenOut: r.TokenOut,
		AmountIn: b.amountIn.Set(r.AmountIn), AmountOut: out, Expiry: b.exp.SetUint64(r.Expiry), Salt: &b.salt}
	if err := q.Validate(); err != nil {
		// An amount beyond the escrow's uint96 (a MaxQuote set that high).
		return nil, fmt.Errorf("%w: %s: %w", ErrNoQuote, t.name, err)
	}
	if _, err := rand.Read(b.nonce[:]); err != nil {
		return nil, fmt.Errorf("maker: random salt: %w", err)
	}
	nonce := binary.BigEndian.Uint64(b.nonce[:])
	tag, _ := offerTag(&t.offerKey, nonce, q) // Validate kept it in range
	var raw [16]byte
	binary.BigEndian.PutUint64(raw[:8], nonce)
	binary.BigEndian.PutUint64(raw[8:], tag)
	b.salt.SetBytes(raw[:])
	b.firm.Maker = t.name
	return &b.firm, nil
}

// offerTag is the tag of an offer's salt: the first 8 bytes of
//
//	keccak256(key ‖ nonce ‖ taker ‖ tokenIn ‖ tokenOut ‖ amountIn ‖ amountOut ‖ expiry)
//
// with the nonce and expiry as 8-byte and the amounts as 12-byte (uint96,
// the escrow's width) big-endian integers: 132 bytes, one Keccak block.
// The maker is not in it (the key is the maker's own). A key-prefixed
// sponge is a MAC (as KMAC is); false when q's numbers do not fit.
func offerTag(key *[32]byte, nonce uint64, q *rfq.Quote) (uint64, bool) {
	if q.AmountIn == nil || q.AmountOut == nil || q.Expiry == nil ||
		q.AmountIn.Sign() < 0 || q.AmountOut.Sign() < 0 || q.AmountIn.BitLen() > 96 || q.AmountOut.BitLen() > 96 || !q.Expiry.IsUint64() {
		return 0, false
	}
	h := eip712.NewHasher()
	defer h.Release()
	b := h.Words(5)[:132]
	copy(b[0:32], key[:])
	binary.BigEndian.PutUint64(b[32:40], nonce)
	copy(b[40:60], q.Taker[:])
	copy(b[60:80], q.TokenIn[:])
	copy(b[80:100], q.TokenOut[:])
	q.AmountIn.FillBytes(b[100:112])
	q.AmountOut.FillBytes(b[112:124])
	binary.BigEndian.PutUint64(b[124:132], q.Expiry.Uint64())
	sum := h.Sum(132)
	return binary.BigEndian.Uint64(sum[:8]), true
}

// madeOffer reports whether q is an offer of the maker holding key, with
// exactly the terms it offered: its salt is a nonce and that nonce's tag.
func madeOffer(key *[32]byte, q *rfq.Quote) bool {
	if q.Salt == nil || q.Salt.Sign() < 0 || q.Salt.BitLen() > 128 {
		return false
	}
	var raw [16]byte
	q.Salt.FillBytes(raw[:])
	want, ok := offerTag(key, binary.BigEndian.Uint64(raw[:8]), q)
	var got [8]byte
	binary.BigEndian.PutUint64(got[:], want)
	return ok && subtle.ConstantTimeCompare(got[:], raw[8:]) == 1
}
