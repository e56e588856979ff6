// Package pay is the payments desk: transfers (same-currency, verified from
// the caller's own ERC-20 transfer; cross-currency, one gasless leg relayed
// to the payee) and their chain side. Like the FX desk it holds no state
// that must survive a restart: transfers are entities in the log, and the
// chain side is level-triggered (jobs.Driver), resumed from the store's
// live index at start.
package pay

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/big"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/faultinject"
	"github.com/fxd-labs/fxd/jobs"
)

// Defaults and bounds of the desk.
const (
	// DefaultAcceptDeadline is a cross-currency leg's life (CONTRACT.md:
	// accept deadline 120 s, as orders).
	DefaultAcceptDeadline = 120 * time.Second
	// DefaultSlippageBps: min_amount_out = amount_out · (1 − 0.5 %).
	DefaultSlippageBps = 50
	// MaxLiveTransfers bounds the transfers the chain side drives; a
	// create beyond it is 503.
	MaxLiveTransfers = 100_000
	// maxJobs bounds concurrent chain jobs of transfers.
	maxJobs = 128
	// kickQueue bounds the transfers waiting to be driven now.
	kickQueue = 4096
	// expiryGrace waits past a transfer's expiry before expiring it: the
	// chain's clock may trail ours by up to 2 s.
	expiryGrace = 5 * time.Second
	// chainTimeout bounds the chain reads of one request: past it the
	// request is 503 unavailable (chainUnavailable).
	chainTimeout = connect.RequestTimeout
)

// Quoter prices a swap on the AMM (fx.Pools): the pool and what it pays.
type Quoter interface {
	Quote(tokenIn, tokenOut common.Address, amountIn *big.Int) (common.Address, *big.Int, bool)
}

// Config wires a desk.
type Config struct {
	Engine  *actors.Engine
	Chain   chain.Backend
	ChainID *big.Int
	Tokens  map[string]common.Address // symbol → token
	Leg     *gasless.Leg
	Pools   Quoter
	// Factory is the PaymentLinkFactory; PublicBase the public base URL
	// (scheme, host, base path) of the links' url.
	Factory        common.Address
	PublicBase     string
	AcceptDeadline time.Duration
	SlippageBps    uint64
	// Claims records which transfer a transaction's log confirmed (the
	// claim entity of the tx, in the partition its hash falls in); nil:
	// the engine's (a single node owns every partition). A cluster node
	// asks the claim's owner (cluster.Claims).
	Claims Claimer
	Clock  func() time.Time
	Logger *slog.Logger
}

// Claimer runs a ClaimLog on the claim entity id, wherever its partition
// is owned: nil when granted, the refusal (409 tx_already_used), or an
// error (try again later).
type Claimer interface {
	Claim(ctx context.Context, id string, c domain.ClaimLog) (*domain.Error, error)
}

// EngineClaims is the Claimer of an engine that owns the claim's part.
type EngineClaims struct{ E *actors.Engine }

// Claim creates or updates the claim entity id on the engine.
func (c EngineClaims) Claim(ctx context.Context, id string, cl domain.ClaimLog) (*domain.Error, error) {
	out, err := c.E.Create(ctx, id, domain.Request{Cmd: cl})
	if err != nil {
		return nil, err
	}
	return out.Err, nil
}

// Desk is the payments desk. Create it with New, set its Hook on the
// engine before Recover, and Start it after.
type Desk struct {
	cfg       Config
	e         *actors.Engine
	transfers *jobs.Driver[common.Hash, tracked]
	links     *jobs.Driver[common.Hash, linkTracked]
	claims    *claimLocks
	// holdForwards: ForwardHoldFault is set (faultinject builds only).
	holdForwards bool
	// caughtUpBlock is the block whose logs OnTransferLog has caught the
	// store up for (the watcher's goroutine only).
	caughtUpBlock uint64
	takeUps       *actors.TakeUps // a cluster node's parts taken up (AddHooks)
	stop          chan struct{}
	wg            sync.WaitGroup
}

// New builds a desk. It does not touch the chain.
func New(cfg Config) *Desk {
	if cfg.AcceptDeadline <= 0 {
		cfg.AcceptDeadline = DefaultAcceptDeadline
	}
	if cfg.SlippageBps == 0 {
		cfg.SlippageBps = DefaultSlippageBps
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Claims == nil {
		cfg.Claims = EngineClaims{E: cfg.Engine}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	d := &Desk{cfg: cfg, e: cfg.Engine, stop: make(chan struct{}), claims: newClaimLocks()}
	_, d.holdForwards = faultinject.Lookup(ForwardHoldFault)
	d.transfers = jobs.New(jobs.Config[common.Hash, tracked]{
		Name: "transfers", MaxLive: MaxLiveTransfers, MaxJobs: maxJobs, KickQueue: kickQueue,
		Tick: time.Second, RetryAfter: 2 * time.Second, JobTimeout: 3 * time.Minute,
		Clock: cfg.Clock, Logger: cfg.Logger, Owned: d.e.Owns,
		Next: d.next, Keys: trackedKeys,
		Stale: func(cur, next *tracked) bool { return next.t.UpdatedAt.Before(cur.t.UpdatedAt) },
	})
	d.links = jobs.New(jobs.Config[common.Hash, linkTracked]{
		Name: "payment links", MaxLive: MaxLiveLinks, MaxJobs: maxJobs, KickQueue: kickQueue,
		Tick: time.Second, RetryAfter: 2 * time.Second, JobTimeout: 3 * time.Minute,
		Clock: cfg.Clock, Logger: cfg.Logger, Owned: d.e.Owns, Next: d.nextLink,
		Merge: func(cur, from *linkTracked) { cur.lastScan = from.lastScan },
		Stale: func(cur, next *linkTracked) bool { return next.l.UpdatedAt.Before(cur.l.UpdatedAt) },
	})
	return d
}

// chainUnavailable answers a request whose chain reads got no answer in
// time: 503 unavailable with Retry-After, nothing stored. The cause names
// the node, so it goes to the log, not to the caller.
func (d *Desk) chainUnavailable(err error) domain.Outcome {
	d.cfg.Logger.Warn("chain read of a request failed", "err", err.Error())
	return domain.Refuse(connect.Unavailable())
}

// SetPublicBase sets the public base URL of link urls (known once the
// listener is bound). Call it before the API serves.
func (d *Desk) SetPublicBase(url string) { d.cfg.PublicBase = url }

// hook is the engine's hook for transfers and payment links
// (AddHook(KindTransfer, …), AddHook(KindLink, …)): every durable row
// reaches the chain side. It must not block.
func (d *Desk) hook() func(id string, events []domain.Event) {
	return func(_ string, events []domain.Event) {
		for i := range events {
			if t := events[i].Transfer; t != nil {
				d.track(t)
			}
			if l := events[i].Link; l != nil {
				d.trackLink(l)
			}
		}
	}
}

// track drives a live transfer, forgets a finished one.
func (d *Desk) track(t *domain.Transfer) {
	if !t.Live() {
		d.transfers.Forget(t.ID)
		d.cfg.Logger.Info("transfer finished", "transfer", t.ID, "state", t.State, "event", t.EventID)
		return
	}
	if err := d.transfers.Track(t.ID, tracked{t: t}); err != nil {
		d.cfg.Logger.Error("transfer not driven", "transfer", t.ID, "err", err.Error())
	}
}

// AddHooks adds the desk's transfer and link hooks to e and, on a cluster
// node, follows the partitions the node takes up and gives up
// (actors.TakeUps): the live transfers and links of a part taken up are
// resumed once it runs. Call it before Recover.
func (d *Desk) AddHooks(e *actors.Engine) {
	e.AddHook(domain.KindTransfer, d.hook())
	e.AddHook(domain.KindLink, d.hook())
	var f *actors.TakeUps
	f = e.FollowOwnership(actors.TakeUp{Name: "payments desk", Logger: d.cfg.Logger, Resume: func(parts map[int]bool) error {
		_, _, err := d.resume(func(id string) bool { return f.In(parts, id) })
		return err
	}})
	d.takeUps = f
}

// resume drives the live transfers and links the store holds whose ids
// pass want, and reports how many of each.
func (d *Desk) resume(want func(id string) bool) (nt, nl int, err error) {
	err = d.e.LiveRows(domain.KindTransfer, want, MaxLiveTransfers, func(r domain.Row) error {
		d.track(r.(*domain.Transfer))
		nt++
		return nil
	})
	if err == nil {
		err = d.e.LiveRows(domain.KindLink, want, MaxLiveLinks, func(r domain.Row) error {
			d.trackLink(r.(*domain.Link))
			nl++
			return nil
		})
	}
	if err != nil {
		return nt, nl, fmt.Errorf("pay: resume transfers and links: %w", err)
	}
	return nt, nl, nil
}

// Start subscribes the links to the watcher's Transfer logs, resumes every
// live transfer and link of the parts the engine owns from the store and
// drives them. Call it after AddHooks and after
// the engine recovered.
func (d *Desk) Start(w *watch.Watcher) error {
	w.Subscribe(d.LinkFilter(), d.OnTransferLog)
	nt, nl, err := d.resume(d.e.Owns)
	if err != nil {
		return err
	}
	d.cfg.Logger.Info("payments desk started", "live_transfers", nt, "live_links", nl)
	d.wg.Add(3)
	go func() { defer d.wg.Done(); d.takeUps.Run(d.stop) }()
	go func() { defer d.wg.Done(); d.transfers.Run(d.stop) }()
	go func() { defer d.wg.Done(); d.links.Run(d.stop) }()
	return nil
}

// Stop ends the desk's loop and waits for jobs in flight.
func (d *Desk) Stop() {
	select {
	case <-d.stop:
	default:
		close(d.stop)
	}
	d.wg.Wait()
	d.transfers.Wait()
	d.links.Wait()
}

// Stats are the desk's gauges for /metrics.
type Stats struct {
	LiveTransfers int
	LiveLinks     int
	RunningJobs   int
}

// Stats reads the desk's gauges.
func (d *Desk) Stats() Stats {
	return Stats{LiveTransfers: d.transfers.Len(), LiveLinks: d.links.Len(), RunningJobs: d.transfers.Running() + d.links.Running()}
}

// exec runs a host-side command on a transfer and reports a refusal other
// than a transition already made (two paths may report one fact).
func (d *Desk) exec(ctx context.Context, id string, cmd domain.Command) error {
	out, err := d.e.Exec(ctx, id, domain.Request{Cmd: cmd})
	if err != nil {
		return fmt.Errorf("pay: %s %T: %w", id, cmd, err)
	}
	if out.Err != nil && out.Err.Code != domain.CodeInvalidState {
		return fmt.Errorf("pay: %s %T refused: %s: %s", id, cmd, out.Err.Code, out.Err.Message)
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("pay: marshal: " + err.Error())
	}
	return b
}
