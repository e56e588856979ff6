package fx

import (
	"encoding/json"
	"io"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
)

var (
	dom    = eip712.Domain{ChainID: big.NewInt(1337), Permit2: common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")}
	router = common.HexToAddress("0x1000000000000000000000000000000000000001")
	escrow = common.HexToAddress("0x2000000000000000000000000000000000000002")
	usdc   = common.HexToAddress("0x3000000000000000000000000000000000000003")
	eurc   = common.HexToAddress("0x4000000000000000000000000000000000000004")
	signer = common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
)

// TestSigningRoundTrip: what the desk reads back out of a stored signing
// object (to verify, relay and match logs) is exactly what it signed, and
// the JSON carries SPEC.md's and CONTRACT.md's fields.
func TestSigningRoundTrip(t *testing.T) {
	g := &eip712.GaslessOrder{Signer: signer, TokenIn: usdc, TokenOut: eurc, AmountIn: big.NewInt(100_000_000),
		MinAmountOut: big.NewInt(91_000_000), Recipient: signer, Pool: common.HexToAddress("0x77"),
		Deadline: big.NewInt(1_800_000_000), Nonce: randomNonce()}
	raw, err := json.Marshal(gaslessSigning(dom, router, g))
	require.NoError(t, err)
	back, err := parseGasless(raw)
	require.NoError(t, err)
	require.Equal(t, g, back)
	var m struct {
		Type  string         `json:"type"`
		Order map[string]any `json:"order"`
		Relay map[string]any `json:"relay"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Equal(t, "permit2_witness", m.Type)
	require.ElementsMatch(t, []string{"signer", "tokenIn", "tokenOut", "amountIn", "minAmountOut", "recipient", "pool", "deadline", "nonce"}, keys(m.Order))
	require.ElementsMatch(t, []string{"chainId", "permit2", "relayRouter", "witnessTypeString"}, keys(m.Relay))
	require.Equal(t, eip712.GaslessWitnessTypeString, m.Relay["witnessTypeString"])

	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	q := rfq.Quote{Maker: crypto.PubkeyToAddress(key.PublicKey), Taker: signer, TokenIn: usdc, TokenOut: eurc,
		AmountIn: big.NewInt(100_000_000), AmountOut: big.NewInt(92_000_000), Expiry: big.NewInt(1_800_000_100), Salt: randomNonce()}
	sig, err := rfq.SignQuote(key, dom.ChainID, escrow, &q)
	require.NoError(t, err)
	qh := rfq.QuoteHash(&q)
	nonce := randomNonce()
	f := &eip712.RfqEscrowFunding{Signer: signer, ExecutionID: rfq.ExecutionID(qh, signer, nonce), Escrow: escrow, QuoteHash: qh,
		Token: usdc, Amount: q.AmountIn, Deadline: big.NewInt(1_800_000_000), Nonce: nonce}
	raw, err = json.Marshal(rfqSigning(dom, &q, sig, f))
	require.NoError(t, err)
	terms, err := parseRFQ(raw)
	require.NoError(t, err)
	require.Equal(t, q, terms.Quote)
	require.Equal(t, common.Hash(f.ExecutionID), terms.ExecutionID)
	require.Equal(t, common.Hash(qh), terms.QuoteHash)
	var r struct {
		Funding map[string]any `json:"funding"`
		Call    struct {
			To   string         `json:"to"`
			ABI  map[string]any `json:"abi"`
			Args []any          `json:"args"`
		} `json:"call"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	require.ElementsMatch(t, []string{"escrow", "token", "amount", "executionId", "quoteHash", "deadline", "nonce", "signer"}, keys(r.Funding))
	require.Equal(t, escrow.Hex(), r.Call.To)
	require.Equal(t, "escrowQuoteWithPermit2", r.Call.ABI["name"])
	require.Len(t, r.Call.Args, 3)
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestOrderIDDerivesFromQuoteID(t *testing.T) {
	for in, want := range map[string]string{"q_01ABC": "ord_01ABC", "q_": "", "x_01ABC": "", "q_01/../x": "", "q_1": ""} {
		got, ok := orderID(in)
		require.Equal(t, want != "", ok, in)
		require.Equal(t, want, got, in)
	}
}

// TestBook: quotes are found until their retention ends; the book refuses
// more than its bound without storing anything.
func TestBook(t *testing.T) {
	b := newBook()
	now := time.Unix(1_800_000_000, 0)
	q := &Quote{ID: "q_1", ExpiresAt: now.Add(QuoteTTL)}
	require.True(t, b.add([]*Quote{q}))
	require.Same(t, q, b.get("q_1"))
	require.Equal(t, 0, b.sweep(now.Add(QuoteTTL)))
	require.Same(t, q, b.get("q_1"))
	q.Account = "acct_1"
	require.Equal(t, 0, b.sweep(now.Add(QuoteTTL+quoteRetention)))
	stub := b.get("q_1")
	require.Equal(t, &Quote{ID: "q_1", Account: "acct_1", ExpiresAt: q.ExpiresAt}, stub, "a tombstone answers quote_expired")
	require.Equal(t, 1, b.sweep(now.Add(QuoteTTL+quoteRetention+time.Second)))
	require.Nil(t, b.get("q_1"))
	b.count.Store(MaxBookQuotes - 1)
	require.False(t, b.add([]*Quote{{ID: "q_2"}, {ID: "q_3"}}))
	require.Nil(t, b.get("q_2"))
	require.True(t, b.add([]*Quote{{ID: "q_4"}}))
}

// TestPoolsFollowSyncLogs: an AMM quote is the contract's formula at the
// reserves of the last Sync log; other logs change nothing.
func TestPoolsFollowSyncLogs(t *testing.T) {
	pool := common.HexToAddress("0x99")
	r := amm.Reserves{Token0: usdc, Token1: eurc, Reserve0: big.NewInt(10_000_000_000_000), Reserve1: big.NewInt(9_200_000_000_000), FeeBps: 5}
	p := &Pools{byAddr: map[common.Address]*amm.Reserves{pool: &r}, byPair: map[[2]common.Address]common.Address{{usdc, eurc}: pool}}
	in := big.NewInt(100_000_000)
	addr, out, ok := p.Quote(usdc, eurc, in)
	require.True(t, ok)
	require.Equal(t, pool, addr)
	want, err := r.AmountOut(usdc, in)
	require.NoError(t, err)
	require.Equal(t, want, out)
	_, _, ok = p.Quote(usdc, common.HexToAddress("0x55"), in)
	require.False(t, ok)

	data := append(common.LeftPadBytes(big.NewInt(20_000_000_000_000).Bytes(), 32), common.LeftPadBytes(big.NewInt(9_200_000_000_000).Bytes(), 32)...)
	p.OnLog(watch.Log{Log: types.Log{Address: pool, Topics: []common.Hash{syncTopic}, Data: data}, Removed: true})
	_, same, _ := p.Quote(usdc, eurc, in)
	require.Equal(t, want, same, "a retracted log moves nothing")
	p.OnLog(watch.Log{Log: types.Log{Address: pool, Topics: []common.Hash{syncTopic}, Data: data}})
	_, moved, _ := p.Quote(eurc, usdc, in)
	r2 := r
	r2.Reserve0 = big.NewInt(20_000_000_000_000)
	want2, err := r2.AmountOut(eurc, in)
	require.NoError(t, err)
	require.Equal(t, want2, moved)
	mid, ok := p.Mid(usdc, eurc)
	require.True(t, ok)
	require.Equal(t, big.NewRat(9_200, 20_000), mid)
}

// TestQuoteView renders amounts, rate and the provider only for rfq.
func TestQuoteView(t *testing.T) {
	q := &Quote{ID: "q_1", Route: domain.RouteRFQ, Provider: "maker1", Taker: signer, FromCurrency: "USDC", ToCurrency: "EURC",
		AmountIn: big.NewInt(100_000_000), AmountOut: big.NewInt(92_123_456), ExpiresAt: time.Unix(1_800_000_030, 0).UTC()}
	v := q.view(6)
	require.Equal(t, "100", v.AmountIn)
	require.Equal(t, "92.123456", v.AmountOut)
	require.Equal(t, "0.92123456", v.Rate)
	require.True(t, v.Firm)
	require.Equal(t, "maker1", *v.Provider)
	q.Route, q.Provider = domain.RouteAMM, ""
	b, err := json.Marshal(q.view(6))
	require.NoError(t, err)
	require.NotContains(t, string(b), "provider")
	require.Contains(t, string(b), `"firm":false`)
}

// TestNextJob is the chain side's decision table: for each route, state
// and clock, the one job the order needs.
func TestNextJob(t *testing.T) {
	deadline := time.Unix(1_800_000_000, 0)
	before, late := deadline.Add(-time.Second), deadline.Add(expiryGrace+time.Second)
	settleBy := deadline.Add(-30 * time.Second)
	row := func(route, state string) *domain.Order {
		return &domain.Order{ID: "ord_1", Route: route, State: state, Deadline: deadline}
	}
	for _, tc := range []struct {
		name string
		tr   tracked
		now  time.Time
		want jobKind
	}{
		{"amm accepted in time", tracked{o: row(domain.RouteAMM, domain.OrderAccepted)}, before, jobNone},
		{"amm accepted late", tracked{o: row(domain.RouteAMM, domain.OrderAccepted)}, late, jobExpire},
		{"amm accepted within the grace", tracked{o: row(domain.RouteAMM, domain.OrderAccepted)}, deadline.Add(time.Second), jobNone},
		{"amm signed", tracked{o: row(domain.RouteAMM, domain.OrderAwaitingFunding)}, before, jobRelay},
		{"amm signed late: the chain decides", tracked{o: row(domain.RouteAMM, domain.OrderAwaitingFunding)}, late, jobRelay},
		{"rfq after a start", tracked{o: row(domain.RouteRFQ, domain.OrderAccepted)}, before, jobSyncEscrow},
		{"rfq accepted in time", tracked{o: row(domain.RouteRFQ, domain.OrderAccepted), synced: true}, before, jobNone},
		{"rfq accepted late", tracked{o: row(domain.RouteRFQ, domain.OrderAccepted), synced: true}, late, jobSyncEscrow},
		{"rfq pending late", tracked{o: row(domain.RouteRFQ, domain.OrderAwaitingFunding), synced: true}, late, jobSyncEscrow},
		{"rfq funded, window unknown", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), synced: true}, before, jobSyncEscrow},
		{"rfq funded", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), synced: true, settleBy: settleBy}, before, jobAskSettle},
		{"rfq funded, maker asked", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), synced: true, settleBy: settleBy, settleAsked: true},
			settleBy.Add(refundGrace), jobNone},
		{"rfq funded, window closed", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), synced: true, settleBy: settleBy, settleAsked: true},
			settleBy.Add(refundGrace + time.Second), jobRefund},
		{"rfq settling", tracked{o: row(domain.RouteRFQ, domain.OrderSettling), synced: true}, late, jobNone},
	} {
		require.Equal(t, tc.want, nextJob(&tc.tr, tc.now), tc.name)
	}
}

// TestTrackerFollowsRows: live rows are indexed by what their logs carry
// (amm order hash, rfq execution id); an older row never replaces a newer
// one; a terminal row leaves every index.
func TestTrackerFollowsRows(t *testing.T) {
	d := &Desk{cfg: Config{Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}}
	tk := newTracker(d)
	g := &eip712.GaslessOrder{Signer: signer, TokenIn: usdc, TokenOut: eurc, AmountIn: big.NewInt(1), MinAmountOut: big.NewInt(1),
		Recipient: signer, Pool: common.HexToAddress("0x77"), Deadline: big.NewInt(1_800_000_000), Nonce: big.NewInt(7)}
	raw, err := json.Marshal(gaslessSigning(dom, router, g))
	require.NoError(t, err)
	t0 := time.Unix(1_800_000_000, 0)
	row := func(state string, at time.Time) *domain.Order {
		return &domain.Order{ID: "ord_1", Route: domain.RouteAMM, State: state, Signing: raw, UpdatedAt: at}
	}
	tk.update(row(domain.OrderAwaitingFunding, t0.Add(time.Second)))
	got, ok := tk.byOrderHash(g.StructHash())
	require.True(t, ok)
	require.Equal(t, domain.OrderAwaitingFunding, got.o.State)
	tk.update(row(domain.OrderAccepted, t0)) // the start-up scan, late
	got, _ = tk.byOrderHash(g.StructHash())
	require.Equal(t, domain.OrderAwaitingFunding, got.o.State)
	require.Len(t, tk.kick, 1, "kicked once; the stale row is ignored")
	tk.update(row(domain.OrderSettled, t0.Add(2*time.Second)))
	_, ok = tk.byOrderHash(g.StructHash())
	require.False(t, ok)
	require.Empty(t, tk.live)
	require.Empty(t, tk.byHash)
}
