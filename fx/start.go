package fx

import (
	"context"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
)

// sweepEvery is how often expired quotes leave the book.
const sweepEvery = 5 * time.Second

// hook is the engine's hook for orders (AddHook(KindOrder, …)): every
// committed order row reaches the chain side.
func (d *Desk) hook() func(id string, events []domain.Event) {
	return func(_ string, events []domain.Event) {
		for i := range events {
			if o, ok := events[i].Row().(*domain.Order); ok && o != nil {
				d.track.update(o)
			}
		}
	}
}

// AddHooks adds the desk's order hook to e and, on a cluster node, follows
// the partitions the node takes up and gives up (actors.TakeUps): the
// live orders of a part taken up are resumed once it runs. Call it before
// Recover.
func (d *Desk) AddHooks(e *actors.Engine) {
	e.AddHook(domain.KindOrder, d.hook())
	var f *actors.TakeUps
	f = e.FollowOwnership(actors.TakeUp{Name: "fx desk", Logger: d.cfg.Logger, Resume: func(parts map[int]bool) error {
		_, err := d.resume(func(id string) bool { return f.In(parts, id) })
		return err
	}})
	d.takeUps = f
}

// resume drives the live orders the store holds whose ids pass want, and
// reports how many.
func (d *Desk) resume(want func(id string) bool) (int, error) {
	n := 0
	err := d.e.LiveRows(domain.KindOrder, want, MaxLiveOrders, func(r domain.Row) error {
		if o, ok := r.(*domain.Order); ok {
			d.track.update(o)
			n++
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("fx: resume orders: %w", err)
	}
	return n, nil
}

// Start subscribes to the watcher, resumes every live order of the parts
// the engine owns from the log and starts driving them. Call it after the
// engine recovered, and after AddHooks.
func (d *Desk) Start(w *watch.Watcher) error {
	d.watcher.Store(w)
	w.Subscribe(d.cfg.Pools.Filter(), d.cfg.Pools.OnLog)
	w.Subscribe(d.Filter(), d.OnLog)
	n, err := d.resume(d.e.Owns)
	if err != nil {
		return err
	}
	d.cfg.Logger.Info("fx desk started", "live_orders", n, "makers", len(d.cfg.Makers))
	d.wg.Add(3)
	go func() { defer d.wg.Done(); d.takeUps.Run(d.stop) }()
	go func() { defer d.wg.Done(); d.track.jobs.Run(d.stop) }()
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(sweepEvery)
		defer t.Stop()
		for {
			select {
			case <-d.stop:
				return
			case <-t.C:
				d.book.sweep(d.cfg.Clock())
			}
		}
	}()
	return nil
}

// Stop ends the desk's loops; jobs in flight finish on their own
// (at most maxJobs, each within jobTimeout).
func (d *Desk) Stop() {
	select {
	case <-d.stop:
	default:
		close(d.stop)
	}
	d.wg.Wait()
}

// EnsureSettleWindow makes the escrow's settle window equal to the
// configured --rfq-settle-timeout, sending setSettleWindow from the
// escrow's owner key when they differ (the embedded chain's deployer).
func (d *Desk) EnsureSettleWindow(ctx context.Context) error {
	esc, err := d.escrow()
	if err != nil {
		return err
	}
	have, err := esc.SettleWindow(&bind.CallOpts{Context: ctx})
	if err != nil {
		return fmt.Errorf("fx: escrow settleWindow: %w", err)
	}
	want := uint64(d.cfg.SettleTimeout / time.Second)
	if have == want {
		return nil
	}
	owner, err := esc.Owner(&bind.CallOpts{Context: ctx})
	if err != nil {
		return fmt.Errorf("fx: escrow owner: %w", err)
	}
	key := d.ch.Faucet
	if key == nil || crypto.PubkeyToAddress(key.PublicKey) != owner {
		return fmt.Errorf("fx: the escrow's settle window is %d s, --rfq-settle-timeout is %d s, and no owner key is configured to change it", have, want)
	}
	auth, err := bind.NewKeyedTransactorWithChainID(key, d.ch.ChainID)
	if err != nil {
		return err
	}
	auth.Context = ctx
	tx, err := esc.SetSettleWindow(auth, want)
	if err == nil {
		var rcpt *types.Receipt
		if rcpt, err = bind.WaitMined(ctx, d.ch.Client, tx); err == nil && rcpt.Status != types.ReceiptStatusSuccessful {
			err = fmt.Errorf("tx %s reverted", tx.Hash().Hex())
		}
	}
	if err != nil {
		// Cluster nodes starting together each set it from the one owner
		// key: the ones that lose the nonce race find it set.
		if now, rerr := esc.SettleWindow(&bind.CallOpts{Context: ctx}); rerr == nil && now == want {
			return nil
		}
		return fmt.Errorf("fx: setSettleWindow: %w", err)
	}
	d.cfg.Logger.Info("escrow settle window set", "from_s", have, "to_s", want)
	return nil
}

// Stats are the desk's gauges for /metrics.
type Stats struct {
	LiveOrders  int   // orders the chain side drives
	BookQuotes  int64 // quotes and tombstones in the book
	RunningJobs int   // chain jobs in flight
}

// Stats reads the desk's gauges.
func (d *Desk) Stats() Stats {
	return Stats{LiveOrders: d.track.jobs.Len(), BookQuotes: d.book.count.Load(), RunningJobs: d.track.jobs.Running()}
}
