package webhook

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/jobs"
	"github.com/fxd-labs/fxd/snapshot"
)

// pending is one delivery a sender holds in memory.
type pending struct {
	ev     *domain.WebhookEvent // the row it was read from: id and body
	dlv    string
	nextAt time.Time
}

// sender delivers to one endpoint: its own job driver (at most MaxInFlight
// attempts, at most Config.Backlog deliveries in memory) and its own HTTP client,
// so a slow or dead endpoint holds only its own slots and connections.
type sender struct {
	d  *Desk
	id string
	// ep is the endpoint's row; nil once deleted (its deliveries are then
	// abandoned).
	ep      atomic.Pointer[domain.Endpoint]
	client  atomic.Pointer[http.Client] // rebuilt when the URL changes
	drv     *jobs.Driver[struct{}, pending]
	spilled atomic.Bool // the store holds pending deliveries memory does not
	refills atomic.Bool // a refill runs
	closed  atomic.Bool // closeDone took it out of the desk
	keys    keyCache
	// posts holds a token per request in flight: at most MaxInFlight.
	posts chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

// senderIfAny returns endpoint id's sender if it has one.
func (d *Desk) senderIfAny(id string) *sender {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.senders[id]
}

// sender returns endpoint id's sender, made on first use (a deleted
// endpoint's too: it abandons the deliveries still pending).
func (d *Desk) sender(id string) *sender {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s := d.senders[id]; s != nil {
		return s
	}
	s := &sender{d: d, id: id, posts: make(chan struct{}, MaxInFlight), stop: make(chan struct{}), done: make(chan struct{})}
	if ep := d.endpoints[id]; ep != nil {
		s.ep.Store(ep)
		s.client.Store(d.newClient(ep.URL))
	}
	s.drv = jobs.New(jobs.Config[struct{}, pending]{
		Name: "webhook " + id, MaxLive: d.cfg.Backlog, MaxJobs: maxJobs, KickQueue: d.cfg.Backlog,
		Tick: tickFor(d.cfg.Schedule), RetryAfter: time.Second, JobTimeout: writeTimeout + AttemptTimeout,
		Clock: d.cfg.Clock, Logger: d.cfg.Logger, Owned: d.e.Owns, Next: s.next,
	})
	d.senders[id] = s
	go func() { defer close(s.done); s.drv.Run(s.stop) }()
	return s
}

// tickFor is how often a sender looks for retries that fell due: a
// fraction of the shortest wait, within 10 ms and 1 s.
func tickFor(schedule []time.Duration) time.Duration {
	tick := time.Second
	for _, w := range schedule {
		tick = min(tick, w/4)
	}
	return max(tick, 10*time.Millisecond)
}

// next is the driver's Next: an attempt when the delivery is due and the
// endpoint enabled; the abandonment once the endpoint is deleted.
func (s *sender) next(p *pending, now time.Time) jobs.Job[pending] {
	ep := s.ep.Load()
	switch {
	case ep == nil:
		return s.abandon
	case ep.State != domain.EndpointEnabled, now.Before(p.nextAt):
		return nil
	}
	return s.attempt
}

// track holds a pending delivery in memory, or marks the sender spilled
// when its backlog is full (the store keeps the delivery).
// A sender closed meanwhile (closeDone) hands it to its successor: the
// check follows the Track, so closeDone either saw it or is seen.
func (s *sender) track(w *domain.WebhookEvent, dl *domain.Delivery) {
	err := s.drv.Track(dl.ID, pending{ev: w, dlv: dl.ID, nextAt: dl.NextAt})
	if errors.Is(err, jobs.ErrFull) {
		s.spilled.Store(true)
	}
	if s.closed.Load() {
		s.d.sender(s.id).track(w, dl)
	}
}

// forget drops a delivery that is done; a spilled sender whose backlog
// drained to half reads more back from the store.
func (s *sender) forget(dlv string) {
	s.drv.Forget(dlv)
	if s.spilled.Load() && !s.refills.Load() && s.drv.Len() <= s.d.cfg.Backlog/2 {
		go s.refill()
	}
}

// setEndpoint takes a new row of the endpoint: a new URL gets a new
// client; an enabled endpoint's deliveries are driven at once.
func (s *sender) setEndpoint(ep *domain.Endpoint) {
	if ep.State == domain.EndpointDeleted {
		s.ep.Store(nil)
	} else {
		old := s.ep.Swap(ep)
		if old == nil || old.URL != ep.URL {
			if c := s.client.Swap(s.d.newClient(ep.URL)); c != nil {
				c.CloseIdleConnections()
			}
		}
		if ep.State != domain.EndpointEnabled {
			return
		}
	}
	s.drv.DriveAll(s.d.cfg.Clock())
}

// refill reads pending deliveries back from the store, oldest first, until
// the backlog is full again (a few passes at most; the sweep comes back).
// One runs at a time.
func (s *sender) refill() {
	if !s.refills.CompareAndSwap(false, true) {
		return
	}
	defer s.refills.Store(false)
	if !s.d.e.Owns(s.id) {
		// Its partition moved to another node, which reads the store
		// there; this sender is closed once its driver let go.
		s.spilled.Store(false)
		return
	}
	for pass := 0; pass < maxRefillPasses && s.spilled.Load() && s.drv.Len() <= s.d.cfg.Backlog/2; pass++ {
		if !s.refillPass() {
			return
		}
	}
}

// maxRefillPasses bounds one refill's passes over the store.
const maxRefillPasses = 4

// refillPass is one scan of the endpoint's pending deliveries. It clears
// spilled first and sets it again unless the scan saw the store's last
// pending delivery, so no outcome of it can strand one. It reports false
// when the store failed.
func (s *sender) refillPass() bool {
	s.spilled.Store(false) // a Track that finds the backlog full sets it again
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	backlog := s.d.cfg.Backlog
	max := backlog + (backlog - s.drv.Len())
	visited := 0
	err := s.d.e.PendingDeliveries(ctx, s.id, "", max, func(ref snapshot.DeliveryRef) error {
		visited++
		if _, ok := s.drv.Get(ref.Delivery); ok {
			return nil
		}
		if s.drv.Len() >= backlog {
			return errStopScan
		}
		return s.d.trackStored(ctx, ref)
	})
	switch {
	case errors.Is(err, errStopScan), err == nil && visited >= max:
		s.spilled.Store(true) // more may wait in the store
	case err != nil:
		s.spilled.Store(true)
		s.d.cfg.Logger.Error("webhook backlog refill failed", "endpoint", s.id, "err", err.Error())
		return false
	}
	return true
}

var errStopScan = errors.New("webhook: stop scan")

// close stops the sender's loop and drops its idle connections.
func (s *sender) close() {
	close(s.stop)
	<-s.done
	s.drv.Wait()
	if c := s.client.Load(); c != nil {
		c.CloseIdleConnections()
	}
}

// spilledSenders are the senders whose store holds more than memory.
func (d *Desk) spilledSenders() []*sender {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []*sender
	for _, s := range d.senders {
		if s.spilled.Load() {
			out = append(out, s)
		}
	}
	return out
}

// closeDone closes the senders of deleted endpoints that have abandoned
// every delivery, and of endpoints another node owns now whose deliveries
// their driver let go, so neither leaves a goroutine behind.
func (d *Desk) closeDone() {
	d.mu.Lock()
	var done []*sender
	for id, s := range d.senders {
		gone := s.ep.Load() == nil || !d.e.Owns(id)
		if gone && s.drv.Len() == 0 && !s.spilled.Load() && !s.refills.Load() {
			s.closed.Store(true)
			delete(d.senders, id)
			done = append(done, s)
		}
	}
	d.mu.Unlock()
	for _, s := range done {
		s.close()
	}
}

// resume tracks the pending deliveries the store holds for the endpoints
// that pass want, as many per endpoint as its backlog takes; the rest
// mark their sender spilled. It returns how many it tracked.
func (d *Desk) resume(ctx context.Context, want func(endpoint string) bool) (int, error) {
	n := 0
	err := d.e.PendingDeliveries(ctx, "", "", 1<<62, func(ref snapshot.DeliveryRef) error {
		if !want(ref.Endpoint) {
			return nil
		}
		s := d.sender(ref.Endpoint)
		if s.drv.Len() >= d.cfg.Backlog {
			s.spilled.Store(true)
			return nil
		}
		n++
		return d.trackStored(ctx, ref)
	})
	return n, err
}

// trackStored reads a pending delivery's event and tracks it.
func (d *Desk) trackStored(ctx context.Context, ref snapshot.DeliveryRef) error {
	r, err := d.e.Row(ctx, domain.KindEvent, ref.Event, "")
	if err != nil {
		return err
	}
	w := r.(*domain.WebhookEvent)
	if dl := w.Delivery(ref.Delivery); dl != nil && dl.State == domain.DeliveryPending {
		d.sender(dl.Endpoint).track(w, dl)
	}
	return nil
}

// keyCache holds the opened signing keys of an endpoint's sealed secrets,
// so an attempt does not open them again; at most two (a rotation).
type keyCache struct {
	mu   sync.Mutex
	keys map[string][]byte // sealed → key
}

func (c *keyCache) get(sealed []byte, open func([]byte) ([]byte, error)) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.keys[string(sealed)]; ok {
		return k, nil
	}
	k, err := open(sealed)
	if err != nil {
		return nil, err
	}
	if len(c.keys) >= 2 {
		clear(c.keys)
	}
	if c.keys == nil {
		c.keys = map[string][]byte{}
	}
	c.keys[string(sealed)] = k
	return k, nil
}
