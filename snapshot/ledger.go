package snapshot

import (
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/fxd-labs/fxd/domain"
)

// ledgerSkew is how much older than its row's created_at an entry's id may
// be: an order's id is its quote's (made up to a quote lifetime before
// the accept). A scan for From stops only past From minus this.
const ledgerSkew = 5 * time.Minute

// Ledger calls fn with the account's ledger entries that f selects,
// newest first, starting below entry startingAfter when it is set, until
// fn returns false or the entries run out. It reads through one iterator
// and holds one entry at a time, so a caller that pages (the export) runs
// in constant memory however long the ledger is.
func (s *Store) Ledger(acct, startingAfter string, f domain.LedgerFilter, fn func(*domain.LedgerEntry) bool) error {
	prefix := ledgerPrefix(acct)
	upper := prefixEnd(prefix)
	if startingAfter != "" {
		upper = ledgerKey(acct, startingAfter)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upper})
	if err != nil {
		return fmt.Errorf("snapshot: iterate the ledger of %s: %w", acct, err)
	}
	stopBefore := time.Time{}
	if !f.From.IsZero() {
		stopBefore = f.From.Add(-ledgerSkew)
	}
	for it.Last(); it.Valid(); it.Prev() {
		v, err := it.ValueAndErr()
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("snapshot: read %q: %w", it.Key(), err)
		}
		e, err := domain.UnmarshalLedger(v)
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("snapshot: ledger entry %q: %w", it.Key(), err)
		}
		if !stopBefore.IsZero() && e.CreatedAt.Before(stopBefore) {
			break
		}
		if f.Match(e) && !fn(e) {
			break
		}
	}
	return it.Close()
}
