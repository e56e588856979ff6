package httpd

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/internal/buildinfo"
)

// Metrics of the admin listener's GET /metrics.
//
// One private registry per Admin (never the global one): the Go runtime
// and process collectors, fxd_build_info, and collectors that read the
// service's own counters and gauges when scraped (metrics_*.go). Nothing
// here runs on a request's path: the one thing a request does for metrics
// is its row's atomic adds (metrics_http.go).

// newMetricsHandler builds the registry and its handler.
func (a *Admin) newMetricsHandler() http.Handler {
	reg := prometheus.NewRegistry()
	reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildInfoGauge(buildinfo.Get()),
		newEngineCollector(a.engine),
		newDeskCollector(a),
		newChainCollector(a),
		newAPICollector(a.engine),
	)
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		// A collector that fails leaves its series out; the rest are
		// still served.
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      promLogger{a.log},
	})
}

// buildInfoGauge is fxd_build_info{version,commit,go_version} 1, the
// build `fxd version` prints.
func buildInfoGauge(b buildinfo.Info) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "fxd_build_info",
		Help:        "The running build: version and commit stamped at link time, Go toolchain. Always 1.",
		ConstLabels: prometheus.Labels{"version": b.Version, "commit": b.Commit, "go_version": b.GoVersion},
	})
	g.Set(1)
	return g
}

// promLogger is promhttp's error log on the service's JSON log.
type promLogger struct{ l *slog.Logger }

func (p promLogger) Println(v ...any) { p.l.Warn("metrics: " + fmt.Sprint(v...)) }

// family is one metric of a collector: its description and value type.
type family struct {
	desc *prometheus.Desc
	kind prometheus.ValueType
}

func gaugeFamily(name, help string, labels ...string) family {
	return family{prometheus.NewDesc(name, help, labels, nil), prometheus.GaugeValue}
}

func counterFamily(name, help string, labels ...string) family {
	return family{prometheus.NewDesc(name, help, labels, nil), prometheus.CounterValue}
}

// emit sends one sample of the family.
func (f family) emit(ch chan<- prometheus.Metric, v float64, labels ...string) {
	ch <- prometheus.MustNewConstMetric(f.desc, f.kind, v, labels...)
}

// describeAll sends the descriptions of families and of descs (histograms).
func describeAll(ch chan<- *prometheus.Desc, families []family, descs ...*prometheus.Desc) {
	for _, f := range families {
		ch <- f.desc
	}
	for _, d := range descs {
		ch <- d
	}
}

// apis links each engine to the request stats of the public API serving
// it: the admin listener gets the engine, so it finds the API's counts
// without fxd serve handing it the API. A Server links itself in New and
// unlinks at Shutdown; the last one built over an engine is the one
// reported.
var apis sync.Map // *actors.Engine → *httpStats

func linkAPI(e *actors.Engine, s *httpStats) { apis.Store(e, s) }

func unlinkAPI(e *actors.Engine, s *httpStats) { apis.CompareAndDelete(e, s) }

// apiStats is the request stats of the API over e, nil for none.
func apiStats(e *actors.Engine) *httpStats {
	if s, ok := apis.Load(e); ok {
		return s.(*httpStats)
	}
	return nil
}
