// Package fx is the FX desk: it quotes (the AMM from pool state in memory,
// RFQ makers fanned out in parallel), turns an accepted quote into an order
// entity with the typed data to sign, checks submits against the chain,
// and drives every live order's chain side (relay, settlement, refund,
// expiry) from verified on-chain events.
//
// The desk holds no state that must survive a restart: orders live in the
// log (actors host them), quotes are offers that a restart voids, and the
// chain side is level-triggered: at start and on every tick the desk looks
// at each live order and at the chain and does what is missing.
package fx

import (
	"context"
	"errors"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
)

// Defaults of Config (CONTRACT.md).
const (
	DefaultOrderDeadline = 120 * time.Second
	DefaultSettleTimeout = 60 * time.Second
	// DefaultSlippageBps is the AMM order's tolerance below the indicative
	// quote: min_amount_out = amount_out · (1 − 0.5 %).
	DefaultSlippageBps = 50
	// makerDeadline bounds the RFQ fan-out on the quote path.
	makerDeadline = 250 * time.Millisecond
	// maxQuoteUnits bounds one quote's input: 10,000,000 tokens.
	maxQuoteUnits = 10_000_000
	// chainTimeout bounds the chain reads of one request (accept's
	// issues, submit's pre-flight and funding lookup): past it the
	// request is 503 unavailable (chainUnavailable).
	chainTimeout = connect.RequestTimeout
)

// Config wires a desk.
type Config struct {
	Engine  *actors.Engine
	Chain   *connect.Chain
	Pools   *Pools
	Makers  []maker.Maker
	Relayer relay.Sender
	// Leg is the gasless leg AMM orders relay through (shared with
	// cross-currency transfers, and with them its relayer).
	Leg           *gasless.Leg
	OrderDeadline time.Duration
	SettleTimeout time.Duration
	SlippageBps   uint64
	Clock         func() time.Time
	Logger        *slog.Logger
}

// Desk is the FX desk. Create it with New; call Start once the engine has
// recovered and the watcher runs.
type Desk struct {
	cfg     Config
	e       *actors.Engine
	ch      *connect.Chain
	chain   verify.Backend // ch's client: what verification reads
	domain  eip712.Domain
	book    *book
	tokens  map[string]common.Address // symbol → token
	symbols map[common.Address]string
	maxIn   map[string]*big.Int // symbol → the largest amount quoted (maxQuoteUnits)
	// offerers are the makers that price on the asking goroutine (nil
	// for a maker that must be asked through its actor).
	offerers []maker.Offerer
	track    *tracker
	takeUps  *actors.TakeUps // a cluster node's parts taken up (AddHooks)
	stop     chan struct{}
	wg       sync.WaitGroup

	// watcher is the one Start was given (stats.go).
	watcher atomic.Pointer[watch.Watcher]
}

// New builds a desk. It does not touch the chain.
func New(cfg Config) *Desk {
	if cfg.OrderDeadline <= 0 {
		cfg.OrderDeadline = DefaultOrderDeadline
	}
	if cfg.SettleTimeout <= 0 {
		cfg.SettleTimeout = DefaultSettleTimeout
	}
	if cfg.SlippageBps == 0 {
		cfg.SlippageBps = DefaultSlippageBps
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	d := &Desk{
		cfg: cfg, e: cfg.Engine, ch: cfg.Chain, chain: cfg.Chain.Client, book: newBook(),
		domain:   eip712.Domain{ChainID: cfg.Chain.ChainID, Permit2: cfg.Chain.Contracts.Permit2},
		tokens:   map[string]common.Address{},
		symbols:  map[common.Address]string{},
		maxIn:    map[string]*big.Int{},
		offerers: make([]maker.Offerer, len(cfg.Makers)),
		stop:     make(chan struct{}),
	}
	for _, c := range domain.Currencies {
		if a, ok := cfg.Chain.Contracts.Token(c.Symbol); ok {
			d.tokens[c.Symbol], d.symbols[a] = a, c.Symbol
		}
		d.maxIn[c.Symbol] = new(big.Int).Mul(big.NewInt(maxQuoteUnits), pow10(c.Decimals))
	}
	for i, m := range cfg.Makers {
		d.offerers[i], _ = m.(maker.Offerer)
	}
	d.track = newTracker(d)
	return d
}

// QuoteRequest is POST /fx/quotes.
type QuoteRequest struct {
	FromCurrency string  `json:"from_currency"`
	ToCurrency   string  `json:"to_currency"`
	Amount       string  `json:"amount"`
	SourceWallet *string `json:"source_wallet"`
}

// QuotesView is the answer of POST /fx/quotes.
type QuotesView struct {
	Quotes      []QuoteView `json:"quotes"`
	BestQuoteID string      `json:"best_quote_id"`
}

// Quote answers POST /fx/quotes for acct: the AMM's indicative quote and
// every maker's firm quote that arrives within makerDeadline; 502 when
// neither rail quotes.
func (d *Desk) Quote(ctx context.Context, acct string, req QuoteRequest) (QuotesView, *domain.Error) {
	p, err := d.parseQuote(req)
	if err != nil {
		return QuotesView{}, err
	}
	info, ierr := d.e.AccountInfo(ctx, acct)
	if ierr != nil {
		return QuotesView{}, domain.ErrUnavailable("account: %v", ierr)
	}
	taker, takerHex, err := pickTaker(info, req.SourceWallet)
	if err != nil {
		return QuotesView{}, err
	}
	if p.amountIn.Cmp(d.maxIn[p.from.Symbol]) > 0 {
		// A valid amount no rail takes is "neither rail can quote the
		// pair and amount" (CONTRACT.md), not a malformed request.
		return QuotesView{}, domain.ErrNoQuote("no rail quotes more than %d %s", maxQuoteUnits, p.from.Symbol)
	}
	now := d.cfg.Clock().UTC().Round(0)
	base := Quote{Account: acct, Taker: taker, FromCurrency: p.from.Symbol, ToCurrency: p.to.Symbol,
		TokenIn: p.tokenIn, TokenOut: p.tokenOut, AmountIn: p.amountIn, CreatedAt: now,
		// Whole seconds: the instant expires_at shows is the one accept
		// checks (30 s, less the fraction of the second it was made in).
		ExpiresAt: now.Add(QuoteTTL).Truncate(time.Second)}
	// One allocation holds every quote of the request (they expire, and
	// leave the book, together); the AMM's comes first.
	quotes := make([]Quote, 0, 1+len(d.cfg.Makers))
	if pool, out, ok := d.cfg.Pools.Quote(p.tokenIn, p.tokenOut, p.amountIn); ok {
		q := base
		q.ID, q.Route, q.Pool, q.AmountOut = d.e.NewID("q_", acct), domain.RouteAMM, pool, out
		quotes = append(quotes, q)
	}
	quotes = d.rfqQuotes(ctx, &base, quotes)
	if len(quotes) == 0 {
		return QuotesView{}, domain.ErrNoQuote("no quote for %s %s → %s", req.Amount, p.from.Symbol, p.to.Symbol)
	}
	ptrs := make([]*Quote, len(quotes))
	for i := range quotes {
		ptrs[i] = &quotes[i]
	}
	if !d.book.add(ptrs) {
		return QuotesView{}, domain.ErrUnavailable("quote book is full (%d quotes); retry later", MaxBookQuotes)
	}
	return viewQuotes(ptrs, takerHex, p.from.Decimals, p.to.Decimals), nil
}

// viewQuotes is the answer for quotes (AMM first, then makers best first).
func viewQuotes(quotes []*Quote, takerHex string, fromDecimals, toDecimals int) QuotesView {
	first := quotes[0]
	amountIn, expiresAt := domain.FormatAmount(first.AmountIn, fromDecimals), domain.RFC3339(first.ExpiresAt)
	out := QuotesView{Quotes: make([]QuoteView, len(quotes))}
	best := first
	for i, q := range quotes {
		out.Quotes[i] = q.viewWith(takerHex, amountIn, expiresAt, fromDecimals, toDecimals)
		// The best pays the most; on a tie the firm quote wins.
		if c := q.AmountOut.Cmp(best.AmountOut); c > 0 || c == 0 && q.Route == domain.RouteRFQ && best.Route != domain.RouteRFQ {
			best = q
		}
	}
	out.BestQuoteID = best.ID
	return out
}

// quoteParams is a quote request checked against the desk's currencies.
type quoteParams struct {
	from, to          domain.Currency
	tokenIn, tokenOut common.Address
	amountIn          *big.Int
}

// parseQuote checks the pair and the amount (ParseAmount: more than 0) of
// req. An amount over maxQuoteUnits is well formed: Quote answers it 502,
// as no rail quotes it.
func (d *Desk) parseQuote(req QuoteRequest) (quoteParams, *domain.Error) {
	var p quoteParams
	var err *domain.Error
	if p.from, err = domain.RequiredCurrency("from_currency", req.FromCurrency); err != nil {
		return p, err
	}
	if p.to, err = domain.RequiredCurrency("to_currency", req.ToCurrency); err != nil {
		return p, err
	}
	if p.from.Symbol == p.to.Symbol {
		return p, domain.ErrInvalid("from_currency and to_currency must differ")
	}
	if p.amountIn, err = domain.ParseAmount("amount", req.Amount, p.from.Decimals); err != nil {
		return p, err
	}
	tokenIn, okIn := d.tokens[p.from.Symbol]
	tokenOut, okOut := d.tokens[p.to.Symbol]
	if !okIn || !okOut {
		return p, domain.ErrUnsupportedAsset(p.from.Symbol + "/" + p.to.Symbol)
	}
	p.tokenIn, p.tokenOut = tokenIn, tokenOut
	return p, nil
}

// pickTaker is the source wallet (any well-formed address) or the primary wallet,
// and its EIP-55 text (the wallet table's key, so no checksum to compute).
func pickTaker(info actors.AccountInfo, source *string) (common.Address, string, *domain.Error) {
	if source != nil {
		addr, err := domain.NormalizeAddress("source_wallet", *source)
		if err != nil {
			return common.Address{}, "", err
		}
		// Not the account's: quoted all the same, and accept refuses it
		// with 403 not_permitted, as it does an account not permitted to
		// swap (CONTRACT.md: "Quoting is allowed …; the 403 comes at
		// accept").
		return common.HexToAddress(addr), addr, nil
	}
	p := info.Primary()
	if p == "" {
		return common.Address{}, "", domain.ErrInvalid("the account has no registered wallet: register one with POST /wallets first")
	}
	return common.HexToAddress(p), p, nil
}

// rfqQuotes appends every maker's firm quote to quotes, best first (in
// maker order on a tie, so the answer is deterministic). Offerers price on
// this goroutine from their snapshots; any other maker is asked through
// its actor. Every maker is asked before any answer is awaited, and none
// is awaited past makerDeadline.
func (d *Desk) rfqQuotes(ctx context.Context, base *Quote, quotes []Quote) []Quote {
	if len(d.cfg.Makers) == 0 {
		return quotes
	}
	// The on-chain expiry covers the whole order: accept within the quote's
	// life, then fund before the order's deadline.
	expiry := uint64(base.ExpiresAt.Add(d.cfg.OrderDeadline).Unix())
	req := maker.Request{Taker: base.Taker, TokenIn: base.TokenIn, TokenOut: base.TokenOut, AmountIn: base.AmountIn, Expiry: expiry}
	var buf [4]*maker.Firm
	firms := d.firms(ctx, req, buf[:0])
	first := len(quotes)
	for _, f := range firms {
		if f == nil {
			continue
		}
		q := *base
		q.ID, q.Route, q.Provider, q.Firm, q.AmountOut = d.e.NewID("q_", base.Account), domain.RouteRFQ, f.Maker, f, f.Quote.AmountOut
		quotes = append(quotes, q)
	}
	slices.SortStableFunc(quotes[first:], func(a, b Quote) int { return b.AmountOut.Cmp(a.AmountOut) })
	return quotes
}

// firms asks every maker for r, one slot per maker (nil: no quote). An
// offerer prices on this goroutine; the rest are waited for (awaitFirms).
func (d *Desk) firms(ctx context.Context, r maker.Request, firms []*maker.Firm) []*maker.Firm {
	var later []int // makers to wait for (at most one per maker): nil unless there are some
	for i := range d.cfg.Makers {
		firms = append(firms, nil)
		if o := d.offerers[i]; o != nil {
			f, err := o.Offer(r)
			if !errors.Is(err, maker.ErrStale) {
				firms[i] = f
				continue
			}
		}
		later = append(later, i)
	}
	if later != nil {
		d.awaitFirms(ctx, r, firms, later)
	}
	return firms
}

// awaitFirms fills the slots of the makers in later: an offerer whose
// snapshot was stale has its actor refresh it and is asked again; a maker
// without Offer is asked through its actor. All are asked before any is
// awaited, and none is awaited past makerDeadline.
func (d *Desk) awaitFirms(ctx context.Context, r maker.Request, firms []*maker.Firm, later []int) {
	ctx, cancel := context.WithTimeout(ctx, makerDeadline)
	defer cancel()
	waits := make([]func() (*maker.Firm, error), len(later))
	for k, i := range later {
		if o := d.offerers[i]; o != nil {
			refresh := o.RefreshAsync(ctx)
			waits[k] = func() (*maker.Firm, error) {
				if err := refresh(); err != nil {
					return nil, err
				}
				return o.Offer(r)
			}
		} else {
			waits[k] = d.cfg.Makers[i].QuoteAsync(ctx, r)
		}
	}
	for k, i := range later {
		firms[i], _ = waits[k]()
	}
}

// OrderID is the id of the order a quote becomes: derived, so that every
// accept of one quote reaches the same entity, yet fresh (ids.Derive), so
// the order's id shares no random bits with its quote's (CONTRACT.md: ids
// are fresh for every id).
func OrderID(quoteID string) (string, bool) {
	return ids.Derive("ord_", "q_", quoteID)
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
