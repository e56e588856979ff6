package httpd

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/buildinfo"
	"github.com/fxd-labs/fxd/internal/logsink"
)

const testAdminToken = "0123456789abcdef0123456789abcdef"

// scrape GETs /metrics from the admin handler and parses it with the
// Prometheus text parser.
func scrape(t *testing.T, a *Admin) map[string]*dto.MetricFamily {
	t.Helper()
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Authorization", "Bearer "+testAdminToken)
	w := httptest.NewRecorder()
	a.ServeHTTP(w, req)
	require.Equal(t, 200, w.Code, "%s", w.Body)
	require.Regexp(t, requestIDPattern, w.Header().Get(RequestIDHeader))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(w.Body.Bytes()))
	require.NoError(t, err, "%s", w.Body)
	return fams
}

// sample is the value of the family's sample whose labels include want
// (counter, gauge, or a histogram's count); ok is false when none has.
func sample(fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.GetMetric() {
		got := map[string]string{}
		for _, l := range m.GetLabel() {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue(), true
		case m.Gauge != nil:
			return m.GetGauge().GetValue(), true
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount()), true
		}
	}
	return 0, false
}

func TestMetricsParseAndMove(t *testing.T) {
	ta := newTestAPI(t)
	a := NewAdmin(ta.e, nil, nil, testAdminToken, t.TempDir())
	key, priv := ta.key(t, "read,pay")

	before := scrape(t, a)
	for _, name := range []string{
		"fxd_wal_last_index", "fxd_wal_fsync_batches_total", "fxd_wal_tail_bytes", "fxd_snapshot_applied_index",
		"fxd_snapshot_apply_lag_records", "fxd_active_accounts", "fxd_api_keys", "fxd_active_entities",
		"fxd_partitions_owned", "fxd_partitions_taken_total", "fxd_partitions_given_up_total",
		"fxd_wal_fsync_duration_seconds", "fxd_wal_batch_records", "fxd_build_info",
		"go_goroutines", "go_gc_duration_seconds", "process_resident_memory_bytes", "process_open_fds",
	} {
		require.Contains(t, before, name)
	}
	require.Equal(t, dto.MetricType_HISTOGRAM, before["fxd_wal_fsync_duration_seconds"].GetType())
	require.Equal(t, dto.MetricType_COUNTER, before["fxd_wal_fsync_batches_total"].GetType())
	b := buildinfo.Get()
	v, ok := sample(before, "fxd_build_info", map[string]string{"version": b.Version, "commit": b.Commit, "go_version": b.GoVersion})
	require.True(t, ok)
	require.Equal(t, 1.0, v)
	keys, _ := sample(before, "fxd_api_keys", nil)
	require.Equal(t, 1.0, keys)
	owned, _ := sample(before, "fxd_partitions_owned", nil)
	require.Equal(t, 1.0, owned, "a single node owns its one log")
	accounts, _ := sample(before, "fxd_active_entities", map[string]string{"kind": "account"})
	require.Equal(t, 1.0, accounts, "the account that made the key is in memory")
	require.NotContains(t, before, "fxd_fx_live_orders", "no FX desk: no FX gauges")

	for i := range 3 {
		body := []byte(`{"name":"c` + string(rune('a'+i)) + `","address":"0x00000000000000000000000000000000000000aa"}`)
		require.Equal(t, 201, ta.do(t, "POST", "/public/v1/contacts", body, key, priv, nil).status)
	}
	require.Equal(t, 400, ta.do(t, "POST", "/public/v1/contacts", []byte(`{}`), key, priv, nil).status)
	require.Equal(t, 404, ta.do(t, "GET", "/public/v1/contacts/ct_x", nil, key, priv, nil).status)
	require.Equal(t, 404, ta.do(t, "DELETE", "/public/v1/nowhere/at/all", nil, "", nil, nil).status)
	require.Equal(t, 404, ta.do(t, "BREW", "/public/v1/time", nil, "", nil, nil).status)

	after := scrape(t, a)
	counts := []struct {
		route, method, code string
		want                float64
	}{
		{"/contacts", "POST", "201", 3},
		{"/contacts", "POST", "400", 1},
		{"/contacts/{id}", "GET", "404", 1},
		{unmatchedRoute, "DELETE", "404", 1},
		{unmatchedRoute, "other", "404", 1},
	}
	for _, c := range counts {
		got, ok := sample(after, "fxd_http_requests_total", map[string]string{"route": c.route, "method": c.method, "code": c.code})
		require.True(t, ok, "%+v", c)
		require.Equal(t, c.want, got, "%+v", c)
		n, ok := sample(after, "fxd_http_request_duration_seconds", map[string]string{"route": c.route, "method": c.method})
		require.True(t, ok, "%+v", c)
		require.GreaterOrEqual(t, n, c.want)
	}
	lat, _ := sample(after, "fxd_http_request_duration_seconds", map[string]string{"route": "/contacts", "method": "POST"})
	require.Equal(t, 4.0, lat, "one latency per answer of the route")
	_, ok = sample(after, "fxd_http_requests_total", map[string]string{"route": "/account"})
	require.False(t, ok, "a route without answers is left out")
	for _, f := range after["fxd_http_requests_total"].GetMetric() {
		for _, l := range f.GetLabel() {
			require.NotContains(t, l.GetValue(), "ct_x", "labels are templates, never raw paths")
		}
	}

	requireMoved(t, before, after, "fxd_wal_fsync_batches_total", 1)
	requireMoved(t, before, after, "fxd_wal_fsync_duration_seconds", 1)
	requireMoved(t, before, after, "fxd_wal_batch_records", 1)
	requireMoved(t, before, after, "fxd_wal_last_index", 3)
	fsyncs, _ := sample(after, "fxd_wal_fsync_duration_seconds", nil)
	batches, _ := sample(after, "fxd_wal_fsync_batches_total", nil)
	require.Equal(t, batches, fsyncs, "one fsync timed per durable batch")
	records := after["fxd_wal_batch_records"].GetMetric()[0].GetHistogram().GetSampleSum()
	last, _ := sample(after, "fxd_wal_last_index", nil)
	require.Equal(t, last, records, "every record since Open is in exactly one batch")
}

// requireMoved: name's value (or sample count) grew by at least by.
func requireMoved(t *testing.T, before, after map[string]*dto.MetricFamily, name string, by float64) {
	t.Helper()
	b, ok := sample(before, name, nil)
	require.True(t, ok, name)
	a, ok := sample(after, name, nil)
	require.True(t, ok, name)
	require.GreaterOrEqual(t, a-b, by, "%s: %v → %v", name, b, a)
}

// TestAdminAnswersCarryRequestIDs: the admin listener's answers, refused
// and failed ones included, carry an id; a failure is logged with it.
func TestAdminAnswersCarryRequestIDs(t *testing.T) {
	buf := &logsink.Buffer{}
	ta := newTestAPI(t)
	e, err := actors.Open(actors.Config{DataDir: t.TempDir(), Logger: slogTo(buf)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = e.Close() })
	recovering := NewAdmin(e, nil, nil, testAdminToken, t.TempDir()) // never recovered: 503
	ready := NewAdmin(ta.e, nil, nil, testAdminToken, t.TempDir())
	cases := []struct {
		name   string
		a      *Admin
		path   string
		token  string
		status int
	}{
		{"ok", ready, "/admin/snapshots", testAdminToken, 200},
		{"no token", ready, "/admin/snapshots", "", 401},
		{"not found", ready, "/admin/accounts/acct_nope", testAdminToken, 404},
		{"recovering", recovering, "/metrics", testAdminToken, 503},
	}
	ids := map[string]bool{}
	for _, c := range cases {
		req := httptest.NewRequest("GET", c.path, nil)
		req.Header.Set("Authorization", "Bearer "+c.token)
		w := httptest.NewRecorder()
		c.a.ServeHTTP(w, req)
		require.Equal(t, c.status, w.Code, "%s: %s", c.name, w.Body)
		id := w.Header().Get(RequestIDHeader)
		require.Regexp(t, requestIDPattern, id, c.name)
		require.False(t, ids[id])
		ids[id] = true
		if c.status >= 400 {
			requireContractError(t, w.Body.Bytes(), map[int]string{401: domain.CodeAuthFailed, 404: domain.CodeNotFound, 503: domain.CodeUnavailable}[c.status])
		}
		if c.status == 503 {
			line := logLineWith(t, buf.String(), id)
			require.Equal(t, "admin request failed", line["msg"])
			require.Equal(t, domain.CodeUnavailable, line["code"])
		}
	}
}

// TestMetricsWithoutChainOrDesks: without a chain or desks the
// scrape still succeeds, without their series.
func TestMetricsWithoutChainOrDesks(t *testing.T) {
	ta := newTestAPI(t)
	fams := scrape(t, NewAdmin(ta.e, nil, nil, testAdminToken, t.TempDir()))
	for _, name := range []string{"fxd_chain_head_block", "fxd_relayer_balance_wei", "fxd_pay_live_links", "fxd_webhook_backlog"} {
		require.NotContains(t, fams, name)
	}
}

func TestHTTPRowCountsOtherStatuses(t *testing.T) {
	s := newHTTPStats([]route{{Method: "GET", Path: "/x"}})
	r := s.row(0, nil)
	r.observe(200, 0)
	r.observe(418, 3e9)
	r.observe(418, 20e9)
	got := map[string]uint64{}
	for _, c := range r.counts() {
		got[c.code] = c.count
	}
	require.Equal(t, map[string]uint64{"200": 1, "418": 2}, got)
	count, sum, buckets := r.latency.Read().Cumulative(1e-9)
	require.Equal(t, uint64(3), count)
	require.Equal(t, 23.0, sum)
	require.Equal(t, uint64(1), buckets[0.00025], "the 0 s answer")
	require.Equal(t, uint64(2), buckets[5], "and the 3 s one")
	require.Equal(t, uint64(2), buckets[10], "the 20 s one is above every bound")
	require.Equal(t, &s.rows[len(s.rows)-1], s.row(-1, []byte("BREW")))
	require.Equal(t, "GET", s.row(-1, []byte("GET")).method)
}

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewJSONHandler(w, nil)) }

// BenchmarkAnswerBookkeeping is what serve adds to every request for
// request ids and metrics: a Request-Id set on the answer, the clock read
// at the end, and the route row's atomic adds, from every P at once (the
// same row: the most contended case).
func BenchmarkAnswerBookkeeping(b *testing.B) {
	s := newHTTPStats((&Server{}).routes())
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var resp fasthttp.Response
		for pb.Next() {
			start := time.Now()
			setRequestID(&resp.Header)
			s.row(3, nil).observe(200, time.Since(start))
		}
	})
}
