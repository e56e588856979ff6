package domain

import (
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// step is one expected row: its state and the fields it changes beyond
// State and UpdatedAt (EventID is checked by the runner).
type step struct {
	state string
	edit  func(*Order)
}

// orderCase is one command sent to every state of one route.
type orderCase struct {
	name string
	cmd  Command
	now  time.Time
	// from lists the states the command is allowed in, with the rows it
	// makes there; every other state is refusedCode (409 invalid_state
	// unless set).
	from        map[string][]step
	refusedCode string
}

func setTx(h string) func(*Order) { return func(o *Order) { o.TxHash = h } }

func orderCases(route string) []orderCase {
	relayOK := RelayMined{TxHash: hashOther, Success: true, AmountOut: bi("1150300000")}
	relayBad := RelayMined{TxHash: hashOther, Reason: "MinAmountOut not met"}
	expire := map[string][]step{
		OrderAccepted:        {{OrderExpired, func(o *Order) { o.FailureReason = ReasonExpired }}},
		OrderAwaitingFunding: {{OrderExpired, func(o *Order) { o.FailureReason = ReasonExpired }}},
	}
	none := map[string][]step{}
	all := []orderCase{
		{name: "create", cmd: createOrderCmd(route), now: t0, from: none},
		{name: "expire_late", cmd: ExpireOrder{}, now: tLate, from: expire},
		{name: "expire_early", cmd: ExpireOrder{}, now: tIn, from: none},
	}
	if route == RouteAMM {
		return append(all,
			orderCase{name: "amm_signature", cmd: SubmitAMMSignature{Signature: goodSig, Verified: true}, now: tIn,
				from: map[string][]step{OrderAccepted: {{OrderAwaitingFunding, func(o *Order) { o.Signature = goodSig }}}}},
			orderCase{name: "amm_signature_late", cmd: SubmitAMMSignature{Signature: goodSig, Verified: true}, now: tLate, from: none},
			orderCase{name: "relay_ok", cmd: relayOK, now: tLate, from: map[string][]step{OrderAwaitingFunding: {
				{OrderFunded, setTx(hashOther)}, {OrderSettling, nil},
				{OrderSettled, func(o *Order) { o.AmountOut = bi("1150300000") }},
			}}},
			orderCase{name: "relay_revert", cmd: relayBad, now: tIn, from: map[string][]step{OrderAwaitingFunding: {
				{OrderFailed, func(o *Order) { o.TxHash, o.FailureReason = hashOther, "MinAmountOut not met" }},
			}}},
			orderCase{name: "rfq_submit", cmd: SubmitRFQTx{TxHash: hashFund, Status: RFQTxVerified}, now: tIn, from: none, refusedCode: CodeInvalidRequest},
			orderCase{name: "funding_verified", cmd: FundingVerified{TxHash: hashFund}, now: tIn, from: none},
			orderCase{name: "maker_settled", cmd: MakerSettled{TxHash: hashMaker}, now: tIn, from: none},
			orderCase{name: "maker_missed", cmd: MakerMissed{RefundTxHash: hashRefnd}, now: tIn, from: none},
		)
	}
	return append(all,
		orderCase{name: "rfq_verified", cmd: SubmitRFQTx{TxHash: hashOther, Status: RFQTxVerified}, now: tLate, from: map[string][]step{
			OrderAccepted:        {{OrderFunded, setTx(hashOther)}},
			OrderAwaitingFunding: {{OrderFunded, setTx(hashOther)}},
		}},
		orderCase{name: "rfq_pending_new_hash", cmd: SubmitRFQTx{TxHash: hashOther, Status: RFQTxPending}, now: tIn, from: map[string][]step{
			OrderAccepted:        {{OrderAwaitingFunding, setTx(hashOther)}},
			OrderAwaitingFunding: {{OrderAwaitingFunding, setTx(hashOther)}},
		}},
		orderCase{name: "rfq_pending_late", cmd: SubmitRFQTx{TxHash: hashOther, Status: RFQTxPending}, now: tLate, from: none},
		orderCase{name: "funding_verified", cmd: FundingVerified{TxHash: hashFund}, now: tLate, from: map[string][]step{
			OrderAccepted:        {{OrderFunded, setTx(hashFund)}},
			OrderAwaitingFunding: {{OrderFunded, setTx(hashFund)}},
		}},
		orderCase{name: "maker_settled", cmd: MakerSettled{TxHash: hashMaker}, now: tLate, from: map[string][]step{
			OrderFunded: {{OrderSettling, func(o *Order) { o.SettleTxHash = hashMaker }}, {OrderSettled, nil}},
		}},
		orderCase{name: "maker_missed", cmd: MakerMissed{RefundTxHash: hashRefnd}, now: tLate, from: map[string][]step{
			OrderFunded: {{OrderRefunded, func(o *Order) { o.RefundTxHash, o.FailureReason = hashRefnd, ReasonMakerMissed }}},
		}},
		orderCase{name: "amm_signature", cmd: SubmitAMMSignature{Signature: goodSig, Verified: true}, now: tIn, from: none, refusedCode: CodeInvalidRequest},
		orderCase{name: "relay_ok", cmd: relayOK, now: tIn, from: none},
		orderCase{name: "relay_revert", cmd: relayBad, now: tIn, from: none},
	)
}

// TestOrderDecideTable sends every command to every state of both routes.
func TestOrderDecideTable(t *testing.T) {
	for _, route := range []string{RouteAMM, RouteRFQ} {
		for _, tc := range orderCases(route) {
			for _, state := range OrderStates[1:] { // quoted is the quote, never a row
				t.Run(fmt.Sprintf("%s/%s/%s", route, tc.name, state), func(t *testing.T) {
					s := orderAt(route, state)
					before := MarshalOrder(nil, s.Order)
					prevPtr := s.Order
					ids := 0
					env := Env{Now: tc.now, NewID: func(p string) string {
						require.Equal(t, "evt_", p)
						ids++
						return fmt.Sprintf("evt_%06d", ids)
					}}
					rows, rep, err := s.Decide(tc.cmd, env)
					// Decide never mutates.
					require.Same(t, prevPtr, s.Order)
					require.Equal(t, before, MarshalOrder(nil, s.Order))

					steps, ok := tc.from[state]
					if !ok {
						code := tc.refusedCode
						if code == "" {
							code = CodeInvalidState
						}
						require.NotNil(t, err)
						require.Equal(t, code, err.Code, err.Message)
						require.Equal(t, map[string]int{CodeInvalidState: 409, CodeInvalidRequest: 400}[code], err.Status)
						require.Empty(t, rows)
						require.Equal(t, Reply{}, rep)
						require.Zero(t, ids)
						return
					}
					require.Nil(t, err)
					require.Len(t, rows, len(steps))
					want := *s.Order
					for i, st := range steps {
						want.State, want.UpdatedAt = st.state, tc.now
						if st.edit != nil {
							st.edit(&want)
						}
						if orderHasEvent(st.state) {
							want.EventID = "evt_000001"
						}
						w := want
						require.Equal(t, &w, rows[i], "row %d", i)
					}
					wantIDs := 0
					if orderHasEvent(steps[len(steps)-1].state) {
						wantIDs = 1
					}
					require.Equal(t, wantIDs, ids, "NewID calls")
					require.Equal(t, 200, rep.Status)
					require.JSONEq(t, string(jsonReply(200, ViewOrder(rows[len(rows)-1])).Body), string(rep.Body))
					// The rows apply, and only onto a clone.
					c := s.Clone().(*OrderState)
					c.ApplyAll(rows)
					require.Equal(t, rows[len(rows)-1], c.Order)
					require.Same(t, prevPtr, s.Order)
				})
			}
		}
	}
}

func TestOrderTerminalAcceptsNothing(t *testing.T) {
	for _, route := range []string{RouteAMM, RouteRFQ} {
		for _, state := range []string{OrderSettled, OrderFailed, OrderExpired, OrderRefunded} {
			require.True(t, OrderTerminal(state))
			for _, tc := range orderCases(route) {
				_, ok := tc.from[state]
				require.False(t, ok, "%s %s accepts %s", route, state, tc.name)
			}
		}
	}
	for _, st := range []string{OrderQuoted, OrderAccepted, OrderAwaitingFunding, OrderFunded, OrderSettling} {
		require.False(t, OrderTerminal(st))
	}
}

// run drives a fresh entity through cmds at the given times and returns
// every row and the entity.
func runOrder(t *testing.T, c *clock, cmds []Command, at []time.Time) ([]*Order, *OrderState) {
	t.Helper()
	s := NewOrderState()
	var all []*Order
	for i, cmd := range cmds {
		c.now = at[i]
		rows, _, err := s.Decide(cmd, c.env())
		require.Nil(t, err, "command %d %T", i, cmd)
		s.ApplyAll(rows)
		all = append(all, rows...)
	}
	return all, s
}

func states(rows []*Order) []string {
	out := make([]string, len(rows))
	for i, o := range rows {
		out[i] = o.State
	}
	return out
}

func TestOrderAMMHappyPath(t *testing.T) {
	c := newClock()
	rows, s := runOrder(t, c, []Command{
		createOrderCmd(RouteAMM),
		SubmitAMMSignature{Signature: goodSig, Verified: true},
		RelayMined{TxHash: "0x" + "AB" + hashOther[4:], Success: true, AmountOut: bi("1150260000")},
	}, []time.Time{t0, tIn, tIn.Add(4 * time.Second)})
	require.Equal(t, []string{OrderAccepted, OrderAwaitingFunding, OrderFunded, OrderSettling, OrderSettled}, states(rows))
	want := acceptedRow(RouteAMM)
	want.State, want.TxHash, want.AmountOut, want.EventID = OrderSettled, "0xab"+hashOther[4:], bi("1150260000"), "evt_000001"
	want.Signature = goodSig
	want.UpdatedAt = tIn.Add(4 * time.Second)
	require.Equal(t, want, s.Order)
	require.Equal(t, rows[len(rows)-1], s.Order)
	require.Equal(t, `{"order_id":"ord_000001","route":"amm","state":"settled",`+
		`"signing":{"type":"permit2_witness","order":{"amountIn":"1250500000"}},"quote_id":"q_000001",`+
		`"from_currency":"USDC","to_currency":"EURC","amount_in":"1250.5","amount_out":"1150.26","min_amount_out":"1144.49875",`+
		`"tx_hash":"0xab22222222222222222222222222222222222222222222222222222222222222","failure_reason":null,`+
		`"created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:34Z"}`, string(s.View().Body))
}

func TestOrderRFQHappyPaths(t *testing.T) {
	// Submitted already mined and verified.
	c := newClock()
	rows, s := runOrder(t, c, []Command{
		createOrderCmd(RouteRFQ),
		SubmitRFQTx{TxHash: hashFund, Status: RFQTxVerified},
		MakerSettled{TxHash: hashMaker},
	}, []time.Time{t0, tIn, tIn.Add(5 * time.Second)})
	require.Equal(t, []string{OrderAccepted, OrderFunded, OrderSettling, OrderSettled}, states(rows))
	want := acceptedRow(RouteRFQ)
	want.State, want.TxHash, want.SettleTxHash, want.EventID = OrderSettled, hashFund, hashMaker, "evt_000001"
	want.UpdatedAt = tIn.Add(5 * time.Second)
	require.Equal(t, want, s.Order)
	v := ViewLedger(ptrLedger(s.Order))
	require.Equal(t, LedgerEntryView{ID: ordID, Type: LedgerFXRFQ, State: OrderSettled, FromCurrency: "USDC", ToCurrency: "EURC",
		AmountIn: "1250.5", AmountOut: ptr("1150.25"), TxHash: ptr(hashFund), ReferenceID: ordID, CreatedAt: t0RFC}, v)

	// Submitted pending, then the watcher verifies it.
	c = newClock()
	rows, s = runOrder(t, c, []Command{
		createOrderCmd(RouteRFQ),
		SubmitRFQTx{TxHash: hashFund, Status: RFQTxPending},
		SubmitRFQTx{TxHash: hashFund, Status: RFQTxPending}, // same again: no row
		FundingVerified{TxHash: hashFund},
		MakerSettled{TxHash: hashMaker},
	}, []time.Time{t0, tIn, tIn, tLate, tLate})
	require.Equal(t, []string{OrderAccepted, OrderAwaitingFunding, OrderFunded, OrderSettling, OrderSettled}, states(rows))
	require.Equal(t, "evt_000001", s.Order.EventID)
}

func TestOrderFailurePaths(t *testing.T) {
	t.Run("amm revert", func(t *testing.T) {
		rows, s := runOrder(t, newClock(), []Command{
			createOrderCmd(RouteAMM), SubmitAMMSignature{Signature: goodSig, Verified: true}, RelayMined{TxHash: hashOther},
		}, []time.Time{t0, tIn, tIn})
		require.Equal(t, []string{OrderAccepted, OrderAwaitingFunding, OrderFailed}, states(rows))
		require.Equal(t, ReasonRelayReverted, s.Order.FailureReason)
		require.Equal(t, "evt_000001", s.Order.EventID)
		v := ViewOrder(s.Order)
		require.Equal(t, ReasonRelayReverted, *v.FailureReason)
		require.Equal(t, hashOther, *v.TxHash)
	})
	for _, route := range []string{RouteAMM, RouteRFQ} {
		t.Run(route+" expiry", func(t *testing.T) {
			rows, s := runOrder(t, newClock(), []Command{createOrderCmd(route), ExpireOrder{}}, []time.Time{t0, tLate})
			require.Equal(t, []string{OrderAccepted, OrderExpired}, states(rows))
			require.Empty(t, s.Order.EventID, "expired fires no webhook event")
			require.Nil(t, ViewOrder(s.Order).TxHash)
		})
	}
	t.Run("amm expiry while awaiting relay", func(t *testing.T) {
		rows, _ := runOrder(t, newClock(), []Command{createOrderCmd(RouteAMM), SubmitAMMSignature{Signature: goodSig, Verified: true}, ExpireOrder{}},
			[]time.Time{t0, ordDeadline, tLate})
		require.Equal(t, OrderExpired, rows[len(rows)-1].State)
	})
	t.Run("deadline boundary", func(t *testing.T) {
		s := orderAt(RouteAMM, OrderAccepted)
		_, _, err := s.Decide(ExpireOrder{}, Env{Now: ordDeadline})
		require.Equal(t, CodeInvalidState, err.Code, "at the deadline the order is still live")
		rows, _, err := s.Decide(SubmitAMMSignature{Signature: goodSig, Verified: true}, Env{Now: ordDeadline})
		require.Nil(t, err)
		require.Len(t, rows, 1)
	})
	t.Run("rfq refund", func(t *testing.T) {
		rows, s := runOrder(t, newClock(), []Command{
			createOrderCmd(RouteRFQ), SubmitRFQTx{TxHash: hashFund, Status: RFQTxVerified}, MakerMissed{RefundTxHash: hashRefnd},
		}, []time.Time{t0, tIn, tIn.Add(61 * time.Second)})
		require.Equal(t, []string{OrderAccepted, OrderFunded, OrderRefunded}, states(rows))
		require.Equal(t, hashRefnd, s.Order.RefundTxHash)
		require.Equal(t, hashFund, s.Order.TxHash)
		require.Equal(t, "evt_000001", s.Order.EventID)
		require.Equal(t, ReasonMakerMissed, *ViewOrder(s.Order).FailureReason)
	})
}

func TestOrderNotFoundAndCreateValidation(t *testing.T) {
	_, _, err := NewOrderState().Decide(ExpireOrder{}, Env{Now: tLate})
	require.Equal(t, CodeNotFound, err.Code)
	require.Equal(t, 404, NewOrderState().View().Status)

	mut := map[string]func(*CreateOrder){
		"id":                      func(c *CreateOrder) { c.ID = "q_1" },
		"bare prefix":             func(c *CreateOrder) { c.ID = "ord_" },
		"account":                 func(c *CreateOrder) { c.Account = "" },
		"quote":                   func(c *CreateOrder) { c.QuoteID = "" },
		"route":                   func(c *CreateOrder) { c.Route = "otc" },
		"from":                    func(c *CreateOrder) { c.FromCurrency = "usdc" },
		"to":                      func(c *CreateOrder) { c.ToCurrency = "BTC" },
		"same":                    func(c *CreateOrder) { c.ToCurrency = "USDC" },
		"nil in":                  func(c *CreateOrder) { c.AmountIn = nil },
		"zero out":                func(c *CreateOrder) { c.AmountOut = big.NewInt(0) },
		"negative min":            func(c *CreateOrder) { c.MinAmountOut = big.NewInt(-1) },
		"min above out":           func(c *CreateOrder) { c.MinAmountOut = bi("1150250001") },
		"huge":                    func(c *CreateOrder) { c.AmountIn = new(big.Int).Lsh(big.NewInt(1), 300) },
		"signer":                  func(c *CreateOrder) { c.Signer = "0x1234" },
		"deadline":                func(c *CreateOrder) { c.Deadline = t0 },
		"no accept time":          func(c *CreateOrder) { c.AcceptedAt = time.Time{} },
		"accepted later":          func(c *CreateOrder) { c.AcceptedAt = t0.Add(time.Second) },
		"quoted after the accept": func(c *CreateOrder) { c.QuotedAt = c.AcceptedAt.Add(time.Millisecond) },
		"signing empty":           func(c *CreateOrder) { c.Signing = nil },
		"signing bad":             func(c *CreateOrder) { c.Signing = []byte(`{"a":`) },
		"signing array":           func(c *CreateOrder) { c.Signing = []byte(`[1]`) },
	}
	for name, m := range mut {
		t.Run(name, func(t *testing.T) {
			cmd := createOrderCmd(RouteAMM)
			m(&cmd)
			rows, _, err := NewOrderState().Decide(cmd, fixedEnv(t, t0))
			require.NotNil(t, err)
			require.Contains(t, []string{CodeInvalidRequest, CodeUnsupportedAsset}, err.Code)
			require.Equal(t, 400, err.Status)
			require.Empty(t, rows)
		})
	}
	// The command's big.Ints and bytes are copied, not shared.
	cmd := createOrderCmd(RouteAMM)
	rows, rep, err := NewOrderState().Decide(cmd, fixedEnv(t, t0))
	require.Nil(t, err)
	require.Equal(t, 200, rep.Status)
	cmd.AmountIn.SetInt64(1)
	cmd.Signing[0] = 'X'
	require.Equal(t, acceptedRow(RouteAMM), rows[0])

	// Without a quote time, created_at is the accept's reading, not the
	// decision's.
	cmd = createOrderCmd(RouteAMM)
	cmd.AcceptedAt = t0.Add(-3 * time.Second)
	rows, _, err = NewOrderState().Decide(cmd, fixedEnv(t, t0))
	require.Nil(t, err)
	require.Equal(t, cmd.AcceptedAt, rows[0].CreatedAt)
	require.Equal(t, t0, rows[0].UpdatedAt)
	// With one, created_at is the quote's: the order is born quoted
	// (SPEC.md), at the instant its id carries, so lists sorted by id are
	// sorted by created_at; the deadline stays the accept's + 120 s.
	cmd = createOrderCmd(RouteAMM)
	cmd.QuotedAt = t0.Add(-20 * time.Second)
	rows, _, err = NewOrderState().Decide(cmd, fixedEnv(t, t0))
	require.Nil(t, err)
	require.Equal(t, cmd.QuotedAt, rows[0].CreatedAt)
	require.Equal(t, cmd.Deadline, rows[0].Deadline)
}

func TestOrderCommandValidation(t *testing.T) {
	cases := []struct {
		route, state string
		cmd          Command
	}{
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: " ", Verified: true}},
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: "hello"}},
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: "0x00"}},
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: "0x" + strings.Repeat("zz", 65)}},
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: strings.Repeat("ab", 65)}},        // no 0x
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: "0x" + strings.Repeat("ab", 66)}}, // 66 bytes
		{RouteAMM, OrderAccepted, SubmitAMMSignature{Signature: goodSig + " "}},
		{RouteAMM, OrderAwaitingFunding, RelayMined{TxHash: "0x12", Success: true, AmountOut: bi("1150250000")}},
		{RouteAMM, OrderAwaitingFunding, RelayMined{TxHash: hashOther, Success: true}},
		{RouteAMM, OrderAwaitingFunding, RelayMined{TxHash: hashOther, Success: true, AmountOut: bi("1144498749")}},
		{RouteAMM, OrderAwaitingFunding, RelayMined{TxHash: hashOther, Reason: "bad\x00reason"}},
		{RouteRFQ, OrderAccepted, SubmitRFQTx{TxHash: hashFund, Status: "mined"}},
		{RouteRFQ, OrderAccepted, SubmitRFQTx{TxHash: "0x" + hashFund[3:] + "g", Status: RFQTxPending}},
		{RouteRFQ, OrderAwaitingFunding, FundingVerified{TxHash: ""}},
		{RouteRFQ, OrderFunded, MakerSettled{TxHash: hashMaker + "0"}},
		{RouteRFQ, OrderFunded, MakerMissed{RefundTxHash: "1x" + hashRefnd[2:]}},
	}
	for i, tc := range cases {
		s := orderAt(tc.route, tc.state)
		rows, _, err := s.Decide(tc.cmd, fixedEnv(t, tIn))
		require.NotNil(t, err, "case %d", i)
		require.Equal(t, CodeInvalidRequest, err.Code, "case %d: %s", i, err.Message)
		require.Empty(t, rows)
	}
	// A signature by its form (65 bytes, or 64: EIP-2098) that does not
	// recover is invalid_signature.
	for _, sig := range []string{goodSig, "0x" + strings.Repeat("AB", 64)} {
		_, _, err := orderAt(RouteAMM, OrderAccepted).Decide(SubmitAMMSignature{Signature: sig}, fixedEnv(t, tIn))
		require.NotNil(t, err)
		require.Equal(t, CodeInvalidSignature, err.Code, sig)
	}
	// A repeated pending submit of the same tx is answered without a row.
	s := orderAt(RouteRFQ, OrderAwaitingFunding)
	rows, rep, err := s.Decide(SubmitRFQTx{TxHash: hashFund, Status: RFQTxPending}, fixedEnv(t, tIn))
	require.Nil(t, err)
	require.Empty(t, rows)
	require.Equal(t, s.View(), rep)
}

// TestOrderReplayDeterministic: the same commands at the same times give the
// same rows, and applying the logged rows (decoded) rebuilds the same state.
func TestOrderReplayDeterministic(t *testing.T) {
	cmds := []Command{createOrderCmd(RouteRFQ), SubmitRFQTx{TxHash: hashFund, Status: RFQTxPending},
		FundingVerified{TxHash: hashFund}, MakerSettled{TxHash: hashMaker}}
	at := []time.Time{t0, tIn, tIn.Add(time.Second), tIn.Add(2 * time.Second)}
	rows1, s1 := runOrder(t, newClock(), cmds, at)
	rows2, s2 := runOrder(t, newClock(), cmds, at)
	require.Equal(t, rows1, rows2)
	require.Equal(t, s1, s2)

	replay := NewOrderState()
	for _, o := range rows1 {
		dec, err := UnmarshalOrder(MarshalOrder(nil, o))
		require.NoError(t, err)
		replay.applyRow(dec)
	}
	require.Equal(t, s1, replay)
	require.Equal(t, s1.View(), replay.View())
	// The event id is in the row: replay never asks for a new one.
	require.Equal(t, "evt_000001", replay.Order.EventID)
}

func TestOrderApplyPanicsOnBrokenInvariants(t *testing.T) {
	accepted := acceptedRow(RouteAMM)
	with := func(f func(*Order)) *Order { o := *accepted; f(&o); return &o }
	cases := map[string]struct {
		s   *OrderState
		row *Order
	}{
		"nil row":                {NewOrderState(), nil},
		"no id":                  {NewOrderState(), with(func(o *Order) { o.ID = "" })},
		"no amounts":             {NewOrderState(), with(func(o *Order) { o.AmountOut = nil })},
		"create not at accepted": {NewOrderState(), with(func(o *Order) { o.State = OrderFunded })},
		"skip a state":           {orderAt(RouteAMM, OrderAccepted), with(func(o *Order) { o.State = OrderSettling })},
		"backwards":              {orderAt(RouteAMM, OrderFunded), with(func(o *Order) { o.State = OrderAccepted })},
		"out of terminal":        {orderAt(RouteRFQ, OrderExpired), with(func(o *Order) { o.State = OrderAccepted })},
		"other order":            {orderAt(RouteAMM, OrderAccepted), with(func(o *Order) { o.ID, o.State = "ord_2", OrderAwaitingFunding })},
		"route changed":          {orderAt(RouteAMM, OrderAccepted), with(func(o *Order) { o.Route, o.State = RouteRFQ, OrderAwaitingFunding })},
		"settled no event":       {orderAt(RouteAMM, OrderSettling), with(func(o *Order) { o.State = OrderSettled })},
		"event too early":        {orderAt(RouteAMM, OrderAccepted), with(func(o *Order) { o.State, o.EventID = OrderAwaitingFunding, "evt_1" })},
	}
	for name, tc := range cases {
		require.Panics(t, func() { tc.s.applyRow(tc.row) }, name)
	}
}

// TestOrderSubmitRefusals: an unverified amm signature and an rfq tx mined
// without its QuoteEscrowed log are 400s that leave the order as it is.
func TestOrderSubmitRefusals(t *testing.T) {
	for _, tc := range []struct {
		route, code string
		cmd         Command
	}{
		{RouteAMM, CodeInvalidSignature, SubmitAMMSignature{Signature: goodSig}},
		{RouteRFQ, CodeFundingNotVerified, SubmitRFQTx{TxHash: hashFund, Status: RFQTxNotVerified}},
	} {
		s := orderAt(tc.route, OrderAccepted)
		rows, _, err := s.Decide(tc.cmd, fixedEnv(t, tIn))
		require.Empty(t, rows)
		require.NotNil(t, err)
		require.Equal(t, 400, err.Status)
		require.Equal(t, tc.code, err.Code)
	}
}

// TestAcceptQuote: accepting creates the order once; accepting again
// returns it unchanged (even with a refusal attached, e.g. the quote has
// expired since); another account gets 404; a refusal without an order is
// the answer.
func TestAcceptQuote(t *testing.T) {
	create := createOrderCmd(RouteAMM)
	s := NewOrderState()
	refused := ErrQuoteExpired("q_000001")
	rows, _, err := s.Decide(AcceptQuote{Account: create.Account, Refusal: refused}, fixedEnv(t, t0))
	require.Empty(t, rows)
	require.Equal(t, refused, err)

	rows, rep, err := s.Decide(AcceptQuote{Account: create.Account, Create: create}, fixedEnv(t, t0))
	require.Nil(t, err)
	require.Len(t, rows, 1)
	s.ApplyAll(rows)

	again, rep2, err := s.Decide(AcceptQuote{Account: create.Account, Refusal: refused}, fixedEnv(t, tIn))
	require.Nil(t, err)
	require.Empty(t, again)
	require.Equal(t, rep, rep2)

	_, _, err = s.Decide(AcceptQuote{Account: "acct_other", Create: create}, fixedEnv(t, tIn))
	require.NotNil(t, err)
	require.Equal(t, CodeNotFound, err.Code)

	// A re-accept's source_wallet is checked as the first accept's was:
	// the signer in any case is the same order; another wallet of the
	// account or a malformed one is 400.
	signer := s.Order.Signer // EIP-55, as created
	for _, tc := range []struct {
		name, wallet, msg string
	}{
		{"the signer", signer, ""},
		{"the signer in lower case", strings.ToLower(signer), ""},
		{"another wallet", "0x000000000000000000000000000000000000dEaD", "source_wallet must be the quote's taker " + signer},
		{"malformed", "nothex", "source_wallet must be a 0x-prefixed 20-byte hex address"},
	} {
		again, rep3, err := s.Decide(AcceptQuote{Account: create.Account, SourceWallet: &tc.wallet}, fixedEnv(t, tIn))
		require.Empty(t, again, tc.name)
		if tc.msg == "" {
			require.Nil(t, err, tc.name)
			require.Equal(t, rep, rep3, tc.name)
			continue
		}
		require.NotNil(t, err, tc.name)
		require.Equal(t, CodeInvalidRequest, err.Code, tc.name)
		require.Equal(t, tc.msg, err.Message, tc.name)
	}
	// A wallet the desk found to be none of the account's, or an account
	// no longer permitted: 403, as at first.
	dead := "0x000000000000000000000000000000000000dEaD"
	for _, wallet := range []*string{&dead, nil} {
		again, _, err = s.Decide(AcceptQuote{Account: create.Account, SourceWallet: wallet, NotPermitted: true}, fixedEnv(t, tIn))
		require.Empty(t, again)
		require.NotNil(t, err)
		require.Equal(t, 403, err.Status)
		require.Equal(t, MsgNotPermittedSwap, err.Message)
	}
}

// TestRFQSubmitAfterWatcher: the watcher may fund the order before the
// caller submits its tx hash; the same verified hash then answers 200 with
// the order, another hash is still a conflict.
func TestRFQSubmitAfterWatcher(t *testing.T) {
	s := orderAt(RouteRFQ, OrderAccepted)
	rows, _, err := s.Decide(FundingVerified{TxHash: hashFund}, fixedEnv(t, tIn))
	require.Nil(t, err)
	s.ApplyAll(rows)
	rows, _, err = s.Decide(SubmitRFQTx{TxHash: strings.ToUpper(hashFund[2:4]) + hashFund[4:], Status: RFQTxVerified}, fixedEnv(t, tIn))
	require.NotNil(t, err, "a malformed hash is still refused")
	require.Empty(t, rows)
	rows, rep, err := s.Decide(SubmitRFQTx{TxHash: hashFund, Status: RFQTxVerified}, fixedEnv(t, tIn))
	require.Nil(t, err)
	require.Empty(t, rows)
	require.Equal(t, s.View(), rep)
	_, _, err = s.Decide(SubmitRFQTx{TxHash: hashOther, Status: RFQTxVerified}, fixedEnv(t, tIn))
	require.NotNil(t, err)
	require.Equal(t, CodeInvalidState, err.Code)
}
