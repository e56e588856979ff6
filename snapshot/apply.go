package snapshot

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/fxd-labs/fxd/domain"
)

// Applied is one committed log record and its index.
type Applied struct {
	Index  uint64
	Record *domain.Record
}

// ApplyPart writes the rows of consecutive committed records of log part
// and that log's new applied index in one Pebble batch. Records must
// follow the log's applied index without a gap; anything else is a broken
// invariant. Parts are independent logs (a cluster node's partition
// streams) whose records touch disjoint rows, so their batches may commit
// concurrently.
func (s *Store) ApplyPart(part int, prev uint64, recs []Applied) error {
	if len(recs) == 0 {
		return nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	want := prev + 1
	for _, a := range recs {
		if a.Index != want {
			panic(fmt.Sprintf("snapshot: apply index %d after %d", a.Index, want-1))
		}
		want++
		for i := range a.Record.Events {
			if err := writeRow(b, a.Record.Entity, &a.Record.Events[i]); err != nil {
				return fmt.Errorf("snapshot: apply index %d: %w", a.Index, err)
			}
		}
	}
	var idx [8]byte
	binary.LittleEndian.PutUint64(idx[:], recs[len(recs)-1].Index)
	if err := b.Set(appliedKey(part), idx[:], nil); err != nil {
		return err
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("snapshot: commit: %w", err)
	}
	return nil
}

// writeRow turns one event into its row writes. Events are state transfers,
// so no state is needed: the row value is in the event.
func writeRow(b *pebble.Batch, acct string, e *domain.Event) error {
	switch e.Kind {
	case domain.EvAccountPut:
		return b.Set(profileKey(acct), domain.MarshalAccount(nil, e.Account), nil)
	case domain.EvKeyPut:
		row := domain.MarshalKey(nil, e.Key)
		if err := b.Set(accountKeyKey(acct, e.Key.ID), row, nil); err != nil {
			return err
		}
		return b.Set(directoryKey(e.Key.ID), row, nil)
	case domain.EvContactPut:
		return b.Set(contactKey(acct, e.Contact.ID), domain.MarshalContact(nil, e.Contact), nil)
	case domain.EvContactDeleted:
		return b.Delete(contactKey(acct, e.ID), nil)
	case domain.EvWalletPut:
		return b.Set(walletKey(acct, e.Wallet.Address), domain.MarshalWallet(nil, e.Wallet), nil)
	case domain.EvWalletDeleted:
		return b.Delete(walletKey(acct, e.ID), nil)
	case domain.EvChallengePut:
		return b.Set(challengeKey(acct, e.Challenge.Nonce), domain.MarshalChallenge(nil, e.Challenge), nil)
	case domain.EvChallengeDeleted:
		return b.Delete(challengeKey(acct, e.ID), nil)
	case domain.EvOrderPut, domain.EvTransferPut, domain.EvLinkPut, domain.EvEndpointPut:
		return writeEntityRow(b, e.Row())
	case domain.EvWebhookEventPut:
		if err := writeEntityRow(b, e.WebhookEvent); err != nil {
			return err
		}
		return writeDeliveries(b, e.WebhookEvent)
	case domain.EvClaimPut:
		return b.Set(claimKey(acct, e.Claim.LogIndex), domain.MarshalClaim(nil, e.Claim), nil)
	case domain.EvMetaPut:
		return b.Set(metaKey(e.ID), []byte(e.Value), nil)
	case domain.EvIdemPut:
		if err := b.Set(idemKey(acct, e.Idem.Scope), domain.MarshalIdem(nil, e.Idem), nil); err != nil {
			return err
		}
		return b.Set(expiryKey(sweepTime(e.Idem), acct, e.Idem.Scope), nil, nil)
	}
	panic(fmt.Sprintf("snapshot: no row for event kind %d", e.Kind))
}

// sweepTime is the instant r's expiry entry is filed under: an answer's
// creation time, since SweepIdem cuts at now less the retention; for a
// signature guard the instant that would expire at its Until, so that one
// cut serves both (and rows written before guards existed keep their keys).
func sweepTime(r *domain.IdemRecord) time.Time { return r.ExpiresAt().Add(-domain.IdemRetention) }

// SweepIdem deletes idempotency rows older than the retention at now, at
// most max of them per call (a bounded batch), and reports how many went.
func (s *Store) SweepIdem(now time.Time, max int) (int, error) {
	cut := now.Add(-domain.IdemRetention)
	b := s.db.NewBatch()
	defer b.Close()
	n := 0
	stop := fmt.Errorf("stop")
	err := s.scan(expiryPrefix, func(k, _ []byte) error {
		created, acct, scope, ok := parseExpiryKey(k)
		if !ok {
			return fmt.Errorf("snapshot: bad expiry key %q", k)
		}
		if n >= max || created.After(cut) {
			return stop
		}
		// The same scope may have been stored again after it expired: only
		// delete the row this expiry entry was made for.
		row, err := s.get(idemKey(acct, scope))
		if err != nil {
			return err
		}
		if row != nil {
			if r, err := domain.UnmarshalIdem(row); err == nil && sweepTime(r).Equal(created) {
				if err := b.Delete(idemKey(acct, scope), nil); err != nil {
					return err
				}
			}
		}
		n++
		return b.Delete(append([]byte(nil), k...), nil)
	})
	if err != nil && err != stop {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	return n, b.Commit(pebble.NoSync)
}
