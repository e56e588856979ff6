package verify

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fxd-labs/fxd/chain"
)

// Backend is the part of a chain client verification reads: a subset of
// chain.Backend, so the service's client, *ethclient.Client and
// simulated.Client all satisfy it, and a test fake stays small.
//
// A Backend that also implements ethereum.PendingContractCaller (ethclient
// and simulated.Client do) is asked at the pending block first; see Simulate.
type Backend interface {
	// BlockNumber is the current head's number.
	BlockNumber(ctx context.Context) (uint64, error)
	// FilterLogs runs eth_getLogs.
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	// TransactionReceipt returns ethereum.NotFound until the tx is mined.
	TransactionReceipt(ctx context.Context, txHash common.Hash) (*types.Receipt, error)
	// CallContract runs eth_call; nil blockNumber means the latest block.
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
}

var (
	_ Backend = (*ethclient.Client)(nil)
	_ Backend = chain.Backend(nil)
)
