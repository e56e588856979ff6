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
	byAddr map[common.Address]*amm.Reserves
	byPair map[[2]common.Address]common.Address // sorted pair → pool
}

// LoadPools reads every pool's reserves at the latest block.
func LoadPools(ctx context.Context, b chain.Backend, pools map[string]common.Address) (*Pools, error) {
	p := &Pools{byAddr: map[common.Address]*amm.Reserves{}, byPair: map[[2]common.Address]common.Address{}}
	for name, addr := range pools {
		r, err := amm.Read(ctx, b, addr)
		if err != nil {
			return nil, fmt.Errorf("fx: read pool %s: %w", name, err)
		}
		p.byAddr[addr] = &r
		p.byPair[[2]common.Address{r.Token0, r.Token1}] = addr
	}
	return p, nil
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
	n := *old
	n.Reserve0 = new(big.Int).SetBytes(l.Data[:32])
	n.Reserve1 = new(big.Int).SetBytes(l.Data[32:])
	p.byAddr[l.Address] = &n
}

// pool returns the pool of a pair and its current reserves.
func (p *Pools) pool(a, b common.Address) (common.Address, *amm.Reserves, bool) {
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
	addr, r, ok := p.pool(tokenIn, tokenOut)
	if !ok {
		return common.Address{}, nil, false
	}
	out, err := r.AmountOut(tokenIn, amountIn)
	if err != nil || out.Sign() <= 0 {
		return common.Address{}, nil, false
	}
	return addr, out, true
}

// Mid is the pool's mid price of tokenIn in tokenOut (the makers' price
// source).
func (p *Pools) Mid(tokenIn, tokenOut common.Address) (*big.Rat, bool) {
	_, r, ok := p.pool(tokenIn, tokenOut)
	if !ok {
		return nil, false
	}
	mid, err := r.Mid(tokenIn)
	return mid, err == nil
}
