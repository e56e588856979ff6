package bench

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook/sign"
)

func TestWebhookKeyPlan(t *testing.T) {
	test, drain, pile := webhookKeyPlan(2000, 2*time.Second, 10*time.Second, 10_000, 200)
	require.Equal(t, 224, test) // 24,000 slots × 1.1 / 118, rounded up
	require.Equal(t, 85, drain)
	require.Equal(t, 2, pile)
	test, drain, pile = webhookKeyPlan(10, 0, time.Second, 0, 0)
	require.Equal(t, 1, test)
	require.Zero(t, drain)
	require.Zero(t, pile)
}

func TestReceiverCert(t *testing.T) {
	caPEM, leaf, err := makeReceiverCert()
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(caPEM))
	_, err = leaf.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"})
	require.NoError(t, err)
	_, err = leaf.Leaf.Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.2"})
	require.Error(t, err)
}

// TestReceiver posts signed deliveries to the receiver over TLS, as fxd
// does, and a forged one.
func TestReceiver(t *testing.T) {
	caPEM, leaf, err := makeReceiverCert()
	require.NoError(t, err)
	r, err := startReceiver(leaf)
	require.NoError(t, err)
	defer r.close()
	secret, err := sign.NewSecret()
	require.NoError(t, err)
	r.secret.Store(&secret)
	key, err := sign.ParseSecret(secret)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 5 * time.Second}
	post := func(id string, forge bool) {
		body, _ := json.Marshal(map[string]any{"id": id, "type": domain.EventWebhookTest, "created_at": "2026-01-01T00:00:00Z",
			"api_version": domain.WebhookAPIVersion, "data": map[string]any{"object": map[string]string{"endpoint_id": "we_x"}}})
		ts := time.Now().Unix()
		sig := sign.Sign(key, id, ts, body)
		if forge {
			sig = sign.Sign(key, id, ts, append(body, ' '))
		}
		req, _ := http.NewRequest("POST", r.url(), bytes.NewReader(body))
		req.Header.Set("webhook-id", id)
		req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
		req.Header.Set("webhook-signature", sig)
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, 200, resp.StatusCode)
	}
	post("evt_1", false)
	post("evt_2", false)
	post("evt_1", false)
	st, n, _ := r.stats()
	require.Equal(t, 2, n)
	require.Equal(t, Receiver{Requests: 3, Duplicates: 1, Verified: 3}, st)
	_, ok := r.arrival("evt_2")
	require.True(t, ok)
	post("evt_3", true)
	st, _, _ = r.stats()
	require.EqualValues(t, 1, st.BadSignatures)
	require.Contains(t, st.FirstProblem, "signature")

	// Held answers wait for release.
	r.hold(5 * time.Second)
	done := make(chan struct{})
	go func() { post("evt_4", false); close(done) }()
	time.Sleep(50 * time.Millisecond)
	_, ok = r.arrival("evt_4")
	require.False(t, ok)
	released := time.Now()
	r.release()
	<-done
	at, ok := r.arrival("evt_4")
	require.True(t, ok)
	require.False(t, at.Before(released))
	require.Equal(t, at, r.firstArrivalAfter(released))
	require.EqualValues(t, 1, r.arrivalsIn(released, time.Now().Add(time.Second)))
	require.True(t, r.waitDistinct(4, time.Second))
	require.False(t, r.waitDistinct(5, 20*time.Millisecond))
}

func TestHoldListener(t *testing.T) {
	h, err := startHold()
	require.NoError(t, err)
	addr := h.ln.Addr().String()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	require.Eventually(t, func() bool { return h.held() == 1 }, time.Second, 5*time.Millisecond)
	h.close()
	_ = c.SetReadDeadline(time.Now().Add(time.Second))
	_, err = c.Read(make([]byte, 1))
	require.Error(t, err) // closed by the listener
	_, err = net.DialTimeout("tcp", addr, time.Second)
	require.Error(t, err) // refused
}

func TestWebhookLags(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	slots := []hookSlot{
		{dlv: "dlv_a", sent: at(0), recv: at(2)},  // arrives at 12: lag 10, from send 12
		{dlv: "dlv_b", sent: at(1), recv: at(5)},  // arrives at 4, before its 202: lag 0
		{dlv: "dlv_c", sent: at(2), recv: at(3)},  // never arrives
		{dlv: "dlv_d", sent: at(3), recv: at(4)},  // not listed
		{},                                        // no 202
		{dlv: "dlv_e", sent: at(4), recv: at(10)}, // arrives at 110: lag 100
	}
	dlvEvent := map[string]string{"dlv_a": "evt_a", "dlv_b": "evt_b", "dlv_c": "evt_c", "dlv_e": "evt_e"}
	arr := map[string]time.Time{"evt_a": at(12), "evt_b": at(4), "evt_e": at(110)}
	lag, fromSend, events, delivered, missing, unjoined, before, last := webhookLags(slots, dlvEvent,
		func(id string) (time.Time, bool) { t, ok := arr[id]; return t, ok })
	require.EqualValues(t, 5, events)
	require.EqualValues(t, 3, delivered)
	require.EqualValues(t, 1, missing)
	require.EqualValues(t, 1, unjoined)
	require.EqualValues(t, 1, before)
	require.Equal(t, at(110), last)
	require.EqualValues(t, 3, lag.Count())
	require.InDelta(t, 100.0, lag.Summary().MaxMs, 1)
	require.InDelta(t, 106.0, fromSend.Summary().MaxMs, 1)
	require.EqualValues(t, 0, lag.min)
}

func TestDeadCounts(t *testing.T) {
	code := func(c int) *int { return &c }
	text := func(s string) *string { return &s }
	rows := []attemptRow{
		{Error: text("dial tcp 127.0.0.1:4000: connect: connection refused"), At: "2026-01-01T00:00:10Z"},
		{Error: text("dial tcp 127.0.0.1:4000: connect: connection refused"), At: "2026-01-01T00:00:12Z"},
		{Error: text("remote error: tls: EOF"), At: "2026-01-01T00:00:20Z"},
		{StatusCode: code(503), At: "2026-01-01T00:00:30Z"},
		{StatusCode: code(200), At: "2026-01-01T00:00:31Z"},
	}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	spans := [][2]time.Time{{base.Add(10500 * time.Millisecond), base.Add(20 * time.Second)}, {base.Add(29 * time.Second), base.Add(40 * time.Second)}}
	errs, ok, in := deadCounts(rows, spans)
	require.Equal(t, map[string]int64{"connection refused": 2, "EOF": 1, "status 503": 1}, errs)
	require.EqualValues(t, 1, ok)
	require.Equal(t, []int64{3, 2}, in)
	require.Equal(t, "x", errorKind("x"))
}

func TestLoadBaseline(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, started time.Time, quick bool, rate float64) {
		rep := map[string]any{"date": started.Format("2006-01-02"), "started": started, "settings": map[string]any{"quick": quick},
			"machine": map[string]any{"git_commit": strings.Repeat("a", 40)}}
		if rate > 0 {
			rep["fxd_writes"] = map[string]any{"rate_per_s": rate, "conns": 256}
		}
		b, _ := json.Marshal(rep)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
	}
	t0 := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	write("old.json", t0, false, 9000)
	write("new.json", t0.Add(48*time.Hour), false, 9400)
	write("quick.json", t0.Add(72*time.Hour), true, 100)
	write("webhooks.json", t0.Add(96*time.Hour), false, 0)
	b, err := LoadBaseline(dir)
	require.NoError(t, err)
	require.Equal(t, "new.json", b.File)
	require.Equal(t, 9400.0, b.FXDWrites.Rate)
	require.Equal(t, "aaaaaaaaaaaa", b.Commit)
	_, err = LoadBaselineFile(filepath.Join(dir, "webhooks.json"))
	require.Error(t, err)

	cur := &LoadResult{Rate: 9000, ServerCPUUs: 100, OtherCores: 0.1}
	row := writesBaselineRow("w", cur, b)
	require.Equal(t, "PASS", row.Result) // 0.957
	cur.Rate = 8000
	require.Equal(t, "FAIL", writesBaselineRow("w", cur, b).Result)
	require.Equal(t, "INVALID", writesBaselineRow("w", nil, b).Result)
}

func TestWebhookRows(t *testing.T) {
	tests := &OpenResult{OfferedRate: 2000, OK: 20000, WindowS: 10, Status: map[string]int64{"202": 24000}}
	w := &WebhookPhase{Tests: tests,
		Delivery: &WebhookDelivery{OfferedRate: 2000, WindowS: 10, WindowEvents: 20000, Delivered: 20000, Rate: 2000,
			Lag: Latency{P99Ms: 40}, Receiver: Receiver{Requests: 20000, Verified: 20000}},
		Dead:  &WebhookDead{AttemptsWindow: 120, Errors: map[string]int64{"connection refused": 120}},
		Drain: &WebhookDrain{Create: &LoadResult{}, Created: 10000, Delivered: 10000, Rate: 3000, DrainS: 3.3}}
	rows := webhookRows(w, nil)
	res := map[string]string{}
	for _, r := range rows {
		res[r.Name] = r.Result
	}
	require.Equal(t, "PASS", res["webhook deliveries, healthy endpoint, 2,000/s offered"])
	require.Equal(t, "PASS", res["webhook lag, healthy endpoint, dead one retrying"])
	require.Equal(t, "PASS", res["webhook backlog drain (delivery capacity)"])
	w.Delivery.Lag.P99Ms = 300
	w.Dead.AttemptsWindow = 0
	w.Setup.DeadPile = 200
	rows = webhookRows(w, nil)
	require.Equal(t, "INVALID", rows[2].Result) // the dead endpoint did not retry
	w.Dead.AttemptsWindow = 1
	rows = webhookRows(w, nil)
	require.Equal(t, "FAIL", rows[2].Result)
	w.Delivery.Receiver.BadSignatures = 1
	rows = webhookRows(w, nil)
	require.Equal(t, "INVALID", rows[1].Result)
	w.Drain.Delivered, w.Drain.Rate = 4000, 64 // slow, and not all arrived
	rows = webhookRows(w, nil)
	require.Equal(t, "FAIL", rows[3].Result)
	require.Contains(t, rows[3].Detail, "ONLY 4,000 OF 10,000 ARRIVED")
	w.Drain.Delivered = 0
	rows = webhookRows(w, nil)
	require.Equal(t, "INVALID", rows[3].Result)
}

func TestWebhookGauges(t *testing.T) {
	text := "# HELP fxd_webhook_endpoints x\n# TYPE fxd_webhook_endpoints gauge\nfxd_webhook_endpoints 2\n" +
		"fxd_webhook_attempts_in_flight 16\nfxd_api_keys 7\nfxd_webhook_attempts_ok_total 1.2e+04\n"
	g := parseSamples([]byte(text), "fxd_webhook_")
	require.Equal(t, map[string]int64{"endpoints": 2, "attempts_in_flight": 16, "attempts_ok_total": 12000}, g)
	all := parseSamples([]byte(text+"fxd_wal_tail_bytes 6.8157456e+07\n"), "")
	require.Equal(t, int64(68157456), all["fxd_wal_tail_bytes"], "exponent form, as client_golang writes 1e6 and more")
	shape := drainShape([]DrainSample{{Arrived: 0}, {Arrived: 16}, {Arrived: 16}, {Arrived: 32}})
	require.Contains(t, shape, "at most 16 arrivals, 1 intervals with none")
}

func TestLagBySecond(t *testing.T) {
	t0 := time.Unix(1_000_000, 0)
	slots := []hookSlot{{dlv: "a", recv: t0.Add(100 * time.Millisecond)}, {dlv: "b", recv: t0.Add(1500 * time.Millisecond)},
		{dlv: "c", recv: t0.Add(1600 * time.Millisecond)}, {dlv: "x", recv: t0}}
	ev := map[string]string{"a": "ea", "b": "eb", "c": "ec", "x": "ex"}
	arr := map[string]time.Time{"ea": t0.Add(110 * time.Millisecond), "eb": t0.Add(1700 * time.Millisecond), "ec": t0.Add(1600 * time.Millisecond)}
	got := lagBySecond(slots, t0, ev, func(id string) (time.Time, bool) {
		x, ok := arr[id]
		return x, ok
	})
	require.Len(t, got, 2)
	require.EqualValues(t, 1, got[0].Events)
	require.InDelta(t, 10, got[0].MaxMs, 0.1)
	require.EqualValues(t, 2, got[1].Events)
	require.InDelta(t, 200, got[1].MaxMs, 2)
}
