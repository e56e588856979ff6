package verify

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/simtest"
)

var _ Backend = simulated.Client(nil)

// maxUint256 is the "infinite" approval wallets grant Permit2 once.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

// env is a simulated chain with the contract set deployed, a user wallet
// that holds only ETH (no tokens, no approvals) and a relayer.
type env struct {
	c                       *simtest.Chain
	addrs                   *fxbind.Addresses
	k                       *fxbind.Contracts
	deployer, user, relayer *ecdsa.PrivateKey
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{deployer: simtest.Key(t, 0xd0), user: simtest.Key(t, 0x11), relayer: simtest.Key(t, 0x33)}
	e.c = simtest.New(t, e.deployer, e.user, e.relayer)
	e.addrs, e.k = e.c.Deploy(e.deployer, fxbind.DeployConfig{})
	return e
}

func (e *env) client() Backend { return e.c.Client }

// fund mints amount USDC to the user.
func (e *env) fund(t *testing.T, amount *big.Int) {
	t.Helper()
	e.c.Mine(e.k.Tokens[fxbind.USDC].Mint(e.c.Auth(e.deployer), simtest.Addr(e.user), amount))
}

// approve sets the user's USDC allowance for Permit2.
func (e *env) approve(t *testing.T, amount *big.Int) {
	t.Helper()
	e.c.Mine(e.k.Tokens[fxbind.USDC].Approve(e.c.Auth(e.user), e.addrs.Permit2, amount))
}

// transfer mines a USDC transfer from the user to to and returns its receipt.
func (e *env) transfer(t *testing.T, to common.Address, amount *big.Int) *types.Receipt {
	t.Helper()
	return e.c.Mine(e.k.Tokens[fxbind.USDC].Transfer(e.c.Auth(e.user), to, amount))
}

// order is a USDC → EURC gasless order of amountIn by the user, its
// signature by the user (as a wallet signs it) and the packed
// executeGaslessOrder call the relayer sends for it.
func (e *env) order(t *testing.T, amountIn *big.Int, nonce int64) (fxbind.RelayRouterGaslessOrder, []byte, []byte) {
	t.Helper()
	hdr, err := e.c.Client.HeaderByNumber(t.Context(), nil)
	require.NoError(t, err)
	o := eip712.GaslessOrder{
		Signer:       simtest.Addr(e.user),
		TokenIn:      e.addrs.USDC,
		TokenOut:     e.addrs.EURC,
		AmountIn:     amountIn,
		MinAmountOut: new(big.Int).Div(new(big.Int).Mul(amountIn, big.NewInt(9)), big.NewInt(10)),
		Recipient:    simtest.Addr(e.user),
		Pool:         e.addrs.Pools["USDC/EURC"],
		Deadline:     new(big.Int).SetUint64(hdr.Time + 600),
		Nonce:        big.NewInt(nonce),
	}
	digest := eip712.GaslessDigest(eip712.Domain{ChainID: simtest.ChainID, Permit2: e.addrs.Permit2}, e.addrs.RelayRouter, &o)
	sig, err := crypto.Sign(digest[:], e.user)
	require.NoError(t, err)
	sig[64] += 27 // Permit2's ecrecover wants v in {27, 28}
	g := fxbind.RelayRouterGaslessOrder{
		Signer: o.Signer, TokenIn: o.TokenIn, TokenOut: o.TokenOut, AmountIn: o.AmountIn, MinAmountOut: o.MinAmountOut,
		Recipient: o.Recipient, Pool: o.Pool, Deadline: o.Deadline, Nonce: o.Nonce,
	}
	data, err := mustABI(fxbind.RelayRouterMetaData).Pack("executeGaslessOrder", g, sig)
	require.NoError(t, err)
	return g, sig, data
}

// rpcErr is a JSON-RPC error answer without data (rpc.Error).
type rpcErr struct{ msg string }

func (e rpcErr) Error() string  { return e.msg }
func (e rpcErr) ErrorCode() int { return -32000 }

// dataErr is a JSON-RPC error answer with data (rpc.DataError), as the
// client decodes a revert: data is the hex string.
type dataErr struct {
	msg  string
	data any
}

func (e dataErr) Error() string  { return e.msg }
func (e dataErr) ErrorCode() int { return 3 }
func (e dataErr) ErrorData() any { return e.data }

// latestOnly hides the pending caller of the backend it wraps.
type latestOnly struct{ Backend }

// pendingRefused is a node that does not serve the pending block.
type pendingRefused struct {
	Backend
	pending int
}

func (p *pendingRefused) PendingCallContract(context.Context, ethereum.CallMsg) ([]byte, error) {
	p.pending++
	return nil, rpcErr{"pending block is not available"}
}

// down is a backend whose node cannot be reached.
type down struct{ err error }

func (d down) BlockNumber(context.Context) (uint64, error) { return 0, d.err }
func (d down) FilterLogs(context.Context, ethereum.FilterQuery) ([]types.Log, error) {
	return nil, d.err
}
func (d down) TransactionReceipt(context.Context, common.Hash) (*types.Receipt, error) {
	return nil, d.err
}
func (d down) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	return nil, d.err
}
func (d down) PendingCallContract(context.Context, ethereum.CallMsg) ([]byte, error) {
	return nil, d.err
}

// packError builds the revert data of error name of a contract from the
// binding's ABI, so tests never spell a selector by hand.
func packError(t *testing.T, m *bind.MetaData, name string, args ...any) []byte {
	t.Helper()
	e, ok := mustABI(m).Errors[name]
	require.True(t, ok, "no error %s in the ABI", name)
	enc, err := e.Inputs.Pack(args...)
	require.NoError(t, err)
	return append(append([]byte{}, e.ID[:4]...), enc...)
}
