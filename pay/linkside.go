package pay

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
	"github.com/ethereum/go-ethereum/core/types"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/chain/watch"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/jobs"
)

// Bounds and paces of the links' chain side.
const (
	// MaxLiveLinks bounds the links the chain side drives (open, or holding
	// money not yet forwarded); a create beyond it is 503.
	MaxLiveLinks = 100_000
	// linkScanEvery spaces a live open link's own log scan, the backstop of
	// the watcher: it finds a payment the watcher could not deliver (the
	// watcher reports each one before it records its block, so a miss
	// means the link's actor refused or timed out, which is rare).
	linkScanEvery = time.Minute
)

var (
	forwarderABI   = mustParse(fxbind.PaymentForwarderMetaData)
	factoryABI     = mustParse(fxbind.PaymentLinkFactoryMetaData)
	topicForwarded = forwarderABI.Events["Forwarded"].ID
)

func mustParse(m interface{ GetAbi() (*abi.ABI, error) }) *abi.ABI {
	a, err := m.GetAbi()
	must(err)
	return a
}

// linkTracked is one live link as the chain side sees it.
type linkTracked struct {
	l        *domain.Link
	lastScan time.Time // learned: when the link's own log scan last ran
}

// linkJob names the one piece of chain work a link needs next.
type linkJob int

const (
	linkNone    linkJob = iota
	linkExpire          // open, past expires_at
	linkScan            // open: look for payments the watcher missed
	linkForward         // closed (paid, cancelled, expired) with money not forwarded
)

// nextLinkJob decides what a link needs at now. It is pure.
func nextLinkJob(tr *linkTracked, now time.Time) linkJob {
	l := tr.l
	switch {
	case l.Open() && l.PastExpiry(now):
		return linkExpire
	case l.Open() && now.Sub(tr.lastScan) >= linkScanEvery:
		return linkScan
	case !l.Open() && l.Unforwarded().Sign() > 0:
		return linkForward
	}
	return linkNone
}

func (d *Desk) nextLink(tr *linkTracked, now time.Time) jobs.Job[linkTracked] {
	switch nextLinkJob(tr, now) {
	case linkExpire:
		return func(ctx context.Context, tr *linkTracked) error { return d.exec(ctx, tr.l.ID, domain.ExpireLink{}) }
	case linkScan:
		return d.scanLink
	case linkForward:
		return d.forward
	}
	return nil
}

// trackLink drives a live link, forgets a finished one.
func (d *Desk) trackLink(l *domain.Link) {
	if !l.Live() {
		d.links.Forget(l.ID)
		return
	}
	if err := d.links.Track(l.ID, linkTracked{l: l}); err != nil {
		d.cfg.Logger.Error("payment link not driven", "link", l.ID, "err", err.Error())
	}
}

// scanLink searches the chain for Transfers to the link's address: the
// backstop of the watcher (a delivery it could not make, a restart).
func (d *Desk) scanLink(ctx context.Context, tr *linkTracked) error {
	tr.lastScan = d.cfg.Clock()
	l := tr.l
	logs, err := d.linkLogs(ctx, l, common.HexToAddress(l.TokenAddress), verify.TransferTopic, common.Hash{}, common.BytesToHash(common.HexToAddress(l.ReceiveAddress).Bytes()))
	if err != nil {
		return err
	}
	var payments []domain.LinkPayment
	for _, lg := range logs {
		if t, ok := verify.ParseTransfer(lg); ok {
			if p, ok := linkPayment(t); ok {
				payments = append(payments, p)
			}
		}
	}
	if len(payments) == 0 {
		return nil
	}
	return d.exec(ctx, l.ID, domain.PayLink{Payments: payments})
}

// forward sends what the link's forwarder holds on to the payout wallet.
// It reads the chain first: the Forwarded logs already there (a forward
// sent before a restart) are reported and nothing is sent; otherwise the
// relayer calls the factory, which deploys the forwarder if needed, and
// the next run reports the log. The forwarder can only pay its payout
// wallet and moves its whole balance, so a second forward moves nothing.
func (d *Desk) forward(ctx context.Context, tr *linkTracked) error {
	l := tr.l
	total, last, err := d.forwarded(ctx, l)
	if err != nil {
		return err
	}
	if total.Cmp(l.Forwarded) > 0 {
		return d.exec(ctx, l.ID, domain.LinkForwarded{Total: total, TxHash: last})
	}
	// Nothing held (a counted payment retracted by a reorg): sending would
	// spend gas to move nothing, on every retry.
	tok, err := fxbind.NewTestTokenCaller(common.HexToAddress(l.TokenAddress), d.cfg.Chain)
	must(err)
	held, err := tok.BalanceOf(&bind.CallOpts{Context: ctx}, common.HexToAddress(l.ReceiveAddress))
	if err != nil {
		return fmt.Errorf("pay: balance of link %s: %w", l.ID, err)
	}
	if held.Sign() == 0 {
		return fmt.Errorf("pay: link %s counts %s unforwarded but its address holds nothing", l.ID, l.Unforwarded())
	}
	if d.holdForwards {
		return errForwardHeld
	}
	data, err := factoryABI.Pack("forward", fxbind.LinkSalt(l.ID), common.HexToAddress(l.PayoutWallet), common.HexToAddress(l.TokenAddress))
	must(err)
	tx, err := d.cfg.Leg.Relayer.Send(ctx, d.cfg.Factory, data, 0)
	if err != nil && tx == nil {
		return fmt.Errorf("pay: forward %s: %w", l.ID, err)
	}
	rcpt, err := d.cfg.Leg.Relayer.Wait(ctx, tx)
	if err != nil {
		return err
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		return fmt.Errorf("pay: forward %s: tx %s reverted", l.ID, tx.Hash().Hex())
	}
	d.cfg.Logger.Info("payment link forwarded", "link", l.ID, "tx", tx.Hash().Hex())
	if total, last, err = d.forwarded(ctx, l); err != nil || total.Cmp(l.Forwarded) <= 0 {
		return errors.Join(err, fmt.Errorf("pay: forward %s: mined without a Forwarded log", l.ID))
	}
	return d.exec(ctx, l.ID, domain.LinkForwarded{Total: total, TxHash: last})
}

// forwarded sums the Forwarded logs of the link's forwarder for its token
// (to its payout wallet, the only one it can pay) and names the last tx.
func (d *Desk) forwarded(ctx context.Context, l *domain.Link) (*big.Int, string, error) {
	logs, err := d.linkLogs(ctx, l, common.HexToAddress(l.ReceiveAddress), topicForwarded,
		common.BytesToHash(common.HexToAddress(l.TokenAddress).Bytes()), common.BytesToHash(common.HexToAddress(l.PayoutWallet).Bytes()))
	if err != nil {
		return nil, "", err
	}
	total, last := new(big.Int), ""
	for _, lg := range logs {
		if len(lg.Data) != 32 {
			continue
		}
		total.Add(total, new(big.Int).SetBytes(lg.Data))
		last = lg.TxHash.Hex()
	}
	return total, last, nil
}

// linkLogs are the logs of addr with topic0 and, where set, topics 1 and
// 2, from the link's creation block on, retracted ones left out.
func (d *Desk) linkLogs(ctx context.Context, l *domain.Link, addr common.Address, topic0, topic1, topic2 common.Hash) ([]types.Log, error) {
	head, err := d.cfg.Chain.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("pay: head: %w", err)
	}
	from := l.FromBlock
	if from > head {
		from = head
	}
	topics := [][]common.Hash{{topic0}, nil, nil}
	for i, t := range []common.Hash{topic1, topic2} {
		if t != (common.Hash{}) {
			topics[i+1] = []common.Hash{t}
		}
	}
	logs, err := d.cfg.Chain.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: new(big.Int).SetUint64(from), ToBlock: new(big.Int).SetUint64(head),
		Addresses: []common.Address{addr}, Topics: topics})
	if err != nil {
		return nil, fmt.Errorf("pay: logs of %s: %w", addr.Hex(), err)
	}
	out := logs[:0]
	for _, lg := range logs {
		if !lg.Removed {
			out = append(out, lg)
		}
	}
	return out, nil
}

// LinkFilter selects the logs the links act on: ERC-20 Transfers of the
// served tokens (to any address: the desk looks the recipient up).
func (d *Desk) LinkFilter() watch.Filter {
	f := watch.Filter{Topics: [][]common.Hash{{verify.TransferTopic}}}
	for _, a := range d.cfg.Tokens {
		f.Addresses = append(f.Addresses, a)
	}
	return f
}

// OnTransferLog takes a verified Transfer log from the watcher: a payment
// to a link's receive address is reported to the link before the watcher
// records the block as done, so a restart never loses it (it runs on the
// watcher's goroutine, one log at a time).
func (d *Desk) OnTransferLog(l watch.Log) {
	t, ok := verify.ParseTransfer(l.Log)
	if !ok {
		if l.Removed {
			d.cfg.Logger.Warn("chain log retracted by a reorg", "tx", l.TxHash.Hex(), "index", l.Index)
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), chainTimeout)
	defer cancel()
	// A link is durable before its address is shown to anyone, so before
	// any payment to it is in a block the watcher fetched; once the store
	// holds what was durable when this block's first log came, it holds the
	// link. One wait per block, not per log.
	if l.BlockNumber != d.caughtUpBlock {
		if err := d.e.CatchUp(ctx); err != nil {
			d.cfg.Logger.Warn("store not caught up; the links' own scans look again", "block", l.BlockNumber, "err", err.Error())
			return
		}
		d.caughtUpBlock = l.BlockNumber
	}
	row, err := d.e.RowByKey(domain.AddressKey(t.To.Hex()))
	if err != nil || row == nil {
		if err != nil {
			d.cfg.Logger.Warn("link lookup failed; the link's own scan looks again", "to", t.To.Hex(), "err", err.Error())
		}
		return
	}
	link, ok := row.(*domain.Link)
	if !ok || common.HexToAddress(link.TokenAddress) != t.Token {
		return // another token to the link's address: not its currency
	}
	p, ok := linkPayment(t)
	if !ok {
		return
	}
	pay := domain.PayLink{Payments: []domain.LinkPayment{p}}
	if err := d.exec(ctx, link.ID, pay); err != nil {
		d.cfg.Logger.Warn("link payment not recorded; the link's own scan looks again", "link", link.ID, "tx", t.TxHash.Hex(), "err", err.Error())
	}
}
