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

// startMakers starts the embedded market makers of ch's maker keys (each
// an actor with its own key and inventory, priced off pools) and returns
// them with their stop. On a fresh chain each waits for its escrow
// approvals to be mined; they start at once.
func startMakers(ctx context.Context, f serveFlags, ch *connect.Chain, pools *fx.Pools, logger *slog.Logger) ([]maker.Maker, func(), error) {
	system := actors.NewSystem(logger)
	var tokens []common.Address
	for _, c := range domain.Currencies {
		if a, ok := ch.Contracts.Token(c.Symbol); ok {
			tokens = append(tokens, a)
		}
	}
	makers := make([]maker.Maker, len(ch.Makers))
	errs := make([]error, len(ch.Makers))
	var wg sync.WaitGroup
	for i, key := range ch.Makers {
		wg.Go(func() {
			makers[i], errs[i] = maker.Start(ctx, system, maker.Config{
				Name: makerName(i), Key: key, Backend: ch.Client, ChainID: ch.ChainID,
				Escrow: ch.Contracts.RfqEscrow, Tokens: tokens, SpreadBps: makerSpreadBps(i), Price: pools.Mid,
				Fault: maker.Fault(f.makerFault), Logger: logger,
			})
		})
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
		return nil, nil, fmt.Errorf("serve: makers: %w", err)
	}
	return makers, stop, nil
}

// makerName is the i-th maker's name (the API's provider).
func makerName(i int) string { return fmt.Sprintf("maker%d", i+1) }

// openDesk builds the FX and payments desks on pools and makers, with the
// legs relayed by relayer (the gas-only key's: the Relayer itself on a
// single node, the cluster's relay client on a node) and transaction logs
// claimed by claims (nil: the engine's), and sets the
// escrow's settle window to --rfq-settle-timeout. The desks' hooks are
// added to the engine, which must not have recovered yet.
func openDesk(ctx context.Context, f serveFlags, e *actors.Engine, ch *connect.Chain, pools *fx.Pools, makers []maker.Maker,
	relayer relay.Sender, claims pay.Claimer, logger *slog.Logger) (*fx.Desk, *pay.Desk, error) {
	leg := &gasless.Leg{Domain: eip712.Domain{ChainID: ch.ChainID, Permit2: ch.Contracts.Permit2}, Router: ch.Contracts.RelayRouter,
		Chain: ch.Client, Relayer: relayer, Logger: logger}
	desk := fx.New(fx.Config{
		Engine: e, Chain: ch, Pools: pools, Makers: makers, Relayer: relayer, Leg: leg,
		OrderDeadline: f.orderDeadline, SettleTimeout: f.settleTimeout, Logger: logger,
	})
	if err := desk.EnsureSettleWindow(ctx); err != nil {
		return nil, nil, err
	}
	bySymbol := map[string]common.Address{}
	for _, c := range domain.Currencies {
		if a, ok := ch.Contracts.Token(c.Symbol); ok {
			bySymbol[c.Symbol] = a
		}
	}
	payDesk := pay.New(pay.Config{Engine: e, Chain: ch.Client, ChainID: ch.ChainID, Tokens: bySymbol, Leg: leg, Pools: pools,
		Factory: ch.Contracts.PaymentLinkFactory, AcceptDeadline: f.orderDeadline, Claims: claims, Logger: logger})
	desk.AddHooks(e)
	payDesk.AddHooks(e)
	return desk, payDesk, nil
}
