// Package watch follows the chain and delivers verified logs to subscribers.
//
// A Watcher scans the canonical chain block range by block range with
// eth_getLogs, checks every log it is given, and hands the ones a
// subscription asked for to that subscription's deliver function, in block and
// log order, on the watcher's own goroutine. After each range it reports
// Progress (the range's last block and its hash); the host records that in its
// log, and after a restart starts a new Watcher at Config.From = block + 1 and
// Config.ResumeHash = hash, so scanning resumes where it stopped.
//
// # Delivery guarantees
//
//   - Order: logs are delivered by (block number, log index), range after
//     range, never concurrently. A subscription added while the watcher runs
//     sees logs of the blocks scanned after it was added.
//   - Verification: a log is delivered only if it lies in the block range that
//     was asked for, matches the query's addresses and topic 0 (and then the
//     subscription's full filter), is not flagged removed by the node, is not a
//     second copy of a (block, index) already seen in the range, and carries
//     the hash of the block the watcher verified for its height (within the
//     reorg window). Logs failing the first checks are dropped and counted
//     (Rejected). A block-hash mismatch, or two different logs claiming one
//     (block, index), means the answer mixes versions of the chain (or the
//     node lies): nothing of the range is delivered and it is read again on
//     the next poll.
//     Entities still compare every field of a log against what they expect
//     (DESIGN.md: "verify logs ... every field against the order").
//   - Reorgs: the watcher remembers the hashes of the last ReorgDepth blocks
//     it processed and the logs it delivered from them. When the block it last
//     processed is no longer canonical it walks back to the fork point,
//     delivers each log of the orphaned blocks again with Removed set (newest
//     first), reports Progress for the fork point (so Progress can move
//     backwards), and rescans from there. A reorg reaching below the remembered
//     blocks is ErrReorgTooDeep: the watcher cannot tell what to retract, so
//     the host must stop and a human must look.
//   - Restarts: delivery is at-least-once across a restart for the range that
//     was being delivered when the process stopped (its Progress was not yet
//     durable). Consumers key what they do on (block hash, log index) or
//     (tx hash, log index) and ignore repeats.
//
// # Why a goroutine and not an actor
//
// DESIGN.md speaks of "watcher actors". The watcher is a single loop with one
// input, time (plus new-head notifications where the connection carries them),
// and no state anyone else reads or writes: a plain struct driven by Run's
// goroutine and a ticker is the whole of it, and Poll lets tests step it
// deterministically. The actors are the consumers: a host's deliver function
// forwards each Log to the entity that waits for it (a protoactor-go Send to
// the order's or payment link's PID), so the watcher never blocks on an
// entity and needs no mailbox of its own.
package watch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/fxd-labs/fxd/chain"
)

// Defaults of Config.
const (
	DefaultPollInterval = 500 * time.Millisecond
	DefaultMaxRange     = 1000
	DefaultReorgDepth   = 128
	DefaultCallTimeout  = 10 * time.Second
)

// ErrReorgTooDeep is returned by Poll and Run when the chain reorganised below
// the blocks the watcher remembers (or, after a restart, when block From-1 no
// longer has Config.ResumeHash). The watcher's state is left as it was; it
// keeps returning the error. The host must stop.
var ErrReorgTooDeep = errors.New("watch: reorg deeper than the remembered blocks")

// errChainMoved: the chain changed while a range was being read; nothing was
// delivered and the range is read again.
var errChainMoved = errors.New("watch: chain moved during the scan")

// errReorg: the block before the range is no longer the one processed.
var errReorg = errors.New("watch: reorg")

// Filter selects logs, with ethereum.FilterQuery's semantics: a log matches if
// its address is in Addresses (any address if empty) and, for each position i
// of Topics, Topics[i] is empty or holds the log's topic i (a log with fewer
// topics than len(Topics) does not match).
type Filter struct {
	Addresses []common.Address
	Topics    [][]common.Hash
}

// Matches reports whether l matches f.
func (f Filter) Matches(l *types.Log) bool {
	if len(f.Addresses) > 0 && !slices.Contains(f.Addresses, l.Address) {
		return false
	}
	if len(f.Topics) > len(l.Topics) {
		return false
	}
	for i, want := range f.Topics {
		if len(want) > 0 && !slices.Contains(want, l.Topics[i]) {
			return false
		}
	}
	return true
}

// Log is a delivered log. Removed means the block that held it left the
// canonical chain: the log was delivered before and is now retracted. The
// embedded types.Log's own Removed field is set to the same value.
type Log struct {
	types.Log
	Removed bool
}

// Progress is called after every block range is fully delivered, with the
// range's last block and that block's hash, and after a reorg with the fork
// point (the last block still canonical). The host records it durably; a new
// Watcher resumes at From = block + 1, ResumeHash = hash. It runs on the
// watcher's goroutine.
type Progress func(block uint64, hash common.Hash)

// Config tunes a Watcher. Zero values take the defaults.
type Config struct {
	// From is the first block to scan (to resume: the last processed block + 1).
	From uint64
	// ResumeHash, if set, is the hash Progress reported for block From-1. The
	// watcher checks it is still canonical before scanning on, so a reorg
	// across a restart is noticed (as ErrReorgTooDeep: the logs delivered
	// before the restart are not in memory to be retracted).
	ResumeHash common.Hash
	// Confirmations: a block is scanned once it has this many blocks on top
	// of it (0: as soon as it is the head).
	Confirmations uint64
	// PollInterval between polls in Run (default 500 ms). Where the backend
	// carries new-head notifications, Run also polls on each new head.
	PollInterval time.Duration
	// MaxRange is the number of blocks per eth_getLogs (default 1000).
	MaxRange uint64
	// ReorgDepth is how many processed blocks the watcher remembers (their
	// hashes and the logs it delivered from them); default 128.
	ReorgDepth int
	// CallTimeout bounds each call to the node (default 10 s): a node that
	// accepts and never answers (frozen, stalled) fails the poll, which is
	// retried at the next tick with nothing delivered from the range, so a
	// chain outage delays logs and never loses or repeats one.
	CallTimeout time.Duration
	// Logger for rejected logs and transient errors (default slog.Default()).
	Logger *slog.Logger
}

func (c Config) withDefaults() Config {
	if c.PollInterval <= 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.MaxRange == 0 {
		c.MaxRange = DefaultMaxRange
	}
	if c.ReorgDepth <= 0 {
		c.ReorgDepth = DefaultReorgDepth
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = DefaultCallTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

type subscription struct {
	filter  Filter
	deliver func(Log)
	active  atomic.Bool
}

// ringEntry is a processed block's hash; ok is false for an empty slot.
type ringEntry struct {
	number uint64
	hash   common.Hash
	ok     bool
}

// sent is a log delivered to a subscription, kept while its block is within
// the reorg window so it can be retracted.
type sent struct {
	sub *subscription
	log types.Log
}

// Watcher follows the chain for its subscriptions. Create it with New, add
// subscriptions, then call Run (or Poll, step by step).
type Watcher struct {
	b          chain.Backend
	cfg        Config
	onProgress Progress
	log        *slog.Logger

	subMu sync.Mutex
	subs  []*subscription

	rejected atomic.Uint64
	next     atomic.Uint64 // next block to scan (readable while polling)

	pollMu sync.Mutex // one Poll at a time; guards the fields below
	ring   []ringEntry
	sent   []sent // in delivery order
}

// New returns a watcher over b. onProgress may be nil.
func New(b chain.Backend, cfg Config, onProgress Progress) *Watcher {
	cfg = cfg.withDefaults()
	w := &Watcher{
		b:          b,
		cfg:        cfg,
		onProgress: onProgress,
		log:        cfg.Logger,
		ring:       make([]ringEntry, cfg.ReorgDepth),
	}
	w.next.Store(cfg.From)
	if cfg.From > 0 && cfg.ResumeHash != (common.Hash{}) {
		w.remember(cfg.From-1, cfg.ResumeHash)
	}
	return w
}

// Subscribe adds a subscription: deliver is called, on the watcher's
// goroutine and in block/log order, with every verified log matching f from
// the blocks scanned from now on, and with the same log marked Removed if its
// block is later orphaned. deliver must not block for long (hand the log to
// an actor's mailbox). cancel removes the subscription: called from deliver
// itself, no further call follows; called from another goroutine, at most the
// one call the watcher was starting at that instant can still happen. cancel
// may be called more than once.
func (w *Watcher) Subscribe(f Filter, deliver func(Log)) (cancel func()) {
	s := &subscription{filter: cloneFilter(f), deliver: deliver}
	s.active.Store(true)
	w.subMu.Lock()
	w.subs = append(w.subs, s)
	w.subMu.Unlock()
	return func() {
		if !s.active.Swap(false) {
			return
		}
		w.subMu.Lock()
		w.subs = slices.DeleteFunc(w.subs, func(x *subscription) bool { return x == s })
		w.subMu.Unlock()
	}
}

func cloneFilter(f Filter) Filter {
	c := Filter{Addresses: slices.Clone(f.Addresses)}
	for _, t := range f.Topics {
		c.Topics = append(c.Topics, slices.Clone(t))
	}
	return c
}

// Next is the next block the watcher will scan.
func (w *Watcher) Next() uint64 { return w.next.Load() }

// Rejected is the number of logs the node returned that failed verification
// and were dropped.
func (w *Watcher) Rejected() uint64 { return w.rejected.Load() }

// Run polls until ctx is done (returning ctx.Err()) or a poll fails with
// ErrReorgTooDeep (returning it). Other errors (an unreachable node, a chain
// that moved during a scan) are logged and retried at the next tick. Where the
// backend carries new-head notifications (the embedded node, WebSocket), Run
// also polls as soon as a new head arrives; over plain HTTP it only ticks.
func (w *Watcher) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.followHeads(ctx, wake)
	}()
	defer func() {
		cancel()
		<-done
	}()

	t := time.NewTicker(w.cfg.PollInterval)
	defer t.Stop()
	for {
		if err := w.Poll(ctx); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if errors.Is(err, ErrReorgTooDeep) {
				return err
			}
			w.log.Warn("watch: poll failed; retrying", "err", err, "next_block", w.Next())
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case <-wake:
		}
	}
}

// followHeads signals wake on every new head. A subscription that ends (the
// connection to the node was lost) is made again, at most once per
// PollInterval; without notifications (plain HTTP) it returns at once and
// Run keeps ticking.
func (w *Watcher) followHeads(ctx context.Context, wake chan<- struct{}) {
	for {
		if err := w.followOnce(ctx, wake); errors.Is(err, rpc.ErrNotificationsUnsupported) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(w.cfg.PollInterval):
		}
	}
}

// followOnce follows one head subscription until it or ctx ends.
func (w *Watcher) followOnce(ctx context.Context, wake chan<- struct{}) error {
	heads := make(chan *types.Header, 16)
	// The context bounds the subscribe call only, not the subscription.
	cctx, cancel := context.WithTimeout(ctx, w.cfg.CallTimeout)
	sub, err := w.b.SubscribeNewHead(cctx, heads)
	cancel()
	if err != nil {
		return err
	}
	defer sub.Unsubscribe()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-sub.Err():
			return err
		case <-heads:
			select {
			case wake <- struct{}{}:
			default:
			}
		}
	}
}

// Poll runs one step: it checks that the last processed block is still
// canonical (handling a reorg as described in the package comment), then
// scans and delivers every block up to head - Confirmations, range by range.
// Errors other than ErrReorgTooDeep are transient: the state stays consistent
// and the next Poll continues.
func (w *Watcher) Poll(ctx context.Context) error {
	w.pollMu.Lock()
	defer w.pollMu.Unlock()

	if err := w.checkLast(ctx); err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, w.cfg.CallTimeout)
	head, err := w.b.BlockNumber(cctx)
	cancel()
	if err != nil {
		return fmt.Errorf("watch: head: %w", err)
	}
	if head < w.cfg.Confirmations {
		return nil
	}
	target := head - w.cfg.Confirmations
	for rewinds := 0; w.next.Load() <= target; {
		if err := ctx.Err(); err != nil {
			return err
		}
		from := w.next.Load()
		to := min(target, from+w.cfg.MaxRange-1)
		err := w.scan(ctx, from, to, target)
		if errors.Is(err, errReorg) && rewinds < 3 {
			rewinds++
			if err := w.rewind(ctx); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// CheckResume tells, before Run, whether the chain still holds the block the
// watcher resumes after (Config.ResumeHash): ErrReorgTooDeep if it does not
// (a reorg below it while the service was down, or another chain under the
// same genesis), the backend's error if it could not tell, nil if it does or
// there is nothing to check. A host calls it before it resumes what depends
// on the chain's history; Run checks again on its first poll.
func (w *Watcher) CheckResume(ctx context.Context) error { return w.checkLast(ctx) }

// checkLast rewinds if the last processed block (whose hash is remembered)
// is no longer canonical.
func (w *Watcher) checkLast(ctx context.Context) error {
	next := w.next.Load()
	if next == 0 {
		return nil
	}
	stored, ok := w.hashAt(next - 1)
	if !ok {
		return nil // nothing processed yet and no ResumeHash
	}
	h, err := w.header(ctx, next-1)
	if err != nil {
		return err
	}
	if h != nil && h.Hash() == stored {
		return nil
	}
	return w.rewind(ctx)
}

// rewind walks back from the last processed block to the highest remembered
// block that is still canonical, retracts what was delivered above it, and
// makes it the last processed block.
func (w *Watcher) rewind(ctx context.Context) error {
	last := w.next.Load() - 1
	n := last
	var fork common.Hash
	for {
		stored, ok := w.hashAt(n)
		if !ok {
			return fmt.Errorf("%w: block %d (last processed %d) is not canonical any more and block %d is not remembered (ReorgDepth %d)",
				ErrReorgTooDeep, n+1, last, n, w.cfg.ReorgDepth)
		}
		h, err := w.header(ctx, n)
		if err != nil {
			return err
		}
		if h != nil && h.Hash() == stored {
			fork = stored
			break
		}
		if n == 0 {
			return fmt.Errorf("%w: the genesis block changed", ErrReorgTooDeep)
		}
		n--
	}
	w.log.Warn("watch: reorg", "fork_block", n, "last_processed", last, "depth", last-n)

	// Retract, newest first, what was delivered from the orphaned blocks.
	for len(w.sent) > 0 && w.sent[len(w.sent)-1].log.BlockNumber > n {
		s := w.sent[len(w.sent)-1]
		w.sent[len(w.sent)-1] = sent{}
		w.sent = w.sent[:len(w.sent)-1]
		if s.sub.active.Load() {
			l := s.log
			l.Removed = true
			s.sub.deliver(Log{Log: l, Removed: true})
		}
	}
	for i := range w.ring {
		if w.ring[i].ok && w.ring[i].number > n {
			w.ring[i] = ringEntry{}
		}
	}
	w.next.Store(n + 1)
	if w.onProgress != nil {
		w.onProgress(n, fork)
	}
	return nil
}

// query is what one eth_getLogs asks for, derived from the subscriptions.
type query struct {
	addresses []common.Address // nil: any
	topic0    []common.Hash    // nil: any
}

func buildQuery(subs []*subscription) query {
	var q query
	anyAddr, anyTopic := false, false
	for _, s := range subs {
		if len(s.filter.Addresses) == 0 {
			anyAddr = true
		}
		for _, a := range s.filter.Addresses {
			if !slices.Contains(q.addresses, a) {
				q.addresses = append(q.addresses, a)
			}
		}
		if len(s.filter.Topics) == 0 || len(s.filter.Topics[0]) == 0 {
			anyTopic = true
		} else {
			for _, t := range s.filter.Topics[0] {
				if !slices.Contains(q.topic0, t) {
					q.topic0 = append(q.topic0, t)
				}
			}
		}
	}
	if anyAddr {
		q.addresses = nil
	}
	if anyTopic {
		q.topic0 = nil
	}
	return q
}

func (q query) allows(l *types.Log) bool {
	if q.addresses != nil && !slices.Contains(q.addresses, l.Address) {
		return false
	}
	if q.topic0 != nil && (len(l.Topics) == 0 || !slices.Contains(q.topic0, l.Topics[0])) {
		return false
	}
	return true
}

// scan reads, verifies and delivers blocks [from, to]; target is the highest
// block this poll scans (it decides which blocks' hashes to remember).
func (w *Watcher) scan(ctx context.Context, from, to, target uint64) error {
	w.subMu.Lock()
	subs := slices.Clone(w.subs)
	w.subMu.Unlock()
	q := buildQuery(subs)

	// The range's last header, before the logs are read.
	top, err := w.header(ctx, to)
	if err != nil {
		return err
	}
	if top == nil {
		return fmt.Errorf("%w: block %d not found", errChainMoved, to)
	}
	var logs []types.Log
	if len(subs) > 0 {
		fq := ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(from),
			ToBlock:   new(big.Int).SetUint64(to),
			Addresses: q.addresses,
		}
		if q.topic0 != nil {
			fq.Topics = [][]common.Hash{q.topic0}
		}
		cctx, cancel := context.WithTimeout(ctx, w.cfg.CallTimeout)
		logs, err = w.b.FilterLogs(cctx, fq)
		cancel()
		if err != nil {
			return fmt.Errorf("watch: logs of blocks %d-%d: %w", from, to, err)
		}
	}

	// Hashes of the blocks to remember: the range's last block, and every
	// block of the range within ReorgDepth of the target, each checked to be
	// the parent of the one above it.
	hashes := map[uint64]common.Hash{to: top.Hash()}
	keepFrom := from
	if depth := uint64(w.cfg.ReorgDepth); target+1 > depth && target+1-depth > keepFrom {
		keepFrom = target + 1 - depth
	}
	low := top
	for n := to; n > keepFrom; n-- {
		h, err := w.header(ctx, n-1)
		if err != nil {
			return err
		}
		if h == nil || h.Hash() != low.ParentHash {
			return fmt.Errorf("%w: block %d is not the parent of block %d", errChainMoved, n-1, n)
		}
		hashes[n-1] = h.Hash()
		low = h
	}
	// The chain did not move while the logs were read...
	again, err := w.header(ctx, to)
	if err != nil {
		return err
	}
	if again == nil || again.Hash() != top.Hash() {
		return fmt.Errorf("%w: block %d changed", errChainMoved, to)
	}
	// ... and it extends what was already processed.
	if from > 0 {
		if stored, ok := w.hashAt(from - 1); ok {
			parent := low.ParentHash
			if low.Number.Uint64() != from {
				h, err := w.header(ctx, from-1)
				if err != nil {
					return err
				}
				parent = common.Hash{}
				if h != nil {
					parent = h.Hash()
				}
			}
			if parent != stored {
				return fmt.Errorf("%w: block %d changed", errReorg, from-1)
			}
		}
	}

	logs, err = w.verify(logs, from, to, q, hashes)
	if err != nil {
		return err
	}

	// Deliver, remember, report.
	for _, l := range logs {
		for _, s := range subs {
			if !s.active.Load() || !s.filter.Matches(&l) {
				continue
			}
			s.deliver(Log{Log: l})
			w.sent = append(w.sent, sent{sub: s, log: l})
		}
	}
	for n, h := range hashes {
		w.remember(n, h)
	}
	w.next.Store(to + 1)
	w.forgetSent(to)
	if w.onProgress != nil {
		w.onProgress(to, top.Hash())
	}
	return nil
}

// verify drops (and counts) logs the node should not have returned, and
// sorts the rest by block and index. A log whose block hash differs from the
// verified hash of its block, or from another log of the same block, means
// the logs came from another version of the chain: errChainMoved.
func (w *Watcher) verify(logs []types.Log, from, to uint64, q query, hashes map[uint64]common.Hash) ([]types.Log, error) {
	type key struct{ block, index uint64 }
	seen := make(map[key]*types.Log, len(logs))
	blockHash := make(map[uint64]common.Hash)
	out := make([]types.Log, 0, len(logs))
	for _, l := range logs {
		var why string
		switch {
		case l.Removed:
			why = "flagged removed"
		case l.BlockNumber < from || l.BlockNumber > to:
			why = "outside the requested blocks"
		case !q.allows(&l):
			why = "address or topic 0 not asked for"
		case seen[key{l.BlockNumber, uint64(l.Index)}] != nil:
			if first := seen[key{l.BlockNumber, uint64(l.Index)}]; !sameLog(first, &l) {
				return nil, fmt.Errorf("%w: two different logs at block %d index %d", errChainMoved, l.BlockNumber, l.Index)
			}
			why = "duplicate"
		}
		if why != "" {
			w.rejected.Add(1)
			w.log.Warn("watch: log rejected", "why", why, "block", l.BlockNumber, "index", l.Index,
				"address", l.Address, "tx", l.TxHash, "from", from, "to", to)
			continue
		}
		seen[key{l.BlockNumber, uint64(l.Index)}] = &l
		if h, ok := hashes[l.BlockNumber]; ok && l.BlockHash != h {
			return nil, fmt.Errorf("%w: log of block %d has hash %s, block is %s", errChainMoved, l.BlockNumber, l.BlockHash, h)
		}
		if h, ok := blockHash[l.BlockNumber]; ok && l.BlockHash != h {
			return nil, fmt.Errorf("%w: logs of block %d carry two block hashes", errChainMoved, l.BlockNumber)
		}
		blockHash[l.BlockNumber] = l.BlockHash
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b types.Log) int {
		if a.BlockNumber != b.BlockNumber {
			if a.BlockNumber < b.BlockNumber {
				return -1
			}
			return 1
		}
		return int(a.Index) - int(b.Index)
	})
	return out, nil
}

func sameLog(a, b *types.Log) bool {
	return a.Address == b.Address && slices.Equal(a.Topics, b.Topics) && bytes.Equal(a.Data, b.Data) &&
		a.BlockHash == b.BlockHash && a.TxHash == b.TxHash && a.TxIndex == b.TxIndex
}

// header returns block n's header, nil if the node has no such block.
func (w *Watcher) header(ctx context.Context, n uint64) (*types.Header, error) {
	ctx, cancel := context.WithTimeout(ctx, w.cfg.CallTimeout)
	defer cancel()
	h, err := w.b.HeaderByNumber(ctx, new(big.Int).SetUint64(n))
	if errors.Is(err, ethereum.NotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("watch: header %d: %w", n, err)
	}
	if h == nil || h.Number == nil || !h.Number.IsUint64() || h.Number.Uint64() != n {
		return nil, fmt.Errorf("watch: node answered header %d with another block", n)
	}
	return h, nil
}

func (w *Watcher) remember(n uint64, h common.Hash) {
	w.ring[n%uint64(len(w.ring))] = ringEntry{number: n, hash: h, ok: true}
}

func (w *Watcher) hashAt(n uint64) (common.Hash, bool) {
	e := w.ring[n%uint64(len(w.ring))]
	if !e.ok || e.number != n {
		return common.Hash{}, false
	}
	return e.hash, true
}

// forgetSent drops delivered logs of blocks that can no longer be retracted:
// a rewind from last stops at a remembered block, at most ReorgDepth-1 below.
func (w *Watcher) forgetSent(last uint64) {
	depth := uint64(w.cfg.ReorgDepth)
	if last < depth {
		return
	}
	keep := last - depth // logs of blocks <= keep are final for the watcher
	i := 0
	for i < len(w.sent) && w.sent[i].log.BlockNumber <= keep {
		i++
	}
	if i > 0 {
		w.sent = slices.Delete(w.sent, 0, i)
	}
}
