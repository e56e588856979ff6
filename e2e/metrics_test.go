package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/buildinfo"
)

// adminGet sends one GET to the admin listener with its token.
func (s *server) adminGet(t testing.TB, path string) *http.Response {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(s.DataDir, "admin.token"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+s.AdminAddr+path, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// scrapeMetrics reads the admin /metrics and parses it with the
// Prometheus text parser.
func scrapeMetrics(t testing.TB, s *server) map[string]*dto.MetricFamily {
	t.Helper()
	resp := s.adminGet(t, "/metrics")
	require.Equal(t, 200, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain; version=0.0.4"), resp.Header.Get("Content-Type"))
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// metricValue is the value of name's sample with exactly the labels
// (a counter, a gauge, or a histogram's sample count); ok false if none.
func metricValue(fams map[string]*dto.MetricFamily, name string, labels map[string]string) (float64, bool) {
	for _, m := range fams[name].GetMetric() {
		if len(m.GetLabel()) != len(labels) {
			continue
		}
		match := true
		for _, l := range m.GetLabel() {
			if labels[l.GetName()] != l.GetValue() {
				match = false
			}
		}
		if !match {
			continue
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

// requests is fxd_http_requests_total{route,method,code}, 0 when absent.
func requests(fams map[string]*dto.MetricFamily, route, method, code string) float64 {
	v, _ := metricValue(fams, "fxd_http_requests_total", map[string]string{"route": route, "method": method, "code": code})
	return v
}

// TestMetricsOfARunningServer scrapes the real binary's /metrics, parses
// it with the Prometheus parser, finds every named series, makes signed
// requests and finds the request counters moved by exactly them, under
// their route templates.
func TestMetricsOfARunningServer(t *testing.T) {
	t.Parallel()
	srv := startServer(t, t.TempDir())
	acct := srv.createAccount(t, "metrics")
	c := srv.client(t, srv.createKey(t, acct, "read,pay"))

	before := scrapeMetrics(t, srv)
	for _, name := range []string{
		"fxd_wal_last_index", "fxd_wal_fsync_batches_total", "fxd_wal_tail_bytes", "fxd_snapshot_applied_index",
		"fxd_snapshot_apply_lag_records", "fxd_active_accounts", "fxd_active_entities", "fxd_api_keys",
		"fxd_wal_fsync_duration_seconds", "fxd_wal_batch_records",
		"fxd_fx_live_orders", "fxd_fx_book_quotes", "fxd_fx_chain_jobs",
		"fxd_pay_live_transfers", "fxd_pay_live_links", "fxd_pay_chain_jobs",
		"fxd_webhook_endpoints", "fxd_webhook_attempts_ok_total", "fxd_webhook_backlog", "fxd_webhook_endpoints_by_state", "fxd_webhook_endpoints_under_previous_master_key",
		"fxd_chain_rpc_up", "fxd_chain_head_block", "fxd_chain_watcher_next_block", "fxd_chain_watcher_lag_blocks",
		"fxd_relayer_balance_wei", "fxd_relayer_pending_nonce", "fxd_relayer_in_flight",
		"fxd_build_info", "go_goroutines", "go_memstats_heap_alloc_bytes", "process_resident_memory_bytes", "process_cpu_seconds_total",
	} {
		require.Contains(t, before, name)
	}
	for name, typ := range map[string]dto.MetricType{
		"fxd_wal_fsync_duration_seconds": dto.MetricType_HISTOGRAM, "fxd_wal_batch_records": dto.MetricType_HISTOGRAM,
		"fxd_wal_fsync_batches_total": dto.MetricType_COUNTER, "fxd_wal_last_index": dto.MetricType_GAUGE,
	} {
		require.Equal(t, typ, before[name].GetType(), name)
	}
	b := buildinfo.Get() // the harness builds without -ldflags, as this test binary is
	v, ok := metricValue(before, "fxd_build_info", map[string]string{"version": b.Version, "commit": b.Commit, "go_version": b.GoVersion})
	require.True(t, ok, "fxd_build_info{version=%q,commit=%q,go_version=%q}", b.Version, b.Commit, b.GoVersion)
	require.Equal(t, 1.0, v)
	up, _ := metricValue(before, "fxd_chain_rpc_up", nil)
	require.Equal(t, 1.0, up)
	balance, _ := metricValue(before, "fxd_relayer_balance_wei", nil)
	require.Positive(t, balance, "the embedded chain funds the relayer")
	keys, _ := metricValue(before, "fxd_api_keys", nil)
	require.Equal(t, 1.0, keys)

	const writes = 3
	var contactID string
	for i := range writes {
		resp := call(t, c, "POST", basePath+"/contacts", fmt.Sprintf(`{"name":"m%d","address":"0x%040x"}`, i, i+1), nil)
		requireStatus(t, resp, 201)
		contactID = object(t, resp.Body)["id"].(string)
	}
	requireStatus(t, call(t, c, "GET", basePath+"/contacts/"+contactID, "", nil), 200)
	requireError(t, call(t, c, "GET", basePath+"/contacts/ct_nope", "", nil), 404, "not_found")
	requireError(t, call(t, c, "GET", basePath+"/no/such/route", "", nil), 404, "not_found")
	requireError(t, callPublic(t, srv.unsigned(t), "GET", basePath+"/account"), 401, "auth_failed")

	after := scrapeMetrics(t, srv)
	for _, m := range []struct {
		route, method, code string
		by                  float64
	}{
		{"/contacts", "POST", "201", writes},
		{"/contacts/{id}", "GET", "200", 1},
		{"/contacts/{id}", "GET", "404", 1},
		{"unmatched", "GET", "404", 1},
		{"/account", "GET", "401", 1},
	} {
		require.Equal(t, m.by, requests(after, m.route, m.method, m.code)-requests(before, m.route, m.method, m.code), "%+v", m)
		n, ok := metricValue(after, "fxd_http_request_duration_seconds", map[string]string{"route": m.route, "method": m.method})
		require.True(t, ok, "latency of %+v", m)
		require.GreaterOrEqual(t, n, m.by)
	}
	for _, s := range after["fxd_http_requests_total"].GetMetric() {
		for _, l := range s.GetLabel() {
			require.NotContains(t, l.GetValue(), contactID, "route labels are templates, never raw paths")
		}
	}
	for _, name := range []string{"fxd_wal_fsync_duration_seconds", "fxd_wal_batch_records", "fxd_wal_fsync_batches_total"} {
		b, _ := metricValue(before, name, nil)
		a, _ := metricValue(after, name, nil)
		require.GreaterOrEqual(t, a-b, float64(writes), "%s: each write waited for a durable batch of its own", name)
	}
	accounts, _ := metricValue(after, "fxd_active_entities", map[string]string{"kind": "account"})
	require.GreaterOrEqual(t, accounts, 1.0, "the account that wrote is in memory")
	srv.Stop(t)
}
