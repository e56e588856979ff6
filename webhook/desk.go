// Package webhook is the webhook desk: endpoints (registration screened
// against SSRF, secrets sealed under the master key), the fan-out of every
// event to the account's matching endpoints, and delivery, signed the
// Standard Webhooks way, retried on a schedule, at most MaxInFlight at once
// per endpoint.
//
// Like the FX and payments desks it holds no state that must survive a
// restart. Events are born in the log record of the transition that fired
// them; their fan-out and every attempt are log records of the event
// entity; the store indexes pending deliveries per endpoint. The desk's
// memory is a bounded cache of that: a start, or a backlog that outgrew
// memory, reads them back from the store (level-triggered, as jobs.Driver
// is).
package webhook

import (
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/jobs"
	"github.com/fxd-labs/fxd/webhook/screen"
	"github.com/fxd-labs/fxd/webhook/secret"
)

// Bounds of the desk.
const (
	// MaxInFlight bounds the requests in flight to one endpoint (CONTRACT.md).
	MaxInFlight = 16
	// maxJobs bounds an endpoint's jobs: up to MaxInFlight posting, the
	// rest recording outcomes, so the log's latency does not idle the
	// endpoint's request slots.
	maxJobs = 4 * MaxInFlight
	// DefaultBacklog bounds the pending deliveries one endpoint holds in
	// memory (Config.Backlog); beyond it they stay in the log and the
	// store and are read back as the backlog drains.
	DefaultBacklog = 1024
	// MaxFanOut bounds the events waiting for their fan-out in memory;
	// beyond it they wait in the store's live index for the next sweep.
	MaxFanOut = 10_000
	// fanOutJobs bounds the fan-outs running at once.
	fanOutJobs = 8
	// AttemptTimeout is one attempt's whole deadline (CONTRACT.md: any 2xx
	// within 10 s is success).
	AttemptTimeout = 10 * time.Second
	// sweepEvery is how often the desk looks for work memory could not
	// hold (events not fanned out, deliveries spilled to the store).
	sweepEvery = 5 * time.Second
	// writeTimeout bounds the log writes of one job.
	writeTimeout = 30 * time.Second
)

// DefaultSchedule is the wait after each failed attempt (CONTRACT.md).
var DefaultSchedule = []time.Duration{10 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute,
	2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour}

// Config wires a desk.
type Config struct {
	Engine *actors.Engine
	// Sealer seals and opens endpoint secrets; nil: no master key, so
	// POST /webhooks answers 503 webhook_encryption_unavailable.
	Sealer *secret.Sealer
	// Policy is the SSRF screen's (AllowLoopback for tests only).
	Policy screen.Policy
	// Resolver resolves receiver names; nil: the system's.
	Resolver screen.Resolver
	// RootCAs verify receivers' certificates; nil: the system's.
	RootCAs *x509.CertPool
	// Schedule is the wait after each failed attempt; nil: DefaultSchedule.
	Schedule []time.Duration
	// Backlog is the pending deliveries per endpoint held in memory;
	// 0: DefaultBacklog.
	Backlog int
	Clock   func() time.Time
	Logger  *slog.Logger
}

// Desk is the webhook desk. Create it with New, add its Hook to the
// engine for every kind (AddHooks) before Recover, and Start it after.
type Desk struct {
	cfg    Config
	e      *actors.Engine
	fanout *jobs.Driver[struct{}, *domain.WebhookEvent]

	mu sync.Mutex
	// endpoints are the live (not deleted) endpoint rows, by id, and
	// their ids by account: at most MaxEndpointsPerAccount each.
	endpoints map[string]*domain.Endpoint
	byAccount map[string][]string
	senders   map[string]*sender // endpoints with deliveries in memory
	// takeUps resumes the parts a cluster node takes up (ownership.go).
	takeUps *actors.TakeUps
	// creates serializes POST /webhooks from the count check to the
	// endpoint's commit, so no account passes MaxEndpointsPerAccount.
	creates sync.Mutex

	// attempts counted since start, by outcome (metrics).
	attemptsOK, attemptsFailed atomic.Int64

	stop chan struct{}
	wg   sync.WaitGroup
}

// New builds a desk.
func New(cfg Config) *Desk {
	if cfg.Schedule == nil {
		cfg.Schedule = DefaultSchedule
	}
	if len(cfg.Schedule) >= domain.MaxAttemptsPerDelivery {
		panic(fmt.Sprintf("webhook: a schedule of %d waits (at most %d)", len(cfg.Schedule), domain.MaxAttemptsPerDelivery-1))
	}
	if cfg.Backlog <= 0 {
		cfg.Backlog = DefaultBacklog
	}
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	d := &Desk{cfg: cfg, e: cfg.Engine, endpoints: map[string]*domain.Endpoint{}, byAccount: map[string][]string{},
		senders: map[string]*sender{}, stop: make(chan struct{})}
	d.fanout = jobs.New(jobs.Config[struct{}, *domain.WebhookEvent]{
		Name: "webhook fan-out", MaxLive: MaxFanOut, MaxJobs: fanOutJobs, KickQueue: MaxFanOut,
		Tick: time.Second, RetryAfter: time.Second, JobTimeout: writeTimeout, Clock: cfg.Clock, Logger: cfg.Logger,
		Owned: d.e.Owns,
		Next:  func(*(*domain.WebhookEvent), time.Time) jobs.Job[*domain.WebhookEvent] { return d.fanOut },
	})
	return d
}

// AddHooks adds the desk's hooks to the engine: events are born in the
// records of orders, transfers and payment links, fanned out and attempted
// in the event's own, and endpoints change in theirs. On a cluster the
// desk also follows which partitions the node owns (ownership.go).
func (d *Desk) AddHooks(e *actors.Engine) {
	for _, k := range []domain.Kind{domain.KindOrder, domain.KindTransfer, domain.KindLink, domain.KindEvent} {
		e.AddHook(k, d.onEvents)
	}
	e.AddHook(domain.KindEndpoint, d.onEndpoint)
	d.takeUps = d.followOwnership(e)
}

// onEvents sees every durable record that carries a webhook event: a born
// one is fanned out, a fanned-out one's deliveries are driven.
func (d *Desk) onEvents(_ string, events []domain.Event) {
	for i := range events {
		if w := events[i].WebhookEvent; w != nil {
			d.trackEvent(w)
		}
	}
}

// trackEvent routes an event row: to the fan-out, or its deliveries to
// their endpoints' senders.
func (d *Desk) trackEvent(w *domain.WebhookEvent) {
	if !d.e.Owns(w.ID) {
		return // another node's (a cluster): its owner drives it
	}
	if !w.FannedOut {
		if err := d.fanout.Track(w.ID, w); err != nil {
			d.cfg.Logger.Warn("webhook fan-out deferred to the sweep", "event", w.ID, "err", err.Error())
		}
		return
	}
	d.fanout.Forget(w.ID)
	for i := range w.Deliveries {
		dl := &w.Deliveries[i]
		if dl.State == domain.DeliveryPending {
			d.sender(dl.Endpoint).track(w, dl)
		} else if s := d.senderIfAny(dl.Endpoint); s != nil {
			s.forget(dl.ID)
		}
	}
}

// onEndpoint keeps the endpoint index and the senders up to date.
func (d *Desk) onEndpoint(_ string, events []domain.Event) {
	for i := range events {
		if ep := events[i].Endpoint; ep != nil {
			d.setEndpoint(ep)
		}
	}
}

// setEndpoint indexes an endpoint row and tells its sender.
func (d *Desk) setEndpoint(ep *domain.Endpoint) {
	d.mu.Lock()
	_, known := d.endpoints[ep.ID]
	switch {
	case ep.State == domain.EndpointDeleted:
		delete(d.endpoints, ep.ID)
		d.byAccount[ep.Account] = remove(d.byAccount[ep.Account], ep.ID)
		if len(d.byAccount[ep.Account]) == 0 {
			delete(d.byAccount, ep.Account)
		}
	case !known:
		d.byAccount[ep.Account] = append(d.byAccount[ep.Account], ep.ID)
		fallthrough
	default:
		d.endpoints[ep.ID] = ep
	}
	s := d.senders[ep.ID]
	d.mu.Unlock()
	if s != nil {
		s.setEndpoint(ep)
	}
}

func remove(ids []string, id string) []string {
	out := ids[:0]
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

// Start loads the endpoints, fans out the events a crash left unfanned,
// resumes every pending delivery and starts the loops: of every part the
// engine owns (a cluster node owns none yet; it takes its parts up as it
// gains them). Call it after the engine recovered and before the API
// serves.
func (d *Desk) Start(ctx context.Context) error {
	n, err := d.loadEndpoints(d.e.Owns)
	if err != nil {
		return err
	}
	if err := d.sweepFanOut(); err != nil {
		return err
	}
	pending, err := d.resume(ctx, d.e.Owns)
	if err != nil {
		return err
	}
	d.cfg.Logger.Info("webhook desk started", "endpoints", n, "pending_deliveries", pending, "unfanned_events", d.fanout.Len())
	d.wg.Add(3)
	go func() { defer d.wg.Done(); d.fanout.Run(d.stop) }()
	go func() { defer d.wg.Done(); d.sweep() }()
	go func() { defer d.wg.Done(); d.takeUps.Run(d.stop) }()
	return nil
}

// loadEndpoints indexes the live endpoint rows whose ids pass want, and
// reports how many.
func (d *Desk) loadEndpoints(want func(id string) bool) (int, error) {
	n := 0
	err := d.e.LiveRows(domain.KindEndpoint, want, 1<<30, func(r domain.Row) error {
		d.setEndpoint(r.(*domain.Endpoint))
		n++
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("webhook: load endpoints: %w", err)
	}
	return n, nil
}

// Stop ends the loops and waits for attempts in flight.
func (d *Desk) Stop() {
	select {
	case <-d.stop:
		return // stopped before
	default:
		close(d.stop)
	}
	d.wg.Wait()
	d.fanout.Wait()
	d.mu.Lock()
	senders := make([]*sender, 0, len(d.senders))
	for _, s := range d.senders {
		senders = append(senders, s)
	}
	clear(d.senders)
	d.mu.Unlock()
	for _, s := range senders {
		s.close()
	}
}

// sweep picks up, now and then, the work memory could not hold.
func (d *Desk) sweep() {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-t.C:
		}
		if err := d.sweepFanOut(); err != nil {
			d.cfg.Logger.Error("webhook fan-out sweep failed", "err", err.Error())
		}
		for _, s := range d.spilledSenders() {
			s.refill()
		}
		d.closeDone()
	}
}

// sweepFanOut tracks the events the store holds as not fanned out.
func (d *Desk) sweepFanOut() error {
	untracked := func(id string) bool { _, ok := d.fanout.Get(id); return !ok }
	err := d.e.LiveRows(domain.KindEvent, untracked, MaxFanOut, func(r domain.Row) error {
		d.trackEvent(r.(*domain.WebhookEvent))
		return nil
	})
	if err != nil {
		return fmt.Errorf("webhook: events to fan out: %w", err)
	}
	return nil
}

// Stats are the desk's gauges for /metrics.
type Stats struct {
	Endpoints, Senders, Tracked, InFlight, Spilled, FanOutWaiting int
	AttemptsOK, AttemptsFailed                                    int64
}

// Stats reads the desk's gauges.
func (d *Desk) Stats() Stats {
	d.mu.Lock()
	st := Stats{Endpoints: len(d.endpoints), Senders: len(d.senders)}
	senders := make([]*sender, 0, len(d.senders))
	for _, s := range d.senders {
		senders = append(senders, s)
	}
	d.mu.Unlock()
	for _, s := range senders {
		st.Tracked += s.drv.Len()
		st.InFlight += s.drv.Running()
		if s.spilled.Load() {
			st.Spilled++
		}
	}
	st.FanOutWaiting = d.fanout.Len()
	st.AttemptsOK, st.AttemptsFailed = d.attemptsOK.Load(), d.attemptsFailed.Load()
	return st
}
