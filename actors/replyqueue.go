package actors

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/fxd-labs/fxd/domain"
)

// durableMsg says the log made the record with this index durable. The log
// signals in index order and the actor enqueued in that order, so it always
// completes the oldest pending write.
//
// Like any message, it stamps the actor as active (passivate.go).
type durableMsg struct{ index uint64 }

// pending is a reply waiting for durability: its own record (write) or,
// for a reply without events, the writes before it.
type pending struct {
	events  []domain.Event
	outcome domain.Outcome
	done    chan<- domain.Outcome
	write   bool
}

// replyQueue is what every entity actor shares: it hands records to the
// log and answers in arrival order, each reply only once every write
// before it (and its own) is durable. Reads see only committed state, so
// nothing undurable is ever shown.
type replyQueue struct {
	entity    string
	part      *part // the log entity's records go to
	queue     []pending
	lastIndex uint64 // last durable index of this entity
}

// recordCap is the first capacity of an encoded record: most (a contact, a
// key, an idempotency record with its answer) fit, so one allocation
// instead of a doubling series.
const recordCap = 512

// write enqueues the events of out as one record; the actor receives a
// durableMsg when it is durable. An error means nothing was written.
func (q *replyQueue) write(ctx actor.Context, e *Engine, out domain.Outcome, done chan<- domain.Outcome) error {
	rec := &domain.Record{Entity: q.entity, Events: out.Events}
	self, root := ctx.Self(), ctx.ActorSystem().Root
	payload := domain.MarshalRecord(make([]byte, 0, recordCap), rec)
	err := q.part.log().Enqueue(payload, func(index uint64) { root.Send(self, durableMsg{index}) })
	if err != nil {
		return err
	}
	q.queue = append(q.queue, pending{events: out.Events, outcome: out, done: done, write: true})
	return nil
}

// reply answers now if nothing is waiting for durability, else queues the
// answer behind the writes it may depend on.
func (q *replyQueue) reply(out domain.Outcome, done chan<- domain.Outcome) {
	if len(q.queue) == 0 {
		done <- out
		return
	}
	q.queue = append(q.queue, pending{outcome: out, done: done})
}

// durable completes the oldest write: commit applies its events to the
// committed state, then it and the replies queued behind it are sent.
func (q *replyQueue) durable(index uint64, commit func([]domain.Event)) {
	if len(q.queue) == 0 || !q.queue[0].write {
		panic(fmt.Sprintf("actors: %s: durable index %d with no pending write", q.entity, index))
	}
	if index <= q.lastIndex {
		panic(fmt.Sprintf("actors: %s: durable index %d after %d", q.entity, index, q.lastIndex))
	}
	p := q.queue[0]
	commit(p.events)
	q.lastIndex = index
	p.done <- p.outcome
	n := 1
	for n < len(q.queue) && !q.queue[n].write {
		q.queue[n].done <- q.queue[n].outcome
		n++
	}
	clear(q.queue[:n])
	q.queue = q.queue[n:]
}

// idle reports whether the entity may passivate: nothing waits, and the
// snapshot store holds all of its writes, so loading it again loses nothing.
func (q *replyQueue) idle(e *Engine) bool {
	return len(q.queue) == 0 && q.lastIndex <= q.part.applied.Load()
}

// run is the body of every entity's command: refuse a key still in
// flight, decide, then either answer at once (no events) or hand the
// events to the log and apply them to the speculative state.
func (q *replyQueue) run(ctx actor.Context, e *Engine, inFlight bool, handle func() domain.Outcome, apply func(*domain.Event), done chan<- domain.Outcome) {
	if inFlight {
		q.reply(domain.Outcome{Reply: domain.ErrInProgress().Reply()}, done)
		return
	}
	out := handle()
	if len(out.Events) == 0 {
		q.reply(out, done)
		return
	}
	if err := q.write(ctx, e, out, done); err != nil {
		// Nothing was written and nothing applied: a clean refusal.
		q.reply(domain.Outcome{Reply: domain.ErrUnavailable("log is busy: %v", err).Reply()}, done)
		return
	}
	for i := range out.Events {
		apply(&out.Events[i])
	}
}
