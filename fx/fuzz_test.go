package fx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/domain/domaintest"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
)

// The FX desk's own checks of a request body, fuzzed through the desk's
// real entry points (Quote, Accept, Submit) on a simulated chain (a real
// EVM with the contract set), two embedded makers and a real engine: the
// pair, the amount and its bounds, the source wallet, the quote's expiry
// and taker, the account's permission, the exactly-one-of signature or
// tx_hash, the off-chain signature check, the relay pre-flight and the
// funding lookup, and each order's Decide. Only the chain is in memory;
// nothing is left out for lack of one.
//
// The body's decode is the front door's own (jsonbody.Decode, fuzzed by
// httpd's FuzzRequestBody): a body it refuses never reaches the desk, so
// these targets stop at a refusal.

// fuzzDesk is newQuoteEnv's desk with the gasless leg accept and submit
// need, an accepted order of each route, the account wallet's signature
// of the amm order's terms and a mined transaction that funds nothing.
type fuzzDesk struct {
	*quoteEnv
	amm, rfq  string // order ids
	ammQuote  string // the quote fd.amm was accepted from
	ammSig    string
	minedTx   string
	quoteSeen atomic.Int64
}

// fuzzQuote is the quote request accept's targets take a fresh quote of
// (small, so the makers' inventory outlasts a long run).
var fuzzQuote = QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "1"}

func newFuzzDesk(tb testing.TB) *fuzzDesk {
	tb.Helper()
	env := newQuoteEnv(tb)
	d := env.desk
	d.cfg.Leg = &gasless.Leg{Domain: d.domain, Router: env.addrs.RelayRouter, Chain: env.chain.Client, Logger: slog.New(slog.DiscardHandler)}
	d.chain = env.chain.Client // what the escrow reads and funding lookups go to
	fd := &fuzzDesk{quoteEnv: env}
	ctx := context.Background()
	for _, route := range []string{domain.RouteAMM, domain.RouteRFQ} {
		q := fd.quote(tb, route)
		out, err := d.Accept(ctx, env.acct, q, AcceptRequest{}, nil)
		require.NoError(tb, err)
		require.Equal(tb, 200, out.Reply.Status, "%s", out.Reply.Body)
		id, _ := OrderID(q)
		if route == domain.RouteAMM {
			fd.amm, fd.ammQuote = id, q
		} else {
			fd.rfq = id
		}
	}
	o, err := env.desk.e.Order(ctx, fd.amm)
	require.NoError(tb, err)
	digest := eip712.GaslessDigest(d.cfg.Leg.Domain, d.cfg.Leg.Router, gasless.Order(o.Gasless))
	sig, err := crypto.Sign(digest[:], simtest.Key(tb, 0x11))
	require.NoError(tb, err)
	fd.ammSig = hexutil.Encode(sig)
	contracts, err := fxbind.NewContracts(env.addrs, env.chain.Client)
	require.NoError(tb, err)
	rcpt := env.chain.Mine(contracts.Tokens[fxbind.USDC].Approve(env.chain.Auth(simtest.Key(tb, 0x11)), env.addrs.Permit2, fxbind.Units(1)))
	fd.minedTx = rcpt.TxHash.Hex()
	return fd
}

// quote makes a fresh quote and returns the id of its quote of route.
func (fd *fuzzDesk) quote(tb testing.TB, route string) string {
	tb.Helper()
	// The book is swept by the desk's loop, which does not run here.
	if fd.quoteSeen.Add(1)%50_000 == 0 {
		fd.desk.book.sweep(time.Now().Add(24 * time.Hour))
	}
	out, derr := fd.desk.Quote(context.Background(), fd.acct, fuzzQuote)
	require.Nil(tb, derr)
	for _, q := range out.Quotes {
		if q.Route == route {
			return q.ID
		}
	}
	tb.Fatalf("no %s quote in %+v", route, out)
	return ""
}

// FuzzQuoteBody feeds arbitrary bodies to POST /fx/quotes's desk side:
// never a panic, every refusal a contract error, nothing written; an
// answer is the request's (pair, amount, its source_wallet or else the
// account's wallet as taker),
// every quote of it in the book and the best one of them.
func FuzzQuoteBody(f *testing.F) {
	fd := newFuzzDesk(f)
	f.Add([]byte(`{"from_currency":"USDC","to_currency":"EURC","amount":"100"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req QuoteRequest
		if jsonbody.Decode(body, &req) != nil {
			return
		}
		if fd.quoteSeen.Add(1)%50_000 == 0 {
			fd.desk.book.sweep(time.Now().Add(24 * time.Hour))
		}
		index := fd.desk.e.LastIndex()
		out, derr := fd.desk.Quote(context.Background(), fd.acct, req)
		require.Equal(t, index, fd.desk.e.LastIndex(), "a quote wrote to the log")
		if derr != nil {
			t.Logf("%d %s", derr.Status, derr.Message)
			domaintest.RequireContractReply(t, derr.Reply())
			return
		}
		amount, perr := domain.ParseAmount("amount", req.Amount, domain.DecimalsOf(req.FromCurrency))
		require.Nil(t, perr)
		require.NotEmpty(t, out.Quotes)
		best := false
		for _, q := range out.Quotes {
			require.Equal(t, req.FromCurrency, q.FromCurrency)
			require.Equal(t, req.ToCurrency, q.ToCurrency)
			require.Equal(t, domain.FormatAmount(amount, domain.DecimalsOf(req.FromCurrency)), q.AmountIn)
			require.Equal(t, wantTaker(req, fd.wallet.Hex()), q.Taker)
			require.NotNil(t, fd.desk.book.get(q.ID), "quote %s is not in the book", q.ID)
			best = best || q.ID == out.BestQuoteID
		}
		require.True(t, best, "best_quote_id %s is none of the quotes", out.BestQuoteID)
	})
}

// wantTaker is the taker a quote request names: its source_wallet
// (checksummed), else the primary.
func wantTaker(req QuoteRequest, primary string) string {
	if req.SourceWallet == nil {
		return primary
	}
	return common.HexToAddress(*req.SourceWallet).Hex()
}

// Rows of FuzzOrderBody (sel % 4); seeds name them by number.
const (
	orderAcceptAMM = iota
	orderAcceptRFQ
	orderSubmitAMM
	orderSubmitRFQ
	numOrderRows
)

// FuzzOrderBody feeds arbitrary bodies to accept (a fresh quote of either
// route each time) and to submit (the accepted order of either route):
// never a panic, every refusal a contract error that wrote nothing, and
// an answer the order it was for. In a body, $SIG stands for the account
// wallet's valid signature of the amm order and $TX for a mined
// transaction, so seeds reach the relay pre-flight and the funding
// lookup.
func FuzzOrderBody(f *testing.F) {
	fd := newFuzzDesk(f)
	f.Add(uint8(orderSubmitAMM), []byte(`{"signature":"$SIG"}`))
	f.Fuzz(func(t *testing.T, sel uint8, body []byte) {
		body = bytes.ReplaceAll(body, []byte("$SIG"), []byte(fd.ammSig))
		body = bytes.ReplaceAll(body, []byte("$TX"), []byte(fd.minedTx))
		ctx := context.Background()
		row := int(sel) % numOrderRows
		var out domain.Outcome
		var err error
		var want string // the order the answer is
		index := fd.desk.e.LastIndex()
		switch row {
		case orderAcceptAMM, orderAcceptRFQ:
			var req AcceptRequest
			// An empty body is no fields, as httpd's entityWrite takes it.
			if len(body) > 0 && jsonbody.Decode(body, &req) != nil {
				return
			}
			q := fd.quote(t, map[int]string{orderAcceptAMM: domain.RouteAMM, orderAcceptRFQ: domain.RouteRFQ}[row])
			want, _ = OrderID(q)
			out, err = fd.desk.Accept(ctx, fd.acct, q, req, nil)
		default:
			var req SubmitRequest
			if jsonbody.Decode(body, &req) != nil {
				return
			}
			want = map[int]string{orderSubmitAMM: fd.amm, orderSubmitRFQ: fd.rfq}[row]
			out, err = fd.desk.Submit(ctx, fd.acct, want, req, nil)
		}
		require.NoError(t, err)
		t.Logf("row %d: %d %.160s", row, out.Reply.Status, out.Reply.Body)
		if out.Reply.Status >= 400 {
			domaintest.RequireContractReply(t, out.Reply)
			require.Equal(t, index, fd.desk.e.LastIndex(), "a refusal wrote to the log: %s", out.Reply.Body)
			return
		}
		require.Equal(t, 200, out.Reply.Status, "%s", out.Reply.Body)
		var o domain.OrderView
		require.NoError(t, json.Unmarshal(out.Reply.Body, &o))
		require.Equal(t, want, o.OrderID)
	})
}

// TestQuoteRefusalCodes: a missing currency is a missing field (400
// invalid_request naming it); one not served is unsupported_asset; a
// malformed or non-positive amount is invalid_request, a well-formed one
// above what any rail quotes is 502 no_quote_available, and a malformed
// source_wallet is refused before that.
func TestQuoteRefusalCodes(t *testing.T) {
	fd := newFuzzDesk(t)
	deadWallet, badWallet := "0x000000000000000000000000000000000000dEaD", "not an address"
	for _, c := range []struct {
		req        QuoteRequest
		code, text string
	}{
		{QuoteRequest{ToCurrency: "EURC", Amount: "1"}, domain.CodeInvalidRequest, "from_currency is required"},
		{QuoteRequest{FromCurrency: "USDC", Amount: "1"}, domain.CodeInvalidRequest, "to_currency is required"},
		{QuoteRequest{FromCurrency: "USDC", ToCurrency: "XAU", Amount: "1"}, domain.CodeUnsupportedAsset, "XAU"},
		{QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "0"}, domain.CodeInvalidRequest, "greater than zero"},
		{QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "1e6"}, domain.CodeInvalidRequest, "decimal string"},
		{QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "10000000.000001"}, domain.CodeNoQuoteAvailable, "more than 10000000 USDC"},
		{QuoteRequest{FromCurrency: "EURC", ToCurrency: "USDT", Amount: "1000000000000"}, domain.CodeNoQuoteAvailable, "more than 10000000 EURC"},
		{QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "1000000000000", SourceWallet: &badWallet},
			domain.CodeInvalidRequest, "source_wallet"},
		// A wallet that is not the account's is quoted (accept refuses it).
		{QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "1000000000000", SourceWallet: &deadWallet},
			domain.CodeNoQuoteAvailable, "more than 10000000 USDC"},
	} {
		_, derr := fd.desk.Quote(context.Background(), fd.acct, c.req)
		require.NotNil(t, derr, "%+v", c.req)
		require.Equal(t, c.code, derr.Code, "%+v", c.req)
		require.Contains(t, derr.Message, c.text)
	}
}
