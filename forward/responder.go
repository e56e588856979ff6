package forward

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/nats-io/nats.go"
	"github.com/valyala/fasthttp"
)

// MaxInFlight bounds the forwarded requests a Responder runs at once; the
// next one is answered 503 at once (the entry node's client retries), so a
// burst from the other nodes cannot pile goroutines up on the owner.
const MaxInFlight = 1024

// DisownWait bounds Disown's wait for the server to stop sending.
const DisownWait = 10 * time.Second

// queueGroup is the one queue group every owner subscribes in.
const queueGroup = "owner"

// ErrorWriter writes a contract error as the API does (httpd's
// writeError), so a Responder's own refusals read like every other one.
type ErrorWriter func(ctx *fasthttp.RequestCtx, e *domain.Error)

// Responder answers, on this node, the forwarded requests of the
// partitions it owns, by running them through the node's API handler.
type Responder struct {
	nc      *nats.Conn
	handler fasthttp.RequestHandler
	writeE  ErrorWriter
	sem     chan struct{}
	streams chan struct{} // streamed answers being served (stream.go)
	// streamIdle is StreamIdle (tests shorten it).
	streamIdle time.Duration

	mu   sync.Mutex
	subs map[int]*nats.Subscription
}

// NewResponder answers on nc with handler; writeE renders its refusals.
func NewResponder(nc *nats.Conn, handler fasthttp.RequestHandler, writeE ErrorWriter) *Responder {
	return &Responder{nc: nc, handler: handler, writeE: writeE,
		sem: make(chan struct{}, MaxInFlight), streams: make(chan struct{}, MaxStreams), streamIdle: StreamIdle,
		subs: make(map[int]*nats.Subscription)}
}

// Own starts answering partition p's subject. Owning a partition twice is
// a no-op.
func (r *Responder) Own(p int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.subs[p]; ok {
		return nil
	}
	// A queue group: while two nodes answer for p (a handover), each
	// request still reaches only one of them.
	sub, err := r.nc.QueueSubscribe(Subject(p), queueGroup, r.serve)
	if err != nil {
		return fmt.Errorf("forward: own partition %d: %w", p, err)
	}
	// Requests wait in the subscription only while r.sem is taken by a
	// burst; a bounded queue drops the rest (their entry node times out
	// and tries again) rather than hold them without limit.
	if err := sub.SetPendingLimits(MaxInFlight, MaxInFlight*MaxRequest); err != nil {
		_ = sub.Unsubscribe()
		return fmt.Errorf("forward: own partition %d: pending limits: %w", p, err)
	}
	r.subs[p] = sub
	return nil
}

// Disown stops answering partition p's subject: requests already taken
// are answered, new ones go to the partition's next owner. It returns once
// the server sends p's requests here no more (at most DisownWait).
func (r *Responder) Disown(p int) error {
	r.mu.Lock()
	sub, ok := r.subs[p]
	delete(r.subs, p)
	r.mu.Unlock()
	if !ok {
		return nil
	}
	// Drain: the requests already delivered to the subscription are still
	// answered; the server sends new ones to whoever subscribes next.
	closed := sub.StatusChanged(nats.SubscriptionClosed)
	if err := sub.Drain(); err != nil {
		if errors.Is(err, nats.ErrConnectionClosed) {
			return nil
		}
		return fmt.Errorf("forward: disown partition %d: %w", p, err)
	}
	select {
	case <-closed:
		return nil
	case <-time.After(DisownWait):
		return fmt.Errorf("forward: disown partition %d: not drained after %s", p, DisownWait)
	}
}

// Owned lists the partitions answered here, in order.
func (r *Responder) Owned() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]int, 0, len(r.subs))
	for p := range r.subs {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// serve is the subscription's callback: it hands the request to a
// goroutine of its own (up to MaxInFlight) so that one slow request does
// not hold the partition's others.
func (r *Responder) serve(msg *nats.Msg) {
	select {
	case r.sem <- struct{}{}:
	default:
		r.refuse(msg, errBusy)
		return
	}
	go func() {
		defer func() { <-r.sem }()
		r.answer(msg)
	}()
}

var (
	errBusy = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
		Message: "the node owning this account is at capacity; retry shortly", RetryAfter: 1}
	errGarbled = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
		Message: "the request could not be passed to the node owning this account; retry shortly", RetryAfter: 1}
	// A whole (not streamed) answer over MaxResponse: no route of the API
	// writes one (lists are paged; the export streams).
	errTooLarge = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
		Message: "the answer is too large to pass between nodes", RetryAfter: 1}
)

// answer runs one forwarded request through the handler and sends its
// response back: whole, or streamed when the handler streams its body.
func (r *Responder) answer(msg *nats.Msg) {
	ctx := &fasthttp.RequestCtx{}
	addr, err := decodeRequest(msg, &ctx.Request)
	if err != nil {
		r.refuse(msg, errGarbled)
		return
	}
	if addr == nil {
		addr = zeroAddr
	}
	ctx.Init2(&ownerConn{remote: addr}, quietLogger{}, false)
	markForwarded(ctx)
	r.handler(ctx)
	if ctx.Response.IsBodyStream() {
		r.stream(msg, &ctx.Response)
		return
	}
	data, err := encodeResponse(&ctx.Response)
	if err != nil {
		r.refuse(msg, errTooLarge)
		return
	}
	// A lost reply (the entry node gone) is the entry node's timeout.
	_ = msg.Respond(data)
}

// refuse answers msg with e, rendered by the API's error writer.
func (r *Responder) refuse(msg *nats.Msg, e *domain.Error) {
	ctx := &fasthttp.RequestCtx{}
	r.writeE(ctx, e)
	data, err := encodeResponse(&ctx.Response)
	if err != nil {
		panic(fmt.Sprintf("forward: an error answer does not encode: %v", err))
	}
	_ = msg.Respond(data)
}

// quietLogger drops fasthttp's per-request log lines (the API logs its
// own).
type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}

// forwardedKey marks a forwarded request's context.
type forwardedKey struct{}

func markForwarded(ctx *fasthttp.RequestCtx) { ctx.SetUserValue(forwardedKey{}, true) }

// IsForwarded reports whether ctx is a request another node forwarded
// here; such a request is answered here, never forwarded again.
func IsForwarded(ctx *fasthttp.RequestCtx) bool {
	v, _ := ctx.UserValue(forwardedKey{}).(bool)
	return v
}
