package maker

import (
	"context"
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/chain/simtest"
)

// inventory is what DeployAll mints of every token to each test maker.
var inventory = fxbind.Units(1000)

// env: a simulated chain with DeployAll's contract set, two registered makers
// holding inventory of every token (not yet approved for the escrow: Start
// does that), and a taker holding USDC that approved Permit2.
type env struct {
	*simtest.Chain
	t        *testing.T
	addrs    *fxbind.Addresses
	c        *fxbind.Contracts
	deployer *ecdsa.PrivateKey
	maker1   *ecdsa.PrivateKey
	maker2   *ecdsa.PrivateKey
	taker    *ecdsa.PrivateKey
	system   *actor.ActorSystem
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, deployer: simtest.Key(t, 0xd0), maker1: simtest.Key(t, 0x21), maker2: simtest.Key(t, 0x22), taker: simtest.Key(t, 0x11)}
	e.Chain = simtest.New(t, e.deployer, e.maker1, e.maker2, e.taker)
	e.addrs, e.c = e.Deploy(e.deployer, fxbind.DeployConfig{
		Makers:         []common.Address{simtest.Addr(e.maker1), simtest.Addr(e.maker2)},
		MakerInventory: inventory,
	})
	e.Mine(e.c.Tokens[fxbind.USDC].Mint(e.Auth(e.deployer), simtest.Addr(e.taker), fxbind.Units(10_000)))
	e.Mine(e.c.Tokens[fxbind.USDC].Approve(e.Auth(e.taker), e.addrs.Permit2, maxUint256))
	e.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	t.Cleanup(e.system.Shutdown)
	return e
}

// prices: USDC/EURC at 0.92, USDC/USDT at 1, no USDT/EURC price.
func prices(a *fxbind.Addresses) PriceSource {
	m := map[[2]common.Address]*big.Rat{
		{a.USDC, a.EURC}: big.NewRat(23, 25),
		{a.EURC, a.USDC}: big.NewRat(25, 23),
		{a.USDC, a.USDT}: big.NewRat(1, 1),
		{a.USDT, a.USDC}: big.NewRat(1, 1),
	}
	return func(in, out common.Address) (*big.Rat, bool) {
		r, ok := m[[2]common.Address{in, out}]
		return r, ok
	}
}

func (e *env) config(name string, key *ecdsa.PrivateKey) Config {
	return Config{
		Name: name, Key: key, Backend: e.Client, ChainID: simtest.ChainID, Escrow: e.addrs.RfqEscrow,
		Tokens:    []common.Address{e.addrs.USDC, e.addrs.USDT, e.addrs.EURC},
		SpreadBps: 3, Price: prices(e.addrs),
		Logger: slog.New(slog.NewTextHandler(e.t.Output(), &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
}

// start starts a maker, mining blocks meanwhile (its approvals wait for
// them), and stops it with the test.
func (e *env) start(cfg Config, lim limits) *Local {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stop := e.committing()
	l, err := start(ctx, e.system, cfg, lim)
	stop()
	require.NoError(e.t, err)
	e.t.Cleanup(l.Stop)
	return l
}

// committing mines a block every 50 ms until the returned func is called.
// Each block moves the chain's clock at least a second, so it runs only
// while something waits for mining.
func (e *env) committing() func() {
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tk.C:
				e.Commit()
			}
		}
	}()
	return func() { close(quit); <-done }
}

func (e *env) balance(tok, who common.Address) *big.Int {
	e.t.Helper()
	c, err := fxbind.NewTestTokenCaller(tok, e.Client)
	require.NoError(e.t, err)
	b, err := c.BalanceOf(nil, who)
	require.NoError(e.t, err)
	return b
}

func (e *env) nonce(k *ecdsa.PrivateKey) uint64 {
	e.t.Helper()
	n, err := e.Client.PendingNonceAt(context.Background(), simtest.Addr(k))
	require.NoError(e.t, err)
	return n
}

// expiry is ttl seconds after the later of the wall clock and the chain's
// head (each mined block moves the simulated chain's clock ahead of the
// wall clock), so the quote is live both for the maker and the escrow.
func (e *env) expiry(ttl uint64) uint64 {
	e.t.Helper()
	h, err := e.Client.HeaderByNumber(context.Background(), nil)
	require.NoError(e.t, err)
	return max(h.Time, uint64(time.Now().Unix())) + ttl
}

func (e *env) req(in, out common.Address, amountIn *big.Int, expiry uint64) Request {
	return Request{Taker: simtest.Addr(e.taker), TokenIn: in, TokenOut: out, AmountIn: amountIn, Expiry: expiry}
}

// fund escrows the firm quote as the taker: a Permit2 RfqEscrowFunding
// witness signed with the taker's key, broadcast by the taker. It returns the
// execution id.
func (e *env) fund(m Maker, f *Firm, nonce int64) [32]byte {
	e.t.Helper()
	q := &f.Quote
	quoteSig, err := m.Sign(e.t.Context(), q)
	require.NoError(e.t, err)
	qh := rfq.QuoteHash(q)
	n := big.NewInt(nonce)
	id := rfq.ExecutionID(qh, q.Taker, n)
	fu := &eip712.RfqEscrowFunding{
		Signer: q.Taker, ExecutionID: id, Escrow: e.addrs.RfqEscrow, QuoteHash: qh,
		Token: q.TokenIn, Amount: q.AmountIn, Deadline: new(big.Int).Set(q.Expiry), Nonce: n,
	}
	dig := eip712.RfqDigest(eip712.Domain{ChainID: simtest.ChainID, Permit2: e.addrs.Permit2}, e.addrs.RfqEscrow, fu)
	sig, err := crypto.Sign(dig[:], e.taker)
	require.NoError(e.t, err)
	sig[64] += 27
	e.Mine(e.c.RfqEscrow.EscrowQuoteWithPermit2(e.Auth(e.taker), q.Binding(), quoteSig, fxbind.RfqEscrowFunding{
		Signer: fu.Signer, ExecutionId: fu.ExecutionID, Escrow: fu.Escrow, QuoteHash: fu.QuoteHash,
		Token: fu.Token, Amount: fu.Amount, Deadline: fu.Deadline, Nonce: fu.Nonce,
	}, sig))
	return id
}

// fakeClock is a settable wall clock for Config.Now.
type fakeClock struct{ ns atomic.Int64 }

func newClock() *fakeClock {
	c := &fakeClock{}
	c.ns.Store(time.Now().UnixNano())
	return c
}

func (c *fakeClock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *fakeClock) Advance(d time.Duration) { c.ns.Add(int64(d)) }
func (c *fakeClock) Unix() uint64            { return uint64(c.Now().Unix()) }

func inv(t *testing.T, m *Local) map[common.Address]*big.Int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := m.Inventory(ctx)
	require.NoError(t, err)
	return v
}

func TestAmountOut(t *testing.T) {
	for _, c := range []struct {
		name      string
		amountIn  *big.Int
		mid       *big.Rat
		spreadBps uint64
		want      string
	}{
		{"250 USDC at 0.92, 3 bps", fxbind.Units(250), big.NewRat(23, 25), 3, "229931000"},
		{"odd amount floors", big.NewInt(1_234_567), big.NewRat(23, 25), 3, "1135460"},
		{"inverse rate", fxbind.Units(100), big.NewRat(25, 23), 3, "108663043"},
		{"large, odd mid, no spread", big.NewInt(1_000_000_000_000), big.NewRat(123456789, 987654321), 0, "124999998860"},
		{"one unit at par, no spread", big.NewInt(1), big.NewRat(1, 1), 0, "1"},
		{"one unit at par loses to the spread", big.NewInt(1), big.NewRat(1, 1), 3, "0"},
		{"spread 9999", big.NewInt(999), big.NewRat(3, 7), 9999, "0"},
		{"spread 10000", fxbind.Units(1), big.NewRat(1, 1), 10_000, "0"},
		{"nil amount", nil, big.NewRat(1, 1), 0, "0"},
		{"nil mid", fxbind.Units(1), nil, 0, "0"},
		{"zero mid", fxbind.Units(1), new(big.Rat), 0, "0"},
		{"negative mid", fxbind.Units(1), big.NewRat(-1, 2), 0, "0"},
		{"negative amount", big.NewInt(-5), big.NewRat(1, 1), 0, "0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, AmountOut(c.amountIn, c.mid, c.spreadBps).String())
		})
	}
}

func TestQuoteIsFirmAndExact(t *testing.T) {
	e := newEnv(t)
	m := e.start(e.config("maker1", e.maker1), defaultLimits)
	require.Equal(t, "maker1", m.Name())
	require.Equal(t, simtest.Addr(e.maker1), m.Address())
	expiry := e.expiry(60)
	salts := map[string]bool{}
	for _, c := range []struct {
		name     string
		in, out  common.Address
		amountIn *big.Int
		want     string // ⌊amountIn · mid · 9997 / 10000⌋, worked out by hand
	}{
		{"250 USDC -> EURC", e.addrs.USDC, e.addrs.EURC, fxbind.Units(250), "229931000"},
		{"odd USDC -> EURC", e.addrs.USDC, e.addrs.EURC, big.NewInt(1_234_567), "1135460"},
		{"EURC -> USDC", e.addrs.EURC, e.addrs.USDC, fxbind.Units(100), "108663043"},
		{"7 units", e.addrs.USDC, e.addrs.EURC, big.NewInt(7), "6"},
		{"USDC -> USDT", e.addrs.USDC, e.addrs.USDT, fxbind.Units(600), "599820000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := e.req(c.in, c.out, c.amountIn, expiry)
			f, err := m.Quote(t.Context(), r)
			require.NoError(t, err)
			require.Equal(t, "maker1", f.Maker)
			q := f.Quote
			require.Equal(t, m.Address(), q.Maker)
			require.Equal(t, r.Taker, q.Taker)
			require.Equal(t, c.in, q.TokenIn)
			require.Equal(t, c.out, q.TokenOut)
			require.Equal(t, c.amountIn.String(), q.AmountIn.String())
			require.Equal(t, c.want, q.AmountOut.String())
			require.Equal(t, expiry, q.Expiry.Uint64())
			require.NotNil(t, q.Salt)
			require.LessOrEqual(t, q.Salt.BitLen(), 128)
			require.False(t, salts[q.Salt.String()], "salt reused")
			salts[q.Salt.String()] = true
			sig, err := m.Sign(t.Context(), &q)
			require.NoError(t, err)
			require.Len(t, sig, 65)
			require.NoError(t, rfq.Verify(simtest.ChainID, e.addrs.RfqEscrow, &q, sig))
			again, err := m.Sign(t.Context(), &q)
			require.NoError(t, err)
			require.Equal(t, sig, again, "one quote, one signature")
			other := q
			other.AmountOut = new(big.Int).Add(q.AmountOut, big.NewInt(1))
			_, err = m.Sign(t.Context(), &other)
			require.ErrorIs(t, err, ErrNoQuote, "a maker signs only what it quoted")
			// The escrow's own digest recovers to the maker too.
			d, err := e.c.RfqEscrow.QuoteDigest(nil, q.Binding())
			require.NoError(t, err)
			require.Equal(t, rfq.Digest(simtest.ChainID, e.addrs.RfqEscrow, &q), d)
		})
	}
}

func TestDeclines(t *testing.T) {
	e := newEnv(t)
	clock := newClock()
	cfg := e.config("maker1", e.maker1)
	cfg.MaxQuote = fxbind.Units(2000)
	cfg.Now = clock.Now
	m := e.start(cfg, defaultLimits)
	exp := clock.Unix() + 30
	a := e.addrs
	for _, c := range []struct {
		name string
		req  Request
		want error
	}{
		{"no price", e.req(a.USDT, a.EURC, fxbind.Units(1), exp), ErrNoQuote},
		{"token not traded", e.req(common.HexToAddress("0xbad"), a.EURC, fxbind.Units(1), exp), ErrNoQuote},
		{"above max quote", e.req(a.USDC, a.USDT, new(big.Int).Add(fxbind.Units(2000), big.NewInt(1)), exp), ErrNoQuote},
		{"max quote, beyond inventory", e.req(a.USDC, a.USDT, fxbind.Units(2000), exp), ErrNoQuote},
		{"beyond inventory", e.req(a.USDC, a.USDT, fxbind.Units(1001), exp), ErrNoQuote},
		{"buys nothing", e.req(a.USDC, a.USDT, big.NewInt(1), exp), ErrNoQuote},
		{"expiry too far", e.req(a.USDC, a.USDT, fxbind.Units(1), clock.Unix()+uint64(MaxQuoteTTL/time.Second)+1), ErrNoQuote},
		{"expiry now", e.req(a.USDC, a.USDT, fxbind.Units(1), clock.Unix()), ErrInvalidRequest},
		{"zero amount", e.req(a.USDC, a.USDT, new(big.Int), exp), ErrInvalidRequest},
		{"nil amount", e.req(a.USDC, a.USDT, nil, exp), ErrInvalidRequest},
		{"same token", e.req(a.USDC, a.USDC, fxbind.Units(1), exp), ErrInvalidRequest},
		{"zero taker", Request{TokenIn: a.USDC, TokenOut: a.USDT, AmountIn: fxbind.Units(1), Expiry: exp}, ErrInvalidRequest},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := m.Offer(c.req) // an offer refuses and declines what a quote does
			require.ErrorIs(t, err, c.want)
			require.Nil(t, o)
			f, err := m.Quote(t.Context(), c.req)
			require.ErrorIs(t, err, c.want)
			require.Nil(t, f)
			if c.want == ErrInvalidRequest {
				require.NotErrorIs(t, err, ErrNoQuote)
			}
		})
	}
	// Just inside the limits: a quote of the whole inventory's worth.
	f, err := m.Quote(t.Context(), e.req(a.USDC, a.USDT, big.NewInt(1_000_300_091), clock.Unix()+uint64(MaxQuoteTTL/time.Second)))
	require.NoError(t, err)
	require.Equal(t, inventory.String(), f.Quote.AmountOut.String())
	// Declines reserved nothing; the last quote reserved all the USDT.
	got := inv(t, m)
	require.Equal(t, inventory.String(), got[a.USDC].String())
	require.Equal(t, inventory.String(), got[a.EURC].String())
	require.Equal(t, "0", got[a.USDT].String())
}

func TestReservationsExhaustInventory(t *testing.T) {
	e := newEnv(t)
	a := e.addrs

	t.Run("amounts", func(t *testing.T) {
		clock := newClock()
		cfg := e.config("maker1", e.maker1)
		cfg.Now = clock.Now
		m := e.start(cfg, defaultLimits)
		exp := clock.Unix() + 30
		quote := func(amount *big.Int) error {
			_, err := m.Quote(t.Context(), e.req(a.USDC, a.USDT, amount, exp))
			return err
		}
		require.NoError(t, quote(fxbind.Units(600))) // reserves 599.82 USDT
		require.Equal(t, "400180000", inv(t, m)[a.USDT].String())
		require.ErrorIs(t, quote(fxbind.Units(600)), ErrNoQuote)
		require.NoError(t, quote(fxbind.Units(400))) // reserves 399.88 USDT
		require.Equal(t, "300000", inv(t, m)[a.USDT].String())
		require.ErrorIs(t, quote(fxbind.Units(1)), ErrNoQuote)           // 0.9997 > 0.3
		require.NoError(t, quote(big.NewInt(300_091)))                   // exactly 300000
		require.ErrorIs(t, quote(big.NewInt(2)), ErrNoQuote)             // 1 unit, none left
		require.Equal(t, inventory.String(), inv(t, m)[a.EURC].String()) // other tokens untouched

		// A quote lives through its expiry second (the escrow accepts
		// block.timestamp <= expiry), then its reservation goes.
		clock.Advance(30 * time.Second)
		require.Equal(t, "0", inv(t, m)[a.USDT].String())
		clock.Advance(time.Second)
		require.Equal(t, inventory.String(), inv(t, m)[a.USDT].String())
		_, err := m.Quote(t.Context(), e.req(a.USDC, a.USDT, fxbind.Units(600), clock.Unix()+30))
		require.NoError(t, err)
	})

	t.Run("count", func(t *testing.T) {
		clock := newClock()
		cfg := e.config("maker2", e.maker2)
		cfg.Now = clock.Now
		m := e.start(cfg, limits{maxPending: MaxPendingRequests, maxReservations: 3})
		var first *Firm
		for i := range 4 {
			f, err := m.Quote(t.Context(), e.req(a.USDC, a.EURC, fxbind.Units(1), clock.Unix()+uint64(10+i)))
			if i == 0 {
				first = f
			}
			if i < 3 {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, ErrNoQuote)
				require.ErrorContains(t, err, "3 firm quotes outstanding")
			}
		}
		clock.Advance(11 * time.Second) // the first has expired
		_, err := m.Sign(t.Context(), &first.Quote)
		require.ErrorIs(t, err, ErrNoQuote, "an expired quote is signed no more")
		_, err = m.Quote(t.Context(), e.req(a.USDC, a.EURC, fxbind.Units(1), clock.Unix()+10))
		require.NoError(t, err)
	})
}

func TestBalanceRefreshedAtMostEverySecond(t *testing.T) {
	e := newEnv(t)
	clock := newClock()
	cfg := e.config("maker1", e.maker1)
	cfg.Now = clock.Now
	m := e.start(cfg, defaultLimits)
	require.Equal(t, inventory.String(), inv(t, m)[e.addrs.EURC].String())
	e.Mine(e.c.Tokens[fxbind.EURC].Mint(e.Auth(e.deployer), m.Address(), fxbind.Units(5)))
	require.Equal(t, inventory.String(), inv(t, m)[e.addrs.EURC].String())
	clock.Advance(BalanceRefreshInterval - time.Millisecond)
	require.Equal(t, inventory.String(), inv(t, m)[e.addrs.EURC].String())
	clock.Advance(time.Millisecond)
	require.Equal(t, "1005000000", inv(t, m)[e.addrs.EURC].String())
}

func TestMailboxBoundAndDeadline(t *testing.T) {
	e := newEnv(t)
	a := e.addrs
	gate, entered := make(chan struct{}), make(chan struct{})
	var once sync.Once
	base := prices(a)
	cfg := e.config("maker1", e.maker1)
	cfg.Price = func(in, out common.Address) (*big.Rat, bool) {
		once.Do(func() { close(entered); <-gate }) // the first quote holds the actor
		return base(in, out)
	}
	m := e.start(cfg, limits{maxPending: 4, maxReservations: MaxReservations})
	exp := e.expiry(60)
	quote := func(ctx context.Context) error {
		_, err := m.Quote(ctx, e.req(a.USDC, a.USDT, fxbind.Units(100), exp))
		return err
	}
	results := make(chan error, 4)
	go func() { results <- quote(context.Background()) }()
	<-entered

	// A caller's deadline is honoured while the actor is busy; the abandoned
	// request still waits in the mailbox.
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	t0 := time.Now()
	err := quote(ctx)
	cancel()
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(t0), 5*time.Second)

	for range 3 {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			results <- quote(ctx)
		}()
	}
	require.Eventually(t, func() bool { return m.pending.Load() == 4 }, 10*time.Second, time.Millisecond)

	// Full: refused at once, without queueing.
	t0 = time.Now()
	err = quote(t.Context())
	require.ErrorIs(t, err, ErrNoQuote)
	require.ErrorIs(t, err, ErrBusy)
	_, err = m.Inventory(t.Context())
	require.ErrorIs(t, err, ErrBusy)
	require.Less(t, time.Since(t0), time.Second)
	require.EqualValues(t, 4, m.pending.Load())

	close(gate)
	for range 4 {
		require.NoError(t, <-results)
	}
	// Four quotes of 100 reserved 99.97 USDT each; the abandoned one nothing.
	require.Equal(t, "600120000", inv(t, m)[a.USDT].String())
	require.EqualValues(t, 0, m.pending.Load())
}

func TestSettleRoundTrip(t *testing.T) {
	e := newEnv(t)
	a := e.addrs
	maker, taker := simtest.Addr(e.maker1), simtest.Addr(e.taker)
	tokens := []common.Address{a.USDC, a.USDT, a.EURC}
	allowances := func() []string {
		var out []string
		for _, tok := range tokens {
			c, err := fxbind.NewTestTokenCaller(tok, e.Client)
			require.NoError(t, err)
			v, err := c.Allowance(&gethbind.CallOpts{}, maker, a.RfqEscrow)
			require.NoError(t, err)
			out = append(out, v.String())
		}
		return out
	}
	require.Equal(t, []string{"0", "0", "0"}, allowances())
	nonce0 := e.nonce(e.maker1)
	m := e.start(e.config("maker1", e.maker1), defaultLimits)
	unlimited := maxUint256.String()
	require.Equal(t, []string{unlimited, unlimited, unlimited}, allowances(), "Start approves the escrow for every token")
	require.Equal(t, nonce0+3, e.nonce(e.maker1), "one approve per token")

	f, err := m.Quote(t.Context(), e.req(a.USDC, a.EURC, fxbind.Units(250), e.expiry(120)))
	require.NoError(t, err)
	sig, err := m.Sign(t.Context(), &f.Quote)
	require.NoError(t, err)
	require.NoError(t, rfq.Verify(simtest.ChainID, a.RfqEscrow, &f.Quote, sig))
	out := f.Quote.AmountOut
	require.Equal(t, "229931000", out.String())
	id := e.fund(m, f, 7)
	require.Equal(t, fxbind.Units(250).String(), e.balance(a.USDC, a.RfqEscrow).String())

	takerEURC, makerEURC, makerUSDC := e.balance(a.EURC, taker), e.balance(a.EURC, maker), e.balance(a.USDC, maker)
	nonce := e.nonce(e.maker1)
	h, err := m.Settle(t.Context(), id)
	require.NoError(t, err)
	tx, pending, err := e.Client.TransactionByHash(t.Context(), h)
	require.NoError(t, err)
	require.True(t, pending, "Settle returns before mining")
	require.Equal(t, maker, mustSender(t, tx))
	require.Equal(t, a.RfqEscrow, *tx.To())
	require.Equal(t, nonce, tx.Nonce())

	rc := e.Receipt(tx)
	require.Equal(t, types.ReceiptStatusSuccessful, rc.Status)
	require.Equal(t, new(big.Int).Add(takerEURC, out).String(), e.balance(a.EURC, taker).String())
	require.Equal(t, new(big.Int).Sub(makerEURC, out).String(), e.balance(a.EURC, maker).String())
	require.Equal(t, new(big.Int).Add(makerUSDC, fxbind.Units(250)).String(), e.balance(a.USDC, maker).String())
	require.Equal(t, "0", e.balance(a.USDC, a.RfqEscrow).String())
	rec, err := e.c.RfqEscrow.Escrows(nil, id)
	require.NoError(t, err)
	require.EqualValues(t, 2, rec.Status, "settled")

	// Once the settle is mined the maker releases the quote's reservation and
	// re-reads its balance: the output is counted once (paid), not twice
	// (paid and still reserved).
	// (Before the settle is mined the inventory is inventory − out as well:
	// the balance is untouched and out is reserved. The USDC received shows
	// that the balances were re-read after mining; without the release the
	// EURC would then read inventory − 2·out until the quote expires.)
	wantEURC := new(big.Int).Sub(inventory, out).String()
	wantUSDC := new(big.Int).Add(inventory, fxbind.Units(250)).String()
	require.Eventually(t, func() bool {
		v := inv(t, m)
		return v[a.EURC].String() == wantEURC && v[a.USDC].String() == wantUSDC
	}, 10*time.Second, 20*time.Millisecond)

	// A settle that would revert sends nothing.
	for _, bad := range [][32]byte{id, crypto.Keccak256Hash([]byte("unknown"))} {
		h, err := m.Settle(t.Context(), bad)
		require.Error(t, err)
		require.Equal(t, common.Hash{}, h)
	}
	require.Equal(t, nonce+1, e.nonce(e.maker1))

	// Stopped: refuses; started again: the approvals are there, nothing is sent.
	m.Stop()
	_, err = m.Quote(t.Context(), e.req(a.USDC, a.EURC, fxbind.Units(1), e.expiry(60)))
	require.ErrorIs(t, err, ErrStopped)
	_, err = m.Settle(t.Context(), id)
	require.ErrorIs(t, err, ErrStopped)
	m2 := e.start(e.config("maker1", e.maker1), defaultLimits)
	require.Equal(t, nonce+1, e.nonce(e.maker1))
	_, err = m2.Quote(t.Context(), e.req(a.USDC, a.EURC, fxbind.Units(1), e.expiry(60)))
	require.NoError(t, err)
}

func mustSender(t *testing.T, tx *types.Transaction) common.Address {
	t.Helper()
	from, err := types.Sender(types.LatestSignerForChainID(simtest.ChainID), tx)
	require.NoError(t, err)
	return from
}

func TestSkipSettleSendsNothing(t *testing.T) {
	e := newEnv(t)
	a := e.addrs
	cfg := e.config("maker2", e.maker2)
	cfg.Fault = FaultSkipSettle
	m := e.start(cfg, defaultLimits)
	f, err := m.Quote(t.Context(), e.req(a.USDC, a.EURC, fxbind.Units(10), e.expiry(120)))
	require.NoError(t, err)
	id := e.fund(m, f, 9)
	nonce := e.nonce(e.maker2)
	h, err := m.Settle(t.Context(), id)
	require.ErrorIs(t, err, ErrSkipped)
	require.Equal(t, common.Hash{}, h)
	e.Commit()
	require.Equal(t, nonce, e.nonce(e.maker2), "nothing sent")
	rec, err := e.c.RfqEscrow.Escrows(nil, id)
	require.NoError(t, err)
	require.EqualValues(t, 1, rec.Status, "still escrowed")
	require.Equal(t, f.Quote.AmountIn.String(), e.balance(a.USDC, a.RfqEscrow).String())
}

func TestStartRefusesBadConfig(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		name string
		mut  func(*Config)
		want string
	}{
		{"no name", func(c *Config) { c.Name = "" }, "empty name"},
		{"nil key", func(c *Config) { c.Key = nil }, "nil key"},
		{"nil backend", func(c *Config) { c.Backend = nil }, "nil backend"},
		{"nil chain id", func(c *Config) { c.ChainID = nil }, "chain id must be positive"},
		{"other chain", func(c *Config) { c.ChainID = big.NewInt(1) }, "node has 1337"},
		{"zero escrow", func(c *Config) { c.Escrow = common.Address{} }, "zero escrow"},
		{"no tokens", func(c *Config) { c.Tokens = nil }, "no tokens"},
		{"zero token", func(c *Config) { c.Tokens = append(c.Tokens, common.Address{}) }, "zero token"},
		{"token twice", func(c *Config) { c.Tokens = append(c.Tokens, c.Tokens[0]) }, "listed twice"},
		{"spread 10000", func(c *Config) { c.SpreadBps = 10_000 }, "must be < 10000"},
		{"nil price", func(c *Config) { c.Price = nil }, "nil price"},
		{"unknown fault", func(c *Config) { c.Fault = "explode" }, "unknown fault"},
		{"zero max quote", func(c *Config) { c.MaxQuote = new(big.Int) }, "max quote must be positive"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := e.config("maker1", e.maker1)
			c.mut(&cfg)
			_, err := Start(t.Context(), e.system, cfg)
			require.ErrorContains(t, err, c.want)
		})
	}
	_, err := Start(t.Context(), nil, e.config("maker1", e.maker1))
	require.ErrorContains(t, err, "nil actor system")
	require.Equal(t, uint64(0), e.nonce(e.maker1), "nothing sent")
}
