package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/pay"
)

// makerSpreadBps is each embedded maker's spread below the pool mid: the
// first is tightest, so quotes differ and best_quote_id means something.
func makerSpreadBps(i int) uint64 { return 3 + 5*uint64(i) }

func checkFXFlags(f serveFlags) error {
	if f.makerFault != string(maker.FaultNone) && f.makerFault != string(maker.FaultSkipSettle) {
		return fmt.Errorf("serve: --maker-fault must be none or skip-settle, not %q", f.makerFault)
	}
	// As short as 1 s: the flag exists so that tests reach expired
	// quickly (CONTRACT.md); whole seconds, as the signed deadline is.
	if f.orderDeadline < time.Second || f.orderDeadline%time.Second != 0 || f.orderDeadline > time.Hour {
		return fmt.Errorf("serve: --order-deadline must be whole seconds from 1s to 1h, not %s", f.orderDeadline)
	}
	if f.settleTimeout < time.Second || f.settleTimeout%time.Second != 0 || f.settleTimeout > 24*time.Hour {
		return fmt.Errorf("serve: --rfq-settle-timeout must be whole seconds from 1s to 24h, not %s", f.settleTimeout)
	}
	return nil
}

// openDesk builds the FX and payments desks: pool state, the makers (each
// an actor with its own key and inventory), the legs relayed by relayer
// (the gas-only key's: the Relayer itself on a single node, the cluster's
// relay client on a node), and the escrow's settle window set to
// --rfq-settle-timeout. The desks' hooks are added to the engine, which
// must not have recovered yet.
func openDesk(ctx context.Context, f serveFlags, e *actors.Engine, ch *connect.Chain, relayer relay.Sender, logger *slog.Logger) (*fx.Desk, *pay.Desk, func(), error) {
	pools, err := fx.LoadPools(ctx, ch.Client, ch.Contracts.Pools)
	if err != nil {
		return nil, nil, nil, err
	}
	system := actors.NewSystem(logger)
	var tokens []common.Address
	for _, c := range domain.Currencies {
		if a, ok := ch.Contracts.Token(c.Symbol); ok {
			tokens = append(tokens, a)
		}
	}
	// Makers start at once: on a fresh chain each waits for its escrow
	// approvals to be mined.
	makers := make([]maker.Maker, len(ch.Makers))
	errs := make([]error, len(ch.Makers))
	var wg sync.WaitGroup
	for i, key := range ch.Makers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			makers[i], errs[i] = maker.Start(ctx, system, maker.Config{
				Name: fmt.Sprintf("maker%d", i+1), Key: key, Backend: ch.Client, ChainID: ch.ChainID,
				Escrow: ch.Contracts.RfqEscrow, Tokens: tokens, SpreadBps: makerSpreadBps(i), Price: pools.Mid,
				Fault: maker.Fault(f.makerFault), Logger: logger,
			})
		}()
	}
	wg.Wait()
	stop := func() {
		for _, m := range makers {
			if l, ok := m.(*maker.Local); ok {
				l.Stop()
			}
		}
		system.Shutdown()
	}
	if err := errors.Join(errs...); err != nil {
		stop()
		return nil, nil, nil, fmt.Errorf("serve: makers: %w", err)
	}
	leg := &gasless.Leg{Domain: eip712.Domain{ChainID: ch.ChainID, Permit2: ch.Contracts.Permit2}, Router: ch.Contracts.RelayRouter,
		Chain: ch.Client, Relayer: relayer, Logger: logger}
	desk := fx.New(fx.Config{
		Engine: e, Chain: ch, Pools: pools, Makers: makers, Relayer: relayer, Leg: leg,
		OrderDeadline: f.orderDeadline, SettleTimeout: f.settleTimeout, Logger: logger,
	})
	if err := desk.EnsureSettleWindow(ctx); err != nil {
		stop()
		return nil, nil, nil, err
	}
	bySymbol := map[string]common.Address{}
	for _, c := range domain.Currencies {
		if a, ok := ch.Contracts.Token(c.Symbol); ok {
			bySymbol[c.Symbol] = a
		}
	}
	payDesk := pay.New(pay.Config{Engine: e, Chain: ch.Client, ChainID: ch.ChainID, Tokens: bySymbol, Leg: leg, Pools: pools,
		Factory: ch.Contracts.PaymentLinkFactory, AcceptDeadline: f.orderDeadline, Logger: logger})
	desk.AddHooks(e)
	payDesk.AddHooks(e)
	return desk, payDesk, stop, nil
}
