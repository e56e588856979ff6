package verify

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
)

// TransferTopic is topic0 of Transfer(address,address,uint256). ERC-721
// shares it (with the token id indexed too); ParseTransfer tells them apart.
var TransferTopic = crypto.Keccak256Hash([]byte("Transfer(address,address,uint256)"))

// Transfer is one ERC-20 Transfer log: Value of Token moved From → To,
// where it happened (TxHash, LogIndex, BlockNumber, BlockHash).
type Transfer struct {
	Token       common.Address
	From        common.Address
	To          common.Address
	Value       *big.Int
	TxHash      common.Hash
	LogIndex    uint
	BlockNumber uint64
	BlockHash   common.Hash
	// BlockTime is the block's timestamp (unix s) when the node gave it
	// with the log (go-ethereum does), else 0.
	BlockTime uint64
}

// ParseTransfer reads l as an ERC-20 Transfer: exactly 3 topics (topic0,
// from, to), each address topic a left-padded 20-byte value, and 32 bytes of
// data (the value). Anything else is refused: an ERC-721 Transfer (4
// topics, no data), another event, or a token emitting a malformed log that
// would otherwise read as a payment. A retracted (reorged-out) log is
// refused too.
func ParseTransfer(l types.Log) (Transfer, bool) {
	if l.Removed || len(l.Topics) != 3 || l.Topics[0] != TransferTopic || len(l.Data) != 32 ||
		!isAddressWord(l.Topics[1]) || !isAddressWord(l.Topics[2]) {
		return Transfer{}, false
	}
	return Transfer{
		Token:       l.Address,
		From:        common.BytesToAddress(l.Topics[1].Bytes()),
		To:          common.BytesToAddress(l.Topics[2].Bytes()),
		Value:       new(big.Int).SetBytes(l.Data),
		TxHash:      l.TxHash,
		LogIndex:    l.Index,
		BlockNumber: l.BlockNumber,
		BlockHash:   l.BlockHash,
		BlockTime:   l.BlockTimestamp,
	}, true
}

// isAddressWord: an ABI-encoded address has 12 zero bytes before its 20.
func isAddressWord(h common.Hash) bool {
	for _, b := range h[:12] {
		if b != 0 {
			return false
		}
	}
	return true
}

// FindTransfers returns the ERC-20 transfers of token to recipient to in
// rcpt, in log order. Only logs emitted by token count: any contract can
// emit a Transfer-shaped log, so the emitter is what makes it a payment in
// that token. A reverted transaction moved nothing, so it yields none
// (nodes drop its logs anyway; checked so no node's quirk can count one).
func FindTransfers(rcpt *types.Receipt, token common.Address, to common.Address) []Transfer {
	if rcpt == nil || rcpt.Status != types.ReceiptStatusSuccessful {
		return nil
	}
	var out []Transfer
	for _, l := range rcpt.Logs {
		if l == nil || l.Address != token {
			continue
		}
		if t, ok := ParseTransfer(*l); ok && t.To == to {
			out = append(out, t)
		}
	}
	return out
}
