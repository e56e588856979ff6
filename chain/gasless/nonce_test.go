package gasless

import (
	"io"
	"log/slog"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/domain"
)

// TestNonceSpent reads the leg's own bit of Permit2's nonce bitmap: unset
// before the relay, set once it is mined, and the neighbouring nonce stays
// unset. (The simulated backend has no pending state to query; on a real
// node the same call with Pending reads the pool's view, which is why Relay
// uses it after a restart.)
func TestNonceSpent(t *testing.T) {
	deployer, user, relayer := simtest.Key(t, 0xd0), simtest.Key(t, 0x11), simtest.Key(t, 0x33)
	c := simtest.New(t, deployer, user, relayer)
	addrs, contracts := c.Deploy(deployer, fxbind.DeployConfig{})
	usdc := contracts.Tokens[fxbind.USDC]
	c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(1_000)))
	c.Mine(usdc.Approve(c.Auth(user), addrs.Permit2, new(big.Int).Lsh(big.NewInt(1), 255)))
	pool, ok := addrs.Pool("USDC", "EURC")
	require.True(t, ok)
	leg := &Leg{Domain: eip712.Domain{ChainID: simtest.ChainID, Permit2: addrs.Permit2}, Router: addrs.RelayRouter,
		Chain: c.Client, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}

	// A nonce whose bit is neither the lowest nor the highest of its word.
	nonce := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(0x5eed), 8), big.NewInt(77))
	terms := &domain.GaslessTerms{Signer: simtest.Addr(user).Hex(), TokenIn: addrs.USDC.Hex(), TokenOut: addrs.EURC.Hex(),
		AmountIn: fxbind.Units(10), MinAmountOut: big.NewInt(1), Recipient: simtest.Addr(user).Hex(), Pool: pool.Hex(),
		Deadline: big.NewInt(time.Now().Add(time.Hour).Unix()), Nonce: nonce}
	digest := eip712.GaslessDigest(leg.Domain, leg.Router, Order(terms))
	sig, err := crypto.Sign(digest[:], user)
	require.NoError(t, err)
	sig[64] += 27

	spent, err := leg.nonceSpent(t.Context(), terms, true)
	require.NoError(t, err)
	require.False(t, spent)

	g := Order(terms)
	tx, err := contracts.RelayRouter.ExecuteGaslessOrder(c.Auth(relayer), fxbind.RelayRouterGaslessOrder{
		Signer: g.Signer, TokenIn: g.TokenIn, TokenOut: g.TokenOut, AmountIn: g.AmountIn, MinAmountOut: g.MinAmountOut,
		Recipient: g.Recipient, Pool: g.Pool, Deadline: g.Deadline, Nonce: g.Nonce}, sig)
	require.NoError(t, err)
	require.Equal(t, uint64(1), c.Receipt(tx).Status)
	spent, err = leg.nonceSpent(t.Context(), terms, true)
	require.NoError(t, err)
	require.True(t, spent, "mined")
	for _, n := range []*big.Int{new(big.Int).Add(nonce, big.NewInt(1)), new(big.Int).Sub(nonce, big.NewInt(1)), new(big.Int).Add(nonce, big.NewInt(256))} {
		other := *terms
		other.Nonce = n
		spent, err = leg.nonceSpent(t.Context(), &other, true)
		require.NoError(t, err)
		require.False(t, spent, "nonce %s is another bit or another word", n)
	}
}
