package jslog_test

import (
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/partlog/logtest"
)

// The JetStream log passes the conformance suite of every engine log, on
// a 1-replica stream of one node and a 3-replica stream of a 3-node
// cluster. Each Append of the suite is a message of its own, so
// TruncateFront purges whole messages within the suite's entries.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name     string
		replicas int
		js       func(t testing.TB) jetstream.JetStream
	}{
		{"R1", 1, soloJS},
		{"R3", 3, func(t testing.TB) jetstream.JetStream { return clusterJS(t, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logtest.Run(t, func(t *testing.T) logtest.Open {
				js := tc.js(t)
				cfg := jslog.Config{Stream: newStream(t, js), Replicas: tc.replicas}
				ctx := testCtx(t)
				return func(opts partlog.Options) (partlog.PartitionLog, error) {
					l, err := jslog.Open(ctx, js, cfg, opts)
					if err != nil {
						return nil, err
					}
					return l, nil
				}
			})
		})
	}
}
