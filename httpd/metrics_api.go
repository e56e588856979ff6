package httpd

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fxd-labs/fxd/actors"
)

// apiCollector reports the public API's rows (metrics_http.go) at scrape
// time. Rows with no answer yet are left out, so the exposition holds the
// routes in use, not the whole table times every status.
type apiCollector struct {
	e        *actors.Engine
	requests family
	latency  *prometheus.Desc
}

func newAPICollector(e *actors.Engine) *apiCollector {
	return &apiCollector{
		e: e,
		requests: counterFamily("fxd_http_requests_total",
			"Answers of the public API since start, by route template (\"unmatched\": no route), method and status code.",
			"route", "method", "code"),
		latency: prometheus.NewDesc("fxd_http_request_duration_seconds",
			"Time from the public API's handler call to its answer being ready (a streamed export's body is written after), by route template and method.",
			[]string{"route", "method"}, nil),
	}
}

func (c *apiCollector) Describe(ch chan<- *prometheus.Desc) {
	describeAll(ch, []family{c.requests}, c.latency)
}

func (c *apiCollector) Collect(ch chan<- prometheus.Metric) {
	s := apiStats(c.e)
	if s == nil {
		return
	}
	for i := range s.rows {
		r := &s.rows[i]
		lat := r.latency.Read()
		if lat.Count() == 0 {
			continue
		}
		for _, n := range r.counts() {
			c.requests.emit(ch, float64(n.count), r.route, r.method, n.code)
		}
		ch <- constHistogram(c.latency, lat, 1e-9, r.route, r.method) // nanoseconds → seconds
	}
}
