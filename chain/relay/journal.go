package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/chain"
)

// Journal records each signed transaction durably before it is broadcast,
// so that a relayer taking the key over (another node of a cluster, when
// this one died: DESIGN.md, "Beyond one machine") can broadcast again what
// was signed and perhaps never reached the node, or reached a node that
// lost it. A nonce may be recorded more than once (a refused transaction,
// a dropped one sent again): the one recorded last is the one that counts.
type Journal interface {
	// Record keeps raw, the signed transaction with nonce, durably. An
	// error stops the broadcast: nothing is sent and the nonce stays free.
	Record(ctx context.Context, nonce uint64, raw []byte) error
}

// WithJournal records every transaction in j before it is broadcast.
func WithJournal(j Journal) Option { return func(r *Relayer) { r.journal = j } }

// record puts tx in the journal, if there is one. Called under sendMu.
func (r *Relayer) record(ctx context.Context, tx *types.Transaction) error {
	if r.journal == nil {
		return nil
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return fmt.Errorf("relay: encode nonce %d: %w", tx.Nonce(), err)
	}
	if err := r.journal.Record(ctx, tx.Nonce(), raw); err != nil {
		return fmt.Errorf("relay: journal nonce %d: %w", tx.Nonce(), err)
	}
	return nil
}

// Rebroadcast sends again, in nonce order, the journaled transactions of
// from that the chain has not mined (nonce at or above its mined nonce),
// one per nonce: latest holds, by nonce, the raw transaction recorded last.
// A relayer taking the key over calls it before its first Send, so no
// nonce below the ones it will use is left unsent. It returns how many the
// node holds pending now (sent, or known already). Re-sending is safe: a
// transaction is its nonce's, so the chain executes at most one per nonce.
// The node's other refusals (nonce used, underpriced) leave a nonce to
// what the node has; a call without an answer ends it with an error (call
// it again).
func Rebroadcast(ctx context.Context, b chain.Backend, from common.Address, latest map[uint64][]byte, logger *slog.Logger) (int, error) {
	mined, err := b.NonceAt(ctx, from, nil)
	if err != nil {
		return 0, fmt.Errorf("relay: mined nonce of %s: %w", from, err)
	}
	nonces := make([]uint64, 0, len(latest))
	for n := range latest {
		if n >= mined {
			nonces = append(nonces, n)
		}
	}
	slices.Sort(nonces)
	sent := 0
	for _, n := range nonces {
		var tx types.Transaction
		if err := tx.UnmarshalBinary(latest[n]); err != nil {
			return sent, fmt.Errorf("relay: journaled nonce %d: %w", n, err)
		}
		if tx.Nonce() != n {
			return sent, fmt.Errorf("relay: journaled nonce %d holds a transaction of nonce %d", n, tx.Nonce())
		}
		err := b.SendTransaction(ctx, &tx)
		switch {
		case err == nil || isAlreadyKnown(err):
			sent++
		case isRefusal(err):
			logger.Info("relay: journaled transaction not taken again", "nonce", n, "tx", tx.Hash().Hex(), "err", err.Error())
		default:
			return sent, errors.Join(fmt.Errorf("relay: rebroadcast nonce %d", n), err)
		}
	}
	return sent, nil
}
