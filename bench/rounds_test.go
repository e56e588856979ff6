package bench

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook/sign"
)

func TestSpread(t *testing.T) {
	for _, c := range []struct {
		name   string
		format string
		vals   []float64
		want   string
	}{
		{"no rounds", "%.2f", nil, ""},
		{"one round", "%.2f", []float64{0.58}, ""},
		{"two rounds", "%.2f", []float64{0.61, 0.52}, " (0.52–0.61)"},
		{"three rounds", "%.0f", []float64{410, 398, 430}, " (398–430)"},
		{"equal", "%.2f", []float64{1, 1}, " (1.00–1.00)"},
		{"negative", "%.0f", []float64{-5, 12}, " (-5–12)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, spread(c.format, c.vals))
		})
	}
}

func TestRateSpread(t *testing.T) {
	for _, c := range []struct {
		vals []float64
		want string
	}{
		{nil, ""},
		{[]float64{2000}, ""},
		{[]float64{2001.4, 1998.6}, " (1,999–2,001)"},
		{[]float64{10_880, 950, 3000}, " (950–10,880)"},
	} {
		require.Equal(t, c.want, rateSpread(c.vals), "%v", c.vals)
	}
}

func TestRoundWindowAndName(t *testing.T) {
	for _, c := range []struct {
		rounds int
		window time.Duration
		name   string
	}{
		{0, 10 * time.Second, "x"}, {1, 10 * time.Second, "x"}, {2, 5 * time.Second, "x#2"}, {4, 2500 * time.Millisecond, "x#2"},
	} {
		cfg := Config{Rounds: c.rounds, Duration: 10 * time.Second}
		require.Equal(t, c.window, roundWindow(cfg), "rounds %d", c.rounds)
		require.Equal(t, c.name, roundName("x", 1, phaseRounds(cfg)), "rounds %d", c.rounds)
	}
}

// openRound is a round's result as RunOpen leaves it: histograms and CPU
// behind the figures.
func openRound(lat []time.Duration, late int64, gen, server time.Duration, secs float64) *OpenResult {
	r := &OpenResult{Name: "r", OfferedRate: 100, Workers: 4, WarmupS: 1, WindowS: secs, Slots: int64(len(lat)) + 10,
		WindowSlots: int64(len(lat)), Sent: int64(len(lat)) + 10, OK: int64(len(lat)), LateSends: late,
		Status: map[string]int64{"200": int64(len(lat)) + 10}, WindowStart: time.Unix(1000, 0)}
	for _, d := range lat {
		r.lat.Record(int64(d))
		r.svc.Record(int64(d / 2))
		r.lateness.Record(int64(time.Microsecond))
	}
	r.use, r.useSecs = cpuUse{gen: gen, server: server, sys: -1}, secs
	r.Latency, r.Service, r.Lateness = r.lat.Summary(), r.svc.Summary(), r.lateness.Summary()
	r.shareCPU()
	return r
}

func TestMergeOpen(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		out := make([]time.Duration, len(v))
		for i, x := range v {
			out[i] = time.Duration(x) * time.Millisecond
		}
		return out
	}
	a := openRound(ms(1, 1, 1, 1), 1, 100*time.Millisecond, 400*time.Millisecond, 2)
	b := openRound(ms(3, 3, 3, 9), 2, 100*time.Millisecond, 200*time.Millisecond, 2)
	b.FirstProblem, b.Unexpected, b.Status["500"] = "boom", 1, 1
	for _, c := range []struct {
		name string
		rs   []*OpenResult
		want func(t *testing.T, m *OpenResult)
	}{
		{"none", nil, func(t *testing.T, m *OpenResult) { require.Nil(t, m) }},
		{"nil rounds", []*OpenResult{nil, nil}, func(t *testing.T, m *OpenResult) { require.Nil(t, m) }},
		{"one round", []*OpenResult{nil, a}, func(t *testing.T, m *OpenResult) {
			require.Equal(t, a.Latency, m.Latency)
			require.Equal(t, a.ServerCPUUs, m.ServerCPUUs)
			require.Equal(t, "merged", m.Name)
		}},
		{"two rounds", []*OpenResult{a, b}, func(t *testing.T, m *OpenResult) {
			require.EqualValues(t, 8, m.OK)
			require.EqualValues(t, 8, m.WindowSlots)
			require.EqualValues(t, 28, m.Sent)
			require.EqualValues(t, 3, m.LateSends)
			require.EqualValues(t, 1, m.Unexpected)
			require.Equal(t, map[string]int64{"200": 28, "500": 1}, m.Status)
			require.Equal(t, "boom", m.FirstProblem)
			require.Equal(t, 4.0, m.WindowS)
			require.Equal(t, 2.0, m.Rate)
			require.EqualValues(t, 8, m.Latency.Count)
			require.InDelta(t, 9.0, m.Latency.MaxMs, 0.1)
			require.InDelta(t, 1.0, m.Latency.P50Ms, 0.01) // the merged histogram, not an average of the rounds'
			require.InDelta(t, 75_000, m.ServerCPUUs, 1)   // 600 ms over 8 answers
			require.InDelta(t, 0.15, m.ServerCores, 1e-9)  // over 4 s
			require.InDelta(t, 25_000, m.GeneratorCPUUs, 1)
			require.Equal(t, -1.0, m.OtherCores)
			require.Equal(t, a.WindowStart, m.WindowStart)
		}},
		{"unknown server CPU", []*OpenResult{a, openRound(ms(1), 0, time.Millisecond, -1, 1)}, func(t *testing.T, m *OpenResult) {
			require.Zero(t, m.ServerCPUUs, "one round's server CPU unknown: the merged is unknown")
		}},
	} {
		t.Run(c.name, func(t *testing.T) { c.want(t, mergeOpen("merged", c.rs...)) })
	}
}

func TestFloorEventID(t *testing.T) {
	for _, c := range []struct {
		n     int
		round int
		i     int64
		want  string
	}{
		{20, 0, 7, "evt_floor0_000000007"},
		{20, 1, 123456789, "evt_floor1_123456789"},
		{12, 0, 12345, "evt_floor0_12345"}, // too short a sample: longer, still unique
		{0, 3, 0, "evt_floor3_0"},
	} {
		got := string(floorEventID([]byte("x"), c.n, c.round, c.i))
		require.Equal(t, "x"+c.want, got)
		if len(c.want) <= c.n || c.n == 0 {
			continue
		}
		require.Greater(t, len(c.want), c.n)
	}
	require.Len(t, floorEventID(nil, 30, 1, 42), 30)
}

// TestQuoteFloor serves the quote phase's floor in-process and drives it
// as a quote round does: POST /fx/quotes answers fxd's body with 200,
// while the read and write paths keep their answers.
func TestQuoteFloor(t *testing.T) {
	keys, pubs, err := NewFloorKeys(3)
	require.NoError(t, err)
	body := []byte(`{"quotes":[{"id":"q_1"}],"best_quote_id":"q_1"}`)
	cfg := &FloorConfig{Keys: pubs, GetBody: []byte(`{"id":"acct_x"}`), PostBody: []byte(`{"id":"ct_x"}`),
		Answers: map[string]FloorAnswer{quotesPath: {Status: 200, Body: body}}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := NewFloorServer(cfg)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Shutdown() })

	var got [][]byte
	r, err := RunOpen(OpenLoad{Name: "floor-quotes", Addr: ln.Addr().String(), Rate: 200, Warmup: 10 * time.Millisecond,
		Duration: 50 * time.Millisecond, MaxInFlight: 4, WantStatus: 200, Request: quoteRequest(NewKeySet(keys, 0)),
		OnAnswer: func(_ int64, b []byte) {}, OnAnswerAt: func(i int64, b []byte, _, _ time.Time) {
			if i == 0 {
				got = append(got, bytes.Clone(b))
			}
		}})
	require.NoError(t, err)
	require.True(t, r.Valid(), "%d OK, %d errors: %s", r.OK, r.Errors(), r.FirstProblem)
	require.Zero(t, r.Errors())
	require.Equal(t, [][]byte{body}, got)

	for _, c := range []struct {
		method, path string
		want         int
	}{{"GET", accountPath, 200}, {"POST", contactsPath, 201}} {
		l := Load{Name: c.method, Addr: ln.Addr().String(), Method: c.method, Path: c.path, WantStatus: c.want, Keys: NewKeySet(keys, 0),
			Conns: 1, Duration: 20 * time.Millisecond}
		if c.method == "POST" {
			l.Body = contactBody
		}
		res, err := RunLoad(l)
		require.NoError(t, err)
		require.True(t, res.Valid(), "%s: %d OK: %s", c.method, res.OK, res.FirstProblem)
	}
}

// TestHookFloor posts the webhook floor's signed copies to the receiver
// over TLS through RunOpen's Prepare path: every one verifies, carries
// its own event id and is as long as the delivery it copies.
func TestHookFloor(t *testing.T) {
	caPEM, leaf, err := makeReceiverCert()
	require.NoError(t, err)
	recv, err := startReceiver(leaf)
	require.NoError(t, err)
	defer recv.close()
	secret, err := sign.NewSecret()
	require.NoError(t, err)
	recv.secret.Store(&secret)
	_, err = newHookFloor(recv, caPEM, secret)
	require.Error(t, err, "no delivery to copy yet")

	// One delivery as fxd makes it: the sample the floor copies.
	id := "evt_06H12V6XR80009VPVS7KRDQK9H"
	sample, _ := json.Marshal(map[string]any{"id": id, "type": domain.EventWebhookTest, "created_at": "2026-01-01T00:00:00Z",
		"api_version": domain.WebhookAPIVersion, "data": map[string]any{"object": map[string]string{"endpoint_id": "wh_x", "event_id": id}}})
	postSigned(t, recv, caPEM, secret, id, sample)
	f, err := newHookFloor(recv, caPEM, secret)
	require.NoError(t, err)
	require.Len(t, f.parts, 3, "the id appears twice")
	require.Equal(t, len(sample), f.bodyBytes())

	var lens []int
	r, err := RunOpen(OpenLoad{Name: "webhook-floor", Addr: f.addr, TLS: f.tls, Rate: 200, Duration: 50 * time.Millisecond,
		MaxInFlight: 4, WantStatus: 200, Prepare: func(i int64, req *fasthttp.Request) bool {
			ok := f.prepare(1)(i, req)
			if i == 0 {
				lens = append(lens, len(req.Body()))
			}
			return ok
		}})
	require.NoError(t, err)
	require.True(t, r.Valid(), "%d OK, %d errors: %s", r.OK, r.Errors(), r.FirstProblem)
	require.Equal(t, []int{len(sample)}, lens)
	st, n, _ := recv.stats()
	require.Zero(t, st.BadSignatures+st.BadBodies, st.FirstProblem)
	require.Equal(t, 1+int(r.OK), n)
	_, ok := recv.arrival(string(floorEventID(nil, len(id), 1, 0)))
	require.True(t, ok)
}

// postSigned delivers body to the receiver as fxd does: HTTPS, signed
// with the endpoint's secret.
func postSigned(t *testing.T, recv *hookReceiver, caPEM []byte, secret, id string, body []byte) {
	t.Helper()
	key, err := sign.ParseSecret(secret)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(caPEM))
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}
	defer tr.CloseIdleConnections()
	ts := time.Now().Unix()
	req, err := http.NewRequest("POST", recv.url(), bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", sign.Sign(key, id, ts, body))
	resp, err := (&http.Client{Transport: tr, Timeout: 5 * time.Second}).Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
}

func TestQuoteRoundRows(t *testing.T) {
	round := func(p99, p999, cpu float64) *OpenResult {
		return &OpenResult{OK: 5000, WindowSlots: 5000, Rate: 1000, WindowS: 5, ServerCPUUs: cpu, LateSends: 2,
			Latency: Latency{P99Ms: p99, P999Ms: p999}, Status: map[string]int64{"200": 7000}}
	}
	rounds := []QuoteRound{{Floor: round(0.20, 0.4, 30), FXD: round(0.52, 3.1, 140)}, {Floor: round(0.22, 0.5, 34), FXD: round(0.61, 4.2, 150)}}
	fx := &QuotePhase{Rounds: rounds, Quotes: round(0.58, 4.0, 145), Floor: round(0.21, 0.45, 32), QuoteBodyBytes: 900}
	s := Settings{QuoteRate: 1000, WarmupS: 2, DurationS: 10}
	rows := quoteRows(fx, s)
	byName := map[string]Row{}
	for _, r := range rows {
		byName[r.Name] = r
	}
	q := byName["quote POST /fx/quotes @ 1,000/s"]
	require.Equal(t, "p99 0.58 ms (0.52–0.61)", q.Value)
	require.Equal(t, "PASS", q.Result)
	require.Contains(t, q.Detail, "p99.9 4.00 ms (3.10–4.20)")
	require.Contains(t, q.Detail, "2 rounds of 2.0s warm-up + 5.0s")
	fl := byName["floor POST /fx/quotes @ 1,000/s (verify + fxd's answer)"]
	require.Equal(t, "p99 0.21 ms (0.20–0.22)", fl.Value)
	require.Empty(t, fl.Result)
	require.Contains(t, fl.Detail, "2 late sends of 5,000")
	cpu := byName["quote server CPU per quote"]
	require.Equal(t, "145 µs (140–150)", cpu.Value)
	require.Equal(t, "≤ 150 µs", cpu.Target)
	require.Equal(t, "PASS", cpu.Result)
	require.Contains(t, cpu.Detail, "floor 32 µs (30–34) per request")
	over := byName["quote CPU over floor"]
	require.Equal(t, "113 µs (110–116)", over.Value)
	require.Contains(t, over.Detail, "900-byte")
	require.Equal(t, "quote POST /fx/quotes", indexColumns[3].row)
	require.Equal(t, "p99 0.58 ms (0.52–0.61) PASS", rowValue(rows, indexColumns[3].row), "the saved-runs index still finds fxd's row")

	for _, c := range []struct {
		name string
		edit func(fx *QuotePhase)
		want string
	}{
		{"over target", func(fx *QuotePhase) { fx.Quotes.ServerCPUUs = 151 }, "FAIL"},
		{"errors", func(fx *QuotePhase) { fx.Quotes.Unexpected = 1 }, "INVALID"},
		{"not measured", func(fx *QuotePhase) { fx.Quotes.ServerCPUUs = 0 }, "INVALID"},
		{"not run", func(fx *QuotePhase) { fx.Quotes = nil }, "INVALID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := *fx
			qc := *fx.Quotes
			cp.Quotes = &qc
			c.edit(&cp)
			require.Equal(t, c.want, quoteCPURow(&cp, nil, nil).Result)
		})
	}
	// An old report (one window, no floor): the rows it always had, and
	// the CPU row.
	old := quoteRows(&QuotePhase{Quotes: round(0.58, 4.0, 400)}, Settings{QuoteRate: 1000, AcceptRate: 100})
	names := make([]string, len(old))
	for i, r := range old {
		names[i] = r.Name
	}
	require.Equal(t, []string{"quote POST /fx/quotes @ 1,000/s", "quote server CPU per quote", "accept POST /fx/quotes/{id}/accept @ 100/s"}, names)
	require.Equal(t, "p99 0.58 ms", old[0].Value)
	require.Equal(t, "FAIL", old[1].Result)
}

func TestWebhookRoundRows(t *testing.T) {
	sends := func(late int64) *OpenResult {
		return &OpenResult{OfferedRate: 2000, OK: 10000, WindowSlots: 10000, WindowS: 5, LateSends: late, Status: map[string]int64{"202": 12000},
			Latency: Latency{P99Ms: 2}}
	}
	dlv := func(rate, p99 float64) *WebhookDelivery {
		return &WebhookDelivery{OfferedRate: 2000, WindowS: 5, WindowEvents: 10000, Delivered: 10000, Rate: rate, Lag: Latency{P99Ms: p99},
			Receiver: Receiver{Requests: 10000, Verified: 10000}}
	}
	w := &WebhookPhase{Tests: sends(3), Delivery: dlv(2000, 41),
		Floor: &WebhookLoop{Sends: sends(1), Delivery: dlv(2000, 0.4)},
		Rounds: []WebhookRound{
			{Floor: &WebhookLoop{Sends: sends(0), Delivery: dlv(1999, 0.35)}, FXD: &WebhookLoop{Sends: sends(1), Delivery: dlv(1998, 40)}},
			{Floor: &WebhookLoop{Sends: sends(1), Delivery: dlv(2001, 0.45)}, FXD: &WebhookLoop{Sends: sends(2), Delivery: dlv(2002, 43.5)}}},
		Dead: &WebhookDead{AttemptsWindow: 120}}
	rows := webhookRows(w, nil)
	byName := map[string]Row{}
	for _, r := range rows {
		byName[r.Name] = r
	}
	require.Equal(t, "p99 2.00 ms (2.00–2.00)", byName["webhook POST /webhooks/{id}/test @ 2,000/s (API)"].Value)
	fl := byName["webhook floor deliveries (signed POST to the receiver), 2,000/s offered"]
	require.Equal(t, "2,000 /s (1,999–2,001)", fl.Value)
	require.Empty(t, fl.Result)
	require.Equal(t, "p99 0.40 ms (0.35–0.45)", byName["webhook floor lag (signed POST to the receiver)"].Value)
	d := byName["webhook deliveries, healthy endpoint, 2,000/s offered"]
	require.Equal(t, "2,000 /s (1,998–2,002)", d.Value)
	require.Equal(t, "PASS", d.Result)
	require.Contains(t, d.Detail, "#2 2,002/s, lag p99 43.50")
	require.Contains(t, d.Detail, "2 late sends of 10,000")
	lag := byName["webhook lag, healthy endpoint, dead one retrying"]
	require.Equal(t, "p99 41.00 ms (40.00–43.50)", lag.Value)
	require.Contains(t, lag.Detail, "floor (signed POST straight to the receiver, from its send) p99 0.40")
	require.Equal(t, "2,000 /s (1,998–2,002) PASS", rowValue(rows, "webhook deliveries, healthy endpoint"))

	w.Floor.Delivery.Missing = 1
	require.Equal(t, "INVALID", webhookFloorRows(w)[0].Result)
	w.Floor = nil
	require.Nil(t, webhookFloorRows(w))
}

func TestMergeDeliveries(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	run := func(start int, ids ...string) *hookRun {
		r := &hookRun{res: &OpenResult{OfferedRate: 100, WindowS: 1, OK: int64(len(ids)), WindowStart: at(start)}, nWarm: 1,
			slots: []hookSlot{{dlv: "warm"}}}
		for i, id := range ids {
			r.slots = append(r.slots, hookSlot{dlv: id, sent: at(start + 10*i), recv: at(start + 10*i + 1)})
		}
		return r
	}
	runs := []*hookRun{run(0, "a", "b"), run(5000, "c")}
	ev := map[string]string{"warm": "ew", "a": "ea", "b": "eb", "c": "ec"}
	arr := map[string]time.Time{"ew": at(0), "ea": at(6), "eb": at(1200), "ec": at(5021)}
	arrival := func(id string) (time.Time, bool) { x, ok := arr[id]; return x, ok }
	ds := []*WebhookDelivery{
		{WindowS: 1, ReceiverRate: 2, LastArrivalS: 0.2, Receiver: Receiver{Requests: 3}, BySecond: []SecondLag{{Second: 0}, {Second: 1}}},
		{WindowS: 1, ReceiverRate: 1, LastArrivalS: -0.9, Receiver: Receiver{Requests: 1, FirstProblem: "x"}, BySecond: []SecondLag{{Second: 0}}},
	}
	m := mergeDeliveries(mergeOpen("m", runs[0].res, runs[1].res), runs, ds, ev, arrival)
	require.EqualValues(t, 3, m.WindowEvents, "window slots only")
	require.EqualValues(t, 3, m.Delivered)
	require.Equal(t, 1.5, m.Rate)
	require.Equal(t, 1.5, m.ReceiverRate)
	require.Equal(t, 0.2, m.LastArrivalS)
	require.Equal(t, Receiver{Requests: 4, FirstProblem: "x"}, m.Receiver)
	require.Equal(t, []SecondLag{{Round: 1, Second: 0}, {Round: 1, Second: 1}, {Round: 2, Second: 0}}, m.BySecond)
	require.InDelta(t, 1189.0, m.Lag.MaxMs, 10)

	rows := []attemptRow{{ID: "a", DurationMs: 3, StatusCode: ptr(200)}, {ID: "c", DurationMs: 5, StatusCode: ptr(500)},
		{ID: "c", DurationMs: 7, StatusCode: ptr(200)}, {ID: "other", DurationMs: 100}}
	tallies := roundAttempts(runs, rows)
	require.Len(t, tallies, 3)
	require.EqualValues(t, 1, tallies[0].hist.Count())
	require.EqualValues(t, 2, tallies[1].hist.Count())
	require.EqualValues(t, 1, tallies[1].failed)
	require.EqualValues(t, 3, tallies[2].hist.Count(), "every round's; the row of no round left out")
	require.EqualValues(t, 1, tallies[2].failed)
}

func ptr[T any](v T) *T { return &v }

func TestReceiverPlus(t *testing.T) {
	a := Receiver{Requests: 1, Verified: 1, FirstProblem: ""}
	b := Receiver{Requests: 2, BadBodies: 1, FirstProblem: "bad"}
	require.Equal(t, Receiver{Requests: 3, Verified: 1, BadBodies: 1, FirstProblem: "bad"}, a.plus(b))
	require.Equal(t, "bad", b.plus(Receiver{FirstProblem: "later"}).FirstProblem)
	require.True(t, strings.HasPrefix(latenessText(&OpenResult{LateSends: 1234, WindowSlots: 20000}), "1,234 late sends of 20,000"))
}

func TestPlanQuoteKeys(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
		want quotePlan
	}{
		// 2 × (2,000 warm-up + 5,000 window) slots + the probe, × 1.1 / 28.
		{"two rounds", Config{QuoteRate: 1000, AcceptRate: 100, Warmup: 2 * time.Second, Duration: 10 * time.Second, Rounds: 2},
			quotePlan{qKeys: 551, nQA: 23, nAA: 4, perRole: 12, aw: 200, an: 1000}},
		// One window: as many keys as before rounds (12,000 slots; the
		// probe does not tip it over).
		{"one round", Config{QuoteRate: 1000, AcceptRate: 100, Warmup: 2 * time.Second, Duration: 10 * time.Second, Rounds: 1},
			quotePlan{qKeys: 472, nQA: 19, nAA: 4, perRole: 12, aw: 200, an: 1000}},
		{"quick, no accepts", Config{QuoteRate: 100, Warmup: 500 * time.Millisecond, Duration: 2 * time.Second},
			quotePlan{qKeys: 10, nQA: 1}},
	} {
		t.Run(c.name, func(t *testing.T) { require.Equal(t, c.want, planQuoteKeys(c.cfg)) })
	}
}

func TestBestQuote(t *testing.T) {
	for _, c := range []struct {
		body      string
		id, route string
		ok        bool
	}{
		{`{"quotes":[{"id":"q1","route":"amm"},{"id":"q2","route":"rfq"}],"best_quote_id":"q2"}`, "q2", "rfq", true},
		{`{"quotes":[{"id":"q1","route":"amm"}],"best_quote_id":"q9"}`, "q9", "", true},
		{`{"quotes":[]}`, "", "", true},
		{`not json`, "", "", false},
	} {
		id, route, ok := bestQuote([]byte(c.body))
		require.Equal(t, []any{c.id, c.route, c.ok}, []any{id, route, ok}, c.body)
	}
}

func TestDeadRounds(t *testing.T) {
	for _, c := range []struct {
		name    string
		dd      WebhookDead
		retried bool
		text    string
	}{
		{"one round", WebhookDead{AttemptsWindow: 5}, true, ""},
		{"one round, none", WebhookDead{}, false, ""},
		{"every round", WebhookDead{AttemptsWindow: 1500, AttemptsByRound: []int64{700, 800}}, true,
			" (in fxd's windows, round by round: 700 / 800; not enabled again during the floor's)"},
		{"a round without", WebhookDead{AttemptsWindow: 1200, AttemptsByRound: []int64{1200, 0}}, false,
			" (in fxd's windows, round by round: 1,200 / 0; not enabled again during the floor's)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.retried, deadRetriedEveryRound(&c.dd))
			require.Equal(t, c.text, deadRoundsText(&c.dd))
		})
	}
}

func TestIdleText(t *testing.T) {
	for _, c := range []struct {
		cores []float64
		want  string
	}{
		{nil, ""},
		{[]float64{-1}, ""},
		{[]float64{0.021, -1, 0.8}, "fxd's own cores meanwhile (idle, counted in the other work): #1 0.02, #3 0.80"},
	} {
		require.Equal(t, c.want, idleText(c.cores), "%v", c.cores)
	}
	var cores float64
	stop := coresDuring(os.Getpid(), &cores)()
	stop()
	require.GreaterOrEqual(t, cores, 0.0)
	stop = coresDuring(0, &cores)()
	stop()
	require.Equal(t, -1.0, cores, "no process")
}

func TestChainWindows(t *testing.T) {
	var log []string
	hook := func(name string) func() func() {
		return func() func() {
			log = append(log, "open "+name)
			return func() { log = append(log, "close "+name) }
		}
	}
	end := chainWindows(hook("a"), nil, hook("b"))()
	require.Equal(t, []string{"open a", "open b"}, log)
	end()
	require.Equal(t, []string{"open a", "open b", "close b", "close a"}, log)

	// Without a hook (no -perf, no CPU sampling) the window still closes.
	chainWindows(nil, nil)()()
}
