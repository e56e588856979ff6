package fx

import (
	"context"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/fxd-labs/fxd/chain"
	"github.com/fxd-labs/fxd/chain/amm"
	"github.com/fxd-labs/fxd/chain/watch"
)

// syncTopic is Pool.Sync(uint256 reserve0, uint256 reserve1).
var syncTopic = crypto.Keccak256Hash([]byte("Sync(uint256,uint256)"))

// Pools keeps every pool's reserves current from its Sync logs (delivered
// by the watcher), so an AMM quote is arithmetic on memory: no chain round
// trip on the quote path. Rows are immutable; an update swaps the pointer.
type Pools struct {
	mu     sync.RWMutex
	byAddr map[common.Address]*poolState
	byPair map[[2]common.Address]common.Address // sorted pair → pool
}

// poolState is a pool's reserves and what every quote would otherwise
// recompute from them, made once per Sync log: each way, the AMM's
// prepared side and the mid price (the makers price every quote at it).
type poolState struct {
	r            amm.Reserves
	side0, side1 amm.Side // selling token0, selling token1
	mid0, mid1   *big.Rat // token0 in token1 and token1 in token0; nil when a reserve is empty
}

func newPoolState(r amm.Reserves) *poolState {
	s := &poolState{r: r}
	s.side0, _ = r.Side(r.Token0) // the pair's own tokens: no error
	s.side1, _ = r.Side(r.Token1)
	s.mid0, _ = r.Mid(r.Token0)
	s.mid1, _ = r.Mid(r.Token1)
	return s
}

// LoadPools reads every pool's reserves at the latest block.
func LoadPools(ctx context.Context, b chain.Backend, pools map[string]common.Address) (*Pools, error) {
	rs := make(map[common.Address]amm.Reserves, len(pools))
	for name, addr := range pools {
		r, err := amm.Read(ctx, b, addr)
		if err != nil {
			return nil, fmt.Errorf("fx: read pool %s: %w", name, err)
		}
		rs[addr] = r
	}
	return poolsOf(rs), nil
}

// poolsOf keeps the pools at these reserves (each with its sorted pair).
func poolsOf(rs map[common.Address]amm.Reserves) *Pools {
	p := &Pools{byAddr: make(map[common.Address]*poolState, len(rs)), byPair: make(map[[2]common.Address]common.Address, len(rs))}
	for addr, r := range rs {
		p.byAddr[addr] = newPoolState(r)
		p.byPair[[2]common.Address{r.Token0, r.Token1}] = addr
	}
	return p
}

// Filter selects the Sync logs of every pool.
func (p *Pools) Filter() watch.Filter {
	f := watch.Filter{Topics: [][]common.Hash{{syncTopic}}}
	for a := range p.byAddr {
		f.Addresses = append(f.Addresses, a)
	}
	return f
}

// OnLog takes a delivered Sync log. A retracted log (reorg) is followed by
// the Sync logs of the new chain, so only live logs move the state.
func (p *Pools) OnLog(l watch.Log) {
	if l.Removed || len(l.Topics) == 0 || l.Topics[0] != syncTopic || len(l.Data) != 64 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.byAddr[l.Address]
	if old == nil {
		return
	}
	n := old.r
	n.Reserve0 = new(big.Int).SetBytes(l.Data[:32])
	n.Reserve1 = new(big.Int).SetBytes(l.Data[32:])
	p.byAddr[l.Address] = newPoolState(n)
}

// pool returns the pool of a pair and its current state.
func (p *Pools) pool(a, b common.Address) (common.Address, *poolState, bool) {
	key := [2]common.Address{a, b}
	if b.Cmp(a) < 0 {
		key = [2]common.Address{b, a}
	}
	p.mu.RLock()
	defer p.mu.RUnlock()
	addr, ok := p.byPair[key]
	if !ok {
		return common.Address{}, nil, false
	}
	return addr, p.byAddr[addr], true
}

// Quote returns what the pool pays for amountIn of tokenIn now, as the
// contract's quote() would at the reserves last seen.
func (p *Pools) Quote(tokenIn, tokenOut common.Address, amountIn *big.Int) (common.Address, *big.Int, bool) {
	addr, s, ok := p.pool(tokenIn, tokenOut)
	if !ok {
		return common.Address{}, nil, false
	}
	side := &s.side1
	if tokenIn == s.r.Token0 {
		side = &s.side0
	}
	out, err := side.AmountOut(amountIn)
	if err != nil || out.Sign() <= 0 {
		return common.Address{}, nil, false
	}
	return addr, out, true
}

// Mid is the pool's mid price of tokenIn in tokenOut (the makers' price
// source). The Rat is shared by every caller until the next Sync log: it
// must only be read (maker.PriceSource's contract).
func (p *Pools) Mid(tokenIn, tokenOut common.Address) (*big.Rat, bool) {
	_, s, ok := p.pool(tokenIn, tokenOut)
	if !ok {
		return nil, false
	}
	mid := s.mid1
	if tokenIn == s.r.Token0 {
		mid = s.mid0
	}
	return mid, mid != nil
}
