package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/fxd-labs/fxd/domain"
)

// Entity rows: FX orders, transfers, payment links. Each is its own entity
// (its actor, its stored answers under a/<id>/i/ like an account's) and
// one keyspace serves every kind, keyed by the row's id, whose prefix
// (ord_, tr_, pl_) names the kind. In the same batch as the row:
//
//	r/<id>                  the row
//	al/<account>/<id>       the account's records of each kind (ids sort by
//	                        creation, so a prefix al/<account>/ord_ lists
//	                        the account's orders oldest first)
//	lv/<id>                 records not in an end state, resumed at start
//	pd/<endpoint>/<dlv id>  a webhook delivery still pending (value: its
//	                        event id), oldest first per endpoint
//	dl/<endpoint>/<dlv id>  every delivery to an endpoint (value: its event)
//	rk/<lookup key>         the record a key names (a link's receive address)
//	g/<account>/<id body>   the account's ledger, the entry in the value;
//	                        keyed by the id without its kind prefix, so
//	                        entries of every kind sort by creation together
var livePrefix = []byte("lv/")

func rowKey(id string) []byte               { return []byte("r/" + id) }
func accountListKey(acct, id string) []byte { return []byte("al/" + acct + "/" + id) }
func liveKey(id string) []byte              { return []byte("lv/" + id) }
func pendingKey(ep, dlv string) []byte      { return []byte("pd/" + ep + "/" + dlv) }
func deliveryKey(ep, dlv string) []byte     { return []byte("dl/" + ep + "/" + dlv) }
func lookupKey(k string) []byte             { return []byte("rk/" + k) }
func ledgerKey(acct, id string) []byte      { return []byte("g/" + acct + "/" + ledgerSortKey(id)) }
func ledgerPrefix(acct string) []byte       { return []byte("g/" + acct + "/") }

// ledgerSortKey is an id without its kind prefix: ids of every kind share
// the time-sortable body layout (package ids).
func ledgerSortKey(id string) string { return id[strings.LastIndexByte(id, '_')+1:] }

// claimKey is a transaction log's claim: cl/<claim id>/<log index>.
func claimKey(claimID string, i uint64) []byte {
	return []byte("cl/" + claimID + "/" + domain.ClaimKey(i))
}

// writeEntityRow writes a row and its indexes.
func writeEntityRow(b *pebble.Batch, r domain.Row) error {
	id, acct := r.RowID(), r.RowAccount()
	if err := b.Set(rowKey(id), r.MarshalRow(nil), nil); err != nil {
		return err
	}
	if err := b.Set(accountListKey(acct, id), nil, nil); err != nil {
		return err
	}
	for _, k := range r.LookupKeys() {
		if err := b.Set(lookupKey(k), []byte(id), nil); err != nil {
			return err
		}
	}
	for _, entry := range r.Ledger() {
		if err := b.Set(ledgerKey(acct, entry.ID), domain.MarshalLedger(nil, &entry), nil); err != nil {
			return err
		}
	}
	if !r.Live() {
		return b.Delete(liveKey(id), nil)
	}
	return b.Set(liveKey(id), nil, nil)
}

// Row reads the row stored under id; nil when there is none.
func (s *Store) Row(id string) (domain.Row, error) {
	v, err := s.get(rowKey(id))
	if err != nil || v == nil {
		return nil, err
	}
	r, err := domain.UnmarshalRow(id, v)
	if err != nil {
		return nil, fmt.Errorf("snapshot: row %s: %w", id, err)
	}
	return r, nil
}

// Load rebuilds an entity of kind k: an account from its rows, any other
// kind from its row (if any) and its stored answers. ok is false when the
// store holds nothing for id.
func (s *Store) Load(k domain.Kind, id string, now time.Time) (domain.Entity, bool, error) {
	switch k {
	case domain.KindAccount:
		return s.LoadAccount(id, now)
	case domain.KindClaim:
		return s.loadClaims(id)
	}
	row, err := s.Row(id)
	if err != nil {
		return nil, false, err
	}
	var idem []*domain.IdemRecord
	prefix := accountPrefix(id)
	err = s.scan(prefix, func(key, v []byte) error {
		if !bytes.HasPrefix(key[len(prefix):], []byte("i/")) {
			return fmt.Errorf("snapshot: %s: unknown row %q", id, key)
		}
		r, err := domain.UnmarshalIdem(v)
		if err != nil {
			return fmt.Errorf("snapshot: %s row %q: %w", id, key, err)
		}
		idem = append(idem, r)
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	st := domain.LoadEntity(k, row, idem, domain.Env{Now: now})
	return st, st.Exists(), nil
}

// loadClaims rebuilds the claim entity of one transaction.
func (s *Store) loadClaims(id string) (domain.Entity, bool, error) {
	st := domain.NewClaimState()
	err := s.scan([]byte("cl/"+id+"/"), func(k, v []byte) error {
		c, err := domain.UnmarshalClaim(v)
		if err != nil {
			return fmt.Errorf("snapshot: claim %q: %w", k, err)
		}
		st.Claims[c.LogIndex] = c
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return st, st.Exists(), nil
}

var errStop = errors.New("stop")

// AccountRows returns up to limit rows of acct of kind k, newest first,
// older than startingAfter when it is set.
func (s *Store) AccountRows(acct string, k domain.Kind, startingAfter string, limit int) ([]domain.Row, error) {
	prefix := accountListKey(acct, k.Prefix())
	upper := prefixEnd(prefix)
	if startingAfter != "" {
		// The cursor is the client's: any string. It bounds the scan only
		// inside the kind's own keys; beyond them (a cursor of another
		// kind, or "zzz") the scan would return the account's other rows
		// as this kind's. Below them nothing is older than the cursor.
		if after := accountListKey(acct, startingAfter); bytes.Compare(after, upper) < 0 {
			upper = after
		}
		if bytes.Compare(upper, prefix) <= 0 {
			return nil, nil
		}
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("snapshot: iterate %ss of %s: %w", k, acct, err)
	}
	start := len("al/" + acct + "/")
	var ids []string
	for it.Last(); it.Valid() && len(ids) < limit; it.Prev() {
		ids = append(ids, string(it.Key()[start:]))
	}
	if err := it.Close(); err != nil {
		return nil, fmt.Errorf("snapshot: iterate %ss of %s: %w", k, acct, err)
	}
	out := make([]domain.Row, 0, len(ids))
	for _, id := range ids {
		r, err := s.Row(id)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, fmt.Errorf("snapshot: account %s lists %s, which has no row", acct, id)
		}
		out = append(out, r)
	}
	return out, nil
}

// LiveRows calls fn for every row of kind k not in an end state whose id
// want takes (nil: every one), at most max. The ids are in the live index's
// keys, so a row want refuses is never read: a cluster node taking one
// partition up reads that partition's rows, not every partition's.
func (s *Store) LiveRows(k domain.Kind, want func(id string) bool, max int, fn func(domain.Row) error) error {
	n := 0
	prefix := append(append([]byte(nil), livePrefix...), k.Prefix()...)
	err := s.scan(prefix, func(key, _ []byte) error {
		id := string(key[len(livePrefix):])
		if want != nil && !want(id) {
			return nil
		}
		if n == max {
			return errStop
		}
		n++
		r, err := s.Row(id)
		if err != nil {
			return err
		}
		if r == nil {
			return fmt.Errorf("snapshot: live %q has no row", key)
		}
		return fn(r)
	})
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// RowByKey returns the row a lookup key names, or nil.
func (s *Store) RowByKey(key string) (domain.Row, error) {
	v, err := s.get(lookupKey(key))
	if err != nil || v == nil {
		return nil, err
	}
	return s.Row(string(v))
}
