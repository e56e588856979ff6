package cluster

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Account is the NATS account fxd's streams live in (the server's global
// account: fxd's embedded servers define no others).
const Account = server.DEFAULT_GLOBAL_ACCOUNT

// DefaultPollEvery is how often Leaders reads the raft state. A read is a
// map lookup per partition under the server's lock; at 64 partitions
// every 100 ms it costs nothing measurable, and it bounds how long a node
// goes on answering for a partition it lost (the fence bounds the harm).
const DefaultPollEvery = 100 * time.Millisecond

// StreamName is the stream of partition p.
func StreamName(p int) string { return fmt.Sprintf("FXD_P%02d", p) }

// Change is a partition this node gained (Leads) or lost (!Leads).
type Change struct {
	Partition int
	Leads     bool
}

// Leaders follows which partitions this node's embedded server leads.
type Leaders struct {
	leader  func(stream string) bool // reads the server's raft state
	streams []string
	every   time.Duration
	leads   []atomic.Bool
	took    []atomic.Int64 // unix ns of the last take-up (TookUp)
	dropped []atomic.Bool  // let go of by the node itself (Drop), not yet applied
}

// NewLeaders follows partitions 0..partitions-1 on srv (every: poll
// period, 0 for DefaultPollEvery).
func NewLeaders(srv *server.Server, partitions int, every time.Duration) *Leaders {
	return newLeaders(func(stream string) bool { return srv.JetStreamIsStreamLeader(Account, stream) }, partitions, every)
}

func newLeaders(leader func(stream string) bool, partitions int, every time.Duration) *Leaders {
	if every <= 0 {
		every = DefaultPollEvery
	}
	l := &Leaders{leader: leader, every: every, streams: make([]string, partitions),
		leads: make([]atomic.Bool, partitions), took: make([]atomic.Int64, partitions), dropped: make([]atomic.Bool, partitions)}
	for p := range l.streams {
		l.streams[p] = StreamName(p)
	}
	return l
}

// Drop tells Leaders the node let go of p on its own while its server
// may still lead p's stream (the engine's append was fenced or its outcome
// unknown, actors.Config.GivenUp). The next poll applies it as a loss,
// and, if the server still leads p, as a gain after it: the node takes p
// up again from the stream's true end instead of answering for a
// partition it no longer runs. Safe from any goroutine.
func (l *Leaders) Drop(p int) {
	if p >= 0 && p < len(l.dropped) {
		l.dropped[p].Store(true)
	}
}

// Leads reports whether this node led p at the last poll.
func (l *Leaders) Leads(p int) bool { return p >= 0 && p < len(l.leads) && l.leads[p].Load() }

// LeadsNow reports whether this node led p at the last poll and its
// server still leads p's stream now (a map lookup under the server's
// lock). Between a change and the next poll, Leads may still say true on
// the deposed node, which would then answer from its own state: a key
// created at the new owner unknown there (401), a write acknowledged
// there missing from a read. Routing asks LeadsNow instead, so the
// deposed node forwards the request, and a node that leads the stream but
// has not taken p up yet refuses it (503, retried by the client).
func (l *Leaders) LeadsNow(p int) bool { return l.Leads(p) && l.leader(l.streams[p]) }

// TookUp is when this node last took p up (zero if never): set before
// Leads turns true, so no request for p is answered here before it.
func (l *Leaders) TookUp(p int) time.Time {
	if p < 0 || p >= len(l.took) {
		return time.Time{}
	}
	if ns := l.took[p].Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}

// Led lists the partitions this node led at the last poll, in order.
func (l *Leaders) Led() []int {
	var out []int
	for p := range l.leads {
		if l.leads[p].Load() {
			out = append(out, p)
		}
	}
	return out
}

// Run polls until ctx ends and calls apply with each poll's changes,
// losses first. Leads turns false for a lost partition before apply and
// true for a gained one after it: the node stops routing a partition to
// itself before it lets go of it, and starts once it holds it. A gain
// apply returns as not taken (the node could not take the partition up
// yet) stays unled, so the next poll offers it again. apply runs on Run's
// goroutine; Run returns ctx's error.
func (l *Leaders) Run(ctx context.Context, apply func([]Change) (notTaken []int)) error {
	t := time.NewTicker(l.every)
	defer t.Stop()
	for {
		l.poll(apply)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// poll reads every partition's leadership once and applies the changes.
func (l *Leaders) poll(apply func([]Change) []int) {
	var lost, gained []Change
	for p, name := range l.streams {
		was := l.leads[p].Load()
		if l.dropped[p].Swap(false) && was {
			l.leads[p].Store(false)
			lost = append(lost, Change{Partition: p})
			was = false
		}
		now := l.leader(name)
		switch {
		case was && !now:
			l.leads[p].Store(false) // stop routing here before the node lets go
			lost = append(lost, Change{Partition: p})
		case !was && now:
			gained = append(gained, Change{Partition: p, Leads: true})
		}
	}
	if len(lost)+len(gained) == 0 {
		return
	}
	notTaken := apply(append(lost, gained...))
	for _, c := range gained {
		if !slices.Contains(notTaken, c.Partition) {
			l.took[c.Partition].Store(time.Now().UnixNano())
			l.leads[c.Partition].Store(true) // route here once the node holds it
		}
	}
}
