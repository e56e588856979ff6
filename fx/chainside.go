package fx

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
)

// logLookback bounds how far back a direct log search goes (orders live
// minutes; blocks come at most every 2 s on the embedded chain).
const logLookback = 100_000

// escrow status values of RfqEscrow.Status.
const (
	escrowNone = iota
	escrowEscrowed
	escrowSettled
	escrowRefunded
)

var (
	routerABI = mustABI(fxbind.RelayRouterMetaData)
	escrowABI = mustABI(fxbind.RfqEscrowMetaData)

	topicExecuted = routerABI.Events["GaslessOrderExecuted"].ID
	topicEscrowed = escrowABI.Events["QuoteEscrowed"].ID
	topicSettled  = escrowABI.Events["QuoteSettled"].ID
	topicRefunded = escrowABI.Events["QuoteRefunded"].ID
)

func mustABI(m *bind.MetaData) *abi.ABI {
	a, err := m.GetAbi()
	if err != nil {
		panic("fx: contract ABI: " + err.Error())
	}
	return a
}

// job is one piece of chain work for an order; it may edit its copy of the
// tracked record (settleAsked, settleBy), which is merged back.
type job func(ctx context.Context, tr *tracked) error

// jobKind names the one piece of chain work an order needs next.
type jobKind int

const (
	jobNone       jobKind = iota
	jobExpire             // amm: accepted past its deadline
	jobRelay              // amm: signed, relay (again) until mined
	jobSyncEscrow         // rfq: read the escrow (after a start, at the deadline, to learn the settle deadline)
	jobAskSettle          // rfq: funded, ask the quote's maker to settle
	jobRefund             // rfq: funded past the escrow's settle window
)

// nextJob decides what the order needs at now. It is pure: it reads only
// the tracked record, so it is table-tested without a chain.
func nextJob(tr *tracked, now time.Time) jobKind {
	o := tr.o
	late := now.After(o.Deadline.Add(expiryGrace))
	switch {
	case o.Route == domain.RouteAMM && o.State == domain.OrderAccepted && late:
		return jobExpire
	case o.Route == domain.RouteAMM && o.State == domain.OrderAwaitingFunding:
		return jobRelay
	case o.Route == domain.RouteRFQ && !tr.synced:
		return jobSyncEscrow // first look after a (re)start: what did we miss?
	case o.Route == domain.RouteRFQ && (o.State == domain.OrderAccepted || o.State == domain.OrderAwaitingFunding) && late:
		return jobSyncEscrow // funded after all, or expired
	case o.Route == domain.RouteRFQ && o.State == domain.OrderFunded:
		switch {
		case tr.settleBy.IsZero():
			return jobSyncEscrow // learns the settle deadline, or a missed log
		case !tr.settleAsked:
			return jobAskSettle
		case now.After(tr.settleBy.Add(refundGrace)):
			return jobRefund
		}
	}
	return jobNone
}

// next is the job the order needs now, or nil. Called with the tracker's
// lock held: it only looks.
func (d *Desk) next(tr *tracked, now time.Time) job {
	switch nextJob(tr, now) {
	case jobExpire:
		return d.expire
	case jobRelay:
		return d.relay
	case jobSyncEscrow:
		return d.syncEscrow
	case jobAskSettle:
		return d.askSettle
	case jobRefund:
		return d.refund
	}
	return nil
}

// exec runs a command on the order and reports a refusal other than a
// transition the order already made (two paths may report one fact).
func (d *Desk) exec(ctx context.Context, id string, cmd domain.OrderCommand) error {
	out, err := d.e.OrderExec(ctx, id, domain.OrderRequest{Cmd: cmd}, false)
	if err != nil {
		return fmt.Errorf("fx: %s %T: %w", id, cmd, err)
	}
	if out.Reply.Status >= 300 && out.Reply.Status != 409 {
		return fmt.Errorf("fx: %s %T refused: %s", id, cmd, out.Reply.Body)
	}
	return nil
}

func (d *Desk) expire(ctx context.Context, tr *tracked) error {
	return d.exec(ctx, tr.o.ID, domain.ExpireOrder{})
}

// relay broadcasts the signed amm order with the gas-only key and reports
// the outcome. It is safe to run again after a restart: an order the
// router already executed is found by its event, and Permit2's single-use
// nonce refuses a second execution.
func (d *Desk) relay(ctx context.Context, tr *tracked) error {
	if l, err := d.findLog(ctx, d.ch.Contracts.RelayRouter, topicExecuted, tr.orderHash); err != nil || l != nil {
		if err != nil {
			return err
		}
		return d.onExecuted(ctx, tr, *l)
	}
	sig, err := hexutil.Decode(tr.o.Signature)
	if err != nil {
		return d.exec(ctx, tr.o.ID, domain.RelayMined{Reason: "stored signature unreadable"})
	}
	if len(sig) == 65 && sig[64] < 27 {
		// The same signature, spelled as Permit2's ecrecover wants it: the
		// off-chain check accepts v in {0, 1} too (some signers emit it).
		sig[64] += 27
	}
	g := tr.gasless
	data, err := routerABI.Pack("executeGaslessOrder", fxbind.RelayRouterGaslessOrder{
		Signer: g.Signer, TokenIn: g.TokenIn, TokenOut: g.TokenOut, AmountIn: g.AmountIn, MinAmountOut: g.MinAmountOut,
		Recipient: g.Recipient, Pool: g.Pool, Deadline: g.Deadline, Nonce: g.Nonce,
	}, sig)
	if err != nil {
		panic("fx: pack executeGaslessOrder: " + err.Error())
	}
	tx, err := d.cfg.Relayer.Send(ctx, d.ch.Contracts.RelayRouter, data, 0)
	var revert rpc.DataError
	switch {
	case errors.As(err, &revert):
		// A relay sent before a restart may still be pending: its Permit2
		// nonce is then spent in the pending state, and this estimate
		// reverts for that reason alone. Wait for it to be mined.
		if spent, nerr := nonceSpent(ctx, d.ch.Client, d.ch.Contracts.Permit2, g); nerr != nil || spent {
			return errors.Join(nerr, fmt.Errorf("fx: order %s: its Permit2 nonce is spent by a pending relay", tr.o.ID))
		}
		// The chain refuses the order as signed (deadline, balance,
		// allowance, slippage): it fails without a transaction.
		return d.exec(ctx, tr.o.ID, domain.RelayMined{Reason: revertReason("relay refused by the chain", err)})
	case err != nil && tx == nil:
		return err // busy or unreachable: try again
	}
	d.cfg.Logger.Info("order relayed", "order", tr.o.ID, "tx", tx.Hash().Hex())
	rcpt, err := d.cfg.Relayer.Wait(ctx, tx)
	if err != nil {
		return err
	}
	for _, l := range rcpt.Logs {
		if l.Address == d.ch.Contracts.RelayRouter && len(l.Topics) > 1 && l.Topics[0] == topicExecuted && l.Topics[1] == tr.orderHash {
			return d.onExecuted(ctx, tr, *l)
		}
	}
	// Reverted. Another transaction (before a restart) may have executed it.
	if l, err := d.findLog(ctx, d.ch.Contracts.RelayRouter, topicExecuted, tr.orderHash); err != nil || l != nil {
		if err != nil {
			return err
		}
		return d.onExecuted(ctx, tr, *l)
	}
	return d.exec(ctx, tr.o.ID, domain.RelayMined{TxHash: tx.Hash().Hex(), Reason: domain.ReasonRelayReverted})
}

// nonceSpent reports whether the order's Permit2 nonce is used in the
// pending state (Permit2's unordered nonces: bit nonce%256 of word
// nonce/256 of the signer's bitmap). Nonces are 128 random bits per order,
// so a spent one means this order's signature was executed or is about to be.
func nonceSpent(ctx context.Context, caller bind.ContractCaller, permit2 common.Address, g *eip712.GaslessOrder) (bool, error) {
	p2, err := fxbind.NewPermit2Caller(permit2, caller)
	if err != nil {
		return false, err
	}
	word := new(big.Int).Rsh(g.Nonce, 8)
	bitmap, err := p2.NonceBitmap(&bind.CallOpts{Context: ctx, Pending: true}, g.Signer, word)
	if err != nil {
		return false, fmt.Errorf("fx: nonceBitmap: %w", err)
	}
	return bitmap.Bit(int(new(big.Int).And(g.Nonce, big.NewInt(255)).Int64())) == 1, nil
}

// onExecuted reports a verified GaslessOrderExecuted log: every field is
// compared with the order as signed.
func (d *Desk) onExecuted(ctx context.Context, tr *tracked, l types.Log) error {
	ev := new(fxbind.RelayRouterGaslessOrderExecuted)
	if err := unpack(routerABI, "GaslessOrderExecuted", ev, l); err != nil {
		return err
	}
	g := tr.gasless
	if ev.Signer != g.Signer || ev.TokenIn != g.TokenIn || ev.TokenOut != g.TokenOut || ev.AmountIn.Cmp(g.AmountIn) != 0 ||
		ev.Recipient != g.Recipient || ev.Nonce.Cmp(g.Nonce) != 0 || ev.AmountOut.Cmp(g.MinAmountOut) < 0 {
		return fmt.Errorf("fx: order %s: GaslessOrderExecuted in %s does not match the order", tr.o.ID, l.TxHash.Hex())
	}
	return d.exec(ctx, tr.o.ID, domain.RelayMined{TxHash: l.TxHash.Hex(), Success: true, AmountOut: ev.AmountOut})
}

// syncEscrow reads the escrow's record of the order and reports what the
// order has missed (funding, settlement, refund), or expires an order
// that was never funded. It is how a restart catches up, and the check
// before expiring: funds in escrow always win over the clock.
func (d *Desk) syncEscrow(ctx context.Context, tr *tracked) error {
	esc, err := d.escrow()
	if err != nil {
		return err
	}
	rec, err := esc.Escrows(&bind.CallOpts{Context: ctx}, tr.rfq.ExecutionID)
	if err != nil {
		return fmt.Errorf("fx: escrows(%s): %w", tr.rfq.ExecutionID.Hex(), err)
	}
	o := tr.o
	tr.synced = true
	if rec.Status == escrowNone {
		if o.State == domain.OrderFunded {
			return fmt.Errorf("fx: order %s is funded but the escrow has no record", o.ID)
		}
		if d.cfg.Clock().After(o.Deadline.Add(expiryGrace)) {
			return d.exec(ctx, o.ID, domain.ExpireOrder{})
		}
		return nil
	}
	tr.settleBy = time.Unix(int64(rec.SettleDeadline), 0)
	if o.State != domain.OrderFunded {
		l, err := d.findLog(ctx, d.ch.Contracts.RfqEscrow, topicEscrowed, tr.rfq.ExecutionID)
		if err != nil || l == nil {
			return errors.Join(err, fmt.Errorf("fx: order %s: escrowed but its log is not found", o.ID))
		}
		if !d.escrowedMatches(*l, tr.rfq) {
			return fmt.Errorf("fx: order %s: QuoteEscrowed in %s does not match the quote", o.ID, l.TxHash.Hex())
		}
		if err := d.exec(ctx, o.ID, domain.FundingVerified{TxHash: l.TxHash.Hex()}); err != nil {
			return err
		}
	}
	switch rec.Status {
	case escrowSettled:
		return d.reportEnd(ctx, tr, topicSettled)
	case escrowRefunded:
		return d.reportEnd(ctx, tr, topicRefunded)
	}
	return nil
}

// reportEnd finds the settle or refund log of an execution and reports it.
func (d *Desk) reportEnd(ctx context.Context, tr *tracked, topic common.Hash) error {
	l, err := d.findLog(ctx, d.ch.Contracts.RfqEscrow, topic, tr.rfq.ExecutionID)
	if err != nil || l == nil {
		return errors.Join(err, fmt.Errorf("fx: order %s: escrow closed but its log is not found", tr.o.ID))
	}
	if topic == topicSettled {
		return d.exec(ctx, tr.o.ID, domain.MakerSettled{TxHash: l.TxHash.Hex()})
	}
	return d.exec(ctx, tr.o.ID, domain.MakerMissed{RefundTxHash: l.TxHash.Hex()})
}

// askSettle asks the quote's maker to settle. Its QuoteSettled log (from
// the watcher) moves the order; a maker that does not settle is refunded
// once the escrow's window closes.
func (d *Desk) askSettle(ctx context.Context, tr *tracked) error {
	var m maker.Maker
	for _, c := range d.cfg.Makers {
		if c.Address() == tr.rfq.Quote.Maker {
			m = c
		}
	}
	tr.settleAsked = true
	if m == nil {
		d.cfg.Logger.Warn("no maker for the quote; the escrow will be refunded", "order", tr.o.ID, "maker", tr.rfq.Quote.Maker.Hex())
		return nil
	}
	h, err := m.Settle(ctx, tr.rfq.ExecutionID)
	switch {
	case errors.Is(err, maker.ErrSkipped):
		d.cfg.Logger.Warn("maker skipped settlement", "order", tr.o.ID, "maker", m.Name())
		return nil
	case err != nil:
		tr.settleAsked = false
		return err
	}
	d.cfg.Logger.Info("maker settling", "order", tr.o.ID, "maker", m.Name(), "tx", h.Hex())
	return nil
}

// refund returns the taker's escrowed funds after the maker missed the
// settle window; the relayer pays the gas, anyone may call refund.
func (d *Desk) refund(ctx context.Context, tr *tracked) error {
	data, err := escrowABI.Pack("refund", tr.rfq.ExecutionID)
	if err != nil {
		panic("fx: pack refund: " + err.Error())
	}
	tx, err := d.cfg.Relayer.Send(ctx, d.ch.Contracts.RfqEscrow, data, 0)
	var revert rpc.DataError
	if errors.As(err, &revert) {
		// Settled or refunded meanwhile, or too early by the chain's
		// clock: read the escrow again.
		tr.settleBy = time.Time{}
		return nil
	}
	if err != nil && tx == nil {
		return err
	}
	rcpt, err := d.cfg.Relayer.Wait(ctx, tx)
	if err != nil {
		return err
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		tr.settleBy = time.Time{}
		return nil
	}
	d.cfg.Logger.Info("escrow refunded", "order", tr.o.ID, "tx", tx.Hash().Hex())
	return d.exec(ctx, tr.o.ID, domain.MakerMissed{RefundTxHash: tx.Hash().Hex()})
}

// Filter selects the logs the desk acts on: the router's executions and
// the escrow's fundings, settlements and refunds.
func (d *Desk) Filter() watch.Filter {
	return watch.Filter{
		Addresses: []common.Address{d.ch.Contracts.RelayRouter, d.ch.Contracts.RfqEscrow},
		Topics:    [][]common.Hash{{topicExecuted, topicEscrowed, topicSettled, topicRefunded}},
	}
}

// OnLog takes a verified log from the watcher and hands it to the live
// order it is about (by order hash or execution id); it runs on the
// watcher's goroutine, so the command runs in a goroutine of its own.
func (d *Desk) OnLog(l watch.Log) {
	if l.Removed || len(l.Topics) < 2 {
		if l.Removed {
			d.cfg.Logger.Warn("chain log retracted by a reorg", "tx", l.TxHash.Hex(), "index", l.Index)
		}
		return
	}
	var tr *tracked
	var ok bool
	if l.Topics[0] == topicExecuted {
		tr, ok = d.track.byOrderHash(l.Topics[1])
	} else {
		tr, ok = d.track.byExecution(l.Topics[1])
	}
	if !ok {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var err error
		switch l.Topics[0] {
		case topicExecuted:
			err = d.onExecuted(ctx, tr, l.Log)
		case topicEscrowed:
			if !d.escrowedMatches(l.Log, tr.rfq) {
				err = fmt.Errorf("fx: order %s: QuoteEscrowed in %s does not match the quote", tr.o.ID, l.TxHash.Hex())
				break
			}
			err = d.exec(ctx, tr.o.ID, domain.FundingVerified{TxHash: l.TxHash.Hex()})
		case topicSettled:
			err = d.exec(ctx, tr.o.ID, domain.MakerSettled{TxHash: l.TxHash.Hex()})
		case topicRefunded:
			err = d.exec(ctx, tr.o.ID, domain.MakerMissed{RefundTxHash: l.TxHash.Hex()})
		}
		if err != nil {
			d.cfg.Logger.Warn("chain event not applied; the next tick looks again", "order", tr.o.ID, "err", err.Error())
		}
	}()
}

// escrowedMatches verifies a QuoteEscrowed log field by field against the
// order's quote and execution.
func (d *Desk) escrowedMatches(l types.Log, t *rfqTerms) bool {
	if l.Address != d.ch.Contracts.RfqEscrow || len(l.Topics) != 4 || l.Topics[0] != topicEscrowed ||
		l.Topics[1] != t.ExecutionID || l.Topics[2] != t.QuoteHash || l.Topics[3] != common.BytesToHash(t.Quote.Taker.Bytes()) {
		return false
	}
	ev := new(fxbind.RfqEscrowQuoteEscrowed)
	if err := unpack(escrowABI, "QuoteEscrowed", ev, l); err != nil {
		return false
	}
	q := t.Quote
	return ev.Maker == q.Maker && ev.TokenIn == q.TokenIn && ev.AmountIn.Cmp(q.AmountIn) == 0 &&
		ev.TokenOut == q.TokenOut && ev.AmountOut.Cmp(q.AmountOut) == 0
}

// findLog searches the recent chain for the log of event topic0 whose
// first indexed field is key.
func (d *Desk) findLog(ctx context.Context, addr common.Address, topic0, key common.Hash) (*types.Log, error) {
	head, err := d.ch.Client.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("fx: head: %w", err)
	}
	from := uint64(0)
	if head > logLookback {
		from = head - logLookback
	}
	logs, err := d.ch.Client.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(head),
		Addresses: []common.Address{addr}, Topics: [][]common.Hash{{topic0}, {key}},
	})
	if err != nil {
		return nil, fmt.Errorf("fx: logs: %w", err)
	}
	for i := range logs {
		if !logs[i].Removed {
			return &logs[i], nil
		}
	}
	return nil, nil
}

func (d *Desk) escrow() (*fxbind.RfqEscrow, error) {
	return fxbind.NewRfqEscrow(d.ch.Contracts.RfqEscrow, d.ch.Client)
}

// unpack decodes a log's data and indexed fields into out.
func unpack(a *abi.ABI, event string, out any, l types.Log) error {
	if len(l.Data) > 0 {
		if err := a.UnpackIntoInterface(out, event, l.Data); err != nil {
			return fmt.Errorf("fx: decode %s: %w", event, err)
		}
	}
	var indexed abi.Arguments
	for _, arg := range a.Events[event].Inputs {
		if arg.Indexed {
			indexed = append(indexed, arg)
		}
	}
	if err := abi.ParseTopics(out, indexed, l.Topics[1:]); err != nil {
		return fmt.Errorf("fx: decode %s topics: %w", event, err)
	}
	return nil
}

// revertReason names what the chain refused, with its revert data.
func revertReason(prefix string, err error) string {
	var de rpc.DataError
	msg := prefix + ": " + err.Error()
	if errors.As(err, &de) {
		if data, ok := de.ErrorData().(string); ok {
			msg = prefix + ": " + de.Error() + " " + data
		}
	}
	if len(msg) > 190 {
		msg = msg[:190]
	}
	return msg
}
