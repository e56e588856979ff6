package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClusterFlags: a cluster node needs its name, its route address and
// its peers; the partition count is the ids'; the chain side runs on
// --chain rpc only, so an --rpc-url on the embedded chain is refused, not
// ignored.
func TestClusterFlags(t *testing.T) {
	node := clusterFlags{name: "c", node: "n0", listen: "127.0.0.1:6222", peers: []string{"127.0.0.1:6222"}, partitions: 64}
	for _, c := range []struct {
		name  string
		flags clusterFlags
		serve serveFlags
		want  string // "" = accepted
	}{
		{"single node", clusterFlags{partitions: 64}, serveFlags{chain: "embedded"}, ""},
		{"cluster node", node, serveFlags{chain: "embedded"}, ""},
		{"node name alone", clusterFlags{node: "n0", partitions: 64}, serveFlags{chain: "embedded"}, "need --cluster-name"},
		{"peers alone", clusterFlags{peers: []string{"a:1"}, partitions: 64}, serveFlags{chain: "embedded"}, "need --cluster-name"},
		{"no node name", func() clusterFlags { f := node; f.node = ""; return f }(), serveFlags{chain: "embedded"}, "needs --node-name"},
		{"no peers", func() clusterFlags { f := node; f.peers = nil; return f }(), serveFlags{chain: "embedded"}, "needs --node-name"},
		{"32 partitions", func() clusterFlags { f := node; f.partitions = 32; return f }(), serveFlags{chain: "embedded"}, "--partitions 32"},
		{"rpc chain", node, serveFlags{chain: "rpc", rpcURL: "http://x"}, ""},
		{"rpc url", node, serveFlags{chain: "embedded", rpcURL: "http://x"}, "--rpc-url needs --chain rpc"},
	} {
		err := c.flags.check(c.serve)
		if c.want == "" {
			require.NoError(t, err, c.name)
		} else {
			require.ErrorContains(t, err, c.want, c.name)
		}
	}
	require.True(t, node.chainDesks(serveFlags{chain: "rpc"}), "a node on --chain rpc runs the chain side")
	require.False(t, node.chainDesks(serveFlags{chain: "embedded"}), "each node's embedded chain would be its own")
}
