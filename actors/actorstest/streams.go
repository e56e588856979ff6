// Package actorstest configures engines for other packages' tests.
package actorstest

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
)

// OnStreams is the configuration of an engine as a cluster node opens
// one, in dir: parts parts on one-replica streams of js named
// <stream>_<part>, owning nothing until Own. Engines opened on the same
// streams hand the parts over between them.
func OnStreams(dir string, js jetstream.JetStream, stream string, parts int, logger *slog.Logger) actors.Config {
	return actors.Config{DataDir: dir, Logger: logger, Partitions: parts, Handover: true,
		OpenLog: func(part int, opts partlog.Options) (partlog.PartitionLog, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return jslog.Open(ctx, js, jslog.Config{Stream: fmt.Sprintf("%s_%d", stream, part), Replicas: 1}, opts)
		}}
}
