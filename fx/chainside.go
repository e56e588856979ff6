package fx

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/maker"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/jobs"
)

// logLookback bounds how far back an escrow log search goes (orders live
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
	escrowABI = mustABI(fxbind.RfqEscrowMetaData)

	topicExecuted = gasless.TopicExecuted
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

// job is one piece of chain work for an order, run by the fx orders' job
// driver on a copy of the tracked record; it may edit what the copy has
// learned (settleAsked, settleBy), which is merged back (mergeLearned).
type job = jobs.Job[tracked]

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
	// A watcher log that finds its order busy, or every job slot taken, is
	// dropped (OnLog); for an rfq order the tick then finds the same fact
	// by reading the escrow again, every escrowPoll while a log may come:
	// funding (accepted, awaiting funding) and settlement or refund (funded,
	// maker asked). An amm order needs no such read: relay looks for its
	// GaslessOrderExecuted log first, every time it runs.
	poll := !now.Before(tr.syncedAt.Add(escrowPoll))
	switch {
	case o.Route == domain.RouteAMM && o.State == domain.OrderAccepted && late:
		return jobExpire
	case o.Route == domain.RouteAMM && o.State == domain.OrderAwaitingFunding:
		return jobRelay
	case o.Route == domain.RouteRFQ && !tr.synced:
		return jobSyncEscrow // first look after a (re)start: what did we miss?
	case o.Route == domain.RouteRFQ && (o.State == domain.OrderAccepted || o.State == domain.OrderAwaitingFunding) && (late || poll):
		return jobSyncEscrow // funded after all (a dropped log), or expired
	case o.Route == domain.RouteRFQ && o.State == domain.OrderFunded:
		switch {
		case tr.settleBy.IsZero():
			return jobSyncEscrow // learns the settle deadline, or a missed log
		case now.After(tr.settleBy.Add(refundGrace)):
			// Before the ask: after a restart past the window, settleAsked
			// is false again and a settle reverts (SettleWindowClosed), so
			// asking first looped forever and the refund was never sent
			// (found by the torture harness).
			return jobRefund
		case !tr.settleAsked:
			return jobAskSettle
		case poll:
			return jobSyncEscrow // settled or refunded (a dropped log)
		}
	}
	return jobNone
}

// next is the job the order needs now, or nil. Called with the driver's
// lock held: it only looks.
func (d *Desk) next(tr *tracked, now time.Time) job {
	switch nextJob(tr, now) {
	case jobExpire:
		return d.expire
	case jobRelay:
		return d.relay
	case jobSyncEscrow:
		return func(ctx context.Context, tr *tracked) error {
			tr.syncedAt = now // paces the next read (escrowPoll), failed or not
			return d.syncEscrow(ctx, tr)
		}
	case jobAskSettle:
		return d.askSettle
	case jobRefund:
		return d.refund
	}
	return nil
}

// exec runs a command on the order and reports a refusal other than a
// transition the order already made (two paths may report one fact: the
// watcher and a job; the second finds the state moved and is refused with
// invalid_state, which is not an error here).
func (d *Desk) exec(ctx context.Context, id string, cmd domain.Command) error {
	out, err := d.e.Exec(ctx, id, domain.Request{Cmd: cmd})
	if err != nil {
		return fmt.Errorf("fx: %s %T: %w", id, cmd, err)
	}
	if out.Err != nil && out.Err.Code != domain.CodeInvalidState {
		return fmt.Errorf("fx: %s %T refused: %s: %s", id, cmd, out.Err.Code, out.Err.Message)
	}
	return nil
}

func (d *Desk) expire(ctx context.Context, tr *tracked) error {
	return d.exec(ctx, tr.o.ID, domain.ExpireOrder{})
}

// relay has the gasless leg relay the signed amm order and reports its
// outcome. It is safe to run again after a restart: the leg finds an
// execution of the order by its event before sending, never sends twice,
// and waits while a relay sent before the restart is pending; a failure's
// reason is decoded.
func (d *Desk) relay(ctx context.Context, tr *tracked) error {
	out, err := d.cfg.Leg.Relay(ctx, tr.o.Gasless, tr.o.Signature)
	if err != nil {
		return fmt.Errorf("fx: order %s: %w", tr.o.ID, err)
	}
	return d.exec(ctx, tr.o.ID, domain.RelayMined{TxHash: out.TxHash, Success: out.Success, AmountOut: out.AmountOut, Reason: out.Reason})
}

// onExecuted reports a GaslessOrderExecuted log of the order once the leg
// verified it field by field against the signed terms.
func (d *Desk) onExecuted(ctx context.Context, tr *tracked, l types.Log) error {
	out, err := gasless.Executed(tr.o.Gasless, l, d.cfg.Leg.Router)
	if err != nil {
		return fmt.Errorf("fx: order %s: %w", tr.o.ID, err)
	}
	return d.exec(ctx, tr.o.ID, domain.RelayMined{TxHash: l.TxHash.Hex(), Success: true, AmountOut: out})
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
		l, err := verify.Find(ctx, d.chain, d.ch.Contracts.RfqEscrow, topicEscrowed, tr.rfq.ExecutionID, logLookback)
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
	l, err := verify.Find(ctx, d.chain, d.ch.Contracts.RfqEscrow, topic, tr.rfq.ExecutionID, logLookback)
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
		Addresses: []common.Address{d.cfg.Leg.Router, d.ch.Contracts.RfqEscrow},
		Topics:    [][]common.Hash{{topicExecuted, topicEscrowed, topicSettled, topicRefunded}},
	}
}

// OnLog takes a verified log from the watcher and hands it to the live
// order it is about (by order hash or execution id). It runs on the
// watcher's goroutine and must not block, so the command runs as a job of
// the order, in the driver's bounded slots (Submit). A log that finds its
// order busy, or every slot taken, is dropped: the order's level-triggered
// jobs find the same fact on the chain (amm: relay looks for the
// GaslessOrderExecuted log before sending; rfq: syncEscrow reads the
// escrow, which nextJob schedules every escrowPoll while a log may come).
func (d *Desk) OnLog(l watch.Log) {
	if l.Removed || len(l.Topics) < 2 {
		if l.Removed {
			d.cfg.Logger.Warn("chain log retracted by a reorg", "tx", l.TxHash.Hex(), "index", l.Index)
		}
		return
	}
	cur, ok := d.track.jobs.Find(l.Topics[1])
	if !ok || (l.Topics[0] == topicExecuted) != (cur.o.Route == domain.RouteAMM) {
		return // no live order's, or a key of the other route (one index holds both)
	}
	apply := func(ctx context.Context, tr *tracked) error {
		switch l.Topics[0] {
		case topicExecuted:
			return d.onExecuted(ctx, tr, l.Log)
		case topicEscrowed:
			if !d.escrowedMatches(l.Log, tr.rfq) {
				return fmt.Errorf("fx: order %s: QuoteEscrowed in %s does not match the quote", tr.o.ID, l.TxHash.Hex())
			}
			return d.exec(ctx, tr.o.ID, domain.FundingVerified{TxHash: l.TxHash.Hex()})
		case topicSettled:
			return d.exec(ctx, tr.o.ID, domain.MakerSettled{TxHash: l.TxHash.Hex()})
		case topicRefunded:
			return d.exec(ctx, tr.o.ID, domain.MakerMissed{RefundTxHash: l.TxHash.Hex()})
		}
		return nil
	}
	if !d.track.jobs.Submit(cur.o.ID, apply) {
		d.cfg.Logger.Debug("chain log dropped: its order is busy or every job slot is taken; the order's jobs find it on chain",
			"order", cur.o.ID, "tx", l.TxHash.Hex(), "index", l.Index)
	}
}

// escrowedMatches verifies a QuoteEscrowed log field by field against the
// order's quote and execution: emitter and indexed fields first, then the
// data.
func (d *Desk) escrowedMatches(l types.Log, t *rfqTerms) bool {
	if !verify.Match(l, d.ch.Contracts.RfqEscrow, topicEscrowed, t.ExecutionID, t.QuoteHash, common.BytesToHash(t.Quote.Taker.Bytes())) {
		return false
	}
	ev := new(fxbind.RfqEscrowQuoteEscrowed)
	if err := verify.Unpack(escrowABI, "QuoteEscrowed", ev, l); err != nil {
		return false
	}
	q := t.Quote
	return ev.Maker == q.Maker && ev.TokenIn == q.TokenIn && ev.AmountIn.Cmp(q.AmountIn) == 0 &&
		ev.TokenOut == q.TokenOut && ev.AmountOut.Cmp(q.AmountOut) == 0
}

func (d *Desk) escrow() (*fxbind.RfqEscrow, error) {
	return fxbind.NewRfqEscrow(d.ch.Contracts.RfqEscrow, d.ch.Client)
}
