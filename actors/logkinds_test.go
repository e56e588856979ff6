package actors

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/natsnode"
	"github.com/fxd-labs/fxd/natsnode/natstest"
	"github.com/fxd-labs/fxd/partlog"
)

// logKind is one of the logs the engine runs on (DESIGN.md, "Beyond one
// machine"): the engine's recovery and applier tests run on each.
type logKind struct {
	name string
	// config returns the engine's Config for a data dir: the same dir
	// gets the same log on every call (a restart).
	config func(t *testing.T, dir string) Config
}

// logKinds: the local write-ahead log, a JetStream stream on an embedded
// node (one replica: the replicated cases are jslog's; here the engine on
// the interface is what is tested), and four streams, one per part (a
// cluster node's partition streams), so records of one test land in
// several logs applied independently.
func logKinds() []logKind {
	return []logKind{
		{"local", func(_ *testing.T, dir string) Config { return Config{DataDir: dir} }},
		{"jetstream", jetstreamConfig},
		{"jetstream-4-parts", func(t *testing.T, dir string) Config {
			cfg := jetstreamConfig(t, dir)
			cfg.Partitions = 4
			return cfg
		}},
	}
}

// jsNode is one embedded NATS node shared by the package's tests (each
// engine gets its own stream, named after its data dir).
var jsNode struct {
	dir  string // made and removed by TestMain
	once sync.Once
	node *natsnode.Node
	js   jetstream.JetStream
	err  error
}

func sharedJetStream(t *testing.T) jetstream.JetStream {
	t.Helper()
	jsNode.once.Do(func() {
		if jsNode.node, jsNode.err = natstest.StartNode(jsNode.dir, "actors-test", nil); jsNode.err != nil {
			return
		}
		nc, err := jsNode.node.Connect()
		if err != nil {
			jsNode.err = err
			return
		}
		jsNode.js, jsNode.err = jetstream.New(nc)
	})
	require.NoError(t, jsNode.err)
	return jsNode.js
}

// jetstreamConfig opens the engine on a one-replica stream named after dir.
func jetstreamConfig(t *testing.T, dir string) Config {
	sum := sha256.Sum256([]byte(dir))
	return streamConfig(t, dir, "engine_"+hex.EncodeToString(sum[:8]))
}

// streamConfig opens the engine in dir on one-replica streams named after
// stream: stream itself for part 0, stream_<part> for the others.
func streamConfig(t *testing.T, dir, stream string) Config {
	js := sharedJetStream(t)
	return Config{DataDir: dir, OpenLog: func(part int, opts partlog.Options) (partlog.PartitionLog, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		name := stream
		if part > 0 {
			name = fmt.Sprintf("%s_%d", stream, part)
		}
		l, err := jslog.Open(ctx, js, jslog.Config{Stream: name, Replicas: 1}, opts)
		if err != nil {
			return nil, fmt.Errorf("engine log %s: %w", name, err)
		}
		return l, nil
	}}
}

// forEachLog runs fn as a subtest on each log kind.
func forEachLog(t *testing.T, fn func(t *testing.T, k logKind)) {
	for _, k := range logKinds() {
		t.Run(k.name, func(t *testing.T) { fn(t, k) })
	}
}

// TestMain gives the shared node a directory for the whole run and shuts
// it down at the end.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "actors-jetstream-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	jsNode.dir = dir
	code := m.Run()
	if jsNode.node != nil {
		jsNode.node.Shutdown()
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
