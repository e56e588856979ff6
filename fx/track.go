package fx

import (
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/jobs"
)

// Limits of the chain side: the fx orders' job driver's config.
const (
	// MaxLiveOrders bounds the orders the desk drives at once; accept is
	// 503 beyond it, and a row beyond it is not tracked (logged).
	MaxLiveOrders = 100_000
	// maxJobs bounds concurrent chain jobs (relays, settles, refunds,
	// escrow reads, applying watcher logs).
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
	// escrowPoll spaces the reads of an rfq order's escrow while a watcher
	// log may change it (funding, settlement, refund): a log that finds its
	// order busy or every job slot taken is dropped (OnLog), and this read
	// finds the same fact. At most one read per such order per escrowPoll.
	escrowPoll = 5 * time.Second
	// retryAfter spaces attempts of a job that failed transiently.
	retryAfter = 2 * time.Second
	// jobTimeout bounds one job, mining included.
	jobTimeout = 3 * time.Minute
)

// tracked is one live order as the chain side sees it: its committed row
// (whose typed terms the gasless leg reads), what logs name it by, and
// what jobs learned.
type tracked struct {
	o         *domain.Order
	orderHash common.Hash // amm: the router's event key
	rfq       *rfqTerms   // rfq
	learned
}

// learned is what jobs found out about an order that its row does not
// hold. It outlives a newer row and is taken from a finished job's copy
// whole (mergeLearned), so a job may also clear a field: refund clears
// settleBy to have the escrow read again.
type learned struct {
	// settleAsked: the maker was asked to settle; settleBy: the escrow's
	// settle deadline (zero until read).
	settleAsked bool
	settleBy    time.Time
	// synced: the escrow was read since this process started tracking;
	// syncedAt: when the last read started (escrowPoll paces them).
	synced   bool
	syncedAt time.Time
}

// tracker is the desk's side of the fx orders' job driver: it turns
// committed rows into tracked records.
type tracker struct {
	d    *Desk
	jobs *jobs.Driver[common.Hash, tracked]
}

func newTracker(d *Desk) *tracker {
	var owned func(id string) bool // nil: every order is this desk's (no engine: the tracker's tests)
	if d.e != nil {
		owned = d.e.Owns
	}
	return &tracker{d: d, jobs: jobs.New(jobs.Config[common.Hash, tracked]{
		Name: "fx orders", MaxLive: MaxLiveOrders, MaxJobs: maxJobs, KickQueue: kickQueue,
		Tick: tickEvery, RetryAfter: retryAfter, JobTimeout: jobTimeout,
		Clock: d.cfg.Clock, Logger: d.cfg.Logger, Owned: owned,
		Next: d.next, Keys: logKeys, Merge: mergeLearned, Stale: olderRow,
	})}
}

func (t *tracker) full() bool { return t.jobs.Len() >= MaxLiveOrders }

// update takes a committed row (the engine's order hook; it must not
// block) and asks for the order to be driven.
func (t *tracker) update(o *domain.Order) {
	if domain.OrderTerminal(o.State) {
		t.jobs.Forget(o.ID)
		t.d.cfg.Logger.Info("order finished", "order", o.ID, "route", o.Route, "state", o.State, "event", o.EventID)
		return
	}
	tr, err := t.record(o)
	if err != nil {
		t.d.cfg.Logger.Error("order not tracked", "order", o.ID, "err", err.Error())
		return
	}
	if err := t.jobs.Track(o.ID, tr); err != nil {
		t.d.cfg.Logger.Error("order not driven until the next start", "order", o.ID, "err", err.Error())
	}
}

// record is the tracked record of row o, read from its typed terms. The
// terms of an order never change, so a tracked order's are reused; what
// jobs learned is carried over by the driver (mergeLearned).
func (t *tracker) record(o *domain.Order) (tracked, error) {
	if cur, ok := t.jobs.Get(o.ID); ok {
		return tracked{o: o, orderHash: cur.orderHash, rfq: cur.rfq}, nil
	}
	tr := tracked{o: o}
	switch {
	case o.Route == domain.RouteAMM && o.Gasless != nil:
		tr.orderHash = gasless.OrderHash(o.Gasless)
	case o.Route == domain.RouteRFQ && o.RFQ != nil:
		tr.rfq = rfqTermsOf(o.RFQ)
	default:
		// Decide refuses an order without its terms: a broken invariant.
		return tracked{}, fmt.Errorf("fx: %s order %s has no chain terms", o.Route, o.ID)
	}
	return tr, nil
}

// logKeys is what chain logs name an order by: the amm order hash, the
// rfq execution id. Both are keccak hashes, so they share one index;
// OnLog checks the route a log's topic belongs to.
func logKeys(tr *tracked) []common.Hash {
	switch {
	case tr.o.Gasless != nil:
		return []common.Hash{tr.orderHash}
	case tr.rfq != nil:
		return []common.Hash{tr.rfq.ExecutionID}
	}
	return nil
}

// mergeLearned carries what jobs learned into cur: from a finished job's
// copy (one job at most runs per order, so its copy is the latest) or
// from the record a newer row replaces.
func mergeLearned(cur, from *tracked) { cur.learned = from.learned }

// olderRow: the start-up scan racing a commit may deliver an older row.
func olderRow(cur, next *tracked) bool { return next.o.UpdatedAt.Before(cur.o.UpdatedAt) }
