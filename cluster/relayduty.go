package cluster

import (
	"context"
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/relay"
)

// relayTakeTimeout bounds one take-over: opening the journal, reading it
// back and broadcasting what is not mined.
const relayTakeTimeout = 30 * time.Second

// RelayConfig configures the cluster's relayer duty.
type RelayConfig struct {
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
}

// RelayDuty runs the cluster's one relayer on the node that leads
// RelayStream (DESIGN.md: the chain singletons move with the system
// stream's leadership). Taking the duty up, it reads the journal back and
// broadcasts again every transaction not mined, then serves the other
// nodes' sends (relayrpc.go). A relayer is deposed when leadership moves,
// and also when its journal record is fenced (a new leader recorded):
// then it sends nothing more, and, if this node leads again, a new one
// starts from the journal.
type RelayDuty struct {
	cfg RelayConfig

	mu      sync.Mutex
	cur     *relay.Relayer
	journal *RelayJournal
	subs    []*nats.Subscription
	handler *relayHandler
}

// NewRelayDuty builds the duty; Run runs it.
func NewRelayDuty(cfg RelayConfig) *RelayDuty {
	if cfg.Every <= 0 {
		cfg.Every = DefaultPollEvery
	}
	return &RelayDuty{cfg: cfg, handler: newRelayHandler()}
}

// Run creates RelayStream if no node did yet (a stream nobody created has
// no leader), then follows its leadership until ctx ends, and lets the
// duty go.
func (d *RelayDuty) Run(ctx context.Context) {
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
func (d *RelayDuty) create(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := OpenRelayJournal(ctx, d.cfg.JS, d.cfg.Replicas); err != nil {
		d.cfg.Logger.Info("cluster: relay journal not ready; retrying", "err", err.Error())
		return false
	}
	return true
}

// local is the relayer this node runs, nil when it does not lead.
func (d *RelayDuty) local() *relay.Relayer {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cur
}

func (d *RelayDuty) deposed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.journal != nil && d.journal.Deposed()
}

// take opens the journal, broadcasts what it holds that is not mined, and
// starts a relayer on it serving the cluster. A failure is logged; the
// next poll tries again.
func (d *RelayDuty) take(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, relayTakeTimeout)
	defer cancel()
	j, err := OpenRelayJournal(ctx, d.cfg.JS, d.cfg.Replicas)
	if err != nil {
		d.cfg.Logger.Warn("cluster: relayer not taken up", "err", err.Error())
		return
	}
	latest, err := j.Latest(ctx)
	if err != nil {
		d.cfg.Logger.Warn("cluster: relayer not taken up", "err", err.Error())
		return
	}
	r := relay.New(d.cfg.Backend, d.cfg.Key, d.cfg.ChainID, append(d.cfg.Options, relay.WithJournal(j))...)
	sent, err := relay.Rebroadcast(ctx, d.cfg.Backend, r.Address(), latest, d.cfg.Logger)
	if err != nil {
		d.cfg.Logger.Warn("cluster: relayer not taken up", "err", err.Error())
		return
	}
	d.handler.set(r)
	subs, err := d.handler.subscribe(d.cfg.Conn)
	if err != nil {
		d.handler.set(nil)
		d.cfg.Logger.Warn("cluster: relayer not taken up", "err", err.Error())
		return
	}
	d.mu.Lock()
	d.cur, d.journal, d.subs = r, j, subs
	d.mu.Unlock()
	d.cfg.Logger.Info("cluster: relayer taken up", "address", r.Address().Hex(), "journaled", len(latest), "rebroadcast", sent)
}

// letGo stops serving sends and drops the relayer.
func (d *RelayDuty) letGo(why string) {
	d.mu.Lock()
	r, subs := d.cur, d.subs
	d.cur, d.journal, d.subs = nil, nil, nil
	d.mu.Unlock()
	if r == nil {
		return
	}
	d.handler.set(nil)
	for _, sub := range subs {
		if err := sub.Unsubscribe(); err != nil && d.cfg.Conn.IsConnected() {
			d.cfg.Logger.Warn("cluster: relay subscription not ended", "err", err.Error())
		}
	}
	d.cfg.Logger.Info("cluster: relayer let go", "why", why)
}
