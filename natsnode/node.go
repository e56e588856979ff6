// Package natsnode runs one embedded NATS server with JetStream, as fxd
// runs it in a cluster (DESIGN.md, "Beyond one machine"): nats-server as a
// library, file storage under the node's store directory, every write
// fsynced before it is acknowledged (SyncAlways, forced in code), routes to
// the other nodes of the cluster.
//
// There is no Kill: a server in this process cannot be stopped without
// flushing its files. Tests shut nodes down cleanly with Shutdown; a crash
// needs a separate process.
package natsnode

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Node is one running embedded NATS server with JetStream.
type Node struct {
	cfg  Config
	srv  *server.Server
	log  *serverLog
	once sync.Once
}

// Start starts the server and waits until it accepts clients with
// JetStream enabled. In a cluster JetStream's meta leader may not be
// elected yet: that needs a quorum of the peers (see natstest for a wait).
func Start(cfg Config) (*Node, error) {
	var pw [24]byte
	if _, err := rand.Read(pw[:]); err != nil {
		return nil, fmt.Errorf("natsnode: start %q: %w", cfg.Name, err)
	}
	cfg.sysPassword = hex.EncodeToString(pw[:])
	opts, err := cfg.serverOptions()
	if err != nil {
		return nil, fmt.Errorf("natsnode: start %q: %w", cfg.Name, err)
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsnode: start %q: new server: %w", cfg.Name, err)
	}
	lg := &serverLog{logf: cfg.Logf}
	// Always set: it never exits the process on a fatal error (the
	// server's own logger would), and Start reports the last one.
	srv.SetLoggerV2(lg, false, false, false)
	go srv.Start()
	n := &Node{cfg: cfg, srv: srv, log: lg}
	if err := n.awaitReady(cfg.StartTimeout); err != nil {
		n.Shutdown()
		return nil, err
	}
	if !srv.JetStreamEnabled() {
		n.Shutdown()
		return nil, fmt.Errorf("natsnode: start %q: JetStream did not start: %s", cfg.Name, lg.lastFailure())
	}
	return n, nil
}

// awaitReady waits until the server accepts clients, at most timeout; a
// fatal error it logs meanwhile (a port taken, a store it cannot open)
// ends the wait at once rather than at the timeout.
func (n *Node) awaitReady(timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); ; {
		if n.srv.ReadyForConnections(readyPoll) {
			return nil
		}
		if n.log.failed() {
			return fmt.Errorf("natsnode: start %q: %s", n.cfg.Name, n.log.lastFailure())
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("natsnode: start %q: not ready for clients after %s: %s", n.cfg.Name, timeout, n.log.lastFailure())
		}
	}
}

// readyPoll is how often awaitReady looks for a fatal error.
const readyPoll = 100 * time.Millisecond

// Name is the server's name (stream leaders are reported by it).
func (n *Node) Name() string { return n.cfg.Name }

// ClientURL is the nats:// URL clients connect to.
func (n *Node) ClientURL() string { return n.srv.ClientURL() }

// ClusterURL is the route URL other nodes list in Peers, "" for a
// standalone node.
func (n *Node) ClusterURL() string {
	addr := n.srv.ClusterAddr()
	if addr == nil {
		return ""
	}
	return "nats://" + net.JoinHostPort(addr.IP.String(), fmt.Sprint(addr.Port))
}

// Server is the embedded server, for what this package does not wrap
// (tests ask it about JetStream's meta leader).
func (n *Node) Server() *server.Server { return n.srv }

// Connect opens a client connection to this node over loopback TCP. The
// connection learns the cluster's other nodes from the server and
// reconnects to them if this one goes away (nats.go's defaults, which opts
// may override).
//
// Not nats.InProcessServer: an in-process pipe would save the loopback
// syscalls, but in make bench's cluster phase (four alternating runs,
// 2026-11-30) it changed nothing measurable: 563 and 610 µs of CPU per
// acknowledged write over the three nodes against 544 and 657 µs over
// TCP. The cost is JetStream's replication (on every node each batch is
// written to the raft log and fsynced, then stored again in the stream),
// not this connection; and a pipe could not reconnect elsewhere.
func (n *Node) Connect(opts ...nats.Option) (*nats.Conn, error) {
	opts = append([]nats.Option{nats.Name("fxd-" + n.cfg.Name)}, opts...)
	nc, err := nats.Connect(n.ClientURL(), opts...)
	if err != nil {
		return nil, fmt.Errorf("natsnode: connect to %q at %s: %w", n.cfg.Name, n.ClientURL(), err)
	}
	return nc, nil
}

// ConnectSystem is Connect as the node's system user, for the JetStream
// calls only the system account may make (RemovePeer).
func (n *Node) ConnectSystem(opts ...nats.Option) (*nats.Conn, error) {
	return n.Connect(append(opts, nats.UserInfo(sysUser, n.cfg.sysPassword))...)
}

// Shutdown stops the server cleanly (JetStream flushes and closes its
// stores) and waits until it has stopped. It may be called more than once.
func (n *Node) Shutdown() {
	n.once.Do(func() {
		n.srv.Shutdown()
		n.srv.WaitForShutdown()
	})
}
