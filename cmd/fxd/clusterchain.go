package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/cluster"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/pay"
)

// clusterChain is a cluster node's chain side (--chain rpc: every node on
// one chain): the node's chain client and its own facts (the chain it is
// bound to, its watcher's progress), the relayer duty (the cluster's one
// relayer runs on the node leading the relay journal; the others send
// through it), the FX and payments desks driving the records of the
// partitions the node owns, and the node's watcher feeding them.
type clusterChain struct {
	ch         *connect.Chain
	meta       *cluster.NodeMeta
	duty       *cluster.RelayDuty
	desk       *fx.Desk
	pay        *pay.Desk
	stopMakers func()
	stopDuty   context.CancelFunc
	dutyDone   chan struct{}
	stopWatch  func()
	watchErr   <-chan error
}

// openClusterChain dials the chain and binds the node to it.
func openClusterChain(ctx context.Context, f serveFlags, logger *slog.Logger) (*clusterChain, error) {
	ch, err := connect.Open(ctx, connect.Config{Mode: f.chain, RPCURL: f.rpcURL, ContractsFile: f.contracts,
		RelayerKeyFile: f.relayerKey, FaucetKeyFile: f.faucetKey, MakerKeysFile: f.makerKeys, Logger: logger})
	if err != nil {
		return nil, err
	}
	meta, err := cluster.OpenNodeMeta(f.dataDir)
	if err == nil {
		err = actors.BindChain(meta, ch.Genesis.Hex())
	}
	if err != nil {
		ch.Close()
		return nil, err
	}
	return &clusterChain{ch: ch, meta: meta}, nil
}

// setup builds the relayer duty and the desks on the node (cluster
// NodeConfig.Setup: before the engine recovers).
func (c *clusterChain) setup(ctx context.Context, n *cluster.Node, f serveFlags, logger *slog.Logger) (err error) {
	srv := n.NATS.Server()
	c.duty = cluster.NewRelayDuty(cluster.RelayConfig{Conn: n.Conn, JS: n.JS, Replicas: cluster.Replicas,
		Leads:   func() bool { return srv.JetStreamIsStreamLeader(cluster.Account, cluster.RelayStream) },
		Backend: c.ch.Client, Key: c.ch.Relayer, ChainID: c.ch.ChainID, Logger: logger})
	c.desk, c.pay, c.stopMakers, err = openDesk(ctx, f, n.Engine, c.ch, cluster.NewRelayClient(c.duty, c.ch.Client), logger)
	return err
}

// start runs the relayer duty, then the watcher and the desks on it.
func (c *clusterChain) start(logger *slog.Logger) error {
	ctx, cancel := context.WithCancel(context.Background())
	c.stopDuty, c.dutyDone = cancel, make(chan struct{})
	go func() { defer close(c.dutyDone); c.duty.Run(ctx) }()
	var err error
	c.watchErr, c.stopWatch, err = startWatcher(c.meta, c.ch, logger, func(w *watch.Watcher) error {
		return errors.Join(c.desk.Start(w), c.pay.Start(w))
	})
	if err != nil {
		return fmt.Errorf("serve: chain watcher: %w", err)
	}
	return nil
}

// stop ends the watcher, the desks (waiting for their jobs, which write
// through the engine: call it before the engine closes), the relayer duty
// and the chain client.
func (c *clusterChain) stop() {
	if c.stopWatch != nil {
		c.stopWatch()
	}
	if c.desk != nil {
		c.desk.Stop()
		c.pay.Stop()
		c.stopMakers()
	}
	if c.stopDuty != nil {
		c.stopDuty()
		select {
		case <-c.dutyDone:
		case <-time.After(time.Minute): // a take-over under way ends within relayTakeTimeout
		}
	}
	c.ch.Close()
}
