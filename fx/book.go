package fx

import (
	"hash/maphash"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/domain"
)

// Limits of the quote book.
const (
	// QuoteTTL is a quote's lifetime (CONTRACT.md: 30 s).
	QuoteTTL = 30 * time.Second
	// quoteRetention keeps an expired quote so that accepting it says
	// quote_expired rather than not_found.
	quoteRetention = 10 * time.Minute
	// MaxBookQuotes bounds the quotes in memory: 1,000 quotes/s held for
	// QuoteTTL+quoteRetention is 630,000. Beyond it POST /fx/quotes is 503.
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

func (q *Quote) view(decimals int) QuoteView {
	v := QuoteView{
		ID: q.ID, Route: q.Route, Firm: q.Route == domain.RouteRFQ, Taker: q.Taker.Hex(),
		FromCurrency: q.FromCurrency, ToCurrency: q.ToCurrency,
		AmountIn:  domain.FormatAmount(q.AmountIn, decimals),
		AmountOut: domain.FormatAmount(q.AmountOut, decimals),
		Rate:      formatRatio(q.AmountOut, q.AmountIn),
		ExpiresAt: domain.RFC3339(q.ExpiresAt),
	}
	if q.Provider != "" {
		p := q.Provider
		v.Provider = &p
	}
	return v
}

// book holds live and recently expired quotes, sharded by id.
type book struct {
	seed   maphash.Seed
	count  atomic.Int64
	shards [bookShards]struct {
		mu sync.Mutex
		m  map[string]*Quote
	}
}

func newBook() *book {
	b := &book{seed: maphash.MakeSeed()}
	for i := range b.shards {
		b.shards[i].m = map[string]*Quote{}
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

func (b *book) get(id string) *Quote {
	sh := &b.shards[maphash.String(b.seed, id)%bookShards]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.m[id]
}

// sweep drops quotes past their retention at now.
func (b *book) sweep(now time.Time) int {
	n := 0
	for i := range b.shards {
		sh := &b.shards[i]
		sh.mu.Lock()
		for id, q := range sh.m {
			if now.Sub(q.ExpiresAt) > quoteRetention {
				delete(sh.m, id)
				n++
			}
		}
		sh.mu.Unlock()
	}
	b.count.Add(-int64(n))
	return n
}

// formatRatio renders num/den with rateDecimals decimals, rounded down.
func formatRatio(num, den *big.Int) string {
	if den.Sign() == 0 {
		return "0"
	}
	return amm.FormatRate(new(big.Rat).SetFrac(num, den), rateDecimals)
}
