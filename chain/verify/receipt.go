package verify

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Status is what the chain says about a transaction hash.
type Status int

// The zero Status is no answer (Lookup failed), so a caller that forgets
// the error does not read "pending".
const (
	// Pending: no receipt; not mined yet, or never broadcast / dropped.
	Pending Status = iota + 1
	// Reverted: mined with status 0; its effects (and logs) are void.
	Reverted
	// Mined: mined with status 1.
	Mined
)

func (s Status) String() string {
	switch s {
	case Pending:
		return "pending"
	case Reverted:
		return "reverted"
	case Mined:
		return "mined"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Lookup asks for txHash's receipt. Not found (ethereum.NotFound) is
// Pending with a nil receipt: a hash the chain does not know may still be
// on its way, and only the caller knows how long to wait. Any other error
// means the chain did not answer; it is returned (callers answer 503).
func Lookup(ctx context.Context, b Backend, txHash common.Hash) (*types.Receipt, Status, error) {
	rcpt, err := b.TransactionReceipt(ctx, txHash)
	switch {
	case errors.Is(err, ethereum.NotFound):
		return nil, Pending, nil
	case err != nil:
		return nil, 0, fmt.Errorf("verify: receipt of %s: %w", txHash.Hex(), err)
	case rcpt == nil:
		// ethclient never does this; a thin client may answer JSON null
		// for "unknown". It is the same fact as NotFound.
		return nil, Pending, nil
	case rcpt.Status == types.ReceiptStatusSuccessful:
		return rcpt, Mined, nil
	}
	return rcpt, Reverted, nil
}
