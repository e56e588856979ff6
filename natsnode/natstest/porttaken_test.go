package natstest

import (
	"net"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/loopback"
	"github.com/fxd-labs/fxd/natsnode"
)

// TestPortTaken: the retries in StartCluster and Add recognise a node
// failing to bind its route port, held by another process, as a taken
// port.
func TestPortTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	addr := ln.Addr().String()
	_, err = natsnode.Start(natsnode.Config{Name: "n0", StoreDir: filepath.Join(t.TempDir(), "n0"), ClusterName: "fxdtest",
		ClusterListen: addr, Peers: []string{"nats://" + addr}})
	require.Error(t, err)
	require.True(t, loopback.Taken(err), "%v", err)
	require.False(t, loopback.Taken(nil))
}
