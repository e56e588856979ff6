package fx

import (
	"hash/maphash"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/domain"
)

// Limits of the quote book.
const (
	// QuoteTTL is a quote's lifetime (CONTRACT.md: 30 s).
	QuoteTTL = 30 * time.Second
	// quoteRetention keeps an expired quote so that accepting it says
	// quote_expired rather than not_found. It is short on purpose: the
	// book is most of the live heap on the quote path, and GC work grows
	// with it.
	quoteRetention = time.Minute
	// MaxBookQuotes bounds the quotes in memory. One request stores up to
	// three (the AMM and two makers): 1,000 requests/s held for
	// QuoteTTL+quoteRetention is 270,000. Beyond it POST /fx/quotes is 503.
	MaxBookQuotes = 1_000_000
	bookShards    = 64
)

// Quote is one quote in the book. Quotes live in memory only: a quote is
// an offer, not a commitment of the caller's, and a restart voids the
// outstanding ones (accepting one then is 404). What must survive, the
// order, is in the log from the moment of accept.
type Quote struct {
	ID, Account          string
	Route                string // domain.RouteAMM | domain.RouteRFQ
	Provider             string // rfq: the maker's name
	Taker                common.Address
	FromCurrency         string
	ToCurrency           string
	TokenIn, TokenOut    common.Address
	AmountIn, AmountOut  *big.Int
	Pool                 common.Address // amm
	Firm                 *maker.Firm    // rfq
	CreatedAt, ExpiresAt time.Time
}

// QuoteView is a quote on the wire (CONTRACT.md "Quotes").
type QuoteView struct {
	ID           string  `json:"id"`
	Route        string  `json:"route"`
	Firm         bool    `json:"firm"`
	Provider     *string `json:"provider,omitempty"`
	Taker        string  `json:"taker"`
	FromCurrency string  `json:"from_currency"`
	ToCurrency   string  `json:"to_currency"`
	AmountIn     string  `json:"amount_in"`
	AmountOut    string  `json:"amount_out"`
	Rate         string  `json:"rate"`
	ExpiresAt    string  `json:"expires_at"`
}

// rateDecimals is how many decimals a quote's rate shows (rounded down).
const rateDecimals = 8

func (q *Quote) view() QuoteView {
	from, to := domain.DecimalsOf(q.FromCurrency), domain.DecimalsOf(q.ToCurrency)
	return q.viewWith(q.Taker.Hex(), domain.FormatAmount(q.AmountIn, from), domain.RFC3339(q.ExpiresAt), from, to)
}

// viewWith is view with what every quote of one request shares (its
// taker, amount_in, expires_at and the pair's decimals) worked out once by
// the caller. The view's provider points at q's: a quote is not changed
// once made.
func (q *Quote) viewWith(taker, amountIn, expiresAt string, fromDecimals, toDecimals int) QuoteView {
	v := QuoteView{
		ID: q.ID, Route: q.Route, Firm: q.Route == domain.RouteRFQ, Taker: taker,
		FromCurrency: q.FromCurrency, ToCurrency: q.ToCurrency,
		AmountIn:  amountIn,
		AmountOut: domain.FormatAmount(q.AmountOut, toDecimals),
		Rate:      unitRate(q.AmountOut, q.AmountIn, fromDecimals, toDecimals),
		ExpiresAt: expiresAt,
	}
	if q.Provider != "" {
		v.Provider = &q.Provider
	}
	return v
}

// book holds live quotes and, for quoteRetention after they expire, a
// small tombstone of each (its account), so that accepting an expired
// quote says quote_expired without keeping the whole quote alive.
type book struct {
	seed   maphash.Seed
	count  atomic.Int64 // live quotes and tombstones
	shards [bookShards]struct {
		mu      sync.Mutex
		m       map[string]*Quote
		expired map[string]tombstone
	}
}

// tombstone is what is left of an expired quote.
type tombstone struct {
	account   string
	expiresAt int64 // unix ns
}

func newBook() *book {
	b := &book{seed: maphash.MakeSeed()}
	for i := range b.shards {
		b.shards[i].m = map[string]*Quote{}
		b.shards[i].expired = map[string]tombstone{}
	}
	return b
}

// add stores quotes; false (nothing stored) when the book is full.
func (b *book) add(qs []*Quote) bool {
	if b.count.Add(int64(len(qs))) > MaxBookQuotes {
		b.count.Add(-int64(len(qs)))
		return false
	}
	for _, q := range qs {
		sh := &b.shards[maphash.String(b.seed, q.ID)%bookShards]
		sh.mu.Lock()
		sh.m[q.ID] = q
		sh.mu.Unlock()
	}
	return true
}

// get returns a live quote, or for an expired one a stand-in with only
// its account and expiry (Firm and amounts nil: it can only be refused).
func (b *book) get(id string) *Quote {
	sh := &b.shards[maphash.String(b.seed, id)%bookShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if q := sh.m[id]; q != nil {
		return q
	}
	if t, ok := sh.expired[id]; ok {
		return &Quote{ID: id, Account: t.account, ExpiresAt: time.Unix(0, t.expiresAt)}
	}
	return nil
}

// sweep turns quotes expired at now into tombstones and drops tombstones
// past their retention; it returns how many it dropped.
func (b *book) sweep(now time.Time) int {
	n := 0
	for i := range b.shards {
		sh := &b.shards[i]
		sh.mu.Lock()
		for id, q := range sh.m {
			if now.After(q.ExpiresAt) {
				delete(sh.m, id)
				sh.expired[id] = tombstone{account: q.Account, expiresAt: q.ExpiresAt.UnixNano()}
			}
		}
		for id, t := range sh.expired {
			if now.Sub(time.Unix(0, t.expiresAt)) > quoteRetention {
				delete(sh.expired, id)
				n++
			}
		}
		sh.mu.Unlock()
	}
	b.count.Add(-int64(n))
	return n
}
