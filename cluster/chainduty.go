package cluster

import (
	"context"
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/relay"
)

// relayTakeTimeout bounds one take-over: opening the journal, reading it
// back, broadcasting what is not mined, and starting the makers (which on
// a fresh chain wait for their escrow approvals to be mined).
const relayTakeTimeout = 2 * time.Minute

// ChainDutyConfig configures the cluster's chain duty: its relayer and
// its makers.
type ChainDutyConfig struct {
	Conn *nats.Conn
	JS   jetstream.JetStream
	// Leads reports whether this node's server leads RelayStream now.
	Leads    func() bool
	Backend  chain.Backend
	Key      *ecdsa.PrivateKey // the gas-only relayer key (every node has it)
	ChainID  *big.Int
	Replicas int           // the journal's copies (Replicas on a cluster)
	Every    time.Duration // leadership poll; 0: DefaultPollEvery
	Logger   *slog.Logger
	// Options are the relayer's (tests shorten its intervals).
	Options []relay.Option
	// StartMakers, when set, starts the cluster's market makers on this
	// node (their keys' nonces and inventories must have one owner) and
	// returns them with their stop. Makers lists their names and
	// addresses, the same on every node (MakerClient).
	StartMakers func(ctx context.Context) ([]maker.Maker, func(), error)
	Makers      []MakerID
}

// MakerID names one of the cluster's makers.
type MakerID struct {
	Name    string
	Address common.Address
}

// ChainDuty runs the cluster's chain singletons, its one relayer and its
// makers, on the node that leads RelayStream (DESIGN.md: the chain
// singletons move with the system stream's leadership). Taking the duty
// up, it reads the journal back and broadcasts again every transaction
// not mined, starts the makers, then serves the other nodes' sends
// (relayrpc.go) and maker requests (makerrpc.go). A relayer is deposed
// when leadership moves, and also when its journal record is fenced (a
// new leader recorded): then it sends nothing more, and, if this node
// leads again, a new one starts from the journal.
type ChainDuty struct {
	cfg ChainDutyConfig

	mu         sync.Mutex
	cur        *relay.Relayer
	journal    *RelayJournal
	subs       []*nats.Subscription
	stopMakers func()
	handler    *relayHandler
	makers     *makerHandler
}

// NewChainDuty builds the duty; Run runs it.
func NewChainDuty(cfg ChainDutyConfig) *ChainDuty {
	if cfg.Every <= 0 {
		cfg.Every = DefaultPollEvery
	}
	return &ChainDuty{cfg: cfg, handler: newRelayHandler(), makers: newMakerHandler()}
}

// Run creates RelayStream if no node did yet (a stream nobody created has
// no leader), then follows its leadership until ctx ends, and lets the
// duty go.
func (d *ChainDuty) Run(ctx context.Context) {
	t := time.NewTicker(d.cfg.Every)
	defer t.Stop()
	defer d.letGo("stopping")
	for created := false; ; {
		if !created {
			created = d.create(ctx)
		}
		leads, running := d.cfg.Leads(), d.local() != nil
		switch {
		case leads && running && d.deposed():
			d.letGo("journal fenced: another relayer recorded")
		case leads && !running:
			d.take(ctx)
		case !leads && running:
			d.letGo("relay stream leadership moved")
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// create makes sure RelayStream exists; it reports whether it does.
func (d *ChainDuty) create(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := OpenRelayJournal(ctx, d.cfg.JS, d.cfg.Replicas); err != nil {
		d.cfg.Logger.Info("cluster: relay journal not ready; retrying", "err", err.Error())
		return false
	}
	return true
}

// local is the relayer this node runs, nil when it does not lead.
func (d *ChainDuty) local() *relay.Relayer {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cur
}

func (d *ChainDuty) deposed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.journal != nil && d.journal.Deposed()
}

// take opens the journal, broadcasts what it holds that is not mined,
// starts a relayer on it and the makers, and serves the cluster. A
// failure is logged; the next poll tries again.
func (d *ChainDuty) take(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, relayTakeTimeout)
	defer cancel()
	r, j, journaled, sent, err := d.takeRelayer(ctx)
	if err != nil {
		d.cfg.Logger.Warn("cluster: chain duty not taken up", "err", err.Error())
		return
	}
	stopMakers := func() {}
	if d.cfg.StartMakers != nil {
		var ms []maker.Maker
		if ms, stopMakers, err = d.cfg.StartMakers(ctx); err != nil {
			d.cfg.Logger.Warn("cluster: chain duty not taken up: makers", "err", err.Error())
			return
		}
		d.makers.set(ms)
	}
	d.handler.set(r)
	subs, err := d.handler.subscribe(d.cfg.Conn)
	if err == nil && d.cfg.StartMakers != nil {
		var sub *nats.Subscription
		if sub, err = d.makers.subscribe(d.cfg.Conn); err == nil {
			subs = append(subs, sub)
		}
	}
	if err != nil {
		unsubscribe(subs, d.cfg.Conn, d.cfg.Logger)
		d.handler.set(nil)
		d.makers.set(nil)
		stopMakers()
		d.cfg.Logger.Warn("cluster: chain duty not taken up", "err", err.Error())
		return
	}
	d.mu.Lock()
	d.cur, d.journal, d.subs, d.stopMakers = r, j, subs, stopMakers
	d.mu.Unlock()
	d.cfg.Logger.Info("cluster: relayer taken up", "address", r.Address().Hex(), "journaled", journaled, "rebroadcast", sent,
		"makers", len(d.cfg.Makers))
}

// takeRelayer opens the journal, broadcasts again what it holds unmined,
// and returns a relayer recording in it, with how many transactions the
// journal held (latest per nonce) and how many the node holds pending.
func (d *ChainDuty) takeRelayer(ctx context.Context) (*relay.Relayer, *RelayJournal, int, int, error) {
	j, err := OpenRelayJournal(ctx, d.cfg.JS, d.cfg.Replicas)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	latest, err := j.Latest(ctx)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	r := relay.New(d.cfg.Backend, d.cfg.Key, d.cfg.ChainID, append(d.cfg.Options, relay.WithJournal(j))...)
	sent, err := relay.Rebroadcast(ctx, d.cfg.Backend, r.Address(), latest, d.cfg.Logger)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	return r, j, len(latest), sent, nil
}

// letGo stops serving, stops the makers and drops the relayer.
func (d *ChainDuty) letGo(why string) {
	d.mu.Lock()
	r, subs, stopMakers := d.cur, d.subs, d.stopMakers
	d.cur, d.journal, d.subs, d.stopMakers = nil, nil, nil, nil
	d.mu.Unlock()
	if r == nil {
		return
	}
	unsubscribe(subs, d.cfg.Conn, d.cfg.Logger)
	d.handler.set(nil)
	d.makers.set(nil)
	stopMakers()
	d.cfg.Logger.Info("cluster: relayer let go", "why", why)
}

// unsubscribe ends subs (a connection already closed ended them).
func unsubscribe(subs []*nats.Subscription, nc *nats.Conn, logger *slog.Logger) {
	for _, sub := range subs {
		if err := sub.Unsubscribe(); err != nil && nc.IsConnected() {
			logger.Warn("cluster: chain duty subscription not ended", "err", err.Error())
		}
	}
}
