package jslog_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/natsnode"
	"github.com/fxd-labs/fxd/natsnode/natstest"
)

// The package's tests share one standalone node (1-replica streams) and
// one 3-node cluster (3-replica streams), started on first use and shut
// down by TestMain; each test uses streams of its own. Tests that shut a
// node down start their own cluster.
var (
	testRoot string

	soloOnce sync.Once
	solo     *natsnode.Node
	soloErr  error

	clusterOnce sync.Once
	cluster     *natstest.Cluster
	clusterErr  error

	streamSeq atomic.Int64
)

func TestMain(m *testing.M) {
	root, err := os.MkdirTemp("", "jslog-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testRoot = root
	code := m.Run()
	if solo != nil {
		solo.Shutdown()
	}
	if cluster != nil {
		cluster.Shutdown()
	}
	os.RemoveAll(root)
	os.Exit(code)
}

// soloJS connects to the shared standalone node.
func soloJS(t testing.TB) jetstream.JetStream {
	t.Helper()
	soloOnce.Do(func() {
		solo, soloErr = natstest.StartNode(testRoot+"/solo", "solo", serverLogf)
		if soloErr == nil {
			soloErr = anchor(solo, 1)
		}
	})
	require.NoError(t, soloErr)
	return connect(t, solo)
}

// clusterJS connects to node i of the shared 3-node cluster.
func clusterJS(t testing.TB, i int) jetstream.JetStream {
	t.Helper()
	clusterOnce.Do(func() {
		cluster, clusterErr = natstest.StartCluster(testRoot+"/cluster", 3, serverLogf)
		if clusterErr == nil {
			clusterErr = anchor(cluster.Nodes[0], 3)
		}
	})
	require.NoError(t, clusterErr)
	return connect(t, cluster.Nodes[i])
}

// anchor creates a stream that stays for the whole run. nats-server
// v2.15.2 removes an account's streams directory in a goroutine when its
// last stream is deleted; a stream created meanwhile fails with "could not
// create storage directory" (stream.go, stop with deleteFlag). The tests
// delete their streams at cleanup and create the next at once, so the
// directory must never empty.
func anchor(n *natsnode.Node, replicas int) error {
	nc, err := n.Connect()
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: "ANCHOR", Subjects: []string{"anchor"}, Storage: jetstream.FileStorage, Replicas: replicas})
	return err
}

// connect opens a connection to n, closed at t's cleanup.
func connect(t testing.TB, n *natsnode.Node) jetstream.JetStream {
	t.Helper()
	nc, err := n.Connect()
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	return js
}

// newStream names a stream no other test uses and deletes it at t's
// cleanup (after the logs on it are closed: cleanups run last first).
func newStream(t testing.TB, js jetstream.JetStream) string {
	t.Helper()
	name := fmt.Sprintf("T%d", streamSeq.Add(1))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = js.DeleteStream(ctx, name)
	})
	return name
}

// testCtx is a context for one test's requests.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// serverLogf prints the servers' errors, which a failing test needs.
func serverLogf(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if strings.Contains(line, "connect to route") {
		return // nodes of a starting cluster dial peers not yet listening
	}
	if strings.Contains(line, "nats: error") || strings.Contains(line, "nats: fatal") || strings.Contains(line, "failed") {
		fmt.Fprintln(os.Stderr, line)
	}
}
