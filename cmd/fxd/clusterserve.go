package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/cluster"
	"github.com/fxd-labs/fxd/forward"
	"github.com/fxd-labs/fxd/httpd"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/webhook"
)

// clusterFlags are serve's cluster flags (DESIGN.md, "Beyond one
// machine"); without --cluster-name the node runs alone, as before.
type clusterFlags struct {
	name, node, listen string
	peers              []string
	partitions         int
}

func addClusterFlags(fs *pflag.FlagSet, f *clusterFlags) {
	fs.StringVar(&f.name, "cluster-name", "", "run as a node of this cluster (embedded NATS JetStream; FX and payments need --chain rpc, every node on one chain)")
	fs.StringVar(&f.node, "node-name", "", "cluster: this node's name, unique in the cluster")
	fs.StringVar(&f.listen, "cluster-listen", "", "cluster: host:port the other nodes connect to")
	fs.StringSliceVar(&f.peers, "peers", nil, "cluster: the nodes' --cluster-listen addresses, comma-separated (this node's may be listed)")
	fs.IntVar(&f.partitions, "partitions", ids.Partitions, "cluster: partition streams (ids carry one of 64 partitions)")
}

func (f clusterFlags) enabled() bool { return f.name != "" }

// check refuses an incomplete cluster configuration, and the flags the
// cluster mode does not serve yet (the chain and its desks).
func (f clusterFlags) check(s serveFlags) error {
	if !f.enabled() {
		if f.node != "" || f.listen != "" || len(f.peers) > 0 {
			return errors.New("serve: --node-name, --cluster-listen and --peers need --cluster-name")
		}
		return nil
	}
	switch {
	case f.node == "" || f.listen == "" || len(f.peers) == 0:
		return errors.New("serve: --cluster-name needs --node-name, --cluster-listen and --peers")
	case f.partitions != ids.Partitions:
		return fmt.Errorf("serve: --partitions %d: ids carry one of %d partitions, so the cluster has %d", f.partitions, ids.Partitions, ids.Partitions)
	case s.chain == connect.ModeEmbedded && s.rpcURL != "":
		return errors.New("serve: --rpc-url needs --chain rpc")
	}
	return nil
}

// chainDesks reports whether the node runs the chain and its desks: on
// --chain rpc. Each node's embedded chain would be a chain of its own, so
// a cluster on the default --chain embedded runs without them.
func (f clusterFlags) chainDesks(s serveFlags) bool { return s.chain == connect.ModeRPC }

// runClusterServe runs one cluster node until SIGINT or SIGTERM: the
// public API on --listen answering what the node leads and forwarding the
// rest, the admin listener (accounts it creates are placed in partitions
// this node leads), the engine on the partition streams, the webhook desk
// and, on --chain rpc, the chain side (clusterChain). Without it FX and
// payments answer 503.
func runClusterServe(stdout io.Writer, logger *slog.Logger, f serveFlags, basePath string, started time.Time) error {
	pubLn, admLn, err := f.listeners()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.dataDir, 0o700); err != nil {
		return fmt.Errorf("serve: data dir %s: %w", f.dataDir, err)
	}
	token, err := adminToken(f.dataDir)
	if err != nil {
		return err
	}
	var chain *clusterChain
	if f.cluster.chainDesks(f) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		chain, err = openClusterChain(ctx, f, logger)
		cancel()
		if err != nil {
			return err
		}
	} else {
		logger.Warn("cluster node without the chain: FX and payments answer 503 (every node needs --chain rpc on one chain)")
	}
	node, hooks, err := startClusterNode(f, chain, logger)
	if err != nil {
		return err
	}
	var public string
	if f.publicURL == "" {
		public = "http://" + pubLn.Addr().String() + basePath
	} else {
		public = f.publicURL
	}
	cfg := httpd.Config{BasePath: basePath, Logger: logger, Started: started, ServerURL: "http://" + pubLn.Addr().String(),
		Cluster: node.Router, Node: f.cluster.node, Webhooks: hooks, PublicURL: f.publicURL}
	adminHandler := httpd.NewAdmin(node.Engine, nil, nil, token, f.dataDir)
	if chain != nil {
		chain.pay.SetPublicBase(public)
		cfg.Chain, cfg.Desk, cfg.Pay = chain.ch, chain.desk, chain.pay
		adminHandler = httpd.NewAdmin(node.Engine, chain.ch, chain.desk, token, f.dataDir).WithPayments(chain.pay)
	}
	api, err := httpd.New(cfg, node.Engine)
	if err != nil {
		return errors.Join(err, stopClusterNode(node, hooks, chain))
	}
	node.Router.Responder = forward.NewResponder(node.Conn, api.Handler(), httpd.WriteError)
	clusterAdmin := httpd.ClusterAdmin{Status: func(ctx context.Context) (any, error) { return node.Status(ctx), nil }, RemovePeer: node.RemovePeer}
	admin := &http.Server{Handler: adminHandler.WithWebhooks(hooks).WithCluster(clusterAdmin),
		ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	errc, failures := make(chan error, 2), make(chan error, 2)
	go func() { errc <- api.Serve(pubLn) }()
	go func() { errc <- admin.Serve(admLn) }()
	ctx, stopRouter := context.WithCancel(context.Background())
	routerErr, routerDone := make(chan error, 1), make(chan struct{})
	go func() { defer close(routerDone); routerErr <- node.Router.Run(ctx) }()
	named(routerErr, "cluster router", failures)
	if chain != nil {
		named(chain.watchErr, "chain watcher", failures)
	}
	stopRates := observeRates(api, logger)
	defer stopRates()

	if err := announce(stdout, f.dataDir, pubLn, admLn, started); err != nil {
		stopRouter()
		<-routerDone
		return errors.Join(err, stopClusterNode(node, hooks, chain))
	}
	fields := []any{"listen", pubLn.Addr().String(), "admin", admLn.Addr().String(), "env", f.env,
		"base_path", basePath, "cluster", f.cluster.name, "node", f.cluster.node, "cluster_listen", f.cluster.listen}
	if chain != nil {
		fields = append(fields, "chain", f.chain, "chain_id", chain.ch.ChainID.String(), "chain_rpc", chain.ch.RPCURL)
	}
	logger.Info("serving", fields...)

	fatal := awaitStop(logger, errc, failures)
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = api.Shutdown(sctx)
	_ = admin.Shutdown(sctx)
	stopRates()
	stopRouter()
	<-routerDone // its last poll (an Own under way) is over before the engine closes
	return errors.Join(fatal, stopClusterNode(node, hooks, chain))
}

// startClusterNode starts the node with the webhook desk and, when chain
// is set, the chain side, each following the partitions the node owns;
// then starts the desks.
func startClusterNode(f serveFlags, chain *clusterChain, logger *slog.Logger) (*cluster.Node, *webhook.Desk, error) {
	var hooks *webhook.Desk
	node, err := cluster.StartNode(cluster.NodeConfig{Name: f.cluster.node, ClusterName: f.cluster.name,
		ClusterListen: f.cluster.listen, Peers: f.cluster.peers, Logger: logger,
		Engine: actors.Config{DataDir: f.dataDir, Env: f.env, Logger: logger, PassivateAfter: f.passivateAfter},
		Setup: func(n *cluster.Node) (err error) {
			if hooks, err = openWebhooks(f.webhooks, f.env, n.Engine, logger); err != nil || chain == nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			return chain.setup(ctx, n, f, logger)
		}})
	if err != nil {
		if chain != nil {
			chain.stop()
		}
		return nil, nil, err
	}
	// Endpoints first: the chain desks' resumed records may fire events.
	err = hooks.Start(context.Background())
	if err == nil && chain != nil {
		err = chain.start(logger)
	}
	if err != nil {
		return nil, nil, errors.Join(err, stopClusterNode(node, hooks, chain))
	}
	return node, hooks, nil
}

// stopClusterNode stops the desks (their jobs write through the engine:
// stopped, and waited for, before it closes), then the node.
func stopClusterNode(node *cluster.Node, hooks *webhook.Desk, chain *clusterChain) error {
	if chain != nil {
		chain.stop()
	}
	hooks.Stop()
	return node.Close()
}
