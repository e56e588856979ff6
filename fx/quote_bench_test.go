package fx

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/simtest"
	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/fxd-labs/fxd/domain"
)

// quoteEnv is a desk as fxd serve builds it, on a simulated chain: the
// deployed contract set, pools read from it, two embedded makers (each
// an actor with its key and inventory) priced by the pools, and a real
// engine holding one account with a registered wallet.
type quoteEnv struct {
	desk   *Desk
	acct   string
	wallet common.Address
	makers []maker.Maker
	addrs  *fxbind.Addresses
	chain  *simtest.Chain
}

func newQuoteEnv(tb testing.TB) *quoteEnv {
	tb.Helper()
	deployer, m1, m2, user := simtest.Key(tb, 0xd0), simtest.Key(tb, 0x21), simtest.Key(tb, 0x22), simtest.Key(tb, 0x11)
	c := simtest.New(tb, deployer, m1, m2, user)
	addrs, _ := c.Deploy(deployer, fxbind.DeployConfig{
		Makers: []common.Address{simtest.Addr(m1), simtest.Addr(m2)}, MakerInventory: fxbind.Units(5_000_000),
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pools, err := LoadPools(ctx, c.Client, addrs.Pools)
	require.NoError(tb, err)
	quiet := slog.New(slog.DiscardHandler)
	system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	tb.Cleanup(system.Shutdown)
	makers := startMakers(tb, c, addrs, system, pools)

	e, err := actors.Open(actors.Config{DataDir: tb.TempDir(), Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(tb, err)
	require.NoError(tb, e.Recover())
	tb.Cleanup(func() { _ = e.Close() })
	acct, wallet := accountWithWallet(tb, e)
	d := New(Config{Engine: e, Chain: &connect.Chain{ChainID: simtest.ChainID, Contracts: addrs}, Pools: pools, Makers: makers, Logger: quiet})
	return &quoteEnv{desk: d, acct: acct, wallet: wallet, makers: makers, addrs: addrs, chain: c}
}

// startMakers starts two makers as fxd serve does, mining blocks while
// their escrow approvals wait to be mined.
func startMakers(tb testing.TB, c *simtest.Chain, addrs *fxbind.Addresses, system *actor.ActorSystem, pools *Pools) []maker.Maker {
	tb.Helper()
	quit, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(20 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tk.C:
				c.Commit()
			}
		}
	}()
	defer func() { close(quit); <-done }()
	keys := []byte{0x21, 0x22}
	makers := make([]maker.Maker, len(keys))
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			makers[i], errs[i] = maker.Start(context.Background(), system, maker.Config{
				Name: []string{"maker1", "maker2"}[i], Key: simtest.Key(tb, k), Backend: c.Client, ChainID: simtest.ChainID,
				Escrow: addrs.RfqEscrow, Tokens: []common.Address{addrs.USDC, addrs.USDT, addrs.EURC},
				SpreadBps: uint64(3 + 2*i), Price: pools.Mid, Logger: slog.New(slog.DiscardHandler),
			})
		}()
	}
	wg.Wait()
	for i := range makers {
		require.NoError(tb, errs[i])
		if l, ok := makers[i].(*maker.Local); ok {
			tb.Cleanup(l.Stop)
		}
	}
	return makers
}

// accountWithWallet creates an account permitted to swap and links a
// wallet to it (the SIWE signature is the host's to check, so the test
// names the signer).
func accountWithWallet(tb testing.TB, e *actors.Engine) (string, common.Address) {
	tb.Helper()
	ctx := context.Background()
	out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: "bench", KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(tb, err)
	var a struct{ ID string }
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &a))
	wallet := simtest.Addr(simtest.Key(tb, 0x11))
	out, err = e.Exec(ctx, a.ID, domain.Request{Cmd: domain.CreateChallenge{Address: wallet.Hex(), Domain: "127.0.0.1", URI: "http://127.0.0.1/public/v1", ChainID: 1337}})
	require.NoError(tb, err)
	var ch domain.ChallengeView
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &ch))
	parsed, perr := siwe.Parse(ch.Message)
	require.NoError(tb, perr)
	out, err = e.Exec(ctx, a.ID, domain.Request{Cmd: domain.RegisterWallet{Message: ch.Message, Parsed: parsed, Signer: wallet.Hex()}})
	require.NoError(tb, err)
	require.Equal(tb, 201, out.Reply.Status, string(out.Reply.Body))
	return a.ID, wallet
}

// BenchmarkQuote is the desk's quote build for POST /fx/quotes (the AMM
// and both makers, into the book) and its answer's encoding: the quote
// path's own work, without HTTP, auth or the network.
func BenchmarkQuote(b *testing.B) {
	env := newQuoteEnv(b)
	req := QuoteRequest{FromCurrency: "USDC", ToCurrency: "EURC", Amount: "100"}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		// A live book holds the quotes of their validity window (a few
		// seconds of traffic) and the desk sweeps it; a benchmark makes
		// quotes far faster and would fill it (503 at 1,000,000): empty it
		// now and then, off the clock.
		if n++; n%100_000 == 0 {
			b.StopTimer()
			env.desk.book.sweep(time.Now().Add(24 * time.Hour))
			b.StartTimer()
		}
		out, err := env.desk.Quote(ctx, env.acct, req)
		if err != nil {
			b.Fatal(err)
		}
		if len(out.Quotes) != 3 {
			b.Fatalf("%d quotes", len(out.Quotes))
		}
		if body := out.AppendJSON(nil); len(body) == 0 {
			b.Fatal("empty answer")
		}
	}
}
