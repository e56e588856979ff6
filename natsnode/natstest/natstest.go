// Package natstest starts embedded NATS nodes for tests: one standalone
// node, or a cluster of n nodes on loopback that is ready for replicated
// streams. It is not a _test package so that the tests of every package
// that runs on JetStream (jslog, later the engine) share it; it takes no
// *testing.T, and callers shut down what they start.
package natstest

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/internal/loopback"
	"github.com/fxd-labs/fxd/natsnode"
)

// ReadyTimeout bounds the wait for a cluster's JetStream meta leader and
// peers: a first election takes the raft election timeout (4 to 9 s in
// nats-server) and a busy machine more.
const ReadyTimeout = 60 * time.Second

// pollEvery is how often readiness is polled.
const pollEvery = 20 * time.Millisecond

// StartNode starts a standalone node (no cluster) storing in dir.
func StartNode(dir, name string, logf func(string, ...any)) (*natsnode.Node, error) {
	return natsnode.Start(natsnode.Config{Name: name, StoreDir: dir, Logf: logf})
}

// Standalone is a standalone node with a connection to its JetStream.
type Standalone struct {
	Node *natsnode.Node
	Conn *nats.Conn
	JS   jetstream.JetStream
}

// StartJetStream starts a standalone node storing in dir and connects to
// its JetStream. Close it when done.
func StartJetStream(dir, name string) (*Standalone, error) {
	node, err := StartNode(dir, name, nil)
	if err != nil {
		return nil, err
	}
	nc, err := node.Connect()
	if err != nil {
		node.Shutdown()
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		node.Shutdown()
		return nil, fmt.Errorf("natstest: jetstream: %w", err)
	}
	return &Standalone{Node: node, Conn: nc, JS: js}, nil
}

// Close closes the connection and shuts the node down.
func (s *Standalone) Close() {
	s.Conn.Close()
	s.Node.Shutdown()
}

// Cluster is n nodes routed to each other.
type Cluster struct {
	Nodes []*natsnode.Node
	dir   string
	logf  func(string, ...any)
}

// StartCluster starts n nodes named n0, n1, ... storing under dir/<name>,
// and waits until JetStream has a meta leader that counts all n peers, so
// that a stream of up to n replicas can be created at once. Route ports
// are picked free first, then released and given to the nodes: when
// another process took one in between, the start is tried again on fresh
// ports (under dir/retry<k>), up to bindTries times.
func StartCluster(dir string, n int, logf func(string, ...any)) (*Cluster, error) {
	if n < 1 {
		return nil, fmt.Errorf("natstest: cluster of %d nodes", n)
	}
	for try := 1; ; try++ {
		c, err := startCluster(dir, n, logf)
		if try == bindTries || !loopback.Taken(err) {
			return c, err
		}
		dir = filepath.Join(dir, fmt.Sprintf("retry%d", try))
	}
}

// bindTries bounds the starts tried when a picked port was taken.
const bindTries = 3

func startCluster(dir string, n int, logf func(string, ...any)) (*Cluster, error) {
	addrs, err := loopback.FreeAddrs(n)
	if err != nil {
		return nil, fmt.Errorf("natstest: cluster ports: %w", err)
	}
	peers := make([]string, n)
	for i, a := range addrs {
		peers[i] = "nats://" + a
	}
	c := &Cluster{dir: dir, logf: logf}
	for i := range n {
		name := fmt.Sprintf("n%d", i)
		node, err := natsnode.Start(natsnode.Config{
			Name:          name,
			StoreDir:      filepath.Join(dir, name),
			ClusterName:   "fxdtest",
			ClusterListen: addrs[i],
			Peers:         peers,
			Logf:          logf,
		})
		if err != nil {
			c.Shutdown()
			return nil, fmt.Errorf("natstest: %w", err)
		}
		c.Nodes = append(c.Nodes, node)
	}
	if err := c.WaitReady(ReadyTimeout); err != nil {
		c.Shutdown()
		return nil, err
	}
	return c, nil
}

// Add starts one more node, named n<k> after the k nodes started before
// (a node added to a running cluster), routed to the others, and waits
// until the meta leader counts it. A picked port taken meanwhile is
// picked again, as in StartCluster.
func (c *Cluster) Add() (*natsnode.Node, error) {
	name := fmt.Sprintf("n%d", len(c.Nodes))
	for try := 1; ; try++ {
		node, err := c.add(name, filepath.Join(c.dir, fmt.Sprintf("%s-%d", name, try)))
		if err == nil {
			c.Nodes = append(c.Nodes, node)
			return node, c.WaitReady(ReadyTimeout)
		}
		if try == bindTries || !loopback.Taken(err) {
			return nil, err
		}
	}
}

// add starts node name on a fresh port, storing in dir.
func (c *Cluster) add(name, dir string) (*natsnode.Node, error) {
	addrs, err := loopback.FreeAddrs(1)
	if err != nil {
		return nil, fmt.Errorf("natstest: cluster port: %w", err)
	}
	peers := []string{"nats://" + addrs[0]}
	for _, n := range c.Nodes {
		if n.Server().Running() {
			peers = append(peers, n.ClusterURL())
		}
	}
	node, err := natsnode.Start(natsnode.Config{Name: name, StoreDir: dir, ClusterName: "fxdtest",
		ClusterListen: addrs[0], Peers: peers, Logf: c.logf})
	if err != nil {
		return nil, fmt.Errorf("natstest: add %s: %w", name, err)
	}
	return node, nil
}

// WaitReady polls until a running node is the JetStream meta leader and
// counts as many peers (online, with JetStream) as there are running
// nodes.
func (c *Cluster) WaitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		running := c.running()
		for _, n := range c.Nodes {
			s := n.Server()
			if s.Running() && s.JetStreamIsLeader() && len(s.JetStreamClusterPeers()) >= running {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natstest: no JetStream meta leader with %d peers after %s", running, timeout)
		}
		time.Sleep(pollEvery)
	}
}

// running counts the nodes not shut down.
func (c *Cluster) running() int {
	k := 0
	for _, n := range c.Nodes {
		if n.Server().Running() {
			k++
		}
	}
	return k
}

// Node returns the node named name, nil if there is none.
func (c *Cluster) Node(name string) *natsnode.Node {
	for _, n := range c.Nodes {
		if n.Name() == name {
			return n
		}
	}
	return nil
}

// Shutdown shuts every node down.
func (c *Cluster) Shutdown() {
	for _, n := range c.Nodes {
		n.Shutdown()
	}
}
