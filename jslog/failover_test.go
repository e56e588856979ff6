package jslog_test

import (
	"context"
	"fmt"
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

// The node leading a 3-replica stream is shut down while a log appends
// through it. Every entry acknowledged before is read back, at its index,
// by a log reopened through a surviving node once a new leader is elected,
// and appends go on from there on an unbroken chain.
func TestLeaderShutdownKeepsAcknowledged(t *testing.T) {
	c, err := natstest.StartCluster(t.TempDir(), 3, nil)
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	ctx := testCtx(t)
	cfg := jslog.Config{Stream: "FAILOVER", Replicas: 3, PublishTimeout: 3 * time.Second}

	// Open through any node to create the stream, then find its leader
	// and append through that node.
	setup := connect(t, c.Nodes[0])
	l, err := jslog.Open(ctx, setup, cfg, partlog.Options{})
	require.NoError(t, err)
	require.NoError(t, l.Close())
	leader := streamLeader(t, setup, cfg.Stream, "")
	old := c.Node(leader)
	require.NotNil(t, old)

	acked := appendUntilShutdown(t, connect(t, old), cfg, old)
	require.NotEmpty(t, acked)

	var survivor *natsnode.Node
	for _, n := range c.Nodes {
		if n != old {
			survivor = n
			break
		}
	}
	js := connect(t, survivor)
	newLeader := streamLeader(t, js, cfg.Stream, leader)
	t.Logf("acknowledged %d entries; leader %s -> %s", len(acked), leader, newLeader)

	l, err = jslog.Open(ctx, js, cfg, partlog.Options{OnFatal: func(err error) { t.Errorf("OnFatal: %v", err) }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	last := l.LastIndex()
	got := map[uint64]string{}
	require.NoError(t, l.Scan(1, func(index uint64, p []byte) error {
		got[index] = string(p)
		return nil
	}))
	require.Len(t, got, int(last))
	for index, p := range acked {
		require.Equal(t, p, got[index], "acknowledged index %d", index)
	}
	index, err := l.Append([]byte("after failover"))
	require.NoError(t, err)
	require.Equal(t, last+1, index)
	require.Equal(t, []string{"after failover"}, scanStrings(t, l, last+1))
	require.NoError(t, l.Scan(1, func(uint64, []byte) error { return nil }), "chain across the failover")
}

// appendUntilShutdown appends from four goroutines through js, shuts
// node down once 200 entries are acknowledged, and stops appending when
// the shutdown is over (appends may fail meanwhile, or go on through
// another node); it returns the acknowledged entries by index.
func appendUntilShutdown(t *testing.T, js jetstream.JetStream, cfg jslog.Config, node *natsnode.Node) map[uint64]string {
	t.Helper()
	l, err := jslog.Open(testCtx(t), js, cfg, partlog.Options{OnFatal: func(error) {}})
	require.NoError(t, err)
	var (
		mu    sync.Mutex
		acked = map[uint64]string{}
		wg    sync.WaitGroup
		shut  sync.Once
		over  = make(chan struct{})
	)
	shutdown := func() {
		go func() {
			node.Shutdown()
			close(over)
		}()
	}
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				select {
				case <-over:
					return
				default:
				}
				p := fmt.Sprintf("w%d-%d", w, k)
				index, err := l.Append([]byte(p))
				if err != nil {
					return // failed (or timed out) with the node gone
				}
				mu.Lock()
				acked[index] = p
				n := len(acked)
				mu.Unlock()
				if n >= 200 {
					shut.Do(shutdown)
				}
			}
		}()
	}
	wg.Wait()
	_ = l.Close()
	shut.Do(shutdown) // if every append failed before 200: the test fails below, without hanging
	<-over
	require.GreaterOrEqual(t, len(acked), 200, "appends failed before the shutdown")
	return acked
}

// streamLeader polls the stream's cluster info until it names a leader
// other than not, and returns it.
func streamLeader(t *testing.T, js jetstream.JetStream, stream, not string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		s, err := js.Stream(ctx, stream)
		if err == nil {
			info := s.CachedInfo()
			if info.Cluster != nil && info.Cluster.Leader != "" && info.Cluster.Leader != not {
				return info.Cluster.Leader
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no leader for stream %s other than %q: %v", stream, not, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
