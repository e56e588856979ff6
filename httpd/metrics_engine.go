package httpd

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/histogram"
)

// engineCollector reports the log, the snapshot store, the entities in
// memory and the key directory, read from the engine when scraped.
type engineCollector struct {
	e                                       *actors.Engine
	lastIndex, batches, tailBytes           family
	applied, applyLag, accounts, keys, kind family
	owned, taken, given                     family
	fsync, batchSize                        *prometheus.Desc
}

func newEngineCollector(e *actors.Engine) *engineCollector {
	return &engineCollector{
		e:         e,
		lastIndex: gaugeFamily("fxd_wal_last_index", "Last durable log index."),
		batches: counterFamily("fxd_wal_fsync_batches_total",
			"Group-committed log batches made durable since start, one fsync each (on a cluster node: stream messages it published)."),
		tailBytes: gaugeFamily("fxd_wal_tail_bytes",
			"Bytes of the log's tail segment, which the log library also holds in memory (up to the segment size)."),
		applied: gaugeFamily("fxd_snapshot_applied_index", "Last log index in the snapshot store."),
		applyLag: gaugeFamily("fxd_snapshot_apply_lag_records",
			"Durable log records not yet applied to the snapshot store (last log index minus applied index)."),
		accounts: gaugeFamily("fxd_active_accounts", "Account actors in memory."),
		keys:     gaugeFamily("fxd_api_keys", "API keys in the directory."),
		kind: gaugeFamily("fxd_active_entities",
			"Entity actors in memory, by kind (account, order, transfer, payment_link, claim, webhook_endpoint, event).", "kind"),
		owned: gaugeFamily("fxd_partitions_owned",
			"Partition logs whose entities this node runs: 1 on a single node (its one log holds every partition); on a cluster node, the partitions it leads and has taken up."),
		taken: counterFamily("fxd_partitions_taken_total",
			"Partitions this cluster node took up since start (it became their stream's leader: a failover or a rebalancing move)."),
		given: counterFamily("fxd_partitions_given_up_total",
			"Partitions this cluster node gave up since start (another node leads their stream now)."),
		fsync: prometheus.NewDesc("fxd_wal_fsync_duration_seconds",
			"Duration of each log batch's fdatasync since start.", nil, nil),
		batchSize: prometheus.NewDesc("fxd_wal_batch_records",
			"Records per durable log batch (group commit: one fsync each; on a cluster node one stream message each) since start.", nil, nil),
	}
}

func (c *engineCollector) Describe(ch chan<- *prometheus.Desc) {
	describeAll(ch, []family{c.lastIndex, c.batches, c.tailBytes, c.applied, c.applyLag, c.accounts, c.keys, c.kind,
		c.owned, c.taken, c.given},
		c.fsync, c.batchSize)
}

func (c *engineCollector) Collect(ch chan<- prometheus.Metric) {
	e := c.e
	last, applied := e.LastIndex(), e.AppliedIndex()
	c.lastIndex.emit(ch, float64(last))
	c.batches.emit(ch, float64(e.LogBatches()))
	c.tailBytes.emit(ch, float64(e.LogTailBytes()))
	c.applied.emit(ch, float64(applied))
	c.applyLag.emit(ch, float64(last-min(applied, last)))
	c.accounts.emit(ch, float64(e.ActiveAccounts()))
	c.keys.emit(ch, float64(e.Directory().Len()))
	c.owned.emit(ch, float64(e.OwnedParts()))
	taken, given := e.Handovers()
	c.taken.emit(ch, float64(taken))
	c.given.emit(ch, float64(given))
	byKind := e.ActiveByKind()
	for k := 1; k < domain.NumKinds; k++ {
		c.kind.emit(ch, float64(byKind[k]), domain.Kind(k).String())
	}
	ch <- constHistogram(c.fsync, e.LogFsyncDurations(), 1e-9) // nanoseconds → seconds
	ch <- constHistogram(c.batchSize, e.LogBatchSizes(), 1)
}

// constHistogram is a histogram snapshot as a Prometheus one, its units
// scaled by scale.
func constHistogram(d *prometheus.Desc, h histogram.Snapshot, scale float64, labels ...string) prometheus.Metric {
	count, sum, buckets := h.Cumulative(scale)
	return prometheus.MustNewConstHistogram(d, count, sum, buckets, labels...)
}
