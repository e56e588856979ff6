package maker

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/chain/simtest"
)

func TestRefreshDue(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	failed := errors.New("node down")
	for _, c := range []struct {
		name            string
		now             time.Time
		readAt, triedAt time.Time
		stale           bool
		readErr         error
		wantDue         bool
		wantErr         error
	}{
		{"fresh", t0.Add(BalanceRefreshInterval - time.Nanosecond), t0, t0, false, nil, false, nil},
		{"old", t0.Add(BalanceRefreshInterval), t0, t0, false, nil, true, nil},
		{"stale after a settle", t0, t0, t0, true, nil, true, nil},
		{"failed just now: decline", t0.Add(2 * BalanceRefreshInterval), t0, t0.Add(BalanceRefreshInterval + 1), false, failed, false, failed},
		{"failed an interval ago: retry", t0.Add(2 * BalanceRefreshInterval), t0, t0.Add(BalanceRefreshInterval), false, failed, true, nil},
		{"stale and failed just now: decline", t0, t0, t0, true, failed, false, failed},
	} {
		t.Run(c.name, func(t *testing.T) {
			due, err := refreshDue(c.now, c.readAt, c.triedAt, c.stale, c.readErr)
			require.Equal(t, c.wantDue, due)
			require.Equal(t, c.wantErr, err)
		})
	}
}

// TestOfferTag: an offer's salt proves exactly its terms to the key that
// made it, and nothing else passes.
func TestOfferTag(t *testing.T) {
	key, other := [32]byte{1, 2, 3}, [32]byte{9}
	tk := &terms{name: "maker1", addr: common.HexToAddress("0xaa"), offerKey: key}
	r := Request{Taker: common.HexToAddress("0x11"), TokenIn: common.HexToAddress("0x21"), TokenOut: common.HexToAddress("0x22"),
		AmountIn: big.NewInt(100_000_000), Expiry: 1_800_000_150}
	f, err := newOffer(tk, r, big.NewInt(91_970_000))
	require.NoError(t, err)
	q := f.Quote
	require.Equal(t, "maker1", f.Maker)
	require.NoError(t, q.Validate())
	require.LessOrEqual(t, q.Salt.BitLen(), 128)
	require.True(t, madeOffer(&key, &q))
	require.False(t, madeOffer(&other, &q), "another maker's key")
	again, err := newOffer(tk, r, big.NewInt(91_970_000))
	require.NoError(t, err)
	require.NotEqual(t, q.Salt, again.Quote.Salt, "equal terms, distinct quotes")

	for _, c := range []struct {
		name string
		mut  func(q *rfq.Quote)
	}{
		{"taker", func(q *rfq.Quote) { q.Taker = common.HexToAddress("0x12") }},
		{"token in", func(q *rfq.Quote) { q.TokenIn = common.HexToAddress("0x23") }},
		{"token out", func(q *rfq.Quote) { q.TokenOut = common.HexToAddress("0x23") }},
		{"amount in", func(q *rfq.Quote) { q.AmountIn = big.NewInt(100_000_001) }},
		{"amount out", func(q *rfq.Quote) { q.AmountOut = big.NewInt(91_970_001) }},
		{"expiry", func(q *rfq.Quote) { q.Expiry = big.NewInt(1_800_000_151) }},
		{"salt", func(q *rfq.Quote) { q.Salt = new(big.Int).Add(q.Salt, big.NewInt(1)) }},
		{"salt beyond 128 bits", func(q *rfq.Quote) { q.Salt = new(big.Int).Lsh(q.Salt, 128) }},
		{"nil salt", func(q *rfq.Quote) { q.Salt = nil }},
		{"amount beyond uint96", func(q *rfq.Quote) { q.AmountOut = new(big.Int).Lsh(big.NewInt(1), 96) }},
		{"negative amount", func(q *rfq.Quote) { q.AmountIn = big.NewInt(-100_000_000) }},
		{"expiry beyond 64 bits", func(q *rfq.Quote) { q.Expiry = new(big.Int).Lsh(big.NewInt(1), 64) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := q
			c.mut(&m)
			require.False(t, madeOffer(&key, &m))
		})
	}
	// The maker is not in the tag: Sign checks it apart.
	m := q
	m.Maker = common.HexToAddress("0xbb")
	require.True(t, madeOffer(&key, &m))

	_, err = newOffer(tk, r, new(big.Int).Lsh(big.NewInt(1), 96))
	require.ErrorIs(t, err, ErrNoQuote, "beyond the escrow's uint96")
}

// TestOfferIsCommittedAtSign: an offer prices as Quote does but reserves
// nothing; Sign commits to it (once), against the inventory at that moment.
func TestOfferIsCommittedAtSign(t *testing.T) {
	e := newEnv(t)
	a := e.addrs
	clock := newClock()
	cfg := e.config("maker1", e.maker1)
	cfg.Now = clock.Now
	m := e.start(cfg, defaultLimits)
	exp := clock.Unix() + 60

	f, err := m.Offer(e.req(a.USDC, a.USDT, fxbind.Units(600), exp))
	require.NoError(t, err)
	require.Equal(t, "599820000", f.Quote.AmountOut.String(), "the price Quote gives")
	require.Equal(t, m.Address(), f.Quote.Maker)
	require.Equal(t, exp, f.Quote.Expiry.Uint64())
	require.Equal(t, inventory.String(), inv(t, m)[a.USDT].String(), "an offer reserves nothing")
	g, err := m.Offer(e.req(a.USDC, a.USDT, fxbind.Units(600), exp))
	require.NoError(t, err, "offers may promise the same tokens: the commitment is at Sign")

	sig, err := m.Sign(t.Context(), &f.Quote)
	require.NoError(t, err)
	require.NoError(t, rfq.Verify(simtest.ChainID, a.RfqEscrow, &f.Quote, sig))
	require.Equal(t, "400180000", inv(t, m)[a.USDT].String(), "committed at Sign")
	again, err := m.Sign(t.Context(), &f.Quote)
	require.NoError(t, err)
	require.Equal(t, sig, again)
	require.Equal(t, "400180000", inv(t, m)[a.USDT].String(), "committed once")

	_, err = m.Sign(t.Context(), &g.Quote)
	require.ErrorIs(t, err, ErrNoQuote, "the second offer's tokens are promised now")
	require.ErrorContains(t, err, "has 400180000 available")
	_, err = m.Offer(e.req(a.USDC, a.USDT, fxbind.Units(600), exp))
	require.ErrorIs(t, err, ErrNoQuote, "the snapshot shows the commitment")

	changed := f.Quote
	changed.AmountOut = big.NewInt(1)
	_, err = m.Sign(t.Context(), &changed)
	require.ErrorIs(t, err, ErrNoQuote, "a maker signs only what it offered")

	late, err := m.Offer(e.req(a.USDC, a.EURC, fxbind.Units(1), clock.Unix()+10))
	require.NoError(t, err)
	clock.Advance(11 * time.Second)
	_, err = m.Sign(t.Context(), &late.Quote)
	require.ErrorIs(t, err, ErrNoQuote, "an expired offer is committed to no more")
	require.ErrorContains(t, err, "expired")
}

// TestOfferRefreshesThroughTheActor: past BalanceRefreshInterval Offer
// asks for a refresh (ErrStale) instead of reading the chain itself; the
// refresh shows a new balance to the next offer. A stopped maker offers
// nothing.
func TestOfferRefreshesThroughTheActor(t *testing.T) {
	e := newEnv(t)
	a := e.addrs
	clock := newClock()
	cfg := e.config("maker1", e.maker1)
	cfg.Now = clock.Now
	m := e.start(cfg, defaultLimits)
	big := e.req(a.USDC, a.EURC, fxbind.Units(1090), clock.Unix()+600) // 1002.49916 EURC: more than it holds
	_, err := m.Offer(big)
	require.ErrorIs(t, err, ErrNoQuote)

	e.Mine(e.c.Tokens[fxbind.EURC].Mint(e.Auth(e.deployer), m.Address(), fxbind.Units(5)))
	clock.Advance(BalanceRefreshInterval)
	_, err = m.Offer(big)
	require.ErrorIs(t, err, ErrStale)
	require.NotErrorIs(t, err, ErrNoQuote)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, m.RefreshAsync(ctx)())
	f, err := m.Offer(big)
	require.NoError(t, err)
	require.Equal(t, "1002499160", f.Quote.AmountOut.String())

	m.Stop()
	_, err = m.Offer(big)
	require.ErrorIs(t, err, ErrStopped)
}

// TestSettledOfferStaysCommitted: once its settle is mined, an offer's
// output leaves the reservations (it left the balance), but the
// commitment is remembered until expiry: signing it again neither
// reserves nor signs anew.
func TestSettledOfferStaysCommitted(t *testing.T) {
	e := newEnv(t)
	a := e.addrs
	m := e.start(e.config("maker1", e.maker1), defaultLimits)
	f, err := m.Offer(e.req(a.USDC, a.EURC, fxbind.Units(250), e.expiry(120)))
	require.NoError(t, err)
	id := e.fund(m, f, 11) // signs: the commitment
	sig, err := m.Sign(t.Context(), &f.Quote)
	require.NoError(t, err)
	h, err := m.Settle(t.Context(), id)
	require.NoError(t, err)
	tx, _, err := e.Client.TransactionByHash(t.Context(), h)
	require.NoError(t, err)
	require.Equal(t, types.ReceiptStatusSuccessful, e.Receipt(tx).Status)
	want := new(big.Int).Sub(inventory, f.Quote.AmountOut).String()
	require.Eventually(t, func() bool { return inv(t, m)[a.EURC].String() == want }, 10*time.Second, 20*time.Millisecond)
	again, err := m.Sign(t.Context(), &f.Quote)
	require.NoError(t, err)
	require.Equal(t, sig, again)
	require.Equal(t, want, inv(t, m)[a.EURC].String(), "not reserved again")
}
