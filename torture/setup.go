package torture

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// traderFunds is what the faucet gives each trading wallet of each token.
var traderFunds = big.NewInt(1_000_000 * 1_000_000)

// setup makes the accounts, keys, clients and trading wallets (linked by
// SIWE, funded, Permit2 approved), the first webhook endpoints, and reads
// the traders' balances. It runs before any fault.
func (h *harness) setup(ctx context.Context, seeds *rand.Rand) error {
	p, _ := h.srv.current()
	var err error
	if h.public, err = client.New(h.srv.baseURL(), "", nil, client.WithTimeout(h.cfg.ClientTimeout)); err != nil {
		return err
	}
	keyDir := filepath.Join(h.cfg.WorkDir, "keys")
	for i := range h.cfg.Accounts {
		id, err := p.CreateAccount(ctx, fmt.Sprintf("torture %d", i))
		if err != nil {
			return err
		}
		a := &account{idx: i, id: id}
		h.accounts = append(h.accounts, a)
		keys, err := p.CreateKeys(ctx, repeat(id, h.cfg.WorkersPerAccount+1), "read,trade,pay,wallets,webhooks",
			filepath.Join(keyDir, fmt.Sprint(i)), 1, nil)
		if err != nil {
			return err
		}
		if a.checker, err = client.New(h.srv.baseURL(), keys[0].ID, keys[0].Priv, client.WithTimeout(h.cfg.ClientTimeout)); err != nil {
			return err
		}
		for _, k := range keys[1:] {
			c, err := client.New(h.srv.baseURL(), k.ID, k.Priv, client.WithTimeout(h.cfg.ClientTimeout))
			if err != nil {
				return err
			}
			w := &worker{idx: len(h.workers), h: h, acct: a, key: k, c: c, opsDone: map[string]int{},
				rng: rand.New(rand.NewPCG(seeds.Uint64(), seeds.Uint64()))}
			a.workers = append(a.workers, w)
			h.workers = append(h.workers, w)
		}
	}
	if err := h.openChain(ctx); err != nil {
		return err
	}
	if err := h.eachWorker(ctx, (*worker).setUpTrader); err != nil {
		return err
	}
	return h.firstEndpoints(ctx)
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// eachWorker runs f for every worker at once and returns the first error.
func (h *harness) eachWorker(ctx context.Context, f func(*worker, context.Context) error) error {
	errs := make([]error, len(h.workers))
	var wg sync.WaitGroup
	for i, w := range h.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(w, ctx)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// openChain reads the tokens from GET /currencies and dials the chain.
func (h *harness) openChain(ctx context.Context) error {
	resp, err := h.get(ctx, h.workers[0].c, "/currencies")
	if err != nil {
		return err
	}
	var curs client.CurrencyList
	if err := decode(resp, &curs); err != nil {
		return err
	}
	h.tokens = map[string]common.Address{}
	for _, c := range curs.Data {
		if c.Symbol == usdc || c.Symbol == eurc {
			h.tokens[c.Symbol], h.decimals, h.chainID = common.HexToAddress(c.Address), c.Decimals, new(big.Int).SetUint64(c.ChainID)
		}
	}
	if len(h.tokens) != 2 {
		return fmt.Errorf("torture: GET /currencies lacks USDC or EURC: %s", resp.Body)
	}
	h.eth, err = ethclient.DialContext(ctx, h.srv.rpcURL())
	return err
}

// setUpTrader links the worker's trading wallet, funds it with both
// tokens and approves Permit2 for both, then notes its balances.
func (w *worker) setUpTrader(ctx context.Context) error {
	rec, err := w.linkWallet(ctx, roleTrader)
	if err != nil {
		return fmt.Errorf("worker %d: link its wallet: %w", w.idx, err)
	}
	w.trader = rec
	h := w.h
	for _, sym := range []string{usdc, eurc} {
		if err := h.faucet(ctx, rec.w.Address(), sym, traderFunds); err != nil {
			return err
		}
		data, err := wallet.ERC20.Pack("approve", wallet.Permit2, new(big.Int).Set(math.MaxBig256))
		if err != nil {
			return err
		}
		st, err := h.prepareTx(ctx, rec.w, h.tokens[sym], data, nil)
		if err != nil {
			return err
		}
		if err := h.mine(ctx, rec.w, st); err != nil || !st.succeeded() {
			return fmt.Errorf("worker %d: approve Permit2 for %s: %v", w.idx, sym, err)
		}
	}
	bal := map[string]*big.Int{}
	for _, sym := range []string{usdc, eurc} {
		if bal[sym], err = h.balanceOf(ctx, h.tokens[sym], rec.w.Address()); err != nil {
			return err
		}
	}
	h.mu.Lock()
	h.baseline[rec.w.Address()] = bal
	h.mu.Unlock()
	return nil
}

// firstEndpoints gives every account a good endpoint for every event and
// one hostile endpoint (slow, reset and late in turn), each sent a test
// event at once: every receiver is exercised whatever the workload draws
// (with seed 1857948538785174589 the slow receiver got no request in
// three minutes, and TestTortureCI, which requires one, failed); the
// first account also gets a good one filtered to a few types.
func (h *harness) firstEndpoints(ctx context.Context) error {
	for i, a := range h.accounts {
		w := a.workers[0]
		hostile := []string{recvSlow, recvReset, recvLate}[i%3]
		for _, kind := range []string{recvGood, hostile} {
			e, err := w.addEndpoint(ctx, kind, nil)
			if e == nil {
				return fmt.Errorf("torture: account %d: %s endpoint: %v", i, kind, err)
			}
			if err := w.sendTest(ctx, e); err != nil {
				return fmt.Errorf("torture: account %d: %s endpoint: %w", i, kind, err)
			}
		}
		if i == 0 {
			if e, err := w.addEndpoint(ctx, recvGood, []string{"transfer.confirmed", "payment_link.paid"}); e == nil {
				return fmt.Errorf("torture: filtered endpoint: %v", err)
			}
		}
	}
	return nil
}
