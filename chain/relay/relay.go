// Package relay sends transactions with the service's gas-only key.
//
// The relayer's key pays gas and nothing else: the service never holds a
// user's key. What it broadcasts are payloads users signed themselves, for
// example RelayRouter.executeGaslessOrder(order, signature) carrying the
// user's Permit2 witness signature, or the escrow's refund; the contracts
// check those signatures and move the users' tokens, so the relayer account
// needs only ETH for gas and never sends value (every transaction has value 0).
// Callers verify a user's signature off-chain (chain/eip712) before handing
// the payload to Send; gas estimation then refuses what would revert, before
// a nonce is spent.
//
// A Relayer numbers its transactions itself: a local nonce counter,
// initialised from PendingNonceAt, taken and broadcast under one lock so that
// nonces reach the node strictly in order and without gaps. If the node
// refuses a transaction (any JSON-RPC error answer), its nonce is handed back
// for the next one. If the node says the nonce is taken ("nonce too low",
// "replacement transaction underpriced": another process used the key, or
// the node got a transaction whose outcome was unknown), the relayer re-reads
// PendingNonceAt and retries once with the new nonce, and never with the one
// refused (the pool's pending nonce can lag what it just took). If the
// outcome is unknown (the connection failed or ctx ended while the
// transaction was on its way), Send returns the signed transaction with an
// error wrapping ErrMaybeSent, and the next Send re-reads PendingNonceAt,
// which tells whether the node got it.
//
// A node that goes away and comes back (restarted, frozen, unreachable) may
// come back without its pool: the transactions sent to it and not mined are
// gone, and the local counter is past their nonces. So any call of the
// relayer that gets no answer from the node makes the next Send re-read
// PendingNonceAt, and Wait reports a transaction the node no longer knows
// (neither mined nor pending, twice, dropCheckEvery apart) as ErrDropped,
// which also makes the next Send re-read it: the caller sends again and the
// new transaction takes the freed nonce, so no gap is left.
//
// Holding the lock across the broadcast serialises sends: one round trip to
// the node per transaction (sub-millisecond for the embedded chain). That is
// what keeps nonces gap-free when the node refuses one; gas estimation and fee
// look-ups run outside the lock, concurrently.
package relay

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/fxd-labs/fxd/chain"
)

// Defaults of the options.
const (
	DefaultMaxInFlight  = 64
	DefaultPollInterval = 200 * time.Millisecond

	// dropCheckEvery spaces Wait's asks whether the node still knows the
	// transaction it waits for.
	dropCheckEvery = 2 * time.Second
	// dropAfter is how many answers in a row, dropCheckEvery apart, must
	// say the transaction is unknown before Wait reports ErrDropped: a
	// node thawing from a freeze may answer a look-up before it processed
	// the broadcast it received first.
	dropAfter = 2
)

var (
	// ErrBusy: MaxInFlight transactions are being sent or are sent and not yet
	// known to be mined. The caller retries later.
	ErrBusy = errors.New("relay: too many transactions in flight")
	// ErrMaybeSent: the broadcast failed in a way that leaves open whether the
	// node received the transaction (a transport error, ctx ended). Send
	// returns the signed transaction with it: it may still be mined, so a
	// caller that must not act twice waits for it (Wait, with a deadline) or
	// relies on the contract refusing a replay (a Permit2 nonce is single-use).
	ErrMaybeSent = errors.New("relay: transaction may have been broadcast")
	// ErrDropped: the node no longer knows a transaction Wait waited for
	// (neither mined nor pending: a restart lost its pool, or it evicted
	// it). It will not be mined; its nonce is free again and the next Send
	// takes it. The caller sends again (checking first, as for any retry,
	// that what it wanted is not done).
	ErrDropped = errors.New("relay: transaction dropped by the node")
)

// Option configures a Relayer.
type Option func(*Relayer)

// WithMaxInFlight bounds the transactions being sent or sent and not yet
// seen mined (default 64). Send returns ErrBusy beyond it.
func WithMaxInFlight(n int) Option {
	return func(r *Relayer) {
		if n > 0 {
			r.maxInFlight = n
		}
	}
}

// WithPollInterval sets how often Wait asks for a receipt (default 200 ms).
func WithPollInterval(d time.Duration) Option {
	return func(r *Relayer) {
		if d > 0 {
			r.poll = d
		}
	}
}

// Relayer sends transactions from one gas-paying key. It is safe for
// concurrent use.
type Relayer struct {
	b           chain.Backend
	key         *ecdsa.PrivateKey
	addr        common.Address
	signer      types.Signer
	maxInFlight int
	poll        time.Duration
	dropCheck   time.Duration // dropCheckEvery; tests shorten it
	journal     Journal       // nil: nothing recorded before a broadcast

	sendMu sync.Mutex // nonce allocation, signing and broadcast
	nonce  uint64     // next nonce, valid if synced
	synced bool
	// stale: a call got no answer from the node, or a transaction was
	// dropped, since the counter was last read: read it again before the
	// next broadcast. Set without sendMu (a broadcast may hold it for a
	// round trip to a node that does not answer).
	stale atomic.Bool

	slotMu   sync.Mutex
	reserved int                  // Sends holding a slot, not yet broadcast
	inflight []*types.Transaction // broadcast, not yet seen mined; by nonce
}

// New returns a relayer sending from key on the chain with chainID.
func New(b chain.Backend, key *ecdsa.PrivateKey, chainID *big.Int, opts ...Option) *Relayer {
	r := &Relayer{
		b:           b,
		key:         key,
		addr:        crypto.PubkeyToAddress(key.PublicKey),
		signer:      types.LatestSignerForChainID(chainID),
		maxInFlight: DefaultMaxInFlight,
		poll:        DefaultPollInterval,
		dropCheck:   dropCheckEvery,
	}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Address is the relayer's (gas-paying) account.
func (r *Relayer) Address() common.Address { return r.addr }

// InFlight is the number of transactions being sent or sent and not yet seen
// mined (what WithMaxInFlight bounds).
func (r *Relayer) InFlight() int {
	r.slotMu.Lock()
	defer r.slotMu.Unlock()
	return r.reserved + len(r.inflight)
}

// Send builds, signs and broadcasts an EIP-1559 transaction calling to with
// data (value 0). gasLimit 0 means estimate (eth_estimateGas on the pending
// state) plus 20% headroom; a call that reverts fails here, before a nonce is
// taken, with the node's error (revert data included, see rpc.DataError). The
// fee cap is 2 * the latest base fee + the suggested tip. Send returns the
// transaction once the node accepted it into its pool; Wait waits for it to
// be mined.
//
// Errors: ErrBusy when MaxInFlight transactions are in flight; the node's
// error when it refused the transaction (nothing was sent, no nonce used); an
// error wrapping ErrMaybeSent, with the transaction, when the outcome is
// unknown.
func (r *Relayer) Send(ctx context.Context, to common.Address, data []byte, gasLimit uint64) (*types.Transaction, error) {
	if !r.reserve(ctx) {
		return nil, ErrBusy
	}
	sent := false
	defer func() {
		if !sent {
			r.release()
		}
	}()

	head, err := r.b.HeaderByNumber(ctx, nil)
	if err != nil {
		r.noteErr(err)
		return nil, fmt.Errorf("relay: latest header: %w", err)
	}
	if head.BaseFee == nil {
		return nil, errors.New("relay: the chain has no base fee (EIP-1559 is required)")
	}
	tip, err := r.b.SuggestGasTipCap(ctx)
	if err != nil {
		r.noteErr(err)
		return nil, fmt.Errorf("relay: gas tip: %w", err)
	}
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	if gasLimit == 0 {
		est, err := r.b.EstimateGas(ctx, ethereum.CallMsg{From: r.addr, To: &to, Data: data})
		if err != nil {
			r.noteErr(err)
			return nil, fmt.Errorf("relay: estimate gas: %w", err)
		}
		gasLimit = est + est/5
	}
	unsigned := &types.DynamicFeeTx{
		ChainID:   r.signer.ChainID(),
		GasTipCap: tip,
		GasFeeCap: feeCap,
		Gas:       gasLimit,
		To:        &to,
		Value:     new(big.Int),
		Data:      slices.Clone(data),
	}

	tx, err := r.broadcast(ctx, unsigned)
	if tx != nil {
		sent = true
		r.slotMu.Lock()
		r.reserved--
		r.inflight = append(r.inflight, tx)
		r.slotMu.Unlock()
	}
	return tx, err
}

// broadcast numbers, signs and sends the transaction under sendMu. It returns
// a nil transaction if the node certainly does not have it.
func (r *Relayer) broadcast(ctx context.Context, unsigned *types.DynamicFeeTx) (*types.Transaction, error) {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	if stale := r.stale.Swap(false); !r.synced || stale {
		if err := r.resync(ctx); err != nil {
			return nil, err
		}
	}
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, err // not sent
		}
		unsigned.Nonce = r.nonce
		tx, err := types.SignNewTx(r.key, r.signer, unsigned)
		if err != nil {
			return nil, fmt.Errorf("relay: sign: %w", err)
		}
		if err := r.record(ctx, tx); err != nil {
			return nil, err // not sent; the nonce is still free
		}
		err = r.b.SendTransaction(ctx, tx)
		switch {
		case err == nil || isAlreadyKnown(err):
			// Already known: this very transaction (same hash) is in the
			// node's pool, so it is broadcast; re-sending it would spend
			// another nonce on the same payload.
			r.nonce++
			return tx, nil
		case isNonceTaken(err) && attempt == 0:
			if err := r.resync(ctx); err != nil {
				return nil, err
			}
			// The node just said this nonce is taken; its pending nonce
			// can still say otherwise for a moment (geth promotes a
			// transaction it took to pending asynchronously), so it is
			// at least the next one.
			r.nonce = max(r.nonce, tx.Nonce()+1)
			continue
		case isRefusal(err):
			// The node answered no: nothing was sent and the nonce is
			// still free; the counter was not advanced.
			return nil, fmt.Errorf("relay: node refused transaction (nonce %d): %w", tx.Nonce(), err)
		default:
			// Transport failure: the node may or may not have the
			// transaction. The next Send asks the node for the nonce.
			r.synced = false
			return tx, fmt.Errorf("%w (nonce %d, tx %s): %w", ErrMaybeSent, tx.Nonce(), tx.Hash(), err)
		}
	}
}

// resync sets the counter from the node's pending nonce. Called under sendMu.
func (r *Relayer) resync(ctx context.Context) error {
	n, err := r.b.PendingNonceAt(ctx, r.addr)
	if err != nil {
		r.synced = false
		return fmt.Errorf("relay: pending nonce of %s: %w", r.addr, err)
	}
	r.nonce, r.synced = n, true
	return nil
}

// isRefusal: the node answered the request with a JSON-RPC error, so it
// processed and rejected it (as opposed to a failed connection).
func isRefusal(err error) bool {
	var re rpc.Error
	return errors.As(err, &re)
}

func isNonceTaken(err error) bool {
	if !isRefusal(err) {
		return false
	}
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "nonce too low") || strings.Contains(m, "replacement transaction underpriced")
}

func isAlreadyKnown(err error) bool {
	if !isRefusal(err) {
		return false
	}
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "already known") || strings.Contains(m, "known transaction") ||
		strings.Contains(m, "already imported")
}

// Wait polls for tx's receipt until it is mined or ctx ends. The receipt may
// have failed status (a revert): the caller checks receipt.Status. A
// transaction the node no longer knows (dropped from its pool, or lost with
// it in a restart) is never mined: Wait reports ErrDropped once the node
// said so dropAfter times in a row, dropCheckEvery apart; it then leaves
// the in-flight set and the next Send re-reads the nonce.
func (r *Relayer) Wait(ctx context.Context, tx *types.Transaction) (*types.Receipt, error) {
	rc, err := waitMined(ctx, r.b, tx, r.poll, r.dropCheck, r.noteErr)
	switch {
	case err == nil:
		r.done(tx.Hash())
	case errors.Is(err, ErrDropped):
		r.done(tx.Hash())
		r.stale.Store(true)
	}
	return rc, err
}

// Dropped is told that another process's Wait (WaitMined) found the
// transaction h dropped by the node: its slot is freed and the next Send
// re-reads the nonce, as after this relayer's own Wait said ErrDropped.
func (r *Relayer) Dropped(h common.Hash) {
	r.done(h)
	r.stale.Store(true)
}

// WaitMined is Wait for a transaction another relayer sent (a cluster
// node's, sent by the relayer on another node): the same polling and the
// same drop detection, at the default intervals.
func WaitMined(ctx context.Context, b chain.Backend, tx *types.Transaction) (*types.Receipt, error) {
	return waitMined(ctx, b, tx, DefaultPollInterval, dropCheckEvery, func(error) {})
}

// waitMined polls b every poll for tx's receipt until it is mined, ctx
// ends, or the node said dropAfter times in a row, dropCheck apart, that
// it does not know tx (ErrDropped). A look-up without an answer counts
// neither way; noteErr hears every error that is not the node's answer.
func waitMined(ctx context.Context, b chain.Backend, tx *types.Transaction, poll, dropCheck time.Duration, noteErr func(error)) (*types.Receipt, error) {
	t := time.NewTicker(poll)
	defer t.Stop()
	next, unknown := time.Now().Add(dropCheck), 0
	for {
		rc, err := b.TransactionReceipt(ctx, tx.Hash())
		switch {
		case err == nil && rc != nil:
			return rc, nil
		case err != nil && !errors.Is(err, ethereum.NotFound):
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			noteErr(err) // a transient error from the node: keep polling
		case !time.Now().Before(next):
			next = time.Now().Add(dropCheck)
			switch _, _, err := b.TransactionByHash(ctx, tx.Hash()); {
			case errors.Is(err, ethereum.NotFound):
				unknown++
			case err == nil:
				unknown = 0
			default:
				noteErr(err)
			}
			if unknown >= dropAfter {
				return nil, fmt.Errorf("%w: tx %s (nonce %d)", ErrDropped, tx.Hash(), tx.Nonce())
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// noteErr marks the nonce counter stale when err is not the node's answer
// (a transport failure, a deadline): the node may be restarting and may
// come back without the transactions in its pool.
func (r *Relayer) noteErr(err error) {
	if err != nil && !isRefusal(err) && !errors.Is(err, ethereum.NotFound) {
		r.stale.Store(true)
	}
}

// reserve takes an in-flight slot, first forgetting transactions that were
// mined (or dropped) if the relayer looks full.
func (r *Relayer) reserve(ctx context.Context) bool {
	if r.tryReserve() {
		return true
	}
	r.prune(ctx)
	return r.tryReserve()
}

func (r *Relayer) tryReserve() bool {
	r.slotMu.Lock()
	defer r.slotMu.Unlock()
	if r.reserved+len(r.inflight) >= r.maxInFlight {
		return false
	}
	r.reserved++
	return true
}

func (r *Relayer) release() {
	r.slotMu.Lock()
	r.reserved--
	r.slotMu.Unlock()
}

func (r *Relayer) done(h common.Hash) {
	r.slotMu.Lock()
	defer r.slotMu.Unlock()
	r.inflight = slices.DeleteFunc(r.inflight, func(tx *types.Transaction) bool { return tx.Hash() == h })
}

// prune frees the slots of in-flight transactions that are mined (callers
// need not Wait for every transaction) or gone from the node. The relayer's
// nonces are sequential, so if the newest is mined all are; otherwise it
// walks from the oldest and stops at the first one still pending.
func (r *Relayer) prune(ctx context.Context) {
	r.slotMu.Lock()
	txs := slices.Clone(r.inflight)
	r.slotMu.Unlock()
	if len(txs) == 0 {
		return
	}
	slices.SortFunc(txs, func(a, b *types.Transaction) int { return cmp.Compare(a.Nonce(), b.Nonce()) })
	var gone []common.Hash
	if rc, err := r.b.TransactionReceipt(ctx, txs[len(txs)-1].Hash()); err == nil && rc != nil {
		for _, tx := range txs {
			gone = append(gone, tx.Hash())
		}
	} else {
		for _, tx := range txs {
			if rc, err := r.b.TransactionReceipt(ctx, tx.Hash()); err == nil && rc != nil {
				gone = append(gone, tx.Hash())
				continue
			}
			if _, _, err := r.b.TransactionByHash(ctx, tx.Hash()); errors.Is(err, ethereum.NotFound) {
				// Dropped: replaced or evicted. A gap it may leave is
				// closed by re-reading the pending nonce.
				gone = append(gone, tx.Hash())
				r.sendMu.Lock()
				r.synced = false
				r.sendMu.Unlock()
				continue
			}
			break
		}
	}
	r.slotMu.Lock()
	defer r.slotMu.Unlock()
	r.inflight = slices.DeleteFunc(r.inflight, func(tx *types.Transaction) bool { return slices.Contains(gone, tx.Hash()) })
}
