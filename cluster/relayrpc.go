package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/nats-io/nats.go"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/verify"
)

// The relay's subjects: the relayer's node alone subscribes them.
const (
	relaySendSubject    = "fxd.relay.send"
	relayDroppedSubject = "fxd.relay.dropped"
	// relayHandlers bounds the sends the relayer's node runs for the
	// other nodes at once; beyond it they are answered busy.
	relayHandlers = 128
	// maxRelaySendWait bounds how long the relayer's node works on one
	// send, whatever the caller's deadline.
	maxRelaySendWait = 30 * time.Second
)

// ErrNoRelayer: no node runs the relayer now (its node died and the relay
// stream's new leader has not taken it up yet). Nothing was sent; try
// again later.
var ErrNoRelayer = errors.New("cluster: no node runs the relayer now")

// relaySendRequest is a send, node to relayer.
type relaySendRequest struct {
	To        common.Address `json:"to"`
	Data      hexutil.Bytes  `json:"data"`
	Gas       uint64         `json:"gas"`
	TimeoutMS int64          `json:"timeout_ms"`
}

// Kinds of a send's failure, so the caller gets back the error the
// Relayer's contract names.
const (
	relayFailed    = "failed"     // nothing sent: try again later
	relayBusy      = "busy"       // relay.ErrBusy
	relayMaybeSent = "maybe_sent" // relay.ErrMaybeSent, with the transaction
	relayRevert    = "revert"     // the node refused it with revert data (rpc.DataError)
)

// relaySendReply is the relayer's answer.
type relaySendReply struct {
	Raw        hexutil.Bytes `json:"raw,omitempty"`
	Kind       string        `json:"kind,omitempty"`
	Error      string        `json:"error,omitempty"`
	RevertData string        `json:"revert_data,omitempty"`
}

// relayHandler serves the other nodes' sends with the relayer this node
// runs (set while it runs one).
type relayHandler struct {
	slots bounded
	mu    sync.Mutex
	r     *relay.Relayer
}

func newRelayHandler() *relayHandler {
	return &relayHandler{slots: make(bounded, relayHandlers)}
}

func (h *relayHandler) set(r *relay.Relayer) {
	h.mu.Lock()
	h.r = r
	h.mu.Unlock()
}

func (h *relayHandler) get() *relay.Relayer {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.r
}

// subscribe serves sends and drop notices on nc.
func (h *relayHandler) subscribe(nc *nats.Conn) ([]*nats.Subscription, error) {
	send, err := nc.Subscribe(relaySendSubject, h.onSend)
	if err != nil {
		return nil, err
	}
	dropped, err := nc.Subscribe(relayDroppedSubject, h.onDropped)
	if err != nil {
		_ = send.Unsubscribe()
		return nil, err
	}
	return []*nats.Subscription{send, dropped}, nil
}

// onSend runs a send, at most relayHandlers at once.
func (h *relayHandler) onSend(m *nats.Msg) {
	var req relaySendRequest
	if err := json.Unmarshal(m.Data, &req); err != nil {
		respond(m, relaySendReply{Kind: relayFailed, Error: "cluster: bad relay request: " + err.Error()})
		return
	}
	ran := h.slots.goRun(func() {
		r := h.get()
		if r == nil {
			respond(m, relaySendReply{Kind: relayFailed, Error: ErrNoRelayer.Error()})
			return
		}
		ctx, cancel := servedContext(req.TimeoutMS, maxRelaySendWait)
		defer cancel()
		tx, err := r.Send(ctx, req.To, req.Data, req.Gas)
		respond(m, sendReply(tx, err))
	})
	if !ran {
		respond(m, relaySendReply{Kind: relayBusy, Error: relay.ErrBusy.Error()})
	}
}

// sendReply is the wire form of Send's outcome.
func sendReply(tx *types.Transaction, err error) relaySendReply {
	var out relaySendReply
	if tx != nil {
		raw, merr := tx.MarshalBinary()
		if merr != nil {
			return relaySendReply{Kind: relayFailed, Error: merr.Error()}
		}
		out.Raw = raw
	}
	if err == nil {
		return out
	}
	out.Error, out.Kind = err.Error(), relayFailed
	var de rpc.DataError
	switch {
	case errors.Is(err, relay.ErrBusy):
		out.Kind = relayBusy
	case errors.Is(err, relay.ErrMaybeSent):
		out.Kind = relayMaybeSent
	case errors.As(err, &de):
		if data, ok := verify.Data(err); ok {
			out.Kind, out.RevertData = relayRevert, hexutil.Encode(data)
		}
	}
	return out
}

func (h *relayHandler) onDropped(m *nats.Msg) {
	if r := h.get(); r != nil && len(m.Data) == common.HashLength {
		r.Dropped(common.BytesToHash(m.Data))
	}
}

// RelayClient is a node's relay.Sender: the relayer itself when this node
// runs it, else a request to the node that does. Wait polls this node's
// own chain client; a transaction it finds dropped is reported to the
// relayer, whose next send then re-reads the nonce.
type RelayClient struct {
	duty    *ChainDuty
	conn    *nats.Conn
	backend chain.Backend
	addr    common.Address
}

// NewRelayClient is the relay.Sender of a node running duty.
func NewRelayClient(duty *ChainDuty, backend chain.Backend) *RelayClient {
	return &RelayClient{duty: duty, conn: duty.cfg.Conn, backend: backend, addr: crypto.PubkeyToAddress(duty.cfg.Key.PublicKey)}
}

var _ relay.Sender = (*RelayClient)(nil)

// Address is the relayer's account.
func (c *RelayClient) Address() common.Address { return c.addr }

// InFlight is the local relayer's, 0 when another node runs it.
func (c *RelayClient) InFlight() int {
	if r := c.duty.local(); r != nil {
		return r.InFlight()
	}
	return 0
}

// Send sends through the relayer. A request that gets no answer in time
// leaves the outcome unknown with no transaction to wait for: the caller
// tries again later, as after any failure it cannot tell from a refusal
// (a relayed leg's Permit2 nonce is single-use; escrow refunds and
// forwards are checked on chain first).
func (c *RelayClient) Send(ctx context.Context, to common.Address, data []byte, gasLimit uint64) (*types.Transaction, error) {
	if r := c.duty.local(); r != nil {
		return r.Send(ctx, to, data, gasLimit)
	}
	var rep relaySendReply
	err := call(ctx, c.conn, relaySendSubject, relaySendRequest{To: to, Data: data, Gas: gasLimit,
		TimeoutMS: budget(ctx, maxRelaySendWait)}, &rep)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return nil, ErrNoRelayer
	case err != nil:
		return nil, fmt.Errorf("cluster: relay send: %w", err)
	}
	return rep.result()
}

// result is the reply as Send's outcome.
func (rep relaySendReply) result() (*types.Transaction, error) {
	var tx *types.Transaction
	if len(rep.Raw) > 0 {
		tx = new(types.Transaction)
		if err := tx.UnmarshalBinary(rep.Raw); err != nil {
			return nil, fmt.Errorf("cluster: relay reply: %w", err)
		}
	}
	switch rep.Kind {
	case "":
		return tx, nil
	case relayBusy:
		return nil, relay.ErrBusy
	case relayMaybeSent:
		return tx, fmt.Errorf("%w (relayed by another node): %s", relay.ErrMaybeSent, rep.Error)
	case relayRevert:
		return nil, &revertError{msg: rep.Error, data: rep.RevertData}
	default:
		return nil, errors.New(rep.Error)
	}
}

// Wait waits for tx on this node's chain client.
func (c *RelayClient) Wait(ctx context.Context, tx *types.Transaction) (*types.Receipt, error) {
	if r := c.duty.local(); r != nil {
		return r.Wait(ctx, tx)
	}
	rc, err := relay.WaitMined(ctx, c.backend, tx)
	if errors.Is(err, relay.ErrDropped) {
		_ = c.conn.Publish(relayDroppedSubject, tx.Hash().Bytes()) // lost: the relayer's prune finds it
	}
	return rc, err
}

// revertError is the node's refusal with revert data, as go-ethereum's
// client reports it (an rpc.DataError whose data is the hex string).
type revertError struct{ msg, data string }

func (e *revertError) Error() string          { return e.msg }
func (e *revertError) ErrorData() interface{} { return e.data }
