package verify

import (
	"context"
	"errors"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/rpc"
)

// call runs eth_call at the pending block when the backend can: that is the
// state a relayed transaction meets (a user's approve may still be in the
// pool; geth refreshes its pending block every few seconds) and the one the
// relayer's gas estimation sees, so the pre-flight and the relay agree. A node that answers a pending call with an error that is
// not a revert may not serve pending state (some providers refuse it), so
// the call is asked again at the latest block; a transport failure is
// returned at once, as asking again would fail the same way.
func call(ctx context.Context, b Backend, msg ethereum.CallMsg) ([]byte, error) {
	if pc, ok := b.(ethereum.PendingContractCaller); ok {
		out, err := pc.PendingCallContract(ctx, msg)
		if err == nil || !refusedPending(err) {
			return out, err
		}
	}
	return b.CallContract(ctx, msg, nil)
}

// refusedPending: the node answered (a JSON-RPC error) but not with a revert.
func refusedPending(err error) bool {
	if _, reverted := Data(err); reverted {
		return false
	}
	var re rpc.Error
	return errors.As(err, &re)
}
