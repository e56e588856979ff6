package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// One way for a node to ask another (relay sends, maker requests, claims):
// a JSON request carrying the caller's time budget, a JSON answer, no
// responder reported as nats.ErrNoResponders; the answering node runs
// each request on a bounded goroutine, within that budget.

// budget is what a request to another node may take, in milliseconds:
// the caller's deadline, at most max. It travels with the request, so the
// answering node stops working when the caller has stopped waiting.
func budget(ctx context.Context, max time.Duration) int64 {
	if dl, ok := ctx.Deadline(); ok {
		max = min(max, time.Until(dl))
	}
	return max.Milliseconds()
}

// servedContext is the context of serving a request whose caller gave
// budgetMS, at most max.
func servedContext(budgetMS int64, max time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), min(time.Duration(budgetMS)*time.Millisecond, max))
}

// call sends req as JSON on subject and decodes the answer into rep. No
// node subscribed is an error wrapping nats.ErrNoResponders.
func call(ctx context.Context, nc *nats.Conn, subject string, req, rep any) error {
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	m, err := nc.RequestWithContext(ctx, subject, body)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(m.Data, rep); err != nil {
		return fmt.Errorf("reply on %s: %w", subject, err)
	}
	return nil
}

// respond answers m with v as JSON.
func respond(m *nats.Msg, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic("cluster: marshal a reply: " + err.Error())
	}
	_ = m.Respond(b) // a caller gone has its own deadline
}

// bounded runs requests on goroutines of their own (NATS calls a
// subscription's handler one message at a time), at most cap(b) at once.
type bounded chan struct{}

// goRun runs fn on a goroutine of its own and reports true, or reports
// false at once when cap(b) run already.
func (b bounded) goRun(fn func()) bool {
	select {
	case b <- struct{}{}:
	default:
		return false
	}
	go func() {
		defer func() { <-b }()
		fn()
	}()
	return true
}
