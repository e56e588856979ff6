package fx

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/domain"
)

// TestQuoteBothRails: on a real EVM and real makers, the answer lists the
// AMM (the pool's formula) then the makers best first, in the bytes
// encoding/json writes; the book holds each quote with its terms; the
// makers reserve nothing until a quote is accepted, and then sign it.
func TestQuoteBothRails(t *testing.T) {
	env := newQuoteEnv(t)
	d := env.desk
	out, derr := d.Quote(t.Context(), env.acct, QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "100.5"})
	require.Nil(t, derr)
	require.Len(t, out.Quotes, 3)
	want, err := json.Marshal(plainQuotes(out))
	require.NoError(t, err)
	require.Equal(t, string(want), string(out.AppendJSON(nil)))

	amount := big.NewInt(100_500_000)
	_, ammOut, ok := d.cfg.Pools.Quote(env.addrs.USDC, env.addrs.EURC, amount)
	require.True(t, ok)
	v := out.Quotes[0]
	require.Equal(t, domain.RouteAMM, v.Route)
	require.False(t, v.Firm)
	require.Nil(t, v.Provider)
	require.Equal(t, domain.FormatAmount(ammOut, 6), v.AmountOut)
	require.Equal(t, "100.5", v.AmountIn)
	require.Equal(t, env.wallet.Hex(), v.Taker)
	require.Equal(t, []string{"maker1", "maker2"}, []string{*out.Quotes[1].Provider, *out.Quotes[2].Provider}, "3 bps beats 5")
	require.Equal(t, out.Quotes[1].ID, out.BestQuoteID)

	inv := func(m maker.Maker) string {
		got, err := m.(*maker.Local).Inventory(t.Context())
		require.NoError(t, err)
		return got[env.addrs.EURC].String()
	}
	before := inv(env.makers[0])
	for _, v := range out.Quotes[1:] {
		q := d.book.get(v.ID)
		require.NotNil(t, q)
		require.Equal(t, domain.RouteRFQ, q.Route)
		require.Equal(t, v.AmountOut, domain.FormatAmount(q.Firm.Quote.AmountOut, 6))
		require.Equal(t, q.ExpiresAt.Add(d.cfg.OrderDeadline).Unix(), q.Firm.Quote.Expiry.Int64())
		require.Equal(t, env.wallet, q.Firm.Quote.Taker)
	}
	require.Equal(t, before, inv(env.makers[0]), "quoting reserves nothing")

	best := d.book.get(out.BestQuoteID)
	sig, serr := d.makerSign(t.Context(), best.ID, &best.Firm.Quote)
	require.Nil(t, serr)
	require.NoError(t, rfq.Verify(simtest.ChainID, env.addrs.RfqEscrow, &best.Firm.Quote, sig))
	after, _ := new(big.Int).SetString(before, 10)
	after.Sub(after, best.Firm.Quote.AmountOut)
	require.Equal(t, after.String(), inv(env.makers[0]), "accept commits the maker")

	lower := strings.ToLower(env.wallet.Hex())
	out, derr = d.Quote(t.Context(), env.acct, QuoteRequest{FromCurrency: "EURC", ToCurrency: "USDC", Amount: "7", SourceWallet: &lower})
	require.Nil(t, derr)
	for _, v := range out.Quotes {
		require.Equal(t, env.wallet.Hex(), v.Taker, "the source wallet, checksummed")
	}
	// A wallet not the account's is quoted too; accept refuses it
	// (TestForeignTakerQuotedThenRefused).
}

// fakeMaker is a maker the desk test drives: an Offerer when offers is
// set (stale until refreshed once), else one asked through QuoteAsync.
type fakeMaker struct {
	maker.Maker
	name      string
	offers    bool
	stale     atomic.Bool
	refreshed atomic.Int32
	asked     atomic.Int32
	fail      bool // refresh or quote fails
	staleAt0  bool // the snapshot starts stale
}

func (f *fakeMaker) Name() string { return f.name }

func (f *fakeMaker) firm(r maker.Request) *maker.Firm {
	return &maker.Firm{Maker: f.name, Quote: rfq.Quote{Taker: r.Taker, AmountIn: r.AmountIn, AmountOut: big.NewInt(int64(len(f.name)))}}
}

func (f *fakeMaker) QuoteAsync(ctx context.Context, r maker.Request) func() (*maker.Firm, error) {
	f.asked.Add(1)
	if _, ok := ctx.Deadline(); !ok {
		panic("no deadline")
	}
	return func() (*maker.Firm, error) {
		if f.fail {
			return nil, maker.ErrNoQuote
		}
		return f.firm(r), nil
	}
}

type fakeOfferer struct{ *fakeMaker }

func (f fakeOfferer) Offer(r maker.Request) (*maker.Firm, error) {
	f.asked.Add(1)
	if f.stale.Load() {
		return nil, maker.ErrStale
	}
	return f.firm(r), nil
}

func (f fakeOfferer) RefreshAsync(ctx context.Context) func() error {
	f.refreshed.Add(1)
	return func() error {
		if f.fail {
			return errors.New("node down")
		}
		f.stale.Store(false)
		return nil
	}
}

// TestFirmsWaitsOnlyWhenItMust: offerers answer at once; a stale one is
// refreshed and asked again; a maker without Offer is asked through its
// actor with a deadline; failures leave their slot empty, in maker order.
func TestFirmsWaitsOnlyWhenItMust(t *testing.T) {
	for _, c := range []struct {
		name                string
		makers              []*fakeMaker
		want                []string // provider per slot, "" for none
		wantAsked, wantRefr []int32
	}{
		{"offerers", []*fakeMaker{{name: "a", offers: true}, {name: "bb", offers: true}}, []string{"a", "bb"}, []int32{1, 1}, []int32{0, 0}},
		{"a stale offerer", []*fakeMaker{{name: "a", offers: true}, {name: "bb", offers: true, staleAt0: true}}, []string{"a", "bb"}, []int32{1, 2}, []int32{0, 1}},
		{"a failed refresh", []*fakeMaker{{name: "a", offers: true, fail: true, staleAt0: true}, {name: "bb", offers: true}}, []string{"", "bb"}, []int32{1, 1}, []int32{1, 0}},
		{"actor makers", []*fakeMaker{{name: "a"}, {name: "bb", offers: true}, {name: "ccc", fail: true}}, []string{"a", "bb", ""}, []int32{1, 1, 1}, []int32{0, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := &Desk{}
			for _, m := range c.makers {
				m.stale.Store(m.staleAt0)
				var mk maker.Maker = m
				if m.offers {
					o := fakeOfferer{m}
					mk, d.offerers = o, append(d.offerers, o)
				} else {
					d.offerers = append(d.offerers, nil)
				}
				d.cfg.Makers = append(d.cfg.Makers, mk)
			}
			r := maker.Request{Taker: common.HexToAddress("0x11"), AmountIn: big.NewInt(5), Expiry: uint64(time.Now().Unix() + 60)}
			firms := d.firms(t.Context(), r, nil)
			var got []string
			for _, f := range firms {
				if f == nil {
					got = append(got, "")
				} else {
					got = append(got, f.Maker)
				}
			}
			require.Equal(t, c.want, got)
			for i, m := range c.makers {
				require.Equal(t, c.wantAsked[i], m.asked.Load(), "asked %s", m.name)
				require.Equal(t, c.wantRefr[i], m.refreshed.Load(), "refreshed %s", m.name)
			}
		})
	}
}
