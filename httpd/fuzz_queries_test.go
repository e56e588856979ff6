package httpd

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/domain"
)

// listCursors is every list's cursor.
var listCursors = []cursor{noCursor, contactCursor, orderCursor, transferCursor, linkCursor, entryCursor, endpointCursor, eventCursor, deliveryCursor}

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
	f.Add("limit=10&starting_after=ct_06H2SQ9428000DQ6HVHD16WR0Z7HCQR7&type=fx_amm&currency=USDC&from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z")
	f.Fuzz(func(t *testing.T, query string) {
		rc := queryCtx(query)
		var page domain.Page
		for _, c := range listCursors {
			p, err := rc.page(c)
			if err != nil {
				requireContractCode(t, err)
				continue
			}
			require.True(t, p.Limit >= 1 && p.Limit <= domain.MaxPageLimit, "limit %d", p.Limit)
			require.Equal(t, string(rc.ctx.QueryArgs().Peek("starting_after")), p.StartingAfter)
			if id, _, _ := strings.Cut(p.StartingAfter, ":"); id != "" && len(c.prefixes) > 0 {
				require.True(t, slices.ContainsFunc(c.prefixes, func(pre string) bool { return strings.HasPrefix(id, pre) }), "%s: %q", c.what, id)
			}
			page = p
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
		var p2 domain.Page
		for _, c := range listCursors {
			if p, err := again.page(c); err == nil {
				p2 = p
			}
		}
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

// TestListCursors: a list's starting_after is an id of the kinds it holds
// (any well-formed one, seen or not), and the deliveries list also takes
// "<delivery id>:<attempt>"; anything else is 400 invalid_request, never
// read as a position.
func TestListCursors(t *testing.T) {
	const body = "06H2SQ9428000DQ6HVHD16WR0Z7HCQR7"
	for _, tc := range []struct {
		c    cursor
		good []string
		bad  []string
	}{
		{contactCursor, []string{"", "ct_" + body}, []string{"ct_nope", "ct_" + body + "x", "tr_" + body, "garbage", "ct_" + body + ":1"}},
		{orderCursor, []string{"ord_" + body}, []string{"q_" + body, "ord_"}},
		{transferCursor, []string{"tr_" + body}, []string{"tr_1"}},
		{linkCursor, []string{"pl_" + body}, []string{"plp_" + body}},
		{entryCursor, []string{"ord_" + body, "tr_" + body, "pl_" + body, "plp_" + body}, []string{"ct_" + body, "evt_" + body}},
		{endpointCursor, []string{"wh_" + body}, []string{"wh_x"}},
		{eventCursor, []string{"evt_" + body}, []string{"evt_" + body + ":2"}},
		{deliveryCursor, []string{"dlv_" + body, "dlv_" + body + ":3"},
			[]string{"dlv_" + body + ":0", "dlv_" + body + ":03", "dlv_" + body + ":", "dlv_x:3", ":3", "evt_" + body}},
		{noCursor, []string{"0x00000000000000000000000000000000000000aa", "anything"}, nil},
	} {
		for _, s := range tc.good {
			require.Nil(t, tc.c.check(s), "%s: %q", tc.c.what, s)
		}
		for _, s := range tc.bad {
			err := tc.c.check(s)
			require.NotNil(t, err, "%s: %q", tc.c.what, s)
			require.Equal(t, 400, err.Status)
			require.Equal(t, domain.CodeInvalidRequest, err.Code)
		}
	}
}
