package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/nats-io/nats.go"

	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/rfq"
)

// The makers' subjects: fxd.maker.<name>.<op>, served by the node running
// the chain duty.
const (
	makerSubjects = "fxd.maker.*.*"
	// makerHandlers bounds the maker requests that node runs at once;
	// beyond it a quote is declined and a sign or settle is an error.
	makerHandlers = 256
	// maxMakerWait bounds the work on one maker request there.
	maxMakerWait = 30 * time.Second
)

// Maker operations.
const (
	makerQuote  = "quote"
	makerSign   = "sign"
	makerSettle = "settle"
)

// Kinds of a maker request's failure, so the caller gets back the error
// the Maker's contract names.
const (
	makerNoQuote = "no_quote" // maker.ErrNoQuote (declined, busy, expired, not held)
	makerInvalid = "invalid"  // maker.ErrInvalidRequest
	makerSkipped = "skipped"  // maker.ErrSkipped
	makerFailed  = "failed"
)

// makerRequest is a request to one maker: one of its fields is set, by op.
type makerRequest struct {
	Request     *maker.Request `json:"request,omitempty"`
	Quote       *rfq.Quote     `json:"quote,omitempty"`
	ExecutionID hexutil.Bytes  `json:"execution_id,omitempty"`
	TimeoutMS   int64          `json:"timeout_ms"`
}

// makerReply is a maker's answer.
type makerReply struct {
	Firm  *maker.Firm   `json:"firm,omitempty"`
	Sig   hexutil.Bytes `json:"sig,omitempty"`
	Tx    *common.Hash  `json:"tx,omitempty"`
	Kind  string        `json:"kind,omitempty"`
	Error string        `json:"error,omitempty"`
}

// makerHandler serves the other nodes' maker requests with the makers this
// node runs (set while it runs them).
type makerHandler struct {
	slots bounded
	mu    sync.Mutex
	byKey map[string]maker.Maker
}

func newMakerHandler() *makerHandler { return &makerHandler{slots: make(bounded, makerHandlers)} }

func (h *makerHandler) set(ms []maker.Maker) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.byKey = nil
	if ms != nil {
		h.byKey = map[string]maker.Maker{}
		for _, m := range ms {
			h.byKey[m.Name()] = m
		}
	}
}

// get is the maker named name this node runs, nil if none.
func (h *makerHandler) get(name string) maker.Maker {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.byKey[name]
}

func (h *makerHandler) subscribe(nc *nats.Conn) (*nats.Subscription, error) {
	return nc.Subscribe(makerSubjects, h.onRequest)
}

// onRequest runs one maker request, at most makerHandlers at once.
func (h *makerHandler) onRequest(m *nats.Msg) {
	parts := strings.Split(m.Subject, ".")
	var req makerRequest
	if err := json.Unmarshal(m.Data, &req); err != nil || len(parts) != 4 {
		respond(m, makerReply{Kind: makerFailed, Error: "cluster: bad maker request"})
		return
	}
	name, op := parts[2], parts[3]
	ran := h.slots.goRun(func() {
		mk := h.get(name)
		if mk == nil {
			respond(m, makerReply{Kind: makerNoQuote, Error: "cluster: no maker " + name + " runs here now"})
			return
		}
		ctx, cancel := servedContext(req.TimeoutMS, maxMakerWait)
		defer cancel()
		respond(m, runMaker(ctx, mk, op, req))
	})
	if !ran {
		respond(m, makerReply{Kind: makerNoQuote, Error: maker.ErrBusy.Error()})
	}
}

// runMaker runs op on mk and shapes its outcome for the wire.
func runMaker(ctx context.Context, mk maker.Maker, op string, req makerRequest) makerReply {
	var rep makerReply
	var err error
	switch {
	case op == makerQuote && req.Request != nil:
		rep.Firm, err = mk.Quote(ctx, *req.Request)
	case op == makerSign && req.Quote != nil:
		rep.Sig, err = mk.Sign(ctx, req.Quote)
	case op == makerSettle && len(req.ExecutionID) == 32:
		var h common.Hash
		h, err = mk.Settle(ctx, [32]byte(req.ExecutionID))
		rep.Tx = &h
	default:
		return makerReply{Kind: makerFailed, Error: "cluster: bad maker request " + op}
	}
	if err != nil {
		rep = makerReply{Kind: makerFailed, Error: err.Error()}
		switch {
		case errors.Is(err, maker.ErrNoQuote):
			rep.Kind = makerNoQuote
		case errors.Is(err, maker.ErrInvalidRequest):
			rep.Kind = makerInvalid
		case errors.Is(err, maker.ErrSkipped):
			rep.Kind = makerSkipped
		}
	}
	return rep
}

// err is the reply's failure as the Maker's contract names it.
func (rep makerReply) err() error {
	switch rep.Kind {
	case "":
		return nil
	case makerNoQuote:
		return fmt.Errorf("%w (on another node): %s", maker.ErrNoQuote, rep.Error)
	case makerInvalid:
		return fmt.Errorf("%w (on another node): %s", maker.ErrInvalidRequest, rep.Error)
	case makerSkipped:
		return maker.ErrSkipped
	default:
		return errors.New(rep.Error)
	}
}

// MakerClient is a node's maker.Maker for one of the cluster's makers:
// the maker itself when this node runs the chain duty, else a request to
// the node that does. Quotes are the maker's own (made and held by its
// actor there); none is priced on this node.
type MakerClient struct {
	duty *ChainDuty
	conn *nats.Conn
	id   MakerID
}

// NewMakerClients are the node's clients of the duty's makers.
func NewMakerClients(duty *ChainDuty) []maker.Maker {
	out := make([]maker.Maker, len(duty.cfg.Makers))
	for i, id := range duty.cfg.Makers {
		out[i] = &MakerClient{duty: duty, conn: duty.cfg.Conn, id: id}
	}
	return out
}

var _ maker.Maker = (*MakerClient)(nil)

// Name is the maker's name.
func (c *MakerClient) Name() string { return c.id.Name }

// Address is the maker's account.
func (c *MakerClient) Address() common.Address { return c.id.Address }

// Quote asks the maker for a firm quote. No node running the makers now
// is a decline (the quote lacks this maker).
func (c *MakerClient) Quote(ctx context.Context, r maker.Request) (*maker.Firm, error) {
	if mk := c.duty.makers.get(c.id.Name); mk != nil {
		return mk.Quote(ctx, r)
	}
	rep, err := c.ask(ctx, makerQuote, makerRequest{Request: &r})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", maker.ErrNoQuote, err)
	}
	return rep.Firm, rep.err()
}

// QuoteAsync is Quote on a goroutine: the desk asks every maker, then
// waits for all.
func (c *MakerClient) QuoteAsync(ctx context.Context, r maker.Request) func() (*maker.Firm, error) {
	if mk := c.duty.makers.get(c.id.Name); mk != nil {
		return mk.QuoteAsync(ctx, r)
	}
	type answer struct {
		f   *maker.Firm
		err error
	}
	done := make(chan answer, 1)
	go func() {
		f, err := c.Quote(ctx, r)
		done <- answer{f, err}
	}()
	return func() (*maker.Firm, error) { a := <-done; return a.f, a.err }
}

// Sign asks the maker to commit to and sign a quote it made.
func (c *MakerClient) Sign(ctx context.Context, q *rfq.Quote) ([]byte, error) {
	if mk := c.duty.makers.get(c.id.Name); mk != nil {
		return mk.Sign(ctx, q)
	}
	rep, err := c.ask(ctx, makerSign, makerRequest{Quote: q})
	if err != nil {
		return nil, err
	}
	return rep.Sig, rep.err()
}

// Settle asks the maker to settle an escrow.
func (c *MakerClient) Settle(ctx context.Context, executionID [32]byte) (common.Hash, error) {
	if mk := c.duty.makers.get(c.id.Name); mk != nil {
		return mk.Settle(ctx, executionID)
	}
	rep, err := c.ask(ctx, makerSettle, makerRequest{ExecutionID: executionID[:]})
	if err == nil {
		err = rep.err()
	}
	switch {
	case err != nil:
		return common.Hash{}, err
	case rep.Tx == nil:
		return common.Hash{}, errors.New("cluster: settle answered no transaction")
	}
	return *rep.Tx, nil
}

// ask sends one request to the node running the makers.
func (c *MakerClient) ask(ctx context.Context, op string, req makerRequest) (makerReply, error) {
	req.TimeoutMS = budget(ctx, maxMakerWait)
	var rep makerReply
	err := call(ctx, c.conn, "fxd.maker."+c.id.Name+"."+op, req, &rep)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return makerReply{}, errors.New("cluster: no node runs the makers now")
	case err != nil:
		return makerReply{}, fmt.Errorf("cluster: maker %s %s: %w", c.id.Name, op, err)
	}
	return rep, nil
}
