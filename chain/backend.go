// Package chain connects the service to an Ethereum chain.
//
// The service talks to the chain only through Backend, a small subset of
// go-ethereum's *ethclient.Client. Both back ends are an *ethclient.Client,
// so they are one type to the rest of the service:
//
//   - embedded (the default): chain/embedded runs go-ethereum's in-process dev
//     chain persisted in the data dir; its Node.Client() is attached
//     in-process (no network hop).
//   - rpc: any JSON-RPC node (anvil, a testnet), reached with ethclient.Dial.
//
// Backend is also a superset of go-ethereum's bind.ContractBackend and
// bind.DeployBackend (accounts/abi/bind/v2), so generated bindings can use it
// directly.
package chain

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Backend is what the service needs from a chain node.
type Backend interface {
	// ChainID is the EIP-155 chain id transactions are signed for.
	ChainID(ctx context.Context) (*big.Int, error)
	// BlockNumber is the current head's number.
	BlockNumber(ctx context.Context) (uint64, error)
	// HeaderByNumber returns a header; nil number means the latest.
	HeaderByNumber(ctx context.Context, number *big.Int) (*types.Header, error)

	// SendTransaction submits a signed transaction (eth_sendRawTransaction).
	SendTransaction(ctx context.Context, tx *types.Transaction) error
	// TransactionReceipt returns ethereum.NotFound until the tx is mined.
	TransactionReceipt(ctx context.Context, txHash common.Hash) (*types.Receipt, error)
	// TransactionByHash finds a tx in the pool (isPending) or the chain.
	TransactionByHash(ctx context.Context, txHash common.Hash) (tx *types.Transaction, isPending bool, err error)

	// FilterLogs runs eth_getLogs.
	FilterLogs(ctx context.Context, q ethereum.FilterQuery) ([]types.Log, error)
	// SubscribeFilterLogs and SubscribeNewHead need a connection that carries
	// notifications: they work on the embedded node's in-process client and
	// over WebSocket, and fail with rpc.ErrNotificationsUnsupported over
	// plain HTTP. Callers must be able to fall back to polling.
	SubscribeFilterLogs(ctx context.Context, q ethereum.FilterQuery, ch chan<- types.Log) (ethereum.Subscription, error)
	SubscribeNewHead(ctx context.Context, ch chan<- *types.Header) (ethereum.Subscription, error)

	// CallContract runs eth_call; nil blockNumber means the latest block.
	CallContract(ctx context.Context, call ethereum.CallMsg, blockNumber *big.Int) ([]byte, error)
	// EstimateGas runs eth_estimateGas against the pending state.
	EstimateGas(ctx context.Context, call ethereum.CallMsg) (uint64, error)

	// PendingNonceAt is the next nonce, counting pooled transactions.
	PendingNonceAt(ctx context.Context, account common.Address) (uint64, error)
	// NonceAt is the account's nonce at a block (nil: the latest), the
	// count of its transactions mined by then.
	NonceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (uint64, error)
	// SuggestGasPrice is eth_gasPrice (legacy price, base fee + tip).
	SuggestGasPrice(ctx context.Context) (*big.Int, error)
	// SuggestGasTipCap is eth_maxPriorityFeePerGas.
	SuggestGasTipCap(ctx context.Context) (*big.Int, error)

	// CodeAt and PendingCodeAt return an account's code (empty: no contract).
	CodeAt(ctx context.Context, account common.Address, blockNumber *big.Int) ([]byte, error)
	PendingCodeAt(ctx context.Context, account common.Address) ([]byte, error)
	// BalanceAt returns the account's wei balance; nil number means latest.
	BalanceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (*big.Int, error)
}

var _ Backend = (*ethclient.Client)(nil)
