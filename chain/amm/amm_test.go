package amm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/simtest"
)

// env is a simulated chain with the contract set deployed (chain/simtest).
type env struct {
	*simtest.Chain
	t        *testing.T
	addrs    *fxbind.Addresses
	c        *fxbind.Contracts
	deployer *ecdsa.PrivateKey
	user     *ecdsa.PrivateKey
}

func newEnv(t *testing.T, feeBps uint64) *env {
	t.Helper()
	e := &env{t: t, deployer: simtest.Key(t, 0xd0), user: simtest.Key(t, 0x11)}
	e.Chain = simtest.New(t, e.deployer, e.user)
	e.addrs, e.c = e.Deploy(e.deployer, fxbind.DeployConfig{PoolFeeBps: feeBps})
	return e
}

func addr(k *ecdsa.PrivateKey) common.Address { return simtest.Addr(k) }

func (e *env) auth(k *ecdsa.PrivateKey) *bind.TransactOpts { return e.Auth(k) }

func (e *env) mine(tx *types.Transaction, err error) *types.Receipt { return e.Mine(tx, err) }

// randAmount draws amounts across every scale, including ones that make the
// contract's checked arithmetic overflow.
func randAmount(rng *rand.Rand) *big.Int {
	switch rng.IntN(8) {
	case 0:
		return big.NewInt(rng.Int64N(1000)) // dust, including 0
	case 1, 2:
		return big.NewInt(rng.Int64N(10_000_000_000)) // up to 10k tokens
	case 3:
		return new(big.Int).Mul(big.NewInt(rng.Int64N(1e18)), big.NewInt(rng.Int64N(1e6)+1)) // far above reserves
	case 4:
		buf := make([]byte, 1+rng.IntN(32))
		for i := range buf {
			buf[i] = byte(rng.Uint32())
		}
		return new(big.Int).SetBytes(buf)
	case 5: // around the inWithFee·reserveOut overflow boundary
		b := new(big.Int).Div(maxUint256, big.NewInt(int64(rng.IntN(1e6)+1)*1e13))
		return b.Add(b, big.NewInt(rng.Int64N(3)-1))
	case 6:
		return new(big.Int).Sub(maxUint256, big.NewInt(rng.Int64N(3)))
	default:
		return big.NewInt(1 + rng.Int64N(1_000_000))
	}
}

// checkQuotes compares AmountOut with Pool.quote for n random amounts both
// ways; it counts the contract's reverts and non-zero quotes into st.
func checkQuotes(t *testing.T, pool *fxbind.Pool, r Reserves, rng *rand.Rand, n int, st *stats) {
	t.Helper()
	for i := 0; i < n; i++ {
		amt := randAmount(rng)
		for _, tok := range []common.Address{r.Token0, r.Token1} {
			want, cerr := pool.Quote(nil, tok, amt)
			got, err := r.AmountOut(tok, amt)
			switch {
			case cerr != nil && err == nil:
				t.Fatalf("quote(%s, %s): contract reverted (%v), AmountOut = %s", tok.Hex(), amt, cerr, got)
			case cerr == nil && err != nil:
				t.Fatalf("quote(%s, %s) = %s, AmountOut error %v", tok.Hex(), amt, want, err)
			case cerr == nil && got.Cmp(want) != 0:
				t.Fatalf("quote(%s, %s) = %s, AmountOut = %s", tok.Hex(), amt, want, got)
			case cerr != nil:
				st.reverts++
			case want.Sign() > 0:
				st.nonzero++
			}
		}
	}
}

type stats struct{ reverts, nonzero int }

func TestAmountOutMatchesPool(t *testing.T) {
	for _, fee := range []uint64{5, 1000} {
		t.Run("fee"+new(big.Int).SetUint64(fee).String(), func(t *testing.T) {
			e := newEnv(t, fee)
			rng := rand.New(rand.NewPCG(42, fee))
			ctx := context.Background()
			poolAddr := e.addrs.Pools["USDC/EURC"]
			pool := e.c.Pools["USDC/EURC"]

			r, err := Read(ctx, e.Client, poolAddr)
			if err != nil {
				t.Fatal(err)
			}
			if r.FeeBps != fee || r.Token0 == r.Token1 {
				t.Fatalf("bad read %+v", r)
			}
			want0, want1 := e.addrs.USDC, e.addrs.EURC
			if new(big.Int).SetBytes(want1[:]).Cmp(new(big.Int).SetBytes(want0[:])) < 0 {
				want0, want1 = want1, want0
			}
			if r.Token0 != want0 || r.Token1 != want1 {
				t.Fatalf("tokens %s %s, want %s %s", r.Token0.Hex(), r.Token1.Hex(), want0.Hex(), want1.Hex())
			}
			usdcRes := r.Reserve0
			if r.Token0 != e.addrs.USDC {
				usdcRes = r.Reserve1
			}
			if usdcRes.Cmp(fxbind.Units(10_000_000)) != 0 {
				t.Fatalf("USDC reserve %s", usdcRes)
			}
			mid, err := r.Mid(e.addrs.USDC)
			if err != nil || FormatRate(mid, 6) != "0.920000" {
				t.Fatalf("mid USDC->EURC %v %v", mid, err)
			}
			var st stats
			checkQuotes(t, pool, r, rng, 150, &st)

			// Unknown token: both refuse.
			if _, err := pool.Quote(nil, e.addrs.USDT, big.NewInt(1)); err == nil {
				t.Fatal("contract quoted a token outside the pair")
			}
			if _, err := r.AmountOut(e.addrs.USDT, big.NewInt(1)); !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("AmountOut outside pair: %v", err)
			}

			// Swaps move the reserves; the mirror must follow exactly.
			user := addr(e.user)
			for _, sym := range []string{fxbind.USDC, fxbind.EURC} {
				e.mine(e.c.Tokens[sym].Mint(e.auth(e.deployer), user, fxbind.Units(5_000_000)))
				e.mine(e.c.Tokens[sym].Approve(e.auth(e.user), poolAddr, maxUint256))
			}
			for i := 0; i < 8; i++ {
				tokIn := e.addrs.USDC
				if i%2 == 1 {
					tokIn = e.addrs.EURC
				}
				amt := big.NewInt(1 + rng.Int64N(2_000_000_000_000)) // up to 2M tokens
				next, predicted, err := r.Apply(tokIn, amt)
				if err != nil {
					t.Fatal(err)
				}
				rc := e.mine(pool.Swap(e.auth(e.user), tokIn, amt, predicted, user))
				var swapped *big.Int
				for _, l := range rc.Logs {
					if ev, err := pool.ParseSwap(*l); err == nil {
						swapped = ev.AmountOut
					}
				}
				if swapped == nil || swapped.Cmp(predicted) != 0 {
					t.Fatalf("swap %d paid %v, predicted %s", i, swapped, predicted)
				}
				if r, err = Read(ctx, e.Client, poolAddr); err != nil {
					t.Fatal(err)
				}
				if r.Reserve0.Cmp(next.Reserve0) != 0 || r.Reserve1.Cmp(next.Reserve1) != 0 {
					t.Fatalf("after swap %d reserves %s/%s, Apply predicted %s/%s", i, r.Reserve0, r.Reserve1, next.Reserve0, next.Reserve1)
				}
				checkQuotes(t, pool, r, rng, 25, &st)
			}
			t.Logf("%d quotes compared: %d reverted on both sides, %d non-zero", 2*(150+8*25), st.reverts, st.nonzero)
			if st.reverts == 0 || st.nonzero < 100 {
				t.Fatalf("random amounts did not cover overflow and normal cases: %+v", st)
			}
		})
	}
}

func TestAmountOutEdges(t *testing.T) {
	a, b := common.HexToAddress("0x01"), common.HexToAddress("0x02")
	r := Reserves{Token0: a, Token1: b, Reserve0: big.NewInt(1_000_000), Reserve1: big.NewInt(920_000), FeeBps: 5}
	// 1000·9995·920000 / (1000000·10000 + 1000·9995) = 918.62… → 918
	if got, err := r.AmountOut(a, big.NewInt(1000)); err != nil || got.Int64() != 918 {
		t.Fatalf("AmountOut = %v, %v", got, err)
	}
	if got, _ := r.AmountOut(a, big.NewInt(0)); got.Sign() != 0 {
		t.Fatalf("zero in: %v", got)
	}
	if _, err := r.AmountOut(a, big.NewInt(-1)); !errors.Is(err, ErrInvalidAmount) {
		t.Fatalf("negative: %v", err)
	}
	if _, err := r.AmountOut(a, nil); !errors.Is(err, ErrInvalidAmount) {
		t.Fatalf("nil: %v", err)
	}
	if _, err := r.AmountOut(a, maxUint256); !errors.Is(err, ErrOverflow) {
		t.Fatalf("max: %v", err)
	}
	empty := r
	empty.Reserve1 = new(big.Int)
	if got, err := empty.AmountOut(a, big.NewInt(5)); err != nil || got.Sign() != 0 {
		t.Fatalf("empty: %v %v", got, err)
	}
	if _, err := empty.Mid(a); !errors.Is(err, ErrEmptyPool) {
		t.Fatalf("empty mid: %v", err)
	}
	bad := r
	bad.FeeBps = BPS + 1
	if _, err := bad.AmountOut(a, big.NewInt(5)); !errors.Is(err, ErrInvalidFee) {
		t.Fatalf("fee: %v", err)
	}
	m, err := r.Mid(b)
	if err != nil || m.Cmp(big.NewRat(25, 23)) != 0 {
		t.Fatalf("mid b = %v, %v", m, err)
	}
}

func TestMinAmountOut(t *testing.T) {
	for _, c := range []struct {
		out  int64
		bps  uint64
		want int64
	}{{1_000_000, 50, 995_000}, {999, 50, 994}, {1, 50, 0}, {123, 0, 123}, {123, 10_000, 0}} {
		got, err := MinAmountOut(big.NewInt(c.out), c.bps)
		if err != nil || got.Int64() != c.want {
			t.Errorf("MinAmountOut(%d, %d) = %v, %v; want %d", c.out, c.bps, got, err, c.want)
		}
	}
	if _, err := MinAmountOut(big.NewInt(1), 10_001); !errors.Is(err, ErrInvalidSlippage) {
		t.Errorf("slippage: %v", err)
	}
	if _, err := MinAmountOut(big.NewInt(-1), 1); !errors.Is(err, ErrInvalidAmount) {
		t.Errorf("negative: %v", err)
	}
}

func TestFormatRate(t *testing.T) {
	for _, c := range []struct {
		rat  *big.Rat
		dec  int
		want string
	}{
		{big.NewRat(23, 25), 6, "0.920000"},
		{big.NewRat(2, 3), 6, "0.666666"},
		{big.NewRat(25, 23), 6, "1.086956"},
		{big.NewRat(1, 1), 6, "1.000000"},
		{big.NewRat(123456789, 1000), 2, "123456.78"},
		{big.NewRat(1, 10_000_000), 6, "0.000000"},
		{big.NewRat(7, 2), 0, "3"},
		{big.NewRat(-1, 3), 2, "-0.34"},
		{nil, 3, "0.000"},
		{new(big.Rat).SetFrac(mustBig("9200000000000"), mustBig("10000000000000")), 6, "0.920000"},
	} {
		if got := FormatRate(c.rat, c.dec); got != c.want {
			t.Errorf("FormatRate(%v, %d) = %q, want %q", c.rat, c.dec, got, c.want)
		}
	}
}

func mustBig(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return b
}

// referenceAmountOut is the contract's quote written out step by step,
// with its checked arithmetic: what AmountOut and Side must answer.
func referenceAmountOut(r Reserves, tokenIn common.Address, amountIn *big.Int) (*big.Int, error) {
	reserveIn, reserveOut, _, err := r.Sides(tokenIn)
	switch {
	case err != nil:
		return nil, err
	case !isUint256(amountIn) || !isUint256(reserveIn) || !isUint256(reserveOut):
		return nil, ErrInvalidAmount
	case r.FeeBps > BPS:
		return nil, ErrInvalidFee
	case reserveIn.Sign() == 0 || reserveOut.Sign() == 0:
		return new(big.Int), nil
	}
	over := func(v *big.Int) bool { return v.BitLen() > 256 }
	inWithFee := new(big.Int).Mul(amountIn, new(big.Int).SetUint64(BPS-r.FeeBps))
	num := new(big.Int).Mul(inWithFee, reserveOut)
	scaled := new(big.Int).Mul(reserveIn, big.NewInt(BPS))
	den := new(big.Int).Add(scaled, inWithFee)
	if over(inWithFee) || over(num) || over(scaled) || over(den) {
		return nil, ErrOverflow
	}
	return num.Quo(num, den), nil
}

// TestSideIsAmountOut: a Side prepared once answers every amount, value
// and error alike, as the contract's formula does (and so does
// Reserves.AmountOut).
func TestSideIsAmountOut(t *testing.T) {
	a, b := common.HexToAddress("0x01"), common.HexToAddress("0x02")
	ok := Reserves{Token0: a, Token1: b, Reserve0: big.NewInt(10_000_000_000_000), Reserve1: big.NewInt(9_200_000_000_000), FeeBps: 5}
	huge := ok
	huge.Reserve0 = new(big.Int).Sub(maxUint256, big.NewInt(7)) // reserveIn·BPS overflows
	emptyIn := ok
	emptyIn.Reserve0 = new(big.Int)
	negative := ok
	negative.Reserve1 = big.NewInt(-1)
	badFee := ok
	badFee.FeeBps = BPS + 1
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		name string
		r    Reserves
	}{{"normal", ok}, {"huge reserve", huge}, {"empty reserve", emptyIn}, {"negative reserve", negative}, {"fee above BPS", badFee}} {
		t.Run(c.name, func(t *testing.T) {
			for _, tok := range []common.Address{a, b} {
				s, err := c.r.Side(tok)
				if err != nil {
					t.Fatal(err)
				}
				amounts := []*big.Int{nil, big.NewInt(-1), big.NewInt(0), big.NewInt(1), maxUint256}
				for range 300 {
					amounts = append(amounts, randAmount(rng))
				}
				for _, amt := range amounts {
					want, werr := referenceAmountOut(c.r, tok, amt)
					got, gerr := s.AmountOut(amt)
					if !errors.Is(gerr, werr) || (werr == nil) != (gerr == nil) || werr == nil && got.Cmp(want) != 0 {
						t.Fatalf("%s in %v: Side %v, %v; formula %v, %v", tok.Hex(), amt, got, gerr, want, werr)
					}
					again, aerr := c.r.AmountOut(tok, amt)
					if !errors.Is(aerr, werr) || werr == nil && again.Cmp(want) != 0 {
						t.Fatalf("%s in %v: AmountOut %v, %v; formula %v, %v", tok.Hex(), amt, again, aerr, want, werr)
					}
				}
			}
			if _, err := c.r.Side(common.HexToAddress("0x03")); !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("outside the pair: %v", err)
			}
		})
	}
}
