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
	fs.StringVar(&f.name, "cluster-name", "", "run as a node of this cluster (embedded NATS JetStream; partial: FX and payments do not run on a cluster yet)")
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
	case s.chain != "embedded" || s.rpcURL != "":
		return errors.New("serve: a cluster node does not run the chain desks yet (FX and payments answer 503); leave --chain and --rpc-url unset")
	}
	return nil
}

// runClusterServe runs one cluster node until SIGINT or SIGTERM: the
// public API on --listen answering what the node leads and forwarding the
// rest, the admin listener (accounts it creates are placed in partitions
// this node leads), the engine on the partition streams and the webhook
// desk. The chain and its desks (FX, payments) do not run on a cluster
// yet: their routes answer 503.
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
	// The webhook desk drives the endpoints and deliveries of the
	// partitions the node owns, as they move (webhook/ownership.go).
	var hooks *webhook.Desk
	node, err := cluster.StartNode(cluster.NodeConfig{Name: f.cluster.node, ClusterName: f.cluster.name,
		ClusterListen: f.cluster.listen, Peers: f.cluster.peers, Logger: logger,
		Engine: actors.Config{DataDir: f.dataDir, Env: f.env, Logger: logger, PassivateAfter: f.passivateAfter},
		Setup: func(e *actors.Engine) (err error) {
			hooks, err = openWebhooks(f.webhooks, f.env, e, logger)
			return err
		}})
	if err != nil {
		return err
	}
	if err := hooks.Start(context.Background()); err != nil {
		return errors.Join(err, node.Close())
	}
	api, err := httpd.New(httpd.Config{BasePath: basePath, Logger: logger, Started: started,
		ServerURL: "http://" + pubLn.Addr().String(), Cluster: node.Router, Node: f.cluster.node, Webhooks: hooks}, node.Engine)
	if err != nil {
		hooks.Stop()
		return errors.Join(err, node.Close())
	}
	node.Router.Responder = forward.NewResponder(node.Conn, api.Handler(), httpd.WriteError)
	clusterAdmin := httpd.ClusterAdmin{Status: func(ctx context.Context) (any, error) { return node.Status(ctx) }, RemovePeer: node.RemovePeer}
	admin := &http.Server{Handler: httpd.NewAdmin(node.Engine, nil, nil, token, f.dataDir).WithWebhooks(hooks).WithCluster(clusterAdmin),
		ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	errc := make(chan error, 2)
	go func() { errc <- api.Serve(pubLn) }()
	go func() { errc <- admin.Serve(admLn) }()
	ctx, stopRouter := context.WithCancel(context.Background())
	routerErr := make(chan error, 1)
	go func() { routerErr <- node.Router.Run(ctx) }()

	if err := announce(stdout, f.dataDir, pubLn, admLn, started); err != nil {
		stopRouter()
		<-routerErr
		hooks.Stop()
		return errors.Join(err, node.Close())
	}
	logger.Info("serving", "listen", pubLn.Addr().String(), "admin", admLn.Addr().String(), "env", f.env,
		"base_path", basePath, "cluster", f.cluster.name, "node", f.cluster.node, "cluster_listen", f.cluster.listen)

	fatal := awaitStop(logger, errc, routerErr, "cluster router")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = api.Shutdown(sctx)
	_ = admin.Shutdown(sctx)
	stopRouter()
	if fatal == nil {
		<-routerErr // its last poll (an Own under way) is over before the engine closes
	}
	// The desk's jobs write through the engine: stopped (and waited for)
	// before it closes.
	hooks.Stop()
	return errors.Join(fatal, node.Close())
}
