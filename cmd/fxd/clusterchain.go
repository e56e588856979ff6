package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/cluster"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/pay"
)

// clusterChain is a cluster node's chain side (--chain rpc: every node on
// one chain): the node's chain client and its own facts (the chain it is
// bound to, its watcher's progress), the chain duty (the cluster's one
// relayer and its makers run on the node leading the relay journal; the
// others send and ask through it), the FX and payments desks driving the
// records of the partitions the node owns, and the node's watcher feeding
// them.
type clusterChain struct {
	ch        *connect.Chain
	meta      *cluster.NodeMeta
	duty      *cluster.ChainDuty
	desk      *fx.Desk
	pay       *pay.Desk
	stopDuty  context.CancelFunc
	dutyDone  chan struct{}
	stopWatch func()
	watchErr  <-chan error
}

// openClusterChain dials the chain and binds the node to it.
func openClusterChain(ctx context.Context, f serveFlags, logger *slog.Logger) (*clusterChain, error) {
	ch, err := connect.Open(ctx, f.chainConfig(logger))
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

// setup builds the chain duty (the cluster's relayer and makers, run by
// the node leading the relay journal) and the desks on the node, which
// send and ask through it (cluster NodeConfig.Setup: before the engine
// recovers).
func (c *clusterChain) setup(ctx context.Context, n *cluster.Node, f serveFlags, logger *slog.Logger) error {
	pools, err := fx.LoadPools(ctx, c.ch.Client, c.ch.Contracts.Pools)
	if err != nil {
		return err
	}
	ids := make([]cluster.MakerID, len(c.ch.Makers))
	for i, k := range c.ch.Makers {
		ids[i] = cluster.MakerID{Name: makerName(i), Address: crypto.PubkeyToAddress(k.PublicKey)}
	}
	srv := n.NATS.Server()
	c.duty = cluster.NewChainDuty(cluster.ChainDutyConfig{Conn: n.Conn, JS: n.JS, Replicas: cluster.Replicas,
		Leads:   func() bool { return srv.JetStreamIsStreamLeader(cluster.Account, cluster.RelayStream) },
		Backend: c.ch.Client, Key: c.ch.Relayer, ChainID: c.ch.ChainID, Logger: logger, Makers: ids,
		StartMakers: func(ctx context.Context) ([]maker.Maker, func(), error) {
			return startMakers(ctx, f, c.ch, pools, logger)
		}})
	c.desk, c.pay, err = openDesk(ctx, f, n.Engine, c.ch, pools, cluster.NewMakerClients(c.duty),
		cluster.NewRelayClient(c.duty, c.ch.Client), cluster.FollowClaims(n.Engine, n.Conn, pay.EngineClaims{E: n.Engine}.Claim, logger), logger)
	return err
}

// start runs the chain duty, then the watcher and the desks on it.
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
// through the engine: call it before the engine closes), the chain duty
// (its makers with it) and the chain client.
func (c *clusterChain) stop() {
	if c.stopWatch != nil {
		c.stopWatch()
	}
	if c.desk != nil {
		c.desk.Stop()
		c.pay.Stop()
	}
	if c.stopDuty != nil {
		c.stopDuty()
		select {
		case <-c.dutyDone:
		case <-time.After(time.Minute): // a take-over under way stops with the duty's context
		}
	}
	c.ch.Close()
}
