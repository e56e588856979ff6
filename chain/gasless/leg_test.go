package gasless

import (
	"context"
	"crypto/ecdsa"
	"io"
	"log/slog"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/domain"
)

// A cross-currency leg end to end on a real EVM: built, signed by the
// user's key, verified off-chain, refused by the pre-flight for each
// shortfall in turn, relayed with the gas-only key, found (not sent again)
// on a second relay, and its payee paid at least the minimum.
func TestLegEndToEnd(t *testing.T) {
	deployer, user := simtest.Key(t, 0xd0), simtest.Key(t, 0x11)
	payee := simtest.Addr(simtest.Key(t, 0x44))
	c, addrs, contracts, leg := newLegChain(t, deployer, user)
	ctx := context.Background()
	head, err := c.Client.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	terms := &domain.GaslessTerms{Signer: simtest.Addr(user).Hex(), TokenIn: addrs.USDC.Hex(), TokenOut: addrs.EURC.Hex(),
		AmountIn: fxbind.Units(100), MinAmountOut: fxbind.Units(90), Recipient: payee.Hex(), Pool: addrs.Pools["USDC/EURC"].Hex(),
		Deadline: new(big.Int).SetUint64(head.Time + 600), Nonce: big.NewInt(12345)}
	sig := sign(t, leg, terms, user)

	require.True(t, leg.Verify(terms, sig))
	other := *terms
	other.Recipient = simtest.Addr(user).Hex()
	require.False(t, leg.Verify(&other, sig), "the signature covers the recipient")
	require.False(t, leg.Verify(terms, "0x1234"))
	require.Equal(t, terms, Terms(Order(terms)))

	issues, err := leg.Issues(ctx, terms, 6)
	require.NoError(t, err)
	require.Equal(t, &domain.AllowanceIssue{Token: addrs.USDC.Hex(), Spender: addrs.Permit2.Hex(), Actual: "0", Required: "100"}, issues.Allowance)
	require.Equal(t, &domain.BalanceIssue{Token: addrs.USDC.Hex(), Actual: "0", Required: "100"}, issues.Balance)
	requirePreflight(t, leg, terms, sig, domain.CodeInsufficientAllowance)

	usdc := contracts.Tokens[fxbind.USDC]
	c.Mine(usdc.Approve(c.Auth(user), addrs.Permit2, new(big.Int).Lsh(big.NewInt(1), 255)))
	requirePreflight(t, leg, terms, sig, domain.CodeInsufficientBalance)
	c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(100)))
	requirePreflight(t, leg, terms, sig, "")
	late := *terms
	late.Deadline = new(big.Int).SetUint64(head.Time - 1)
	refused, err := leg.Preflight(ctx, &late, sign(t, leg, &late, user), 6)
	require.NoError(t, err)
	require.Equal(t, domain.CodeRelayWouldRevert, refused.Code)
	require.Contains(t, refused.Message, "OrderExpired(")

	stop := autoCommit(c)
	out, err := leg.Relay(ctx, terms, sig)
	stop()
	require.NoError(t, err)
	require.True(t, out.Success, out.Reason)
	require.GreaterOrEqual(t, out.AmountOut.Cmp(terms.MinAmountOut), 0)
	paid, err := contracts.Tokens[fxbind.EURC].BalanceOf(&bind.CallOpts{}, payee)
	require.NoError(t, err)
	require.Equal(t, out.AmountOut, paid, "the payee holds what the log says")

	nonce, err := c.Client.PendingNonceAt(ctx, leg.Relayer.Address())
	require.NoError(t, err)
	again, err := leg.Relay(ctx, terms, sig)
	require.NoError(t, err)
	require.Equal(t, out, again, "a second relay finds the first")
	after, err := c.Client.PendingNonceAt(ctx, leg.Relayer.Address())
	require.NoError(t, err)
	require.Equal(t, nonce, after, "nothing was sent twice")
}

// newLegChain is a simulated chain with the contracts deployed and a leg
// relaying through them with its own gas-only key.
func newLegChain(t *testing.T, deployer, user *ecdsa.PrivateKey) (*simtest.Chain, *fxbind.Addresses, *fxbind.Contracts, *Leg) {
	t.Helper()
	relayer := simtest.Key(t, 0x33)
	c := simtest.New(t, deployer, user, relayer)
	addrs, contracts := c.Deploy(deployer, fxbind.DeployConfig{})
	leg := &Leg{Domain: eip712.Domain{ChainID: simtest.ChainID, Permit2: addrs.Permit2}, Router: addrs.RelayRouter,
		Chain: c.Client, Relayer: relay.New(c.Client, relayer, simtest.ChainID, relay.WithPollInterval(5*time.Millisecond)),
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	return c, addrs, contracts, leg
}

func requirePreflight(t *testing.T, leg *Leg, terms *domain.GaslessTerms, sig, code string) {
	t.Helper()
	refused, err := leg.Preflight(context.Background(), terms, sig, 6)
	require.NoError(t, err)
	if code == "" {
		require.Nil(t, refused)
		return
	}
	require.NotNil(t, refused)
	require.Equal(t, code, refused.Code, refused.Message)
	require.False(t, strings.Contains(refused.Message, "0x192b9e4e"), "reasons are decoded, never raw")
}

func sign(t *testing.T, leg *Leg, terms *domain.GaslessTerms, key *ecdsa.PrivateKey) string {
	t.Helper()
	digest := eip712.GaslessDigest(leg.Domain, leg.Router, Order(terms))
	sig, err := crypto.Sign(digest[:], key)
	require.NoError(t, err)
	return hexutil.Encode(sig) // v in {0, 1}: the leg accepts it and relays 27/28
}

// autoCommit mines blocks while a relay waits for its receipt; stop
// returns once the miner has exited.
func autoCommit(c *simtest.Chain) (stop func()) {
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				c.Commit()
			}
		}
	}()
	return func() { close(done); <-exited }
}

// TestRelayOfACancelledNonceFails: the signer cancels the leg's Permit2
// nonce (invalidateUnorderedNonces) after the pre-flight passed. The leg
// can never execute: the relay reports it failed with the decoded reason,
// sends nothing, and is not an error to try again for ever.
func TestRelayOfACancelledNonceFails(t *testing.T) {
	deployer, user := simtest.Key(t, 0xd0), simtest.Key(t, 0x11)
	c, addrs, contracts, leg := newLegChain(t, deployer, user)
	ctx := context.Background()
	usdc := contracts.Tokens[fxbind.USDC]
	c.Mine(usdc.Approve(c.Auth(user), addrs.Permit2, new(big.Int).Lsh(big.NewInt(1), 255)))
	c.Mine(usdc.Mint(c.Auth(deployer), simtest.Addr(user), fxbind.Units(100)))
	head, err := c.Client.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	nonce := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(0xc0ffee), 8), big.NewInt(3))
	terms := &domain.GaslessTerms{Signer: simtest.Addr(user).Hex(), TokenIn: addrs.USDC.Hex(), TokenOut: addrs.EURC.Hex(),
		AmountIn: fxbind.Units(100), MinAmountOut: fxbind.Units(90), Recipient: simtest.Addr(user).Hex(), Pool: addrs.Pools["USDC/EURC"].Hex(),
		Deadline: new(big.Int).SetUint64(head.Time + 600), Nonce: nonce}
	sig := sign(t, leg, terms, user)
	requirePreflight(t, leg, terms, sig, "")

	c.Mine(contracts.Permit2.InvalidateUnorderedNonces(c.Auth(user), new(big.Int).Rsh(nonce, 8), big.NewInt(1<<3)))
	sent, err := c.Client.PendingNonceAt(ctx, leg.Relayer.Address())
	require.NoError(t, err)
	out, err := leg.Relay(ctx, terms, sig)
	require.NoError(t, err, "a cancelled nonce is an outcome, not a reason to try again")
	require.False(t, out.Success)
	require.Empty(t, out.TxHash, "refused before broadcast")
	require.Contains(t, out.Reason, "InvalidNonce()")
	after, err := c.Client.PendingNonceAt(ctx, leg.Relayer.Address())
	require.NoError(t, err)
	require.Equal(t, sent, after, "nothing was sent")
}
