package verify

import (
	"context"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Unpack decodes log l of event (by name in a) into out, a struct such as
// an abigen event type: the data fields, then the indexed ones from the
// topics. l must be that event's log: topic0 is checked (unless the event
// is anonymous), so a log of another event is refused rather than decoded
// into plausible-looking values.
func Unpack(a *abi.ABI, event string, out any, l types.Log) error {
	ev, ok := a.Events[event]
	if !ok {
		return fmt.Errorf("verify: no event %s in the ABI", event)
	}
	topics := l.Topics
	if !ev.Anonymous {
		if len(topics) == 0 || topics[0] != ev.ID {
			return fmt.Errorf("verify: log %s#%d is not a %s", l.TxHash.Hex(), l.Index, event)
		}
		topics = topics[1:]
	}
	// Always unpacked, even from empty data: an event with data fields and
	// no data is malformed, not all zeros.
	if err := a.UnpackIntoInterface(out, event, l.Data); err != nil {
		return fmt.Errorf("verify: decode %s: %w", event, err)
	}
	var indexed abi.Arguments
	for _, arg := range ev.Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, topics); err != nil {
		return fmt.Errorf("verify: decode %s topics: %w", event, err)
	}
	return nil
}

// Match reports whether l was emitted by addr with exactly topics (topic0,
// then the indexed fields): the identity check before a log's data is
// trusted. A retracted (reorged-out) log never matches.
func Match(l types.Log, addr common.Address, topics ...common.Hash) bool {
	if l.Removed || l.Address != addr || len(l.Topics) != len(topics) {
		return false
	}
	for i, t := range topics {
		if l.Topics[i] != t {
			return false
		}
	}
	return true
}

// InReceipt returns the first log of rcpt emitted by addr with topic0 whose
// first indexed field is key, or nil: how a sender finds its own event in
// the receipt it waited for, without a log query.
func InReceipt(rcpt *types.Receipt, addr common.Address, topic0, key common.Hash) *types.Log {
	if rcpt == nil {
		return nil
	}
	for _, l := range rcpt.Logs {
		if l != nil && l.Address == addr && len(l.Topics) > 1 && l.Topics[0] == topic0 && l.Topics[1] == key {
			return l
		}
	}
	return nil
}

// Find searches the last lookback blocks (up to the head) for a log of
// event topic0 emitted by addr whose first indexed field is key, and returns
// the oldest one not retracted by a reorg, or nil. The bound keeps the query
// within what nodes serve; callers pick it from how long what they look for
// can be in the past.
func Find(ctx context.Context, b Backend, addr common.Address, topic0, key common.Hash, lookback uint64) (*types.Log, error) {
	head, err := b.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("verify: head: %w", err)
	}
	from := uint64(0)
	if head > lookback {
		from = head - lookback
	}
	logs, err := b.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from),
		ToBlock:   new(big.Int).SetUint64(head),
		Addresses: []common.Address{addr},
		Topics:    [][]common.Hash{{topic0}, {key}},
	})
	if err != nil {
		return nil, fmt.Errorf("verify: logs of %s: %w", addr.Hex(), err)
	}
	for i := range logs {
		// The node filtered already; checked again because a log this
		// package hands out is one callers may act on.
		if l := &logs[i]; !l.Removed && l.Address == addr && len(l.Topics) > 1 && l.Topics[0] == topic0 && l.Topics[1] == key {
			return l, nil
		}
	}
	return nil, nil
}
