package fx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/amm"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/internal/logsink"
)

var (
	dom    = eip712.Domain{ChainID: big.NewInt(1337), Permit2: common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")}
	router = common.HexToAddress("0x1000000000000000000000000000000000000001")
	escrow = common.HexToAddress("0x2000000000000000000000000000000000000002")
	usdc   = common.HexToAddress("0x3000000000000000000000000000000000000003")
	eurc   = common.HexToAddress("0x4000000000000000000000000000000000000004")
	signer = common.HexToAddress("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
)

// TestSigningWire: the amm signing object is the gasless leg's, with
// SPEC.md's and CONTRACT.md's fields in the wire order; the rfq one carries
// the funding and the call; the rfq terms kept on the row read back as the
// quote and execution they were built from.
func TestSigningWire(t *testing.T) {
	leg := &gasless.Leg{Domain: dom, Router: router}
	terms := &domain.GaslessTerms{Signer: signer.Hex(), TokenIn: usdc.Hex(), TokenOut: eurc.Hex(), AmountIn: big.NewInt(100_000_000),
		MinAmountOut: big.NewInt(91_000_000), Recipient: signer.Hex(), Pool: common.HexToAddress("0x77").Hex(),
		Deadline: big.NewInt(1_800_000_000), Nonce: eip712.RandomNonce()}
	raw, err := json.Marshal(leg.Signing(terms))
	require.NoError(t, err)
	require.Equal(t, []string{"type", "order", "relay", "typed_data"}, orderedKeys(t, raw, ""))
	require.Equal(t, []string{"signer", "tokenIn", "tokenOut", "amountIn", "minAmountOut", "recipient", "pool", "deadline", "nonce"},
		orderedKeys(t, raw, "order"))
	require.Equal(t, []string{"chainId", "permit2", "relayRouter", "witnessTypeString"}, orderedKeys(t, raw, "relay"))
	var m struct {
		Type  string         `json:"type"`
		Order map[string]any `json:"order"`
		Relay map[string]any `json:"relay"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	require.Equal(t, SigningType, m.Type)
	require.Equal(t, "permit2_witness", m.Type)
	require.Equal(t, map[string]any{"signer": signer.Hex(), "tokenIn": usdc.Hex(), "tokenOut": eurc.Hex(), "amountIn": "100000000",
		"minAmountOut": "91000000", "recipient": signer.Hex(), "pool": terms.Pool, "deadline": "1800000000", "nonce": terms.Nonce.String()}, m.Order)
	require.Equal(t, map[string]any{"chainId": 1337.0, "permit2": dom.Permit2.Hex(), "relayRouter": router.Hex(),
		"witnessTypeString": eip712.GaslessWitnessTypeString}, m.Relay)

	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	q := rfq.Quote{Maker: crypto.PubkeyToAddress(key.PublicKey), Taker: signer, TokenIn: usdc, TokenOut: eurc,
		AmountIn: big.NewInt(100_000_000), AmountOut: big.NewInt(92_000_000), Expiry: big.NewInt(1_800_000_100), Salt: eip712.RandomNonce()}
	sig, err := rfq.SignQuote(key, dom.ChainID, escrow, &q)
	require.NoError(t, err)
	qh := rfq.QuoteHash(&q)
	nonce := eip712.RandomNonce()
	f := &eip712.RfqEscrowFunding{Signer: signer, ExecutionID: rfq.ExecutionID(qh, signer, nonce), Escrow: escrow, QuoteHash: qh,
		Token: usdc, Amount: q.AmountIn, Deadline: big.NewInt(1_800_000_000), Nonce: nonce}
	row := rfqRow(&q, f.ExecutionID, f.QuoteHash)
	require.Equal(t, q.Maker.Hex(), row.Maker)
	require.Equal(t, common.Hash(f.ExecutionID).Hex(), row.ExecutionID)
	require.Len(t, row.QuoteHash, 66)
	back := rfqTermsOf(row)
	require.Equal(t, q, back.Quote)
	require.Equal(t, common.Hash(f.ExecutionID), back.ExecutionID)
	require.Equal(t, common.Hash(qh), back.QuoteHash)
	back.Quote.AmountIn.SetInt64(1)
	require.Equal(t, big.NewInt(100_000_000), q.AmountIn, "the row and the chain side's copy share no number")

	raw, err = json.Marshal(rfqSigning(dom, &q, sig, f))
	require.NoError(t, err)
	require.Equal(t, []string{"type", "funding", "relay", "typed_data", "call"}, orderedKeys(t, raw, ""))
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
	require.Equal(t, row.ExecutionID, r.Funding["executionId"])
	require.Equal(t, row.QuoteHash, r.Funding["quoteHash"])
	require.Equal(t, escrow.Hex(), r.Call.To)
	require.Equal(t, "escrowQuoteWithPermit2", r.Call.ABI["name"])
	require.Len(t, r.Call.Args, 3)
}

// orderedKeys lists the keys of the JSON object at field of raw ("" for
// raw itself) in the order they were written.
func orderedKeys(t *testing.T, raw []byte, field string) []string {
	t.Helper()
	if field != "" {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(raw, &m))
		raw = m[field]
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok)
	var out []string
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		out = append(out, k.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return out
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestOrderIDDerivesFromQuoteID(t *testing.T) {
	var g ids.Generator
	q := g.New("q_", time.Now(), 9)
	id, ok := OrderID(q)
	require.True(t, ok)
	again, _ := OrderID(q)
	require.Equal(t, id, again, "every accept of a quote reaches one order")
	require.True(t, strings.HasPrefix(id, "ord_"))
	require.NotEqual(t, q[2:], id[4:], "an order id is fresh, not its quote's suffix")
	require.Equal(t, 9, ids.PartitionOf(id))
	for _, bad := range []string{"q_01ABC", "q_", "x_01ABC", "q_01/../x", "q_1", "ord_" + q[2:]} {
		_, ok := OrderID(bad)
		require.False(t, ok, bad)
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
	p := poolsOf(map[common.Address]amm.Reserves{pool: r})
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
	v := q.view()
	require.Equal(t, "100", v.AmountIn)
	require.Equal(t, "92.123456", v.AmountOut)
	require.Equal(t, "0.92123456", v.Rate)
	require.True(t, v.Firm)
	require.Equal(t, "maker1", *v.Provider)
	q.Route, q.Provider = domain.RouteAMM, ""
	b, err := json.Marshal(q.view())
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
	readAt := func(at time.Time) learned { return learned{synced: true, syncedAt: at} }
	asked := func(at time.Time) learned {
		return learned{synced: true, syncedAt: at, settleBy: settleBy, settleAsked: true}
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
		{"rfq accepted in time, escrow just read", tracked{o: row(domain.RouteRFQ, domain.OrderAccepted), learned: readAt(before)}, before, jobNone},
		{"rfq accepted in time, escrow read escrowPoll ago: a dropped funding log?",
			tracked{o: row(domain.RouteRFQ, domain.OrderAccepted), learned: readAt(before.Add(-escrowPoll))}, before, jobSyncEscrow},
		{"rfq accepted late", tracked{o: row(domain.RouteRFQ, domain.OrderAccepted), learned: readAt(late)}, late, jobSyncEscrow},
		{"rfq pending in time, escrow just read", tracked{o: row(domain.RouteRFQ, domain.OrderAwaitingFunding), learned: readAt(before)}, before, jobNone},
		{"rfq pending, escrow read escrowPoll ago",
			tracked{o: row(domain.RouteRFQ, domain.OrderAwaitingFunding), learned: readAt(before.Add(-escrowPoll))}, before, jobSyncEscrow},
		{"rfq pending late", tracked{o: row(domain.RouteRFQ, domain.OrderAwaitingFunding), learned: readAt(late)}, late, jobSyncEscrow},
		{"rfq funded, window unknown", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), learned: readAt(before)}, before, jobSyncEscrow},
		{"rfq funded", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), learned: learned{synced: true, syncedAt: settleBy, settleBy: settleBy}},
			settleBy, jobAskSettle},
		{"rfq funded, maker asked, escrow just read", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), learned: asked(settleBy)},
			settleBy.Add(refundGrace), jobNone},
		{"rfq funded, maker asked, escrow read escrowPoll ago: a dropped settle log?",
			tracked{o: row(domain.RouteRFQ, domain.OrderFunded), learned: asked(settleBy.Add(-escrowPoll))}, settleBy, jobSyncEscrow},
		{"rfq funded, window closed", tracked{o: row(domain.RouteRFQ, domain.OrderFunded), learned: asked(settleBy.Add(refundGrace))},
			settleBy.Add(refundGrace + time.Second), jobRefund},
		{"rfq funded, never asked, restarted past the window: refund, not a settle that reverts",
			tracked{o: row(domain.RouteRFQ, domain.OrderFunded), learned: learned{synced: true, syncedAt: settleBy.Add(refundGrace), settleBy: settleBy}},
			settleBy.Add(refundGrace + time.Second), jobRefund},
		{"rfq settling", tracked{o: row(domain.RouteRFQ, domain.OrderSettling), learned: readAt(time.Time{})}, late, jobNone},
	} {
		require.Equal(t, tc.want, nextJob(&tc.tr, tc.now), tc.name)
	}
}

var discard = slog.New(slog.DiscardHandler)

// TestTrackerFollowsRows: live rows are indexed by what their logs carry
// (amm order hash, rfq execution id); an older row never replaces a newer
// one; a terminal row leaves every index.
func TestTrackerFollowsRows(t *testing.T) {
	d := &Desk{cfg: Config{Logger: discard}}
	tk := newTracker(d)
	terms := &domain.GaslessTerms{Signer: signer.Hex(), TokenIn: usdc.Hex(), TokenOut: eurc.Hex(), AmountIn: big.NewInt(1),
		MinAmountOut: big.NewInt(1), Recipient: signer.Hex(), Pool: common.HexToAddress("0x77").Hex(), Deadline: big.NewInt(1_800_000_000),
		Nonce: big.NewInt(7)}
	hash := gasless.OrderHash(terms)
	t0 := time.Unix(1_800_000_000, 0)
	row := func(state string, at time.Time) *domain.Order {
		return &domain.Order{ID: "ord_1", Route: domain.RouteAMM, State: state, Gasless: terms, UpdatedAt: at}
	}
	tk.update(row(domain.OrderAwaitingFunding, t0.Add(time.Second)))
	got, ok := tk.jobs.Find(hash)
	require.True(t, ok)
	require.Equal(t, domain.OrderAwaitingFunding, got.o.State)
	require.Equal(t, hash, got.orderHash)
	require.Same(t, terms, got.o.Gasless, "the leg reads the row's terms")
	tk.update(row(domain.OrderAccepted, t0)) // the start-up scan, late
	got, _ = tk.jobs.Find(hash)
	require.Equal(t, domain.OrderAwaitingFunding, got.o.State)
	tk.update(row(domain.OrderSettled, t0.Add(2*time.Second)))
	_, ok = tk.jobs.Find(hash)
	require.False(t, ok)
	require.Zero(t, tk.jobs.Len())
}

// TestTrackerRefusesRowsWithoutTerms: a row without its route's chain
// terms (Decide never writes one) is logged and not driven, and the terms
// of the other route do not stand in for them.
func TestTrackerRefusesRowsWithoutTerms(t *testing.T) {
	var logs logsink.Buffer
	tk := newTracker(&Desk{cfg: Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))}})
	o, _ := rfqOrder(t, domain.OrderAccepted, time.Unix(1_800_000_000, 0))
	amm := *o
	amm.ID, amm.Route = "ord_2", domain.RouteAMM // rfq terms on an amm row
	bare := *o
	bare.ID, bare.RFQ = "ord_3", nil
	tk.update(&amm)
	tk.update(&bare)
	require.Zero(t, tk.jobs.Len())
	require.Equal(t, 2, strings.Count(logs.String(), "has no chain terms"))
	tk.update(o)
	require.Equal(t, 1, tk.jobs.Len())
}

// rfqOrder is a live rfq order row with real terms (a maker-signed
// quote), and the terms as the chain side reads them.
func rfqOrder(t *testing.T, state string, at time.Time) (*domain.Order, *rfqTerms) {
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	q := rfq.Quote{Maker: crypto.PubkeyToAddress(key.PublicKey), Taker: signer, TokenIn: usdc, TokenOut: eurc,
		AmountIn: big.NewInt(100_000_000), AmountOut: big.NewInt(92_000_000), Expiry: big.NewInt(1_800_000_100), Salt: big.NewInt(1)}
	qh := rfq.QuoteHash(&q)
	row := rfqRow(&q, rfq.ExecutionID(qh, signer, big.NewInt(2)), qh)
	return &domain.Order{ID: "ord_1", Route: domain.RouteRFQ, State: state, RFQ: row, UpdatedAt: at, Deadline: time.Unix(1_800_000_000, 0)},
		rfqTermsOf(row)
}

// TestFundingStatus is submit's reading of an rfq funding tx: only a mined
// tx with the order's own QuoteEscrowed log, from the escrow, matching the
// quote field by field, is verified.
func TestFundingStatus(t *testing.T) {
	d := &Desk{ch: &connect.Chain{Contracts: &fxbind.Addresses{RfqEscrow: escrow}}}
	_, terms := rfqOrder(t, domain.OrderAccepted, time.Unix(1_800_000_000, 0))
	q := terms.Quote
	escrowed := func(mod func(l *types.Log, amountOut *big.Int)) *types.Log {
		amountOut := new(big.Int).Set(q.AmountOut)
		l := &types.Log{Address: escrow, TxHash: common.HexToHash("0xf1"),
			Topics: []common.Hash{topicEscrowed, terms.ExecutionID, terms.QuoteHash, common.BytesToHash(q.Taker.Bytes())}}
		if mod != nil {
			mod(l, amountOut)
		}
		data, err := escrowABI.Events["QuoteEscrowed"].Inputs.NonIndexed().Pack(q.Maker, q.TokenIn, q.AmountIn, q.TokenOut, amountOut, big.NewInt(1_800_000_060))
		require.NoError(t, err)
		l.Data = data
		return l
	}
	other := common.HexToHash("0xabc")
	transfer := &types.Log{Address: usdc, Topics: []common.Hash{common.HexToHash("0xddf2"), common.BytesToHash(signer.Bytes())}}
	for _, tc := range []struct {
		name string
		st   verify.Status
		logs []*types.Log
		want string
	}{
		{"not mined", verify.Pending, nil, domain.RFQTxPending},
		{"mined with the order's log", verify.Mined, []*types.Log{transfer, escrowed(nil)}, domain.RFQTxVerified},
		{"reverted: its logs are void", verify.Reverted, []*types.Log{escrowed(nil)}, domain.RFQTxNotVerified},
		{"mined without it", verify.Mined, []*types.Log{transfer}, domain.RFQTxNotVerified},
		{"another execution's", verify.Mined, []*types.Log{escrowed(func(l *types.Log, _ *big.Int) { l.Topics[1] = other })}, domain.RFQTxNotVerified},
		{"another emitter's", verify.Mined, []*types.Log{escrowed(func(l *types.Log, _ *big.Int) { l.Address = router })}, domain.RFQTxNotVerified},
		{"another quote hash", verify.Mined, []*types.Log{escrowed(func(l *types.Log, _ *big.Int) { l.Topics[2] = other })}, domain.RFQTxNotVerified},
		{"another taker", verify.Mined, []*types.Log{escrowed(func(l *types.Log, _ *big.Int) { l.Topics[3] = other })}, domain.RFQTxNotVerified},
		{"less out than quoted", verify.Mined, []*types.Log{escrowed(func(_ *types.Log, out *big.Int) { out.Sub(out, big.NewInt(1)) })}, domain.RFQTxNotVerified},
		{"a retracted log", verify.Mined, []*types.Log{escrowed(func(l *types.Log, _ *big.Int) { l.Removed = true })}, domain.RFQTxNotVerified},
	} {
		var rcpt *types.Receipt
		if tc.st != verify.Pending {
			rcpt = &types.Receipt{Logs: tc.logs}
		}
		require.Equal(t, tc.want, d.fundingStatus(rcpt, tc.st, terms), tc.name)
	}
}

// TestLearnedOutlivesRows: what jobs learned survives a newer row, and a
// job may clear it (refund clears settleBy to have the escrow read again).
func TestLearnedOutlivesRows(t *testing.T) {
	tk := newTracker(&Desk{cfg: Config{Logger: discard}})
	t0 := time.Unix(1_800_000_000, 0)
	o, _ := rfqOrder(t, domain.OrderFunded, t0)
	tk.update(o)
	learn := func(f func(*tracked)) {
		require.True(t, tk.jobs.Submit(o.ID, func(_ context.Context, tr *tracked) error { f(tr); return nil }))
		tk.jobs.Wait()
	}
	settleBy := t0.Add(time.Minute)
	learn(func(tr *tracked) { tr.synced, tr.syncedAt, tr.settleBy, tr.settleAsked = true, t0, settleBy, true })
	newer := *o
	newer.UpdatedAt = t0.Add(time.Second)
	tk.update(&newer)
	got, ok := tk.jobs.Get(o.ID)
	require.True(t, ok)
	require.Same(t, &newer, got.o)
	require.Equal(t, learned{synced: true, syncedAt: t0, settleBy: settleBy, settleAsked: true}, got.learned)
	learn(func(tr *tracked) { tr.settleBy = time.Time{} })
	got, _ = tk.jobs.Get(o.ID)
	require.Zero(t, got.settleBy)
	require.Equal(t, jobSyncEscrow, nextJob(&got, settleBy.Add(refundGrace+time.Second)), "read the escrow, not refund again")
}

// TestOnLogIsBounded: a watcher log runs as a job of its order, in the
// driver's slots; when the order is busy the log is dropped (the order's
// jobs find the fact on chain), and no goroutine is started for it.
func TestOnLogIsBounded(t *testing.T) {
	var logs logsink.Buffer
	d := &Desk{cfg: Config{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}, book: newBook()}
	d.track = newTracker(d)
	o, terms := rfqOrder(t, domain.OrderAwaitingFunding, time.Unix(1_800_000_000, 0))
	d.track.update(o)
	gate := make(chan struct{})
	require.True(t, d.track.jobs.Submit(o.ID, func(context.Context, *tracked) error { <-gate; return nil }))

	escrowed := watch.Log{Log: types.Log{Address: escrow, TxHash: common.HexToHash("0xf1"),
		Topics: []common.Hash{topicEscrowed, terms.ExecutionID, terms.QuoteHash, common.BytesToHash(signer.Bytes())}}}
	d.OnLog(escrowed)
	require.Equal(t, Stats{LiveOrders: 1, RunningJobs: 1}, d.Stats(), "the log started nothing")
	require.Equal(t, 1, strings.Count(logs.String(), "chain log dropped"))
	d.OnLog(watch.Log{Log: types.Log{Address: router, Topics: []common.Hash{topicExecuted, terms.ExecutionID}}})
	require.Equal(t, 1, strings.Count(logs.String(), "chain log dropped"), "an amm topic does not reach an rfq order")
	close(gate)
	d.track.jobs.Wait()
	require.Equal(t, 0, d.Stats().RunningJobs)
}

// TestIssuesBothRoutes: the accept answer's issues on a real EVM, for an
// amm order (its gasless leg) and an rfq funding (the same check, the same
// rendering): the signer's allowance for Permit2 and balance of the input
// token against the amount, each null once it suffices.
func TestIssuesBothRoutes(t *testing.T) {
	deployer, user := simtest.Key(t, 0xd0), simtest.Key(t, 0x11)
	c := simtest.New(t, deployer, user)
	addrs, contracts := c.Deploy(deployer, fxbind.DeployConfig{})
	leg := &gasless.Leg{Domain: eip712.Domain{ChainID: simtest.ChainID, Permit2: addrs.Permit2}, Router: addrs.RelayRouter,
		Chain: c.Client, Logger: discard}
	d := &Desk{cfg: Config{Leg: leg}, ch: &connect.Chain{Contracts: addrs}, chain: c.Client}
	taker := simtest.Addr(user).Hex()
	amount := fxbind.Units(100)
	g := &domain.GaslessTerms{Signer: taker, TokenIn: addrs.USDC.Hex(), TokenOut: addrs.EURC.Hex(), AmountIn: amount,
		MinAmountOut: big.NewInt(1), Recipient: taker, Pool: addrs.Pools["USDC/EURC"].Hex(), Deadline: big.NewInt(1_800_000_000),
		Nonce: big.NewInt(1)}
	r := &domain.RFQTerms{Maker: signer.Hex(), Taker: taker, TokenIn: addrs.USDC.Hex(), TokenOut: addrs.EURC.Hex(), AmountIn: amount,
		AmountOut: fxbind.Units(92), Expiry: big.NewInt(1_800_000_100), Salt: big.NewInt(1),
		ExecutionID: common.Hash{1}.Hex(), QuoteHash: common.Hash{2}.Hex()}
	check := func(want domain.Issues, what string) {
		t.Helper()
		for route, terms := range map[string][2]any{"amm": {g, (*domain.RFQTerms)(nil)}, "rfq": {(*domain.GaslessTerms)(nil), r}} {
			got, err := d.issues(t.Context(), "USDC", terms[0].(*domain.GaslessTerms), terms[1].(*domain.RFQTerms))
			require.NoError(t, err)
			require.Equal(t, want, got, "%s: %s", route, what)
		}
	}
	usdc := contracts.Tokens[fxbind.USDC]
	check(domain.Issues{
		Allowance: &domain.AllowanceIssue{Token: addrs.USDC.Hex(), Spender: addrs.Permit2.Hex(), Actual: "0", Required: "100"},
		Balance:   &domain.BalanceIssue{Token: addrs.USDC.Hex(), Actual: "0", Required: "100"},
	}, "neither approved nor funded")
	c.Mine(usdc.Approve(c.Auth(user), addrs.Permit2, fxbind.Units(100)))
	c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(40)))
	check(domain.Issues{Balance: &domain.BalanceIssue{Token: addrs.USDC.Hex(), Actual: "40", Required: "100"}}, "approved exactly, 40 held")
	c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(60)))
	check(domain.Issues{}, "nothing short")
	got, err := d.issues(t.Context(), "USDC", nil, nil)
	require.NoError(t, err)
	require.Equal(t, domain.Issues{}, got)
}
