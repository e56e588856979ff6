package httpd

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/domain"
)

// queryCtx is a request for /v1/x?query as fasthttp parses it.
func queryCtx(query string) *reqCtx {
	ctx := &fasthttp.RequestCtx{}
	ctx.Request.SetRequestURI("/v1/x?" + query)
	return &reqCtx{ctx: ctx}
}

// FuzzQuery feeds arbitrary query strings to every query parser of the
// handlers (the page, the ledger's filters, the events' type): never a
// panic, every refusal a contract error, and what is accepted is within
// the contract's bounds.
func FuzzQuery(f *testing.F) {
	f.Add("limit=10&starting_after=ct_1&type=fx_amm&currency=USDC&from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z")
	f.Fuzz(func(t *testing.T, query string) {
		rc := queryCtx(query)
		page, err := rc.page()
		if err != nil {
			requireContractCode(t, err)
		} else {
			require.True(t, page.Limit >= 1 && page.Limit <= domain.MaxPageLimit, "limit %d", page.Limit)
			require.Equal(t, string(rc.ctx.QueryArgs().Peek("starting_after")), page.StartingAfter)
		}
		filter, err := rc.ledgerQuery()
		if err != nil {
			requireContractCode(t, err)
		} else {
			if filter.Currency != "" {
				_, cerr := domain.CurrencyBySymbol(filter.Currency)
				require.Nil(t, cerr)
			}
			require.False(t, !filter.From.IsZero() && !filter.To.IsZero() && filter.To.Before(filter.From))
		}
		typ, err := eventTypeFilter(rc)
		if err != nil {
			requireContractCode(t, err)
		} else {
			require.True(t, typ == "" || domain.KnownEventType(typ))
		}
		// Parsing is pure: the same query parses the same.
		again := queryCtx(query)
		p2, _ := again.page()
		f2, _ := again.ledgerQuery()
		require.Equal(t, page, p2)
		require.Equal(t, filter, f2)
	})
}

// FuzzPathParam feeds arbitrary path parameters to the handlers' parsers
// of them: walletParam answers 404 not_found for a malformed address and
// writes nothing for a good one, whose normal form is a fixed point; an id
// is either of a known kind or of none.
func FuzzPathParam(f *testing.F) {
	f.Add("0x00000000000000000000000000000000000000aa")
	f.Fuzz(func(t *testing.T, value string) {
		rc := queryCtx("")
		rc.params = params{n: 1, names: [maxParams]string{"address"}, values: [maxParams]string{value}}
		addr, ok := walletParam(rc)
		if !ok {
			require.Equal(t, 404, rc.ctx.Response.StatusCode())
			requireContractError(t, rc.ctx.Response.Body(), domain.CodeNotFound)
		} else {
			require.Empty(t, rc.ctx.Response.Body(), "a good address writes nothing")
			again, err := domain.NormalizeAddress("address", addr)
			require.Nil(t, err)
			require.Equal(t, addr, again)
		}
		if k, ok := domain.KindOf(value); ok {
			require.Contains(t, value, k.Prefix())
		}
	})
}
