package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/forward"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/natsnode"
	"github.com/fxd-labs/fxd/partlog"
)

// Replicas is how many copies of each partition stream the cluster keeps
// (DESIGN.md: 3; a quorum of 2 acknowledges an append).
const Replicas = 3

// streamOpenTimeout bounds how long the node's start waits to open a
// partition stream: until the meta leader is elected and enough peers
// are up to place three replicas (a node started before its peers waits
// here).
const streamOpenTimeout = 2 * time.Minute

// startOpenAttempt bounds the first attempt of the node's start to open
// a partition stream; each retry may last twice as long as the one before,
// up to maxStartOpenAttempt. A request to a stream whose group has no
// leader yet (just created by another node) goes unanswered, so a long
// first attempt is only time lost: with 10 s, a fresh cluster's start
// took 12-16 s, most of it waiting out such requests. The longer retries
// are for a machine so loaded that an open takes seconds.
const (
	startOpenAttempt    = 3 * time.Second
	maxStartOpenAttempt = 12 * time.Second
)

// handoverOpenTimeout bounds one attempt to open a partition stream again
// in a handover (the engine's Own and Disown), which is not retried here:
// the handovers of all partitions run one after another on the Router's
// goroutine, so a stream that cannot be read yet (its new leader still
// applying: "JetStream system temporarily unavailable") must not hold the
// others up. Own fails, and Leaders offers the partition again at its
// next poll. CI once saw a partition unserved for over a minute while its
// new leader's node retried another partition's stream for up to
// streamOpenTimeout.
const handoverOpenTimeout = 2 * time.Second

// NodeConfig configures one node of a cluster (fxd serve --cluster-*).
type NodeConfig struct {
	Name          string   // the node's name, unique in the cluster (--node-name)
	ClusterName   string   // --cluster-name
	ClusterListen string   // host:port of the routes from the other nodes (--cluster-listen)
	Peers         []string // the other nodes' ClusterListen addresses, host:port or nats://host:port (--peers)
	// Engine is the engine's configuration; StartNode sets its log (the
	// partition streams), Partitions and Handover. Engine.DataDir holds
	// the store, and DataDir/nats the node's JetStream files.
	Engine actors.Config
	// Setup, when set, runs once the node's NATS connection is up and its
	// engine is open, before the engine recovers (Router is not set yet):
	// the desks add their hooks there (actors.Engine.AddHook,
	// FollowOwnership).
	Setup  func(*Node) error
	Logger *slog.Logger
}

// Node is one running cluster node: its embedded NATS server, the engine on
// the partition streams (owning nothing until Router takes leadership up)
// and the Router. The caller builds the API with Router as its Cluster,
// sets Router.Responder, and runs Router.Run.
type Node struct {
	NATS   *natsnode.Node
	Conn   *nats.Conn
	JS     jetstream.JetStream
	Engine *actors.Engine
	Router *Router
}

// StartNode starts the node's NATS server, opens the engine on the
// ids.Partitions partition streams (created by whichever node gets there
// first; each follows its stream until it leads it) and recovers it.
func StartNode(cfg NodeConfig) (*Node, error) {
	peers := make([]string, len(cfg.Peers))
	for i, p := range cfg.Peers {
		peers[i] = routeURL(p)
	}
	srv, err := natsnode.Start(natsnode.Config{Name: cfg.Name, StoreDir: filepath.Join(cfg.Engine.DataDir, "nats"),
		ClusterName: cfg.ClusterName, ClusterListen: cfg.ClusterListen, Peers: peers, Logf: natsLogf(cfg.Logger)})
	if err != nil {
		return nil, err
	}
	nc, err := srv.Connect(nats.MaxReconnects(-1))
	if err != nil {
		srv.Shutdown()
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		srv.Shutdown()
		return nil, fmt.Errorf("cluster: jetstream: %w", err)
	}
	if err := awaitMetaLeader(srv.Server().JetStreamIsCurrent, streamOpenTimeout, cfg.Logger); err != nil {
		nc.Close()
		srv.Shutdown()
		return nil, err
	}
	leaders := NewLeaders(srv.Server(), ids.Partitions, 0)
	ecfg := cfg.Engine
	ecfg.Partitions, ecfg.Handover, ecfg.GivenUp = ids.Partitions, true, leaders.Drop
	started := make([]atomic.Bool, ids.Partitions) // p's first open (the engine's) is done
	ecfg.OpenLog = func(p int, opts partlog.Options) (partlog.PartitionLog, error) {
		if started[p].Swap(true) {
			return openStreamOnce(js, p, opts, handoverOpenTimeout)
		}
		return openStream(js, p, opts, cfg.Logger)
	}
	e, err := actors.Open(ecfg)
	n := &Node{NATS: srv, Conn: nc, JS: js, Engine: e}
	if err == nil && cfg.Setup != nil {
		if err = cfg.Setup(n); err != nil {
			_ = e.Close()
		}
	}
	if err == nil {
		if err = e.Recover(); err != nil {
			_ = e.Close()
		}
	}
	if err != nil {
		nc.Close()
		srv.Shutdown()
		return nil, err
	}
	n.Router = &Router{Owner: e, Leaders: leaders,
		Forwarder: forward.NewForwarder(nc, forward.Config{}),
		Balancer:  NewBalancer(nc, js, ids.Partitions, srv.Server().JetStreamIsLeader, srv.Server().JetStreamClusterPeers),
		Logger:    cfg.Logger}
	return n, nil
}

// Close closes the engine, the connection and the NATS server, in that
// order (the engine's logs need the server to the end).
func (n *Node) Close() error {
	err := n.Engine.Close()
	n.Conn.Close()
	n.NATS.Shutdown()
	return err
}

// awaitMetaLeader polls every metaWaitPoll and says every
// metaWaitLogEvery that it still waits.
const (
	metaWaitPoll     = 100 * time.Millisecond
	metaWaitLogEvery = 10 * time.Second
)

// awaitMetaLeader waits, at most timeout, until current (the node's
// JetStream follows a meta leader, or is it, and has caught up with it).
// The streams are opened after that: a stream request sent before the
// meta leader is known went unanswered and cost its whole 10 s timeout at
// every fresh start; and a node that cannot start says what it waits for.
func awaitMetaLeader(current func() bool, timeout time.Duration, logger *slog.Logger) error {
	start := time.Now()
	next := start.Add(metaWaitLogEvery)
	for !current() {
		waited := time.Since(start)
		if waited > timeout {
			return fmt.Errorf("cluster: no JetStream meta leader after %s: a new cluster elects one once every node of --peers is up, a running one once most of its nodes are", timeout)
		}
		if time.Now().After(next) {
			logger.Info("cluster: waiting for JetStream's meta leader (a new cluster needs every node of --peers up, a running one most of its nodes)",
				"waited_s", int(waited.Seconds()))
			next = next.Add(metaWaitLogEvery)
		}
		time.Sleep(metaWaitPoll)
	}
	return nil
}

// openStream opens partition p's stream at the node's start, retrying
// while JetStream cannot place it yet (no meta leader, too few peers up).
func openStream(js jetstream.JetStream, p int, opts partlog.Options, logger *slog.Logger) (partlog.PartitionLog, error) {
	deadline := time.Now().Add(streamOpenTimeout)
	for attempt := startOpenAttempt; ; attempt = min(2*attempt, maxStartOpenAttempt) {
		l, err := openStreamOnce(js, p, opts, attempt)
		if err == nil {
			return l, nil
		}
		// Corrupt included: a stream read while its leader changes can
		// answer "missing" for a moment; a lasting failure is reported at
		// the deadline.
		if time.Now().After(deadline) {
			return nil, err
		}
		logger.Info("cluster: partition stream not ready; retrying", "partition", p, "err", err.Error())
		time.Sleep(500 * time.Millisecond)
	}
}

// openStreamOnce makes one attempt, of at most timeout, to open partition
// p's stream.
func openStreamOnce(js jetstream.JetStream, p int, opts partlog.Options, timeout time.Duration) (partlog.PartitionLog, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return jslog.Open(ctx, js, jslog.Config{Stream: StreamName(p), Replicas: Replicas}, opts)
}

// routeURL is p as a route URL: host:port gets nats://.
func routeURL(p string) string {
	if len(p) > 7 && p[:7] == "nats://" {
		return p
	}
	return "nats://" + p
}

// natsLogf sends the NATS server's notices, warnings and errors (one
// line each, natsnode prefixes them) to logger at info.
func natsLogf(logger *slog.Logger) func(string, ...any) {
	return func(format string, args ...any) { logger.Info(fmt.Sprintf(format, args...)) }
}
