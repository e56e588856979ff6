package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
)

// Claims across nodes. A transaction's claim entity (domain.ClaimID: one
// log confirms at most one transfer, ever, whichever account asks) lives
// in the partition its hash falls in, which another node may own: the
// one write of one account's flow that lands in another partition. The
// owner of partition p answers claims on "fxd.claim.<p>".
const (
	claimSubjectPrefix = "fxd.claim."
	claimQueue         = "fxd-claims"
	// claimHandlers bounds the claims a node runs for others at once.
	claimHandlers = 64
	// maxClaimWait bounds the work on one claim at its owner.
	maxClaimWait = 10 * time.Second
)

// claimRequest is a claim, asking node to owner.
type claimRequest struct {
	ID        string          `json:"id"`
	Claim     domain.ClaimLog `json:"claim"`
	TimeoutMS int64           `json:"timeout_ms"`
}

// claimReply is the owner's answer: the refusal, or the failure.
type claimReply struct {
	Refusal *domain.Error `json:"refusal,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// Claims is a node's pay.Claimer: the claim is run here when this node
// owns its partition, else by the owner. Follow subscribes the node to
// the claims of the partitions it owns.
type Claims struct {
	e *actors.Engine
	// local runs a claim on this node's engine (pay.EngineClaims).
	local  func(ctx context.Context, id string, cl domain.ClaimLog) (*domain.Error, error)
	nc     *nats.Conn
	logger *slog.Logger
	slots  bounded

	mu   sync.Mutex
	subs map[int]*nats.Subscription
}

// FollowClaims answers, on nc, the claims of the partitions e takes up
// (actors.Engine.AddOwnership; call it before Recover), running them with
// local (pay.EngineClaims{E: e}.Claim).
func FollowClaims(e *actors.Engine, nc *nats.Conn, local func(context.Context, string, domain.ClaimLog) (*domain.Error, error),
	logger *slog.Logger) *Claims {
	c := &Claims{e: e, local: local, nc: nc, logger: logger, slots: make(bounded, claimHandlers), subs: map[int]*nats.Subscription{}}
	e.AddOwnership(c.ownership)
	return c
}

// ownership subscribes to part's claims as it is taken up (its entities
// run right after: a claim arriving first is refused as not owned, and
// retried by its caller) and unsubscribes as it is given up.
func (c *Claims) ownership(part int, owned bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if sub := c.subs[part]; sub != nil {
		_ = sub.Unsubscribe()
		delete(c.subs, part)
	}
	if !owned {
		return
	}
	sub, err := c.nc.QueueSubscribe(claimSubjectPrefix+strconv.Itoa(part), claimQueue, c.serve)
	if err != nil {
		// The connection is closing (the node stops); claims for this part
		// then get no responder and their callers try again.
		c.logger.Warn("cluster: claims of a partition not answered here", "part", part, "err", err.Error())
		return
	}
	c.subs[part] = sub
}

// serve runs a claim for another node.
func (c *Claims) serve(m *nats.Msg) {
	var req claimRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, claimReply{Error: "cluster: bad claim request"})
		return
	}
	ran := c.slots.goRun(func() {
		ctx, cancel := servedContext(req.TimeoutMS, maxClaimWait)
		defer cancel()
		var rep claimReply
		refusal, err := c.local(ctx, req.ID, req.Claim)
		if err != nil {
			rep.Error = err.Error()
		}
		rep.Refusal = refusal
		respond(m, rep)
	})
	if !ran {
		respond(m, claimReply{Error: "cluster: too many claims at once"})
	}
}

// Claim runs c on the claim entity id, here or at its partition's owner.
func (c *Claims) Claim(ctx context.Context, id string, cl domain.ClaimLog) (*domain.Error, error) {
	if c.e.Owns(id) {
		return c.local(ctx, id, cl)
	}
	p := c.e.PartOf(id)
	var rep claimReply
	err := call(ctx, c.nc, claimSubjectPrefix+strconv.Itoa(p), claimRequest{ID: id, Claim: cl, TimeoutMS: budget(ctx, maxClaimWait)}, &rep)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return nil, fmt.Errorf("cluster: claim %s: no owner of partition %d now", id, p)
	case err != nil:
		return nil, fmt.Errorf("cluster: claim %s: %w", id, err)
	}
	if rep.Error != "" {
		return nil, fmt.Errorf("cluster: claim %s at its owner: %s", id, rep.Error)
	}
	return rep.Refusal, nil
}
