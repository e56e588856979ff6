package forward

import (
	"errors"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/nats-io/nats.go"
	"github.com/valyala/fasthttp"
)

const (
	// MaxWaiting bounds the forwarded requests a Forwarder waits on at
	// once; the next is refused 503 at once.
	MaxWaiting = 4096
	// DefaultOwnerWait is how long a request looks for an owner of its
	// partition (a failover in progress) before it is refused 503.
	DefaultOwnerWait = 10 * time.Second
	// DefaultRetryEvery is the pause between two looks for an owner.
	DefaultRetryEvery = 100 * time.Millisecond
	// DefaultAnswerWait bounds the wait for the owner's answer once the
	// owner has the request: the API's own request timeout (httpd, 10 s)
	// and room for the trip.
	DefaultAnswerWait = 12 * time.Second
)

// Config tunes a Forwarder; zero fields take the defaults.
type Config struct {
	OwnerWait  time.Duration
	RetryEvery time.Duration
	AnswerWait time.Duration
}

func (c Config) withDefaults() Config {
	if c.OwnerWait <= 0 {
		c.OwnerWait = DefaultOwnerWait
	}
	if c.RetryEvery <= 0 {
		c.RetryEvery = DefaultRetryEvery
	}
	if c.AnswerWait <= 0 {
		c.AnswerWait = DefaultAnswerWait
	}
	return c
}

// Forwarder passes requests to the owners of their partitions.
type Forwarder struct {
	nc      *nats.Conn
	cfg     Config
	waiting chan struct{}
}

// NewForwarder forwards over nc.
func NewForwarder(nc *nats.Conn, cfg Config) *Forwarder {
	return &Forwarder{nc: nc, cfg: cfg.withDefaults(), waiting: make(chan struct{}, MaxWaiting)}
}

var (
	errNoOwner = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
		Message: "no node owns this account right now (a failover is in progress); retry shortly", RetryAfter: 1}
	errNoAnswer = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
		Message: "the node owning this account did not answer in time; retry with the same Idempotency-Key", RetryAfter: 1}
	errWaitingFull = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
		Message: "too many requests are waiting on other nodes; retry shortly", RetryAfter: 1}
)

// Forward sends ctx's request to partition p's owner and writes the
// owner's answer into ctx.Response, as the owner wrote it. A non-nil error
// is what to answer instead; the request then reached no owner, or its
// owner's answer was lost (a retry with the same Idempotency-Key tells).
//
// Only a request no node took is sent again: the owner remembers every
// signature it verified, so the same signed request sent twice would be
// refused as a replay the second time.
func (f *Forwarder) Forward(ctx *fasthttp.RequestCtx, p int) *domain.Error {
	select {
	case f.waiting <- struct{}{}:
	default:
		return errWaitingFull
	}
	defer func() { <-f.waiting }()
	msg, err := encodeRequest(Subject(p), &ctx.Request, ctx.RemoteIP())
	if err != nil {
		return errGarbled
	}
	giveUp := time.Now().Add(f.cfg.OwnerWait)
	for {
		reply, err := f.nc.RequestMsg(msg, f.cfg.AnswerWait)
		switch {
		case err == nil && reply.Header.Get(HeaderStream) != "":
			if f.pullBody(ctx, reply) != nil {
				return errGarbled
			}
			return nil
		case err == nil:
			if decodeResponse(reply.Data, &ctx.Response) != nil {
				return errGarbled
			}
			return nil
		case !untaken(err): // a timeout, or a connection lost under it
			return errNoAnswer
		}
		if !time.Now().Add(f.cfg.RetryEvery).Before(giveUp) {
			return errNoOwner
		}
		time.Sleep(f.cfg.RetryEvery)
	}
}

// untaken reports whether a request failed before any node could have
// taken it: nobody subscribes to the subject (no owner), or this node's
// own NATS connection is between servers.
func untaken(err error) bool {
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrConnectionReconnecting) ||
		errors.Is(err, nats.ErrNoServers)
}
