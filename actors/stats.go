package actors

import (
	"log/slog"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/histogram"
)

// Read-only views of the engine for the service's metrics and logs.

// LogFsyncDurations is the log's fsync-duration histogram since Open.
// (empty on a cluster log, whose fsyncs are the NATS servers').
func (e *Engine) LogFsyncDurations() histogram.Snapshot {
	if e.local() == nil {
		return histogram.Snapshot{}
	}
	return e.local().FsyncDurations()
}

// LogBatchSizes is the records-per-batch histogram of the logs since
// start, summed over them: the local log's fsyncs, or the stream
// messages this node published as a partition's owner.
func (e *Engine) LogBatchSizes() histogram.Snapshot {
	var sum histogram.Snapshot
	for _, p := range e.parts {
		sum = sum.Add(p.lg.Load().batchSizes())
	}
	return sum
}

// ActiveByKind counts the entity actors in memory by kind (indexed by
// domain.Kind). It walks the registry a shard at a time, holding each
// shard's lock while it counts that shard (at most MaxActiveAccounts
// entries in all, a few ms): a scrape's cost, never a request's.
func (e *Engine) ActiveByKind() [domain.NumKinds]int {
	var n [domain.NumKinds]int
	for i := range e.reg.shards {
		sh := &e.reg.shards[i]
		sh.mu.Lock()
		for id := range sh.m {
			if k, ok := domain.KindOf(id); ok {
				n[k]++
			}
		}
		sh.mu.Unlock()
	}
	return n
}

// Logger is the engine's logger (Config.Logger): the service's one JSON
// log, for the parts that get the engine and not the logger.
func (e *Engine) Logger() *slog.Logger { return e.cfg.Logger }
