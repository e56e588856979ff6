package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClusterFlags: a cluster node needs its name, its route address and
// its peers; the partition count is the ids'; the chain desks are not run
// on a cluster yet, so asking for a chain there is refused, not ignored.
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
		{"rpc chain", node, serveFlags{chain: "rpc"}, "does not run the chain desks"},
		{"rpc url", node, serveFlags{chain: "embedded", rpcURL: "http://x"}, "does not run the chain desks"},
	} {
		err := c.flags.check(c.serve)
		if c.want == "" {
			require.NoError(t, err, c.name)
		} else {
			require.ErrorContains(t, err, c.want, c.name)
		}
	}
}
