package relay

import (
	"context"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Sender is what the desks need of a relayer: the Relayer itself on a
// single node, or, on a cluster, the client of the one relayer the node
// leading the relay journal runs (cluster.RelayClient). Send and Wait keep
// the Relayer's contract: the node's refusal (revert data included, as an
// rpc.DataError) when nothing was sent; a transaction with an error
// wrapping ErrMaybeSent when the outcome is unknown; no transaction and an
// error meaning try again later; ErrDropped from Wait.
type Sender interface {
	Address() common.Address
	// InFlight is what this process has sent and not seen mined (metrics).
	InFlight() int
	Send(ctx context.Context, to common.Address, data []byte, gasLimit uint64) (*types.Transaction, error)
	Wait(ctx context.Context, tx *types.Transaction) (*types.Receipt, error)
}

var _ Sender = (*Relayer)(nil)
