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
	"log/slog"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
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
	// issues, submit's pre-flight and funding lookup).
	chainTimeout = 10 * time.Second
)

// Config wires a desk.
type Config struct {
	Engine  *actors.Engine
	Chain   *connect.Chain
	Pools   *Pools
	Makers  []maker.Maker
	Relayer *relay.Relayer
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
	track   *tracker
	stop    chan struct{}
	wg      sync.WaitGroup
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
		domain:  eip712.Domain{ChainID: cfg.Chain.ChainID, Permit2: cfg.Chain.Contracts.Permit2},
		tokens:  map[string]common.Address{},
		symbols: map[common.Address]string{},
		stop:    make(chan struct{}),
	}
	for _, c := range domain.Currencies {
		if a, ok := cfg.Chain.Contracts.Token(c.Symbol); ok {
			d.tokens[c.Symbol], d.symbols[a] = a, c.Symbol
		}
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
	from, err := domain.CurrencyBySymbol(req.FromCurrency)
	if err != nil {
		return QuotesView{}, err
	}
	to, err := domain.CurrencyBySymbol(req.ToCurrency)
	if err != nil {
		return QuotesView{}, err
	}
	if from.Symbol == to.Symbol {
		return QuotesView{}, domain.ErrInvalid("from_currency and to_currency must differ")
	}
	amountIn, err := domain.ParseAmount("amount", req.Amount, from.Decimals)
	if err != nil {
		return QuotesView{}, err
	}
	if amountIn.Sign() <= 0 || amountIn.Cmp(new(big.Int).Mul(big.NewInt(maxQuoteUnits), pow10(from.Decimals))) > 0 {
		return QuotesView{}, domain.ErrInvalid("amount must be more than 0 and at most %d", maxQuoteUnits)
	}
	tokenIn, okIn := d.tokens[from.Symbol]
	tokenOut, okOut := d.tokens[to.Symbol]
	if !okIn || !okOut {
		return QuotesView{}, domain.ErrUnsupportedAsset(from.Symbol + "/" + to.Symbol)
	}
	info, ierr := d.e.AccountInfo(ctx, acct)
	if ierr != nil {
		return QuotesView{}, domain.ErrUnavailable("account: %v", ierr)
	}
	taker, err := pickTaker(info, req.SourceWallet)
	if err != nil {
		return QuotesView{}, err
	}
	now := d.cfg.Clock().UTC().Round(0)
	base := Quote{Account: acct, Taker: taker, FromCurrency: from.Symbol, ToCurrency: to.Symbol,
		TokenIn: tokenIn, TokenOut: tokenOut, AmountIn: amountIn, CreatedAt: now, ExpiresAt: now.Add(QuoteTTL)}
	quotes := d.rfqQuotes(ctx, base)
	if pool, out, ok := d.cfg.Pools.Quote(tokenIn, tokenOut, amountIn); ok {
		q := base
		q.ID, q.Route, q.Pool, q.AmountOut = d.e.NewID("q_", acct), domain.RouteAMM, pool, out
		quotes = append([]*Quote{&q}, quotes...)
	}
	if len(quotes) == 0 {
		return QuotesView{}, domain.ErrNoQuote("no quote for %s %s → %s", req.Amount, from.Symbol, to.Symbol)
	}
	if !d.book.add(quotes) {
		return QuotesView{}, domain.ErrUnavailable("quote book is full (%d quotes); retry later", MaxBookQuotes)
	}
	out := QuotesView{Quotes: make([]QuoteView, len(quotes))}
	best := quotes[0]
	for i, q := range quotes {
		out.Quotes[i] = q.view(to.Decimals)
		// The best pays the most; on a tie the firm quote wins.
		if c := q.AmountOut.Cmp(best.AmountOut); c > 0 || c == 0 && q.Route == domain.RouteRFQ && best.Route != domain.RouteRFQ {
			best = q
		}
	}
	out.BestQuoteID = best.ID
	return out, nil
}

// pickTaker is the source wallet (a registered one) or the primary wallet.
func pickTaker(info actors.AccountInfo, source *string) (common.Address, *domain.Error) {
	if source != nil {
		addr, err := domain.NormalizeAddress("source_wallet", *source)
		if err != nil {
			return common.Address{}, err
		}
		if info.Wallets[addr] == nil {
			return common.Address{}, domain.ErrInvalid("source_wallet %s is not a registered wallet of this account", addr)
		}
		return common.HexToAddress(addr), nil
	}
	p := info.Primary()
	if p == "" {
		return common.Address{}, domain.ErrInvalid("the account has no registered wallet: register one with POST /wallets first")
	}
	return common.HexToAddress(p), nil
}

// rfqQuotes asks every maker at once and keeps what arrives in time, in
// maker order so the answer is deterministic.
func (d *Desk) rfqQuotes(ctx context.Context, base Quote) []*Quote {
	if len(d.cfg.Makers) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, makerDeadline)
	defer cancel()
	// The on-chain expiry covers the whole order: accept within the quote's
	// life, then fund before the order's deadline.
	expiry := uint64(base.ExpiresAt.Add(d.cfg.OrderDeadline).Unix())
	// Every maker is asked before any answer is awaited: they quote in
	// parallel, on their own actors, with no goroutine here per maker.
	req := maker.Request{Taker: base.Taker, TokenIn: base.TokenIn, TokenOut: base.TokenOut, AmountIn: base.AmountIn, Expiry: expiry}
	waits := make([]func() (*maker.Firm, error), len(d.cfg.Makers))
	for i, m := range d.cfg.Makers {
		waits[i] = m.QuoteAsync(ctx, req)
	}
	var out []*Quote
	for _, wait := range waits {
		f, err := wait()
		if err != nil {
			continue
		}
		q := base
		q.ID, q.Route, q.Provider, q.Firm, q.AmountOut = d.e.NewID("q_", base.Account), domain.RouteRFQ, f.Maker, f, f.Quote.AmountOut
		out = append(out, &q)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].AmountOut.Cmp(out[j].AmountOut) > 0 })
	return out
}

// orderID is the id of the order a quote becomes: derived, so that every
// accept of one quote reaches the same entity.
func orderID(quoteID string) (string, bool) {
	if !strings.HasPrefix(quoteID, "q_") || len(quoteID) < 4 || len(quoteID) > 64 {
		return "", false
	}
	for _, c := range quoteID[2:] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "", false
		}
	}
	return "ord_" + quoteID[2:], true
}

func pow10(n int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil) }
