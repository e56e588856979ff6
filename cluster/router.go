package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/forward"
	"github.com/valyala/fasthttp"
)

// DefaultBalanceEvery is the pause between two balancing rounds.
const DefaultBalanceEvery = 5 * time.Second

// Router is a node's part in routing (httpd.Cluster): it leads what its
// Leaders say, answers the partitions it leads through its Responder,
// forwards the rest with its Forwarder, and balances leadership when its
// server is the meta leader.
type Router struct {
	// Owner, if set, takes a partition up before the Responder answers for
	// it and lets go of it after (actors.Engine on the partition streams).
	Owner     Owner
	Leaders   *Leaders
	Responder *forward.Responder
	Forwarder *forward.Forwarder
	Balancer  *Balancer
	// BalanceEvery is the pause between balancing rounds (default
	// DefaultBalanceEvery).
	BalanceEvery time.Duration
	Logger       *slog.Logger

	// untaken counts, per partition, the take-ups that failed in a row
	// (Run's goroutine only): a stream that cannot be read yet fails its
	// take-up at every poll for seconds, so the failure is logged at the
	// first attempt and every untakenLogEvery after it.
	untaken map[int]int
}

// untakenLogEvery is how many failed take-ups in a row of one partition
// are logged once (at the 100 ms poll: every 5 s).
const untakenLogEvery = 50

// Leads reports whether this node leads p now (httpd.Cluster): it has
// taken p up and its server still leads p's stream (Leaders.LeadsNow).
func (r *Router) Leads(p int) bool { return r.Leaders.LeadsNow(p) }

// TookUp is when this node last took p up (httpd.Cluster).
func (r *Router) TookUp(p int) time.Time { return r.Leaders.TookUp(p) }

// Forward passes the request to p's owner (httpd.Cluster).
func (r *Router) Forward(ctx *fasthttp.RequestCtx, p int) *domain.Error {
	return r.Forwarder.Forward(ctx, p)
}

// Run follows leadership until ctx ends: the Responder answers exactly
// the partitions this node leads (a loss is let go before a gain is
// taken), and a balancing round runs every BalanceEvery. A Responder that
// cannot subscribe or let go ends Run with the error: the node would
// answer for what it does not lead, or not answer for what it does.
func (r *Router) Run(ctx context.Context) error {
	every := r.BalanceEvery
	if every <= 0 {
		every = DefaultBalanceEvery
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go r.balance(ctx, every)
	err := r.Leaders.Run(ctx, func(cs []Change) (notTaken []int) {
		for _, c := range cs {
			taken, err := r.apply(c)
			if err != nil {
				cancel(err)
				return nil
			}
			if !taken {
				notTaken = append(notTaken, c.Partition)
			}
		}
		return notTaken
	})
	if cause := context.Cause(ctx); cause != nil && cause != ctx.Err() {
		return cause
	}
	return err
}

// Owner is what takes a partition up and lets it go on a node: the
// engine's handover (actors.Engine.Own, Disown).
type Owner interface {
	Own(p int) error
	Disown(p int)
}

// apply makes the Owner and the Responder follow one change. A gain the
// Owner cannot take up yet (its log not open: an election under way) is
// not taken, and Leaders offers it again at the next poll; an error is a
// Responder that cannot subscribe or let go.
func (r *Router) apply(c Change) (taken bool, err error) {
	if c.Leads {
		if r.Owner != nil {
			if err := r.Owner.Own(c.Partition); err != nil {
				if r.untaken == nil {
					r.untaken = map[int]int{}
				}
				if r.untaken[c.Partition]++; r.untaken[c.Partition]%untakenLogEvery == 1 {
					r.Logger.Warn("cluster: partition not taken up yet", "partition", c.Partition, "attempts", r.untaken[c.Partition], "err", err)
				}
				return false, nil
			}
		}
		r.Logger.Info("cluster: partition gained", "partition", c.Partition, "failed_attempts", r.untaken[c.Partition])
		delete(r.untaken, c.Partition)
		return true, r.Responder.Own(c.Partition)
	}
	r.Logger.Info("cluster: partition lost", "partition", c.Partition)
	if err := r.Responder.Disown(c.Partition); err != nil {
		return true, fmt.Errorf("cluster: let go of partition %d: %w", c.Partition, err)
	}
	if r.Owner != nil {
		r.Owner.Disown(c.Partition)
	}
	return true, nil
}

// balance runs a round every `every` until ctx ends; a failed round (an
// election under way) is logged and tried again next time. It logs when
// this node starts or stops balancing (its meta leadership), and a round
// still running after roundStuckAfter with what it is doing: a meta
// leader's balancer once did nothing for 2 minutes with no line in the
// log (TestClusterFailover).
func (r *Router) balance(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	var waiting string
	meta := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		rm, err := r.round(ctx, every)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			r.Logger.Warn("cluster: balancing round", "err", err)
			continue
		}
		if rm.Meta != meta {
			meta = rm.Meta
			r.Logger.Info("cluster: balancing", "here", meta)
		}
		for _, m := range rm.Leaders {
			r.Logger.Info("cluster: leadership moved", "stream", m.Stream, "to", m.To)
		}
		for _, ev := range rm.Replicas {
			r.Logger.Info("cluster: replica moving", "stream", ev.Stream, "off", ev.Peer)
		}
		if rm.Waiting != waiting {
			waiting = rm.Waiting
			if waiting != "" {
				r.Logger.Info("cluster: " + waiting)
			}
		}
	}
}

// roundStuckAfter is how long a balancing round runs before the log says
// so (and again each time as long): its requests are bounded by
// requestTimeout, so a round this long is waiting on something else.
// A variable for the test.
var roundStuckAfter = 30 * time.Second

// round runs one balancing round on a goroutine of its own (one at a
// time: round waits for it) and logs it while it runs long.
func (r *Router) round(ctx context.Context, every time.Duration) (RoundMoves, error) {
	type result struct {
		rm  RoundMoves
		err error
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		rm, err := r.Balancer.Round(ctx)
		done <- result{rm, err}
	}()
	stuck := time.NewTicker(roundStuckAfter)
	defer stuck.Stop()
	for {
		select {
		case res := <-done:
			if took := time.Since(start); took > every {
				// 64 stream info requests; during replica moves each can
				// take seconds, and nothing moves meanwhile.
				r.Logger.Info("cluster: balancing round slow", "took_ms", took.Milliseconds())
			}
			return res.rm, res.err
		case <-ctx.Done():
			return RoundMoves{}, ctx.Err() // the round ends with ctx, or with the process
		case <-stuck.C:
			r.Logger.Warn("cluster: balancing round still running", "for_s", int(time.Since(start).Seconds()), "step", r.Balancer.Step())
		}
	}
}
