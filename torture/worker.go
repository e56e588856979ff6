package torture

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/fxd-labs/fxd/bench"
	"github.com/fxd-labs/fxd/client"
)

// account is one account of the workload: its workers (one key and one
// trading wallet each), its payout wallets and its webhook endpoints.
type account struct {
	idx     int
	id      string
	workers []*worker
	// checker is a key of the account the checks read with, so their
	// lists do not spend the workers' rate limits.
	checker *client.Client

	mu        sync.Mutex
	payouts   []*walletRec
	wallets   int // linked or being linked, less those deleted
	endpoints []*endpointRec
	// primary is the wallet last acknowledged primary (nil: not known);
	// primaryUnsure: a write of the mark never got an answer (the end
	// resolves it), so no other is sent.
	primary       *walletRec
	primaryUnsure bool
	// walletEdits and endpointEdits gauge the writes of the account's
	// wallets' and endpoints' fields, so a check compares fields only over
	// a list no write overlapped.
	walletEdits, endpointEdits editGauge

	// flipMu makes the account's primary moves one at a time, so the last
	// acknowledged primary is well defined.
	flipMu sync.Mutex
}

// Per-account caps under the service's (100 wallets, 16 endpoints).
const (
	maxWalletsPerAccount   = 60
	maxEndpointsPerAccount = 12
)

// worker is one client of the workload: an API key of its account, the
// SDK client signing with it, a trading wallet of its own (so its
// transactions never race another worker's nonces) and a random source
// of its own, derived from the run's seed, so its sequence of operations
// is the seed's.
type worker struct {
	idx    int
	h      *harness
	acct   *account
	key    bench.Key
	c      *client.Client
	trader *walletRec
	rng    *rand.Rand
	n      int // operations started: unique names

	mu        sync.Mutex
	contacts  []*contactRec
	orders    []*orderRec
	transfers []*transferRec
	links     []*linkRec
	extras    []*walletRec // extra wallets kept linked (never primary)
	// opsDone counts finished operations by name.
	opsDone map[string]int
}

// op is one kind of operation the workload picks at random by weight.
type op struct {
	name   string
	weight int
	run    func(w *worker, ctx context.Context) error
}

// ops is the workload's mix: every write of the API.
var ops = []op{
	{"contacts.create", 8, (*worker).createContact},
	{"contacts.update", 3, (*worker).updateContact},
	{"contacts.delete", 2, (*worker).deleteContact},
	{"wallets.register", 1, (*worker).registerPayoutWallet},
	{"wallets.label", 1, (*worker).labelWallet},
	{"wallets.extra", 1, (*worker).walletExtra},
	{"fx.amm", 6, (*worker).tradeAMM},
	{"fx.rfq", 5, (*worker).tradeRFQ},
	{"transfers.same", 6, (*worker).transferSame},
	{"transfers.cross", 3, (*worker).transferCross},
	{"transfers.cross_contact", 1, (*worker).transferCrossContact},
	{"links.pay", 5, (*worker).payLink},
	{"links.cancel", 1, (*worker).cancelLink},
	{"webhooks.create", 1, (*worker).createEndpoint},
	{"webhooks.test", 1, (*worker).testEndpoint},
	{"webhooks.enable", 1, (*worker).reenableEndpoint},
	{"webhooks.update", 1, (*worker).updateEndpoint},
	{"webhooks.rotate", 1, (*worker).rotateEndpoint},
	{"webhooks.delete", 1, (*worker).deleteEndpoint},
}

func (w *worker) pick() op {
	total := 0
	for _, o := range ops {
		total += o.weight
	}
	n := w.rng.IntN(total)
	for _, o := range ops {
		if n < o.weight {
			return o
		}
		n -= o.weight
	}
	return ops[0]
}

// run picks and runs operations until stop is closed (it finishes the
// one it is in) or ctx ends (it abandons it).
func (w *worker) run(ctx context.Context, stop <-chan struct{}) {
	for ctx.Err() == nil && !w.h.hist.full() {
		select {
		case <-stop:
			return
		default:
		}
		o := w.pick()
		var ua *unexpectedAnswer
		switch err := o.run(w, ctx); {
		case errors.As(err, &ua):
			w.h.fail("worker %d: %v", w.idx, err)
		case err != nil && ctx.Err() == nil:
			w.h.anomaly(o.name, fmt.Sprintf("worker %d: %v", w.idx, err))
		}
		w.mu.Lock()
		w.opsDone[o.name]++
		w.mu.Unlock()
		if w.rng.IntN(100) < 40 {
			w.pollOne(ctx)
		}
		// Pacing between operations (not a wait for anything).
		sleep(ctx, time.Duration(50+w.rng.IntN(250))*time.Millisecond)
	}
}

// name makes a unique name for the next record of this worker.
func (w *worker) name(what string) string {
	w.n++
	n := fmt.Sprintf("t-%s-w%d-%d", what, w.idx, w.n)
	w.h.noteName(n)
	return n
}

// amount is a random amount of 1.00..21.00 in base units of a 6-decimal
// token, to the cent.
func (w *worker) amount() *big.Int {
	cents := 100 + w.rng.Int64N(2000)
	return new(big.Int).Mul(big.NewInt(cents), big.NewInt(10_000))
}

// pollOne reads one live record of the worker and notes its state.
func (w *worker) pollOne(ctx context.Context) {
	var recs []live
	w.mu.Lock()
	for _, o := range w.orders {
		if !o.terminal() {
			recs = append(recs, o)
		}
	}
	for _, t := range w.transfers {
		if !t.terminal() {
			recs = append(recs, t)
		}
	}
	for _, l := range w.links {
		if !l.terminal() {
			recs = append(recs, l)
		}
	}
	w.mu.Unlock()
	if len(recs) == 0 {
		return
	}
	w.h.refresh(ctx, w.c, recs[w.rng.IntN(len(recs))])
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
