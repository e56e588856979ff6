package cluster

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/natsnode"
)

// TestRemovePeerMovesReplicas is replacing a node whose disk is lost: of
// three nodes holding two 3-replica streams, one goes for good; removing
// it from the meta group lets a new node, under a new name and with an
// empty store, take its replicas, so every stream has three live replicas
// again and none on the dead node.
func TestRemovePeerMovesReplicas(t *testing.T) {
	const partitions = 2
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := startWithStreams(ctx, t, partitions)
	dead := c.Nodes[2]
	dead.Shutdown()

	n0 := &Node{NATS: c.Nodes[0]}
	require.ErrorContains(t, n0.RemovePeer(ctx, "n0"), "another node")
	// Each try waits up to 5 s for the meta leader (one is elected after
	// the dead node led it).
	deadline := time.Now().Add(time.Minute)
	for err := n0.RemovePeer(ctx, dead.Name()); err != nil; err = n0.RemovePeer(ctx, dead.Name()) {
		require.True(t, time.Now().Before(deadline), "remove peer: %v", err)
	}

	peers := []string{c.Nodes[0].ClusterURL(), c.Nodes[1].ClusterURL()}
	fresh, err := natsnode.Start(natsnode.Config{Name: "n3", StoreDir: filepath.Join(t.TempDir(), "n3"), ClusterName: "fxdtest",
		ClusterListen: "127.0.0.1:0", Peers: peers})
	require.NoError(t, err)
	t.Cleanup(fresh.Shutdown)

	nc, err := c.Nodes[0].Connect()
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	var saw []string
	require.Eventually(t, func() bool {
		for p := range partitions {
			s, err := js.Stream(ctx, StreamName(p))
			if err != nil {
				return false
			}
			info, err := s.Info(ctx)
			if err != nil || info.Cluster == nil || info.Cluster.Leader == "" {
				return false
			}
			saw = []string{info.Cluster.Leader}
			for _, r := range info.Cluster.Replicas {
				if r.Offline || !r.Current {
					return false
				}
				saw = append(saw, r.Name)
			}
			slices.Sort(saw)
			if !slices.Equal(saw, []string{"n0", "n1", "n3"}) {
				return false
			}
		}
		return true
	}, 2*time.Minute, 500*time.Millisecond, "replicas on n0, n1 and the new n3 (last seen %v)", func() []string { return saw }())
}
