package fx

import (
	"context"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/domain"
)

// Limits of the chain side.
const (
	// MaxLiveOrders bounds the orders the desk drives at once; accept is
	// 503 beyond it.
	MaxLiveOrders = 100_000
	// maxJobs bounds concurrent chain jobs (relays, settles, refunds).
	maxJobs = 256
	// kickQueue bounds the orders waiting to be driven now; a full queue
	// drops the kick and the next tick drives the order.
	kickQueue = 4096
	// tickEvery is how often every live order is looked at.
	tickEvery = time.Second
	// expiryGrace waits past an order's deadline before expiring it: the
	// chain's clock may trail ours by up to 2 s (CONTRACT.md).
	expiryGrace = 5 * time.Second
	// refundGrace waits past the escrow's settle deadline before refunding.
	refundGrace = 3 * time.Second
	// retryAfter spaces attempts of a job that failed transiently.
	retryAfter = 2 * time.Second
	// jobTimeout bounds one job, mining included.
	jobTimeout = 3 * time.Minute
)

// tracked is one live order as the chain side sees it.
type tracked struct {
	o         *domain.Order
	gasless   *eip712.GaslessOrder // amm
	orderHash common.Hash          // amm: the router's event key
	rfq       *rfqTerms            // rfq
	// busy: a job runs for this order; nextTry: no job before then.
	busy    bool
	nextTry time.Time
	// settleAsked: the maker was asked to settle; settleBy: the escrow's
	// settle deadline (zero until read).
	settleAsked bool
	settleBy    time.Time
	// synced: the escrow was read since this process started tracking.
	synced bool
}

// tracker holds the live orders and the keys chain logs are matched by.
type tracker struct {
	d      *Desk
	mu     sync.Mutex
	live   map[string]*tracked
	byExec map[common.Hash]string // rfq execution id → order id
	byHash map[common.Hash]string // amm order hash → order id
	kick   chan string
	jobs   chan struct{}
}

func newTracker(d *Desk) *tracker {
	return &tracker{d: d, live: map[string]*tracked{}, byExec: map[common.Hash]string{}, byHash: map[common.Hash]string{},
		kick: make(chan string, kickQueue), jobs: make(chan struct{}, maxJobs)}
}

func (t *tracker) full() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.live) >= MaxLiveOrders
}

// update takes a committed row (the engine's order hook; it must not
// block) and asks for the order to be driven.
func (t *tracker) update(o *domain.Order) {
	t.mu.Lock()
	tr := t.live[o.ID]
	if domain.OrderTerminal(o.State) {
		if tr != nil {
			delete(t.live, o.ID)
			if tr.rfq != nil {
				delete(t.byExec, tr.rfq.ExecutionID)
			}
			delete(t.byHash, tr.orderHash)
		}
		t.mu.Unlock()
		t.d.cfg.Logger.Info("order finished", "order", o.ID, "route", o.Route, "state", o.State, "event", o.EventID)
		return
	}
	if tr != nil && o.UpdatedAt.Before(tr.o.UpdatedAt) {
		t.mu.Unlock() // an older row (the start-up scan racing a commit)
		return
	}
	if tr == nil {
		tr = &tracked{}
		if err := t.index(tr, o); err != nil {
			t.mu.Unlock()
			t.d.cfg.Logger.Error("order not tracked: stored signing unreadable", "order", o.ID, "err", err.Error())
			return
		}
		t.live[o.ID] = tr
	}
	tr.o = o
	t.mu.Unlock()
	select {
	case t.kick <- o.ID:
	default:
	}
}

// index reads what the chain side matches logs by out of the order's
// signing object. Called with t.mu held.
func (t *tracker) index(tr *tracked, o *domain.Order) error {
	switch o.Route {
	case domain.RouteAMM:
		g, err := parseGasless(o.Signing)
		if err != nil {
			return err
		}
		tr.gasless, tr.orderHash = g, g.StructHash()
		t.byHash[tr.orderHash] = o.ID
	case domain.RouteRFQ:
		r, err := parseRFQ(o.Signing)
		if err != nil {
			return err
		}
		tr.rfq = r
		t.byExec[r.ExecutionID] = o.ID
	}
	return nil
}

// run drives kicked orders at once and every live order each tick.
func (t *tracker) run(stop <-chan struct{}) {
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case id := <-t.kick:
			t.drive(id)
		case <-tick.C:
			t.mu.Lock()
			ids := make([]string, 0, len(t.live))
			for id := range t.live {
				ids = append(ids, id)
			}
			t.mu.Unlock()
			for _, id := range ids {
				t.drive(id)
			}
		}
	}
}

// drive starts the job the order's state calls for, if none runs.
func (t *tracker) drive(id string) {
	now := t.d.cfg.Clock()
	t.mu.Lock()
	tr := t.live[id]
	if tr == nil || tr.busy || now.Before(tr.nextTry) {
		t.mu.Unlock()
		return
	}
	job := t.d.next(tr, now)
	if job == nil {
		t.mu.Unlock()
		return
	}
	select {
	case t.jobs <- struct{}{}:
	default:
		t.mu.Unlock()
		return // all job slots busy: the next tick tries again
	}
	tr.busy = true
	snapshot := *tr
	t.mu.Unlock()
	go func() {
		defer func() { <-t.jobs }()
		ctx, cancel := context.WithTimeout(context.Background(), jobTimeout)
		defer cancel()
		err := job(ctx, &snapshot)
		t.mu.Lock()
		defer t.mu.Unlock()
		cur := t.live[id]
		if cur == nil {
			return
		}
		cur.busy = false
		cur.settleAsked = cur.settleAsked || snapshot.settleAsked
		cur.synced = cur.synced || snapshot.synced
		if !snapshot.settleBy.IsZero() {
			cur.settleBy = snapshot.settleBy
		}
		if err != nil {
			cur.nextTry = t.d.cfg.Clock().Add(retryAfter)
			t.d.cfg.Logger.Warn("order job failed; will retry", "order", id, "state", snapshot.o.State, "err", err.Error())
			return
		}
		select { // the next step may be due at once (funded: ask the maker)
		case t.kick <- id:
		default:
		}
	}()
}

// byExecution and byOrderHash find the live order a log is about.
func (t *tracker) byExecution(h common.Hash) (*tracked, bool) { return t.find(t.byExec, h) }
func (t *tracker) byOrderHash(h common.Hash) (*tracked, bool) { return t.find(t.byHash, h) }

func (t *tracker) find(m map[common.Hash]string, h common.Hash) (*tracked, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr := t.live[m[h]]
	if tr == nil {
		return nil, false
	}
	c := *tr
	return &c, true
}
