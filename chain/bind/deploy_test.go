package bind

import (
	"bytes"
	"context"
	"encoding/json"
	"math/big"
	"reflect"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
)

func deployFresh(t *testing.T, cfg DeployConfig, withCanonicalPermit2 bool) (*simulated.Backend, *Addresses) {
	t.Helper()
	deployer := mustKey(t, 0xd0)
	alloc := fundedAlloc(deployer)
	if withCanonicalPermit2 {
		alloc[CanonicalPermit2Address] = types.Account{Code: PermitRuntimeCode(), Balance: new(big.Int)}
	}
	sim := simulated.NewBackend(alloc)
	t.Cleanup(func() { _ = sim.Close() })
	cfg.Commit = func() { sim.Commit() }
	auth := (&env{t: t}).auth(deployer)
	addrs, err := DeployAll(auth, sim.Client(), cfg)
	if err != nil {
		t.Fatalf("DeployAll: %v", err)
	}
	return sim, addrs
}

func TestDeployAllDeterministic(t *testing.T) {
	deployer := addr(mustKey(t, 0xd0))
	maker := common.HexToAddress("0x00000000000000000000000000000000000a11ce")
	cfg := DeployConfig{Permit2: CanonicalPermit2Address, Makers: []common.Address{maker}, MakerInventory: Units(5)}

	_, a1 := deployFresh(t, cfg, true)
	sim, a2 := deployFresh(t, cfg, true)
	if !reflect.DeepEqual(a1, a2) {
		t.Fatalf("two deployments differ:\n%+v\n%+v", a1, a2)
	}
	// The fixed order: tokens, pools, router, escrow, payment-link factory, from the
	// deployer's nonce 0.
	want := &Addresses{
		USDC:    crypto.CreateAddress(deployer, 0),
		USDT:    crypto.CreateAddress(deployer, 1),
		EURC:    crypto.CreateAddress(deployer, 2),
		Permit2: CanonicalPermit2Address,
		Pools: map[string]common.Address{
			"USDC/EURC": crypto.CreateAddress(deployer, 3),
			"USDC/USDT": crypto.CreateAddress(deployer, 4),
			"USDT/EURC": crypto.CreateAddress(deployer, 5),
		},
		RelayRouter:        crypto.CreateAddress(deployer, 6),
		RfqEscrow:          crypto.CreateAddress(deployer, 7),
		PaymentLinkFactory: crypto.CreateAddress(deployer, 8),
	}
	if !reflect.DeepEqual(a1, want) {
		t.Fatalf("addresses %+v, want %+v", a1, want)
	}

	// contracts.json shape.
	raw, err := json.Marshal(a1)
	if err != nil {
		t.Fatal(err)
	}
	var generic map[string]interface{}
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"usdc", "usdt", "eurc", "permit2", "pools", "relay_router", "rfq_escrow", "payment_link_factory"} {
		if _, ok := generic[k]; !ok {
			t.Errorf("contracts.json lacks %q: %s", k, raw)
		}
	}
	if len(generic) != 8 || len(generic["pools"].(map[string]interface{})) != 3 {
		t.Errorf("unexpected contracts.json shape: %s", raw)
	}
	var back Addresses
	if err := json.Unmarshal(raw, &back); err != nil || !reflect.DeepEqual(&back, a1) {
		t.Fatalf("contracts.json does not round-trip: %v", err)
	}
	if p, ok := a1.Pool(EURC, USDC); !ok || p != a1.Pools["USDC/EURC"] {
		t.Errorf("Pool(EURC, USDC) = %v %v", p, ok)
	}

	// State: owners, registrations, seeded reserves at the intended prices, inventory.
	c, err := NewContracts(a1, sim.Client())
	if err != nil {
		t.Fatal(err)
	}
	for _, sym := range []string{USDC, USDT, EURC} {
		tok := c.Tokens[sym]
		if s, _ := tok.Symbol(nil); s != sym {
			t.Errorf("symbol %q, want %q", s, sym)
		}
		if d, _ := tok.Decimals(nil); d != TokenDecimals {
			t.Errorf("%s decimals %d", sym, d)
		}
		if o, _ := tok.Owner(nil); o != deployer {
			t.Errorf("%s owner %s", sym, o)
		}
		if b, _ := tok.BalanceOf(nil, maker); b.Cmp(Units(5)) != 0 {
			t.Errorf("maker %s inventory %v", sym, b)
		}
		if b, _ := tok.BalanceOf(nil, deployer); b.Sign() != 0 {
			t.Errorf("deployer kept %v %s", b, sym)
		}
	}
	for _, spec := range DefaultPools() {
		pool := c.Pools[spec.Name()]
		base, _ := a1.Token(spec.Base)
		quote, _ := a1.Token(spec.Quote)
		res, err := pool.GetReserves(nil)
		if err != nil {
			t.Fatal(err)
		}
		r0, r1 := spec.BaseAmount, spec.QuoteAmount
		if t0, _ := pool.Token0(nil); t0 != base {
			r0, r1 = r1, r0
		}
		if res.Reserve0.Cmp(r0) != 0 || res.Reserve1.Cmp(r1) != 0 {
			t.Errorf("%s reserves %v/%v", spec.Name(), res.Reserve0, res.Reserve1)
		}
		pair, err := c.RelayRouter.Pools(nil, a1.Pools[spec.Name()])
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := base, quote
		if sortsBefore(quote, base) {
			lo, hi = quote, base
		}
		if pair.Token0 != lo || pair.Token1 != hi {
			t.Errorf("%s not registered in the router: %+v", spec.Name(), pair)
		}
	}
	// 1 USDC buys a little under 0.92 EURC (fee), 1 USDC a little under 1 USDT.
	out, _ := c.Pools["USDC/EURC"].Quote(nil, a1.USDC, Units(1))
	if out.Cmp(big.NewInt(919_000)) < 0 || out.Cmp(big.NewInt(920_000)) >= 0 {
		t.Errorf("USDC/EURC mid %v", out)
	}
	out, _ = c.Pools["USDC/USDT"].Quote(nil, a1.USDT, Units(1))
	if out.Cmp(big.NewInt(999_000)) < 0 || out.Cmp(big.NewInt(1_000_000)) >= 0 {
		t.Errorf("USDT/USDC mid %v", out)
	}
	if ok, _ := c.RfqEscrow.IsMaker(nil, maker); !ok {
		t.Errorf("maker not registered")
	}
	if w, _ := c.RfqEscrow.SettleWindow(nil); w != 60 {
		t.Errorf("settle window %d", w)
	}
	if p, _ := c.RelayRouter.Permit2(nil); p != CanonicalPermit2Address {
		t.Errorf("router permit2 %s", p)
	}
	if p, _ := c.RfqEscrow.Permit2(nil); p != CanonicalPermit2Address {
		t.Errorf("escrow permit2 %s", p)
	}
}

// Without an existing Permit2, DeployAll deploys one; its runtime code is exactly
// PermitRuntimeCode (what the genesis alloc places at the canonical address).
func TestDeployAllDeploysPermit2(t *testing.T) {
	sim, a := deployFresh(t, DeployConfig{}, false)
	deployer := addr(mustKey(t, 0xd0))
	if a.Permit2 != crypto.CreateAddress(deployer, 3) {
		t.Fatalf("Permit2 at %s", a.Permit2)
	}
	code, err := sim.Client().CodeAt(context.Background(), a.Permit2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(code, PermitRuntimeCode()) {
		t.Fatalf("deployed Permit2 code differs from PermitRuntimeCode()")
	}
	p2, _ := NewPermit2(a.Permit2, sim.Client())
	ds, _ := p2.DOMAINSEPARATOR(nil)
	td := permit2Domain(simChainID, a.Permit2)
	want := structHash(t, gaslessTypedData(simChainID, a.Permit2, a.RelayRouter, RelayRouterGaslessOrder{}), "EIP712Domain", td.Map())
	if ds != want {
		t.Fatalf("domain separator %x, want %x", ds, want)
	}
	if len(a.Pools) != 3 {
		t.Fatalf("pools %v", a.Pools)
	}
}

func TestDeployConfigValidation(t *testing.T) {
	bad := []DeployConfig{
		{Pools: []PoolSpec{{Base: USDC, Quote: USDC, BaseAmount: Units(1), QuoteAmount: Units(1)}}},
		{Pools: []PoolSpec{{Base: USDC, Quote: "DAI", BaseAmount: Units(1), QuoteAmount: Units(1)}}},
		{Pools: []PoolSpec{{Base: USDC, Quote: EURC, BaseAmount: Units(0), QuoteAmount: Units(1)}}},
		{Pools: []PoolSpec{
			{Base: USDC, Quote: EURC, BaseAmount: Units(1), QuoteAmount: Units(1)},
			{Base: EURC, Quote: USDC, BaseAmount: Units(1), QuoteAmount: Units(1)},
		}},
		{SettleWindow: 1500 * 1e6},
		{Makers: []common.Address{{}}},
	}
	for i, cfg := range bad {
		if err := cfg.withDefaults().validate(); err == nil {
			t.Errorf("config %d accepted", i)
		}
	}
	if err := (DeployConfig{}).withDefaults().validate(); err != nil {
		t.Errorf("default config rejected: %v", err)
	}
}
