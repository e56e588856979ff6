package relay

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	gethbind "github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/bind"
)

var simChainID = big.NewInt(1337)

var tokenABI = func() *abi.ABI {
	a, err := bind.TestTokenMetaData.GetAbi()
	if err != nil {
		panic(err)
	}
	return a
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

// env: a simulated chain with a TestToken the relayer calls (approve is a
// harmless call with calldata; transfer reverts, the relayer holds no tokens).
type env struct {
	t        *testing.T
	sim      *simulated.Backend
	client   simulated.Client
	token    common.Address
	deployer *ecdsa.PrivateKey
	relayer  *ecdsa.PrivateKey
	commitMu sync.Mutex
}

// commit mines a block. Calls are serialised: the simulated backend's Commit
// is not safe for concurrent use (two concurrent txpool syncs can lose one
// waiter and hang).
func (e *env) commit() {
	e.commitMu.Lock()
	defer e.commitMu.Unlock()
	e.sim.Commit()
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, deployer: mustKey(t, 0xd0), relayer: mustKey(t, 0x33)}
	eth := new(big.Int).Mul(big.NewInt(1_000_000), big.NewInt(1e18))
	e.sim = simulated.NewBackend(types.GenesisAlloc{
		addr(e.deployer): {Balance: eth},
		addr(e.relayer):  {Balance: eth},
	})
	t.Cleanup(func() { _ = e.sim.Close() })
	e.client = e.sim.Client()
	opts, err := gethbind.NewKeyedTransactorWithChainID(e.deployer, simChainID)
	if err != nil {
		t.Fatal(err)
	}
	a, tx, _, err := bind.DeployTestToken(opts, e.client, "USD Coin", "USDC")
	if err != nil {
		t.Fatal(err)
	}
	e.token = a
	e.commitUntilMined(tx)
	return e
}

func (e *env) approve(i int) []byte {
	e.t.Helper()
	data, err := tokenABI.Pack("approve", common.BigToAddress(big.NewInt(int64(0x1000+i))), big.NewInt(int64(i+1)))
	if err != nil {
		e.t.Fatal(err)
	}
	return data
}

func (e *env) reverting() []byte {
	e.t.Helper()
	data, err := tokenABI.Pack("transfer", common.HexToAddress("0xbeef"), big.NewInt(1))
	if err != nil {
		e.t.Fatal(err)
	}
	return data
}

func (e *env) pendingNonce() uint64 {
	e.t.Helper()
	n, err := e.client.PendingNonceAt(context.Background(), addr(e.relayer))
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// committer mines a block every few milliseconds until the test ends.
func (e *env) committer() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				e.commit()
			}
		}
	}()
	e.t.Cleanup(func() { cancel(); <-done })
}

func (e *env) mined(r *Relayer, txs ...*types.Transaction) {
	e.minedT(e.t, r, txs...)
}

// minedT waits (with Relayer.Wait) for txs to be mined successfully, mining
// blocks meanwhile.
func (e *env) minedT(t *testing.T, r *Relayer, txs ...*types.Transaction) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				e.commit()
			}
		}
	}()
	defer func() { close(stop); <-done }()
	for _, tx := range txs {
		rc, err := r.Wait(ctx, tx)
		if err != nil {
			t.Fatalf("wait %d: %v", tx.Nonce(), err)
		}
		if rc.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("tx nonce %d reverted", tx.Nonce())
		}
	}
}

var _ chain.Backend = simulated.Client(nil)

// commitUntilMined mines blocks until every tx has a receipt (a slow
// machine's block builder may leave some for the next block).
func (e *env) commitUntilMined(txs ...*types.Transaction) {
	e.t.Helper()
	for _, tx := range txs {
		for tries := 0; ; tries++ {
			if rc, err := e.client.TransactionReceipt(context.Background(), tx.Hash()); err == nil && rc != nil {
				break
			}
			if tries == 100 {
				e.t.Fatalf("tx %s not mined", tx.Hash())
			}
			e.commit()
		}
	}
}

func ethereumCall(from, to common.Address, data []byte) ethereum.CallMsg {
	return ethereum.CallMsg{From: from, To: &to, Data: data}
}

func TestConcurrentSendsGetConsecutiveNonces(t *testing.T) {
	e := newEnv(t)
	e.committer()
	r := New(e.client, e.relayer, simChainID, WithMaxInFlight(200), WithPollInterval(5*time.Millisecond))
	if r.Address() != addr(e.relayer) {
		t.Fatal("address")
	}

	const n = 200
	txs := make([]*types.Transaction, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			tx, err := r.Send(t.Context(), e.token, e.approve(i), 0)
			if err != nil {
				errs <- err
				return
			}
			txs[i] = tx
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	e.mined(r, txs...)

	nonces := make([]uint64, n)
	for i, tx := range txs {
		nonces[i] = tx.Nonce()
		if tx.Value().Sign() != 0 || tx.Type() != types.DynamicFeeTxType {
			t.Fatalf("tx %d: value %v type %d", i, tx.Value(), tx.Type())
		}
	}
	slices.Sort(nonces)
	for i, nonce := range nonces {
		if nonce != uint64(i) {
			t.Fatalf("nonces are not 0..%d: %v", n-1, nonces)
		}
	}
	if got := e.pendingNonce(); got != n {
		t.Fatalf("pending nonce %d, want %d", got, n)
	}
}

func TestGasAndFees(t *testing.T) {
	e := newEnv(t)
	r := New(e.client, e.relayer, simChainID)
	ctx := t.Context()
	est, err := e.client.EstimateGas(ctx, ethereumCall(addr(e.relayer), e.token, e.approve(1)))
	if err != nil {
		t.Fatal(err)
	}
	head, err := e.client.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := r.Send(ctx, e.token, e.approve(1), 0)
	if err != nil {
		t.Fatal(err)
	}
	if tx.Gas() != est+est/5 {
		t.Fatalf("gas %d, want estimate %d + 20%%", tx.Gas(), est)
	}
	if want := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tx.GasTipCap()); tx.GasFeeCap().Cmp(want) != 0 {
		t.Fatalf("fee cap %v, want 2*%v + %v", tx.GasFeeCap(), head.BaseFee, tx.GasTipCap())
	}
	tx2, err := r.Send(ctx, e.token, e.approve(2), 2*est)
	if err != nil {
		t.Fatal(err)
	}
	if tx2.Gas() != 2*est {
		t.Fatalf("explicit gas limit %d", tx2.Gas())
	}
	e.commit()
	e.mined(r, tx, tx2)
}

func TestRefusedTransactionLeavesNoGap(t *testing.T) {
	e := newEnv(t)
	r := New(e.client, e.relayer, simChainID, WithPollInterval(5*time.Millisecond))
	ctx := t.Context()

	first, err := r.Send(ctx, e.token, e.approve(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Reverts at estimation: no nonce taken.
	if _, err := r.Send(ctx, e.token, e.reverting(), 0); err == nil || errors.Is(err, ErrMaybeSent) {
		t.Fatalf("reverting call: %v", err)
	}
	// Refused by the node (gas limit below the intrinsic gas): the nonce is
	// handed back.
	if _, err := r.Send(ctx, e.token, e.approve(1), 21_000); err == nil || errors.Is(err, ErrMaybeSent) {
		t.Fatalf("gas limit too low: %v", err)
	}
	// Refused by the node: a gas limit above the block's.
	if _, err := r.Send(ctx, e.token, e.approve(2), 1<<40); err == nil {
		t.Fatal("gas limit above the block gas limit was accepted")
	}
	second, err := r.Send(ctx, e.token, e.approve(3), 0)
	if err != nil {
		t.Fatal(err)
	}
	if first.Nonce()+1 != second.Nonce() {
		t.Fatalf("nonces %d then %d: a refused transaction burnt a nonce", first.Nonce(), second.Nonce())
	}
	e.commit()
	e.mined(r, first, second) // a gap would leave second unmined
	if e.pendingNonce() != second.Nonce()+1 {
		t.Fatal("pending nonce")
	}
}

func TestResyncAfterAnotherSender(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()

	// other sends a plain transaction with the relayer's key, at the given
	// nonce and tip.
	other := func(t *testing.T, nonce uint64, tip int64) *types.Transaction {
		t.Helper()
		to := common.HexToAddress("0x00000000000000000000000000000000000e0e0e")
		tx, err := types.SignNewTx(e.relayer, types.LatestSignerForChainID(simChainID), &types.DynamicFeeTx{
			ChainID: simChainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(1000e9),
			Gas: 21_000, To: &to, Value: big.NewInt(1),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.client.SendTransaction(ctx, tx); err != nil {
			t.Fatal(err)
		}
		return tx
	}

	t.Run("nonce too low", func(t *testing.T) {
		r := New(e.client, e.relayer, simChainID, WithPollInterval(5*time.Millisecond))
		first, err := r.Send(ctx, e.token, e.approve(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		e.commitUntilMined(first)
		e.commitUntilMined(other(t, first.Nonce()+1, 1e9), other(t, first.Nonce()+2, 1e9))
		next, err := r.Send(ctx, e.token, e.approve(1), 0)
		if err != nil {
			t.Fatal(err)
		}
		if next.Nonce() != first.Nonce()+3 {
			t.Fatalf("nonce %d after resync, want %d", next.Nonce(), first.Nonce()+3)
		}
		e.commit()
		e.minedT(t, r, first, next)
	})
	t.Run("nonce pending elsewhere", func(t *testing.T) {
		r := New(e.client, e.relayer, simChainID, WithPollInterval(5*time.Millisecond))
		first, err := r.Send(ctx, e.token, e.approve(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		// Another process takes the next nonce, paying more: the relayer's
		// transaction at that nonce would be an underpriced replacement.
		theirs := other(t, first.Nonce()+1, 100e9)
		next, err := r.Send(ctx, e.token, e.approve(1), 0)
		if err != nil {
			t.Fatal(err)
		}
		if next.Nonce() != theirs.Nonce()+1 {
			t.Fatalf("nonce %d after resync, want %d", next.Nonce(), theirs.Nonce()+1)
		}
		e.commit()
		e.minedT(t, r, first, theirs, next)
	})
}

func TestBusy(t *testing.T) {
	e := newEnv(t)
	r := New(e.client, e.relayer, simChainID, WithMaxInFlight(3), WithPollInterval(5*time.Millisecond))
	ctx := t.Context()

	// Ten at once, nothing mined: exactly three get through.
	var ok, busy atomic.Int32
	var wg sync.WaitGroup
	var mu sync.Mutex
	var sent []*types.Transaction
	for i := range 10 {
		wg.Go(func() {
			tx, err := r.Send(ctx, e.token, e.approve(i), 0)
			switch {
			case errors.Is(err, ErrBusy):
				busy.Add(1)
			case err != nil:
				t.Error(err)
			default:
				ok.Add(1)
				mu.Lock()
				sent = append(sent, tx)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if ok.Load() != 3 || busy.Load() != 7 {
		t.Fatalf("%d sent, %d busy; want 3 and 7", ok.Load(), busy.Load())
	}
	if _, err := r.Send(ctx, e.token, e.approve(10), 0); !errors.Is(err, ErrBusy) || r.InFlight() != 3 {
		t.Fatalf("Send when full: %v (in flight %d)", err, r.InFlight())
	}
	// Once mined, the slots free up, whether or not anyone called Wait.
	e.commitUntilMined(sent...)
	tx, err := r.Send(ctx, e.token, e.approve(11), 0)
	if err != nil {
		t.Fatalf("Send after the block: %v", err)
	}
	e.commit()
	e.mined(r, append(sent, tx)...)
	// A refused send gives its slot back.
	for range 5 {
		if _, err := r.Send(ctx, e.token, e.reverting(), 0); err == nil || errors.Is(err, ErrBusy) {
			t.Fatalf("reverting send: %v", err)
		}
	}
	if r.InFlight() != 0 {
		t.Fatalf("in flight %d after everything was mined", r.InFlight())
	}
}

// flaky loses the connection around the next SendTransaction: after the node
// got the transaction (deliver) or before.
type flaky struct {
	chain.Backend
	mode atomic.Int32 // 0 ok, 1 deliver then fail, 2 fail
	lag  atomic.Int32 // answers of PendingNonceAt one behind the pool's
}

// PendingNonceAt lags as a node's pool can right after it took a
// transaction (geth promotes it to pending asynchronously).
func (f *flaky) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	n, err := f.Backend.PendingNonceAt(ctx, a)
	if err == nil && n > 0 && f.lag.Add(-1) >= 0 {
		n--
	}
	return n, err
}

func (f *flaky) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	switch f.mode.Swap(0) {
	case 1:
		if err := f.Backend.SendTransaction(ctx, tx); err != nil {
			return err
		}
		return errors.New("read tcp: connection reset by peer")
	case 2:
		return errors.New("dial tcp: connection refused")
	}
	return f.Backend.SendTransaction(ctx, tx)
}

func TestUnknownOutcome(t *testing.T) {
	for _, tc := range []struct {
		name      string
		mode      int32
		delivered bool
		lag       int32
	}{
		{"node got it", 1, true, 0},
		{"node did not get it", 2, false, 0},
		// The node says the nonce is taken while its pending nonce still
		// says it is free: the next one is used, not the refusal returned.
		{"node got it, its pending nonce lags", 1, true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			node := &flaky{Backend: e.client}
			r := New(node, e.relayer, simChainID, WithPollInterval(5*time.Millisecond))
			ctx := t.Context()
			first, err := r.Send(ctx, e.token, e.approve(0), 0)
			if err != nil {
				t.Fatal(err)
			}
			node.mode.Store(tc.mode)
			maybe, err := r.Send(ctx, e.token, e.approve(1), 0)
			if !errors.Is(err, ErrMaybeSent) || maybe == nil {
				t.Fatalf("Send: %v, %v; want ErrMaybeSent with the transaction", maybe, err)
			}
			if tc.delivered {
				// Let the pool take it in, so that only the lag below can
				// show a stale pending nonce.
				for deadline := time.Now().Add(5 * time.Second); e.pendingNonce() != maybe.Nonce()+1; {
					if time.Now().After(deadline) {
						t.Fatal("the pool did not take the delivered transaction in 5 s")
					}
					time.Sleep(time.Millisecond)
				}
			}
			node.lag.Store(tc.lag)
			next, err := r.Send(ctx, e.token, e.approve(2), 0)
			if err != nil {
				t.Fatal(err)
			}
			want := maybe.Nonce()
			if tc.delivered {
				want++
			}
			if next.Nonce() != want {
				t.Fatalf("nonce after an unknown outcome: %d, want %d", next.Nonce(), want)
			}
			e.commit()
			e.mined(r, first, next)
			if tc.delivered {
				e.mined(r, maybe)
			}
			if e.pendingNonce() != next.Nonce()+1 {
				t.Fatal("gap")
			}
		})
	}
}
