package natstest_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/natsnode/natstest"
)

// A started cluster takes a 3-replica stream at once, and its leader is
// one of the nodes.
func TestStartClusterReady(t *testing.T) {
	c, err := natstest.StartCluster(t.TempDir(), 3, t.Logf)
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	require.Len(t, c.Nodes, 3)

	nc, err := c.Nodes[1].Connect()
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "R3", Subjects: []string{"r3"}, Storage: jetstream.FileStorage, Replicas: 3})
	require.NoError(t, err)
	_, err = js.Publish(ctx, "r3", []byte("x"))
	require.NoError(t, err)
	info, err := s.Info(ctx)
	require.NoError(t, err)
	require.NotNil(t, info.Cluster)
	require.NotNil(t, c.Node(info.Cluster.Leader), "leader %q", info.Cluster.Leader)
	require.Len(t, info.Cluster.Replicas, 2)
}

func TestStartClusterRefusesNoNodes(t *testing.T) {
	_, err := natstest.StartCluster(t.TempDir(), 0, nil)
	require.Error(t, err)
}
