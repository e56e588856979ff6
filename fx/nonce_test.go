package fx

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/simtest"
)

// TestNonceSpent reads the order's own bit of Permit2's nonce bitmap: unset
// before the relay, set once it is mined, and the neighbouring nonce stays
// unset. (The simulated backend has no pending state to query; on a real node
// the same call with Pending reads the pool's view, which is why relay uses
// it after a restart.)
func TestNonceSpent(t *testing.T) {
	deployer, user, relayer := simtest.Key(t, 0xd0), simtest.Key(t, 0x11), simtest.Key(t, 0x33)
	c := simtest.New(t, deployer, user, relayer)
	addrs, contracts := c.Deploy(deployer, fxbind.DeployConfig{})
	usdc, eurc := contracts.Tokens[fxbind.USDC], addrs.EURC
	c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(1_000)))
	c.Mine(usdc.Approve(c.Auth(user), addrs.Permit2, new(big.Int).Lsh(big.NewInt(1), 255)))
	pool, ok := addrs.Pool("USDC", "EURC")
	require.True(t, ok)

	g := &eip712.GaslessOrder{Signer: simtest.Addr(user), TokenIn: addrs.USDC, TokenOut: eurc, AmountIn: fxbind.Units(10),
		MinAmountOut: big.NewInt(1), Recipient: simtest.Addr(user), Pool: pool,
		Deadline: big.NewInt(time.Now().Add(time.Hour).Unix()), Nonce: randomNonce()}
	digest := eip712.GaslessDigest(eip712.Domain{ChainID: simtest.ChainID, Permit2: addrs.Permit2}, addrs.RelayRouter, g)
	sig, err := crypto.Sign(digest[:], user)
	require.NoError(t, err)
	sig[64] += 27

	spent, err := nonceSpent(t.Context(), c.Client, addrs.Permit2, g)
	require.NoError(t, err)
	require.False(t, spent)

	tx, err := contracts.RelayRouter.ExecuteGaslessOrder(c.Auth(relayer), fxbind.RelayRouterGaslessOrder{
		Signer: g.Signer, TokenIn: g.TokenIn, TokenOut: g.TokenOut, AmountIn: g.AmountIn, MinAmountOut: g.MinAmountOut,
		Recipient: g.Recipient, Pool: g.Pool, Deadline: g.Deadline, Nonce: g.Nonce}, sig)
	require.NoError(t, err)
	require.Equal(t, uint64(1), c.Receipt(tx).Status)
	spent, err = nonceSpent(t.Context(), c.Client, addrs.Permit2, g)
	require.NoError(t, err)
	require.True(t, spent, "mined")
	other := *g
	other.Nonce = new(big.Int).Add(g.Nonce, big.NewInt(1))
	spent, err = nonceSpent(t.Context(), c.Client, addrs.Permit2, &other)
	require.NoError(t, err)
	require.False(t, spent, "the neighbouring bit is another nonce")
}
