package snapshot

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/fxd-labs/fxd/domain"
)

// Store is the Pebble database. It is safe for concurrent use; only the
// applier writes rows.
type Store struct {
	db  *pebble.DB
	dir string
}

// Open opens (or creates) the store in dir. Pebble's background storage
// errors are only logged; the service opens it with OpenFatal.
func Open(dir string) (*Store, error) { return OpenFatal(dir, nil, nil) }

// CacheBytes is Pebble's block cache (allocated outside the Go heap, and
// only as blocks are read). Pebble's default, 8 MiB, did not hold the
// index blocks of a store of a few hundred thousand records, so every
// activation read went to the files: BenchmarkLoad measured the load of
// an id the store does not hold (every create of a fresh record) at
// 37-46 µs with 8 MiB and 10-13 µs with 16 MiB over 200,000 stored
// orders, 74 and 11 µs over 1,000,000. 32 and 64 MiB did no better, and
// a scan as long as the ledger export fills the cache whole (its RSS
// growth is the cache plus what the export itself holds).
const CacheBytes = 16 << 20

// OpenFatal is Open whose Pebble hands fatal (which must end the process)
// every storage error it meets in the background: a failed flush or
// compaction (which Pebble would retry in a tight loop, logging each try,
// while Sync waits forever) and a failed MANIFEST write (which Pebble
// ends with Logger.Fatalf, a panic on its own goroutine). See fatal.go.
func OpenFatal(dir string, fatal func(error), log *slog.Logger) (*Store, error) {
	// No Pebble WAL: our log is the truth and Pebble only trails it. A
	// crash loses Pebble's memtable, including the applied index written in
	// the same batches, so Pebble always reopens at a consistent prefix of
	// the log and recovery replays the rest. Sync flushes the memtable
	// before the log is truncated in front of it.
	ql := quietLogger{fatal: fatal, log: log}
	opts := &pebble.Options{Logger: ql, DisableWAL: true, CacheSize: CacheBytes}
	if fatal != nil {
		opts.EventListener = &pebble.EventListener{BackgroundError: backgroundError(ql)}
	}
	db, err := pebble.Open(dir, opts)
	if err != nil {
		return nil, fmt.Errorf("snapshot: open %s: %w", dir, err)
	}
	return &Store{db: db, dir: dir}, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// AppliedIndex is the last index of the first (a single node's only) log
// whose rows the store holds.
func (s *Store) AppliedIndex() (uint64, error) { return s.PartAppliedIndex(0) }

// PartAppliedIndex is the last index of log part whose rows the store holds.
func (s *Store) PartAppliedIndex(part int) (uint64, error) {
	v, err := s.get(appliedKey(part))
	if err != nil || v == nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("snapshot: applied index has %d bytes", len(v))
	}
	return binary.LittleEndian.Uint64(v), nil
}

// get returns a copy of the value, or nil when absent.
func (s *Store) get(k []byte) ([]byte, error) {
	v, closer, err := s.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("snapshot: get %q: %w", k, err)
	}
	out := append([]byte(nil), v...)
	return out, closer.Close()
}

// Meta reads a service fact written by an EvMetaPut ("" when absent).
func (s *Store) Meta(key string) (string, error) {
	v, err := s.get(metaKey(key))
	return string(v), err
}

// Sync makes every applied batch durable by flushing the memtable to
// sstables; until it returns, the log is the only durable copy.
func (s *Store) Sync() error {
	if err := s.db.Flush(); err != nil {
		return fmt.Errorf("snapshot: flush: %w", err)
	}
	return nil
}

// scan calls fn for every key with the prefix, in key order. The slices
// are valid only during the call.
func (s *Store) scan(prefix []byte, fn func(k, v []byte) error) error {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return fmt.Errorf("snapshot: iterate %q: %w", prefix, err)
	}
	for it.First(); it.Valid(); it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			_ = it.Close()
			return fmt.Errorf("snapshot: read %q: %w", it.Key(), err)
		}
		if err := fn(it.Key(), v); err != nil {
			_ = it.Close()
			return err
		}
	}
	return it.Close()
}

// LoadAccount rebuilds an account's state from its rows. ok is false when
// the account does not exist. Idempotency records expired at now are
// skipped.
func (s *Store) LoadAccount(acct string, now time.Time) (st *domain.AccountState, ok bool, err error) {
	st = domain.NewAccountState()
	var idem []*domain.IdemRecord
	prefix := accountPrefix(acct)
	err = s.scan(prefix, func(k, v []byte) error {
		rest := k[len(prefix):]
		var derr error
		switch {
		case bytes.Equal(rest, []byte("p")):
			st.Account, derr = domain.UnmarshalAccount(v)
		case bytes.HasPrefix(rest, []byte("k/")):
			var key *domain.APIKey
			if key, derr = domain.UnmarshalKey(v); derr == nil {
				st.AddKey(key)
			}
		case bytes.HasPrefix(rest, []byte("c/")):
			var c *domain.Contact
			if c, derr = domain.UnmarshalContact(v); derr == nil {
				st.AddContact(c)
			}
		case bytes.HasPrefix(rest, []byte("w/")):
			var w *domain.Wallet
			if w, derr = domain.UnmarshalWallet(v); derr == nil {
				st.AddWallet(w)
			}
		case bytes.HasPrefix(rest, []byte("h/")):
			var c *domain.Challenge
			if c, derr = domain.UnmarshalChallenge(v); derr == nil {
				st.AddChallenge(c)
			}
		case bytes.HasPrefix(rest, []byte("i/")):
			var r *domain.IdemRecord
			r, derr = domain.UnmarshalIdem(v)
			idem = append(idem, r)
		default:
			derr = errors.New("unknown row")
		}
		if derr != nil {
			return fmt.Errorf("snapshot: account %s row %q: %w", acct, k, derr)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	st.Idem.Load(idem, now)
	return st, st.Account != nil, nil
}

// Keys calls fn for every API key in the directory.
func (s *Store) Keys(fn func(*domain.APIKey) error) error {
	return s.scan(directoryPrefix, func(k, v []byte) error {
		key, err := domain.UnmarshalKey(v)
		if err != nil {
			return fmt.Errorf("snapshot: key row %q: %w", k, err)
		}
		return fn(key)
	})
}

// Checkpoint writes a consistent copy of the store to dir (which must not
// exist) and returns the applied index it holds.
func (s *Store) Checkpoint(dir string) (uint64, error) {
	if err := s.Sync(); err != nil { // no WAL: the memtable must be in sstables
		return 0, err
	}
	if err := s.db.Checkpoint(dir); err != nil {
		return 0, fmt.Errorf("snapshot: checkpoint %s: %w", dir, err)
	}
	cp, err := Open(dir)
	if err != nil {
		return 0, err
	}
	defer cp.Close()
	return cp.AppliedIndex()
}
