// Package simtest is the in-memory chain of the chain packages' tests:
// go-ethereum's simulated backend with Permit2's runtime code at its
// canonical address, funded test keys, the contract set deployed by
// bind.DeployAll, and "commit until mined" helpers. Real EVM, real
// signatures; only the node is in memory.
package simtest

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"sync"
	"testing"
	"time"

	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

// ChainID is the simulated backend's chain id.
var ChainID = big.NewInt(1337)

// Key is a deterministic test key (b as the 32-byte scalar).
func Key(t testing.TB, b byte) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(common.LeftPadBytes([]byte{b}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Addr is the address of k.
func Addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// Chain is a simulated chain for one test.
type Chain struct {
	t      testing.TB
	Sim    *simulated.Backend
	Client simulated.Client
	mu     sync.Mutex // Commit is not safe for concurrent use, nor after Close
	closed bool
}

// New starts a chain where every key holds 1,000,000 ETH and Permit2's
// runtime code sits at its canonical address; it closes with the test.
func New(t testing.TB, keys ...*ecdsa.PrivateKey) *Chain {
	t.Helper()
	eth := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	alloc := types.GenesisAlloc{fxbind.CanonicalPermit2Address: {Code: fxbind.PermitRuntimeCode(), Balance: new(big.Int)}}
	for _, k := range keys {
		alloc[Addr(k)] = types.Account{Balance: eth}
	}
	c := &Chain{t: t, Sim: simulated.NewBackend(alloc)}
	c.Client = c.Sim.Client()
	t.Cleanup(func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.closed = true
		_ = c.Sim.Close()
	})
	return c
}

// Commit mines a block; after the test's cleanup closed the chain it
// does nothing (a helper goroutine may tick once more).
func (c *Chain) Commit() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.Sim.Commit()
}

// Auth is a transactor for k.
func (c *Chain) Auth(k *ecdsa.PrivateKey) *gethbind.TransactOpts {
	c.t.Helper()
	opts, err := gethbind.NewKeyedTransactorWithChainID(k, ChainID)
	if err != nil {
		c.t.Fatal(err)
	}
	opts.Context = context.Background()
	return opts
}

// Deploy runs bind.DeployAll from deployer (Permit2 at the canonical
// address) and returns the addresses and bound contracts.
func (c *Chain) Deploy(deployer *ecdsa.PrivateKey, cfg fxbind.DeployConfig) (*fxbind.Addresses, *fxbind.Contracts) {
	c.t.Helper()
	cfg.Permit2 = fxbind.CanonicalPermit2Address
	cfg.Commit = c.Commit
	addrs, err := fxbind.DeployAll(c.Auth(deployer), c.Client, cfg)
	if err != nil {
		c.t.Fatalf("DeployAll: %v", err)
	}
	contracts, err := fxbind.NewContracts(addrs, c.Client)
	if err != nil {
		c.t.Fatal(err)
	}
	return addrs, contracts
}

// Receipt commits blocks until tx is mined (the simulated backend may leave
// some pending transactions for a later block) and returns its receipt.
func (c *Chain) Receipt(tx *types.Transaction) *types.Receipt {
	c.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		c.Commit()
		if r, err := c.Client.TransactionReceipt(context.Background(), tx.Hash()); err == nil {
			return r
		}
	}
	c.t.Fatalf("tx %s not mined", tx.Hash())
	return nil
}

// Mine sends through a binding call's results, mines it and requires
// success: c.Mine(token.Approve(auth, spender, amount)).
func (c *Chain) Mine(tx *types.Transaction, err error) *types.Receipt {
	c.t.Helper()
	if err != nil {
		c.t.Fatalf("send: %v", err)
	}
	r := c.Receipt(tx)
	if r.Status != types.ReceiptStatusSuccessful {
		c.t.Fatalf("tx %s reverted", tx.Hash())
	}
	return r
}
