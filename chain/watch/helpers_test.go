package watch

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/bind"
)

// The simulated client is what the service's *ethclient.Client offers.
var _ chain.Backend = simulated.Client(nil)

var simChainID = big.NewInt(1337)

// transferTopic is topic 0 of TestToken's Transfer(address,address,uint256).
var transferTopic = func() common.Hash {
	a, err := bind.TestTokenMetaData.GetAbi()
	if err != nil {
		panic(err)
	}
	return a.Events["Transfer"].ID
}()

func mustKey(t testing.TB, b byte) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.ToECDSA(common.LeftPadBytes([]byte{b}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func addr(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// env is a simulated chain with one TestToken; alice and bob hold tokens and
// send transfers, several per block, with locally counted nonces.
type env struct {
	t        *testing.T
	sim      *simulated.Backend
	client   simulated.Client
	token    *bind.TestToken
	tokenA   common.Address
	deployer *ecdsa.PrivateKey
	alice    *ecdsa.PrivateKey
	bob      *ecdsa.PrivateKey
	nonces   map[common.Address]uint64
	amount   int64 // makes each transfer distinct
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{
		t:        t,
		deployer: mustKey(t, 0xd0),
		alice:    mustKey(t, 0xa1),
		bob:      mustKey(t, 0xb0),
		nonces:   map[common.Address]uint64{},
	}
	eth := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	alloc := types.GenesisAlloc{}
	for _, k := range []*ecdsa.PrivateKey{e.deployer, e.alice, e.bob} {
		alloc[addr(k)] = types.Account{Balance: eth}
	}
	e.sim = simulated.NewBackend(alloc)
	t.Cleanup(func() { _ = e.sim.Close() })
	e.client = e.sim.Client()

	deploy := e.opts(e.deployer)
	deploy.GasLimit = 5_000_000
	a, tx, tok, err := bind.DeployTestToken(deploy, e.client, "USD Coin", "USDC")
	if err != nil {
		t.Fatal(err)
	}
	e.tokenA, e.token = a, tok
	e.commit(tx)
	var txs []*types.Transaction
	for _, k := range []*ecdsa.PrivateKey{e.alice, e.bob} {
		tx, err := tok.Mint(e.opts(e.deployer), addr(k), bind.Units(1_000_000))
		if err != nil {
			t.Fatal(err)
		}
		txs = append(txs, tx)
	}
	e.commit(txs...)
	return e
}

// opts is a transactor for k with the next local nonce and a fixed gas limit.
func (e *env) opts(k *ecdsa.PrivateKey) *gethbind.TransactOpts {
	e.t.Helper()
	o, err := gethbind.NewKeyedTransactorWithChainID(k, simChainID)
	if err != nil {
		e.t.Fatal(err)
	}
	a := addr(k)
	o.Nonce = new(big.Int).SetUint64(e.nonces[a])
	e.nonces[a]++
	o.GasLimit = 1_000_000
	o.Context = context.Background()
	return o
}

// transfer sends (does not mine) a token transfer from k.
func (e *env) transfer(k *ecdsa.PrivateKey, to common.Address) *types.Transaction {
	e.t.Helper()
	e.amount++
	tx, err := e.token.Transfer(e.opts(k), to, big.NewInt(e.amount))
	if err != nil {
		e.t.Fatal(err)
	}
	return tx
}

// blocks mines n blocks; block i holds i%4 transfers (alternating senders).
func (e *env) blocks(n int) {
	e.t.Helper()
	for i := range n {
		var txs []*types.Transaction
		for j := range i % 4 {
			from := e.alice
			if j%2 == 1 {
				from = e.bob
			}
			txs = append(txs, e.transfer(from, common.BigToAddress(big.NewInt(int64(1000+i*10+j)))))
		}
		e.commit(txs...)
	}
}

// commit mines a block, and more until every tx is mined (a slow machine's
// block builder may leave some for the next block).
func (e *env) commit(txs ...*types.Transaction) {
	e.t.Helper()
	e.sim.Commit()
	for _, tx := range txs {
		for tries := 0; ; tries++ {
			r, err := e.client.TransactionReceipt(context.Background(), tx.Hash())
			if err == nil && r != nil {
				if r.Status != types.ReceiptStatusSuccessful {
					e.t.Fatalf("tx %s reverted", tx.Hash())
				}
				break
			}
			if tries == 50 {
				e.t.Fatalf("tx %s not mined", tx.Hash())
			}
			e.sim.Commit()
		}
	}
}

func (e *env) head() uint64 {
	e.t.Helper()
	n, err := e.client.BlockNumber(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

func (e *env) hashOf(n uint64) common.Hash {
	e.t.Helper()
	h, err := e.client.HeaderByNumber(context.Background(), new(big.Int).SetUint64(n))
	if err != nil {
		e.t.Fatal(err)
	}
	return h.Hash()
}

// canonical is the node's own answer: Transfer logs of the token in [from, to].
func (e *env) canonical(from, to uint64) []types.Log {
	e.t.Helper()
	logs, err := e.client.FilterLogs(context.Background(), ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from),
		ToBlock:   new(big.Int).SetUint64(to),
		Addresses: []common.Address{e.tokenA},
		Topics:    [][]common.Hash{{transferTopic}},
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return logs
}

func (e *env) transferFilter() Filter {
	return Filter{Addresses: []common.Address{e.tokenA}, Topics: [][]common.Hash{{transferTopic}}}
}

// recorder collects deliveries and progress reports.
type recorder struct {
	mu       sync.Mutex
	logs     []Log
	progress []progressCall
}

type progressCall struct {
	block uint64
	hash  common.Hash
}

func (r *recorder) deliver(l Log) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.logs = append(r.logs, l)
}

func (r *recorder) onProgress(b uint64, h common.Hash) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.progress = append(r.progress, progressCall{b, h})
}

func (r *recorder) snapshot() ([]Log, []progressCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.logs), slices.Clone(r.progress)
}

type logKey struct {
	block common.Hash
	index uint
}

func keyOf(l types.Log) logKey { return logKey{l.BlockHash, l.Index} }

// live applies deliveries in order (add, or retract with Removed) and returns
// what remains, failing on a duplicate add or a retraction of a log not live
// or not the newest live one.
func live(t *testing.T, ds []Log) []types.Log {
	t.Helper()
	var out []types.Log
	for i, d := range ds {
		if d.Removed != d.Log.Removed {
			t.Fatalf("delivery %d: Removed %v but embedded Removed %v", i, d.Removed, d.Log.Removed)
		}
		if d.Removed {
			if len(out) == 0 || keyOf(out[len(out)-1]) != keyOf(d.Log) {
				t.Fatalf("delivery %d: retracts %v which is not the newest live log", i, keyOf(d.Log))
			}
			out = out[:len(out)-1]
			continue
		}
		if slices.ContainsFunc(out, func(l types.Log) bool { return keyOf(l) == keyOf(d.Log) }) {
			t.Fatalf("delivery %d: duplicate %v", i, keyOf(d.Log))
		}
		out = append(out, d.Log)
	}
	return out
}

// sameLogs requires got and want to be the same logs in the same order.
func sameLogs(t *testing.T, got, want []types.Log) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d logs, want %d\n got: %s\nwant: %s", len(got), len(want), describe(got), describe(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if keyOf(g) != keyOf(w) || g.BlockNumber != w.BlockNumber || g.TxHash != w.TxHash ||
			g.Address != w.Address || !slices.Equal(g.Topics, w.Topics) || !slices.Equal(g.Data, w.Data) {
			t.Fatalf("log %d differs\n got: %s\nwant: %s", i, describe(got[i:i+1]), describe(want[i:i+1]))
		}
	}
}

func describe(ls []types.Log) string {
	s := ""
	for _, l := range ls {
		s += fmt.Sprintf("[%d/%d %s] ", l.BlockNumber, l.Index, l.BlockHash.TerminalString())
	}
	return s
}

func plain(ds []Log) []types.Log {
	out := make([]types.Log, len(ds))
	for i, d := range ds {
		out[i] = d.Log
	}
	return out
}

func poll(t *testing.T, w *Watcher) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := w.Poll(ctx); err != nil {
		t.Fatalf("Poll: %v", err)
	}
}
