package natsnode_test

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/natsnode"
)

func TestStartStandalone(t *testing.T) {
	n, err := natsnode.Start(natsnode.Config{Name: "solo", StoreDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(n.Shutdown)

	// SyncAlways is forced: every acknowledged write was fsynced.
	require.True(t, n.Server().JetStreamConfig().SyncAlways)
	require.Empty(t, n.ClusterURL())

	nc, err := n.Connect()
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	require.EqualValues(t, natsnode.MaxPayload, nc.MaxPayload())

	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s"}, Storage: jetstream.FileStorage})
	require.NoError(t, err)
	ack, err := js.Publish(ctx, "s", []byte("x"))
	require.NoError(t, err)
	require.EqualValues(t, 1, ack.Sequence)

	n.Shutdown()
	n.Shutdown() // idempotent
	require.False(t, n.Server().Running())
}

func TestStartRefusesBadConfig(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		cfg  natsnode.Config
		want string
	}{
		{"no name", natsnode.Config{StoreDir: dir}, "Name is required"},
		{"no store", natsnode.Config{Name: "a"}, "StoreDir is required"},
		{"bad client listen", natsnode.Config{Name: "a", StoreDir: dir, ClientListen: "nope"}, "ClientListen"},
		{"peers without cluster", natsnode.Config{Name: "a", StoreDir: dir, Peers: []string{"nats://127.0.0.1:1"}}, "need ClusterListen"},
		{"cluster without name", natsnode.Config{Name: "a", StoreDir: dir, ClusterListen: "127.0.0.1:0", Peers: []string{"nats://127.0.0.1:1"}}, "needs ClusterName"},
		{"cluster without peers", natsnode.Config{Name: "a", StoreDir: dir, ClusterName: "c", ClusterListen: "127.0.0.1:0"}, "needs Peers"},
		{"bad peer", natsnode.Config{Name: "a", StoreDir: dir, ClusterName: "c", ClusterListen: "127.0.0.1:0", Peers: []string{"::"}}, "not a route URL"},
		{"peer twice", natsnode.Config{Name: "a", StoreDir: dir, ClusterName: "c", ClusterListen: "127.0.0.1:0",
			Peers: []string{"nats://127.0.0.1:1", "nats://127.0.0.1:2", "nats://127.0.0.1:1"}}, "peer 127.0.0.1:1 is listed twice"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := natsnode.Start(tc.cfg)
			require.Nil(t, n)
			require.ErrorContains(t, err, tc.want)
			require.ErrorContains(t, err, "natsnode: start")
		})
	}
}

// A port taken by another server fails the start with the server's own
// reason, at once: the fatal error ends the wait, which would otherwise
// last the whole (here ten minutes long) start timeout.
func TestStartReportsListenFailure(t *testing.T) {
	first, err := natsnode.Start(natsnode.Config{Name: "a", StoreDir: t.TempDir()})
	require.NoError(t, err)
	t.Cleanup(first.Shutdown)
	port := first.Server().Addr().String()
	n, err := natsnode.Start(natsnode.Config{Name: "b", StoreDir: t.TempDir(), ClientListen: port, StartTimeout: 10 * time.Minute})
	require.Nil(t, n)
	require.ErrorContains(t, err, `natsnode: start "b"`)
	require.ErrorContains(t, err, "listening")
	require.NotContains(t, err.Error(), "not ready for clients after", "ended by the fatal error, not the timeout")
}
