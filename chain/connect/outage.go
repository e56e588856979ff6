package connect

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/fxd-labs/fxd/domain"
)

// Bounds of the chain calls while the chain may be away (a node restarted,
// frozen, unreachable): nothing that waits on the chain waits without one.
const (
	// RequestTimeout bounds the chain calls of one API request (accept's
	// issues, submit's pre-flight or receipt look-up, a link's creation
	// block, balances). Past it the request is 503 unavailable with
	// Retry-After (Unavailable): well inside the request's own 10 s, so a
	// frozen node costs a caller 3 s, not the request timeout.
	RequestTimeout = 3 * time.Second
	// HealthTimeout bounds GET /health's read of the head; past it the last
	// head read is shown (HeadOrLast).
	HealthTimeout = time.Second
	// rpcCallCap bounds every JSON-RPC call over HTTP (rpc mode) whatever
	// its context says: a node that accepts connections and never answers
	// holds no goroutine longer than this. It is a backstop above every
	// deadline the callers set (requests 3 s, the watcher's calls 10 s);
	// jobs, which may wait minutes for mining, poll in short calls.
	rpcCallCap = 30 * time.Second
)

// Unavailable is the refusal of a request that needed the chain and got no
// answer in time (CONTRACT.md: 503 unavailable, "the chain is unreachable
// for a call that needs it"). The cause is the server's to log, not the
// caller's to read: it names the node.
func Unavailable() *domain.Error {
	return &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "the chain is unreachable; retry shortly", RetryAfter: 1}
}

// dialRPC dials a JSON-RPC node; over HTTP every call is capped at
// rpcCallCap.
func dialRPC(ctx context.Context, url string) (*ethclient.Client, error) {
	c, err := rpc.DialOptions(ctx, url, rpc.WithHTTPClient(&http.Client{Timeout: rpcCallCap}))
	if err != nil {
		return nil, fmt.Errorf("connect: dial %s: %w", url, err)
	}
	return ethclient.NewClient(c), nil
}

// lastHead is the latest head any Head call read: what /health shows while
// the chain does not answer.
type lastHead struct {
	n     atomic.Uint64
	known atomic.Bool
}

func (h *lastHead) store(n uint64) {
	h.n.Store(n)
	h.known.Store(true)
}

// Head is the latest block number; a successful read is remembered for
// HeadOrLast.
func (c *Chain) Head(ctx context.Context) (uint64, error) {
	n, err := c.Client.BlockNumber(ctx)
	if err == nil {
		c.head.store(n)
	}
	return n, err
}

// HeadOrLast reads the head; when the chain does not answer it returns the
// last head read instead, with fresh false. ok is false only when no head
// was ever read.
func (c *Chain) HeadOrLast(ctx context.Context) (head uint64, fresh, ok bool) {
	if n, err := c.Head(ctx); err == nil {
		return n, true, true
	}
	return c.head.n.Load(), false, c.head.known.Load()
}
