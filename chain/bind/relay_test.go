package bind

import (
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// order builds a USDC -> EURC gasless order from the env's user, valid for 10 minutes.
func (e *env) order(amountIn, minOut *big.Int, recipient common.Address, nonce int64) RelayRouterGaslessOrder {
	return RelayRouterGaslessOrder{
		Signer:       addr(e.user),
		TokenIn:      e.addrs.USDC,
		TokenOut:     e.addrs.EURC,
		AmountIn:     amountIn,
		MinAmountOut: minOut,
		Recipient:    recipient,
		Pool:         e.addrs.Pools["USDC/EURC"],
		Deadline:     new(big.Int).SetUint64(e.now() + 600),
		Nonce:        big.NewInt(nonce),
	}
}

func (e *env) signOrder(k *ecdsaKey, o RelayRouterGaslessOrder) []byte {
	return sign(e.t, k, gaslessTypedData(simChainID, e.addrs.Permit2, e.addrs.RelayRouter, o))
}

func (e *env) quote(pool string, tokenIn common.Address, amountIn *big.Int) *big.Int {
	e.t.Helper()
	out, err := e.c.Pools[pool].Quote(nil, tokenIn, amountIn)
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}

func findLog[T any](t *testing.T, r *types.Receipt, parse func(types.Log) (*T, error)) *T {
	t.Helper()
	for _, l := range r.Logs {
		if ev, err := parse(*l); err == nil {
			return ev
		}
	}
	t.Fatalf("log not found in receipt")
	return nil
}

func TestRelayGaslessOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		payee bool // recipient is a third party (cross-currency payment) instead of the signer
	}{{"swap to signer", false}, {"payment to payee", true}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			user, relayer := addr(e.user), addr(e.relayer)
			recipient := user
			if tc.payee {
				recipient = addr(e.other)
			}
			amountIn := Units(1_000)
			expected := e.quote("USDC/EURC", e.addrs.USDC, amountIn)
			// ~0.92 EURC per USDC, less the 5 bps fee and the price impact.
			if expected.Cmp(Units(919)) < 0 || expected.Cmp(Units(920)) >= 0 {
				t.Fatalf("quote %v out of the expected range", expected)
			}
			o := e.order(amountIn, new(big.Int).Sub(expected, big.NewInt(1)), recipient, 1)
			sig := e.signOrder(e.user, o)

			poolAddr := e.addrs.Pools["USDC/EURC"]
			usdcUser, eurcRecipient := e.balance(USDC, user), e.balance(EURC, recipient)
			usdcPool, eurcPool := e.balance(USDC, poolAddr), e.balance(EURC, poolAddr)
			relayerEth, _ := e.client.BalanceAt(t.Context(), relayer, nil)
			userEth, _ := e.client.BalanceAt(t.Context(), user, nil)

			r := e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, sig))
			t.Logf("gas: RelayRouter.executeGaslessOrder = %d", r.GasUsed)

			// Exact balance movements.
			if d := new(big.Int).Sub(usdcUser, e.balance(USDC, user)); d.Cmp(amountIn) != 0 {
				t.Errorf("signer paid %v USDC, want %v", d, amountIn)
			}
			if d := new(big.Int).Sub(e.balance(EURC, recipient), eurcRecipient); d.Cmp(expected) != 0 {
				t.Errorf("recipient got %v EURC, want %v", d, expected)
			}
			if d := new(big.Int).Sub(e.balance(USDC, poolAddr), usdcPool); d.Cmp(amountIn) != 0 {
				t.Errorf("pool got %v USDC", d)
			}
			if d := new(big.Int).Sub(eurcPool, e.balance(EURC, poolAddr)); d.Cmp(expected) != 0 {
				t.Errorf("pool paid %v EURC", d)
			}
			for _, sym := range []string{USDC, USDT, EURC} {
				if b := e.balance(sym, e.addrs.RelayRouter); b.Sign() != 0 {
					t.Errorf("router holds %v %s", b, sym)
				}
				if b := e.balance(sym, relayer); b.Sign() != 0 {
					t.Errorf("relayer holds %v %s", b, sym)
				}
			}
			if tc.payee {
				if b := e.balance(EURC, user); b.Cmp(Units(1_000_000)) != 0 {
					t.Errorf("signer's EURC changed to %v", b)
				}
			}
			// Gas is paid by the relayer only.
			if b, _ := e.client.BalanceAt(t.Context(), user, nil); b.Cmp(userEth) != 0 {
				t.Errorf("signer paid gas")
			}
			if b, _ := e.client.BalanceAt(t.Context(), relayer, nil); b.Cmp(relayerEth) >= 0 {
				t.Errorf("relayer did not pay gas")
			}
			// Reserves track balances.
			res, _ := e.c.Pools["USDC/EURC"].GetReserves(nil)
			t0, _ := e.c.Pools["USDC/EURC"].Token0(nil)
			rUSDC, rEURC := res.Reserve0, res.Reserve1
			if t0 != e.addrs.USDC {
				rUSDC, rEURC = rEURC, rUSDC
			}
			if rUSDC.Cmp(e.balance(USDC, poolAddr)) != 0 || rEURC.Cmp(e.balance(EURC, poolAddr)) != 0 {
				t.Errorf("reserves %v/%v differ from balances", rUSDC, rEURC)
			}

			// The event carries every field; orderHash is the GaslessOrder struct hash.
			ev := findLog(t, r, e.c.RelayRouter.ParseGaslessOrderExecuted)
			td := gaslessTypedData(simChainID, e.addrs.Permit2, e.addrs.RelayRouter, o)
			wantHash := structHash(t, td, "GaslessOrder", gaslessMessage(o))
			if ev.OrderHash != wantHash {
				t.Errorf("orderHash %x, want %x", ev.OrderHash, wantHash)
			}
			if onchain, _ := e.c.RelayRouter.HashGaslessOrder(nil, o); onchain != wantHash {
				t.Errorf("hashGaslessOrder %x, want %x", onchain, wantHash)
			}
			if ev.Signer != user || ev.TokenIn != o.TokenIn || ev.TokenOut != o.TokenOut || ev.AmountIn.Cmp(amountIn) != 0 ||
				ev.AmountOut.Cmp(expected) != 0 || ev.Recipient != recipient || ev.Nonce.Cmp(o.Nonce) != 0 {
				t.Errorf("bad event %+v", ev)
			}
			sw := findLog(t, r, e.c.Pools["USDC/EURC"].ParseSwap)
			if sw.Sender != e.addrs.RelayRouter || sw.TokenIn != o.TokenIn || sw.TokenOut != o.TokenOut ||
				sw.AmountIn.Cmp(amountIn) != 0 || sw.AmountOut.Cmp(expected) != 0 || sw.Recipient != recipient {
				t.Errorf("bad Swap event %+v", sw)
			}

			// Replaying the very same signed order fails on the Permit2 nonce.
			_, err := e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, sig)
			requireRevert(t, err, "InvalidNonce")
		})
	}
}

func TestRelayGaslessOrderReverts(t *testing.T) {
	e := newEnv(t)
	user := addr(e.user)
	amountIn := Units(500)
	fair := e.quote("USDC/EURC", e.addrs.USDC, amountIn)
	minOut := new(big.Int).Mul(fair, big.NewInt(99))
	minOut.Div(minOut, big.NewInt(100))
	relay := func(o RelayRouterGaslessOrder, sig []byte) error {
		_, err := e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, sig)
		return err
	}

	t.Run("signed by another key", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 10)
		requireRevert(t, relay(o, e.signOrder(e.other, o)), "InvalidSigner")
	})
	t.Run("garbage signatures", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 11)
		sig := e.signOrder(e.user, o)
		requireRevert(t, relay(o, sig[:64+1-2]), "InvalidSignatureLength")
		requireRevert(t, relay(o, malleate(sig)), "InvalidSignatureS")
		zero := make([]byte, 65)
		zero[64] = 27
		requireRevert(t, relay(o, zero), "InvalidSignature")
		// The compact encoding of the genuine signature is accepted.
		e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, compact(sig)))
	})
	t.Run("signature for another spender", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 12)
		// The same order signed with spender = the escrow (or any other contract).
		sig := sign(t, e.user, gaslessTypedData(simChainID, e.addrs.Permit2, e.addrs.RfqEscrow, o))
		requireRevert(t, relay(o, sig), "InvalidSigner")
	})
	t.Run("signature for another chain or Permit2", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 13)
		sig := sign(t, e.user, gaslessTypedData(big.NewInt(1), e.addrs.Permit2, e.addrs.RelayRouter, o))
		requireRevert(t, relay(o, sig), "InvalidSigner")
		sig = sign(t, e.user, gaslessTypedData(simChainID, e.addrs.RfqEscrow, e.addrs.RelayRouter, o))
		requireRevert(t, relay(o, sig), "InvalidSigner")
	})
	t.Run("tampered field", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 14)
		sig := e.signOrder(e.user, o)
		plus := func(x *big.Int, d int64) *big.Int { return new(big.Int).Add(x, big.NewInt(d)) }
		cases := []struct {
			field  string
			mutate func(*RelayRouterGaslessOrder)
			want   string
		}{
			{"signer", func(o *RelayRouterGaslessOrder) { o.Signer = addr(e.other) }, "InvalidSigner"},
			{"tokenIn", func(o *RelayRouterGaslessOrder) { o.TokenIn, o.TokenOut = o.TokenOut, o.TokenIn }, "InvalidSigner"},
			{"tokenOut", func(o *RelayRouterGaslessOrder) { o.TokenOut = e.addrs.USDT }, "PoolPairMismatch"},
			{"amountIn", func(o *RelayRouterGaslessOrder) { o.AmountIn = plus(o.AmountIn, 1) }, "InvalidSigner"},
			{"minAmountOut", func(o *RelayRouterGaslessOrder) { o.MinAmountOut = plus(o.MinAmountOut, -1) }, "InvalidSigner"},
			{"recipient", func(o *RelayRouterGaslessOrder) { o.Recipient = addr(e.relayer) }, "InvalidSigner"},
			{"pool", func(o *RelayRouterGaslessOrder) { o.Pool = e.addrs.Pools["USDC/USDT"]; o.TokenOut = e.addrs.USDT }, "InvalidSigner"},
			{"deadline", func(o *RelayRouterGaslessOrder) { o.Deadline = plus(o.Deadline, 1) }, "InvalidSigner"},
			{"nonce", func(o *RelayRouterGaslessOrder) { o.Nonce = plus(o.Nonce, 1) }, "InvalidSigner"},
		}
		for _, c := range cases {
			m := o
			c.mutate(&m)
			if err := relay(m, sig); revertName(err) != c.want {
				t.Errorf("%s: got %q (%v), want %s", c.field, revertName(err), err, c.want)
			}
		}
		// The untampered order still goes through.
		e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, sig))
	})
	t.Run("reused nonce", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 15)
		e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, e.signOrder(e.user, o)))
		// A different order under the same nonce.
		o2 := e.order(Units(7), big.NewInt(1), user, 15)
		requireRevert(t, relay(o2, e.signOrder(e.user, o2)), "InvalidNonce")
		// The same nonce cancelled up front through Permit2.
		o3 := e.order(amountIn, minOut, user, 16)
		sig3 := e.signOrder(e.user, o3)
		e.mine(e.c.Permit2.InvalidateUnorderedNonces(e.auth(e.user), big.NewInt(0), big.NewInt(1<<16)))
		requireRevert(t, relay(o3, sig3), "InvalidNonce")
	})
	t.Run("expired deadline", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 17)
		o.Deadline = new(big.Int).SetUint64(e.now() - 1)
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "OrderExpired")
		// Valid when signed, expired when relayed.
		o = e.order(amountIn, minOut, user, 18)
		o.Deadline = new(big.Int).SetUint64(e.now() + 30)
		sig := e.signOrder(e.user, o)
		e.advance(31 * time.Second)
		requireRevert(t, relay(o, sig), "OrderExpired")
	})
	t.Run("minAmountOut not met", func(t *testing.T) {
		q := e.quote("USDC/EURC", e.addrs.USDC, amountIn)
		o := e.order(amountIn, new(big.Int).Add(q, big.NewInt(1)), user, 19)
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "InsufficientOutput")
		// Exactly the quote is fine.
		o = e.order(amountIn, q, user, 20)
		e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, e.signOrder(e.user, o)))
	})
	t.Run("pool not registered or wrong pair", func(t *testing.T) {
		o := e.order(amountIn, minOut, user, 21)
		o.Pool = addr(e.other)
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "PoolNotRegistered")
		o = e.order(amountIn, minOut, user, 22)
		o.Pool = e.addrs.Pools["USDT/EURC"]
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "PoolPairMismatch")
		o = e.order(amountIn, minOut, user, 23)
		o.TokenOut = o.TokenIn
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "PoolPairMismatch")
		// Deregistered pools stop working.
		o = e.order(amountIn, minOut, user, 24)
		sig := e.signOrder(e.user, o)
		_, err := e.c.RelayRouter.DeregisterPool(e.auth(e.other), o.Pool)
		requireRevert(t, err, "NotOwner")
		e.mine(e.c.RelayRouter.DeregisterPool(e.auth(e.deployer), o.Pool))
		requireRevert(t, relay(o, sig), "PoolNotRegistered")
		e.mine(e.c.RelayRouter.RegisterPool(e.auth(e.deployer), o.Pool))
		e.mine(e.c.RelayRouter.ExecuteGaslessOrder(e.auth(e.relayer), o, sig))
	})
	t.Run("zero amount", func(t *testing.T) {
		o := e.order(big.NewInt(0), big.NewInt(0), user, 25)
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "ZeroAmount")
	})
	t.Run("insufficient balance", func(t *testing.T) {
		o := e.order(Units(2_000_000), big.NewInt(1), user, 26)
		requireRevert(t, relay(o, e.signOrder(e.user, o)), "InsufficientBalance")
	})
}

func TestPoolDirect(t *testing.T) {
	e := newEnv(t)
	user := addr(e.user)
	pool := e.c.Pools["USDC/USDT"]
	poolAddr := e.addrs.Pools["USDC/USDT"]

	if fee, _ := pool.FeeBps(nil); fee.Int64() != DefaultPoolFeeBps {
		t.Fatalf("fee %v", fee)
	}
	res, _ := pool.GetReserves(nil)
	if res.Reserve0.Cmp(Units(10_000_000)) != 0 || res.Reserve1.Cmp(Units(10_000_000)) != 0 {
		t.Fatalf("seed reserves %v/%v", res.Reserve0, res.Reserve1)
	}
	k0 := new(big.Int).Mul(res.Reserve0, res.Reserve1)

	// The constant-product formula, fee on the input, rounded down.
	in := Units(10_000)
	want := new(big.Int).Mul(in, big.NewInt(10_000-DefaultPoolFeeBps))
	want.Mul(want, Units(10_000_000))
	want.Div(want, new(big.Int).Add(new(big.Int).Mul(Units(10_000_000), big.NewInt(10_000)), new(big.Int).Mul(in, big.NewInt(10_000-DefaultPoolFeeBps))))
	if q := e.quote("USDC/USDT", e.addrs.USDT, in); q.Cmp(want) != 0 {
		t.Fatalf("quote %v, want %v", q, want)
	}

	// Pull-style swap needs an allowance for the pool.
	_, err := pool.Swap(e.auth(e.user), e.addrs.USDT, in, big.NewInt(0), user)
	requireRevert(t, err, "InsufficientAllowance")
	e.mine(e.c.Tokens[USDT].Approve(e.auth(e.user), poolAddr, maxUint256))
	_, err = pool.Swap(e.auth(e.user), e.addrs.USDT, in, new(big.Int).Add(want, big.NewInt(1)), user)
	requireRevert(t, err, "InsufficientOutput")
	_, err = pool.Swap(e.auth(e.user), e.addrs.EURC, in, big.NewInt(0), user)
	requireRevert(t, err, "InvalidToken")
	_, err = pool.Swap(e.auth(e.user), e.addrs.USDT, in, big.NewInt(0), poolAddr)
	requireRevert(t, err, "InvalidRecipient")
	usdc0 := e.balance(USDC, user)
	e.mine(pool.Swap(e.auth(e.user), e.addrs.USDT, in, want, user))
	if d := new(big.Int).Sub(e.balance(USDC, user), usdc0); d.Cmp(want) != 0 {
		t.Fatalf("got %v USDC, want %v", d, want)
	}
	res, _ = pool.GetReserves(nil)
	if k1 := new(big.Int).Mul(res.Reserve0, res.Reserve1); k1.Cmp(k0) <= 0 {
		t.Fatalf("k decreased: %v -> %v", k0, k1)
	}

	// Pay-first swap with nothing paid in.
	_, err = pool.SwapExactIn(e.auth(e.user), e.addrs.USDC, big.NewInt(0), user)
	requireRevert(t, err, "InsufficientInput")

	// Owner-only liquidity management.
	_, err = pool.AddLiquidity(e.auth(e.user), big.NewInt(1), big.NewInt(1))
	requireRevert(t, err, "NotOwner")
	_, err = pool.RemoveLiquidity(e.auth(e.user), big.NewInt(1), big.NewInt(1), user)
	requireRevert(t, err, "NotOwner")
	_, err = pool.RemoveLiquidity(e.auth(e.deployer), new(big.Int).Add(res.Reserve0, big.NewInt(1)), big.NewInt(0), user)
	requireRevert(t, err, "InsufficientLiquidity")
	e.mine(pool.RemoveLiquidity(e.auth(e.deployer), Units(1), Units(1), addr(e.deployer)))

	// Constructor validation.
	_, _, _, err = DeployPool(e.auth(e.deployer), e.client, e.addrs.USDC, e.addrs.USDC, big.NewInt(5))
	requireRevert(t, err, "InvalidPair")
	_, _, _, err = DeployPool(e.auth(e.deployer), e.client, e.addrs.USDC, e.addrs.EURC, big.NewInt(1001))
	requireRevert(t, err, "InvalidFee")
}
