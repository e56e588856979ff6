package httpd

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// A request waits for its entity at most requestTimeout. Giving each
// request its own context.WithTimeout costs a context, a timer and a
// cancel per request (1.5 % of a read's CPU, measured); instead every
// request that starts within the same slot shares one context, whose
// deadline is requestTimeout after the slot ends. A request therefore waits
// at least requestTimeout and at most one slot longer.
const deadlineSlot = 100 * time.Millisecond

// deadlines hands out the shared contexts. The current slot's context is
// read with one atomic load; a new slot takes the lock once.
type deadlines struct {
	timeout time.Duration
	cur     atomic.Pointer[slotCtx]

	mu sync.Mutex
	// cancels holds the cancel funcs of recent slots, oldest overwritten
	// first. Its length spans more than timeout, so a slot's cancel runs only
	// after its deadline has passed (it then merely releases the timer).
	cancels []context.CancelFunc
	next    int
}

type slotCtx struct {
	slot int64 // start of the slot, in slot units since the Unix epoch
	ctx  context.Context
}

func newDeadlines(timeout time.Duration) *deadlines {
	n := int(timeout/deadlineSlot) + 2
	return &deadlines{timeout: timeout, cancels: make([]context.CancelFunc, n)}
}

// at returns the shared context for a request starting at now.
func (d *deadlines) at(now time.Time) context.Context {
	slot := now.UnixNano() / int64(deadlineSlot)
	if c := d.cur.Load(); c != nil && c.slot == slot {
		return c.ctx
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if c := d.cur.Load(); c != nil && c.slot >= slot {
		// Another request opened this slot, or a later one (a request that
		// read the clock earlier may arrive late: the newer deadline only
		// lets it wait longer, never shorter than timeout).
		return c.ctx
	}
	end := time.Unix(0, (slot+1)*int64(deadlineSlot))
	ctx, cancel := context.WithDeadline(context.Background(), end.Add(d.timeout))
	if old := d.cancels[d.next]; old != nil {
		old()
	}
	d.cancels[d.next] = cancel
	d.next = (d.next + 1) % len(d.cancels)
	d.cur.Store(&slotCtx{slot: slot, ctx: ctx})
	return ctx
}
