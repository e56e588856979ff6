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

// LedgerRows calls fn with the account's ledger entries that f selects,
// newest first, starting below entry startingAfter when it is set, until
// fn returns false or the entries run out. Each row is read in place from
// the iterator (valid only during the call) and nothing is allocated per
// entry, so a caller that pages (the export) runs in constant memory and
// near-constant garbage however long the ledger is.
func (s *Store) LedgerRows(acct, startingAfter string, f domain.LedgerFilter, fn func(*domain.LedgerRow) bool) error {
	prefix := ledgerPrefix(acct)
	upper := prefixEnd(prefix)
	if startingAfter != "" {
		upper = ledgerKey(acct, startingAfter)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upper})
	if err != nil {
		return fmt.Errorf("snapshot: iterate the ledger of %s: %w", acct, err)
	}
	var stopBefore time.Time
	if !f.From.IsZero() {
		stopBefore = f.From.Add(-ledgerSkew)
	}
	var row domain.LedgerRow
	for it.Last(); it.Valid(); it.Prev() {
		v, err := it.ValueAndErr()
		if err == nil {
			err = domain.ParseLedgerRow(v, &row)
		}
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("snapshot: ledger entry %q: %w", it.Key(), err)
		}
		if !stopBefore.IsZero() && row.CreatedAt.Before(stopBefore) {
			break
		}
		if f.MatchRow(&row) && !fn(&row) {
			break
		}
	}
	return it.Close()
}

// Ledger is LedgerRows with each selected entry decoded (the list's few).
func (s *Store) Ledger(acct, startingAfter string, f domain.LedgerFilter, fn func(*domain.LedgerEntry) bool) error {
	var derr error
	err := s.LedgerRows(acct, startingAfter, f, func(r *domain.LedgerRow) bool {
		var e *domain.LedgerEntry
		if e, derr = domain.UnmarshalLedger(r.Raw); derr != nil {
			return false
		}
		return fn(e)
	})
	if err == nil && derr != nil {
		err = fmt.Errorf("snapshot: ledger of %s: %w", acct, derr)
	}
	return err
}
