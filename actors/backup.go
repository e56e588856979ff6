package actors

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/snapshot"
	"github.com/fxd-labs/fxd/wal"
)

// ErrBackupRunning is returned by BackupState while another backup runs:
// one at a time, so that the log pin below has one owner.
var ErrBackupRunning = errors.New("actors: a backup is already running")

// errClosing refuses a backup of an engine that is closing.
var errClosing = errors.New("actors: backup: the engine is closing")

// MetaLastBackup is the meta key of the record a backup appends to the log
// after its checkpoint (value: the backup's created_at, RFC 3339 UTC).
const MetaLastBackup = "last_backup"

// backupGuard serializes backups and pins the log: while a backup runs,
// the applier's compaction drops no segment holding an index at or after
// pin, so the records after the checkpoint's applied index stay on disk
// until they are copied.
type backupGuard struct {
	mu     sync.Mutex
	closed bool          // guarded by mu: the engine is closing, no more backups
	pin    atomic.Uint64 // first index to keep; 0: no backup running
}

// close waits for a running BackupState to finish and refuses later ones.
// Engine.Close calls it before it closes the log and the store, which a
// backup reads (Pebble panics on a closed database).
func (g *backupGuard) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

// truncateBefore is the index compaction may truncate the log in front
// of, given the store's synced applied index: applied+1, or less while a
// backup holds the pin.
//
// The pin is set to applied+1 before the checkpoint is taken, and the
// checkpoint holds at least that applied index (it flushes first). A
// compaction that read its applied index before the pin was set truncates
// in front of an index at most as high, so nothing at or after the
// checkpoint's index+1 is ever dropped under the copy.
func (g *backupGuard) truncateBefore(applied uint64) uint64 {
	if p := g.pin.Load(); p != 0 && p < applied+1 {
		return p
	}
	return applied + 1
}

// StateBackup is what BackupState wrote: a checkpoint of the store at the
// applied index A and a copy of the log records A+1..L.
type StateBackup struct {
	AppliedIndex uint64         // A: the checkpoint holds records 1..A
	LastIndex    uint64         // L: the log copy holds A+1..L, every record durable when the copy began
	Log          wal.CopyReport // the log copy
}

// BackupState writes a consistent copy of the engine's state while it
// serves: a store checkpoint into stateDir and the log records after the
// checkpoint's applied index into walDir (both must not exist), so that
// recovery over the two rebuilds exactly the state of log index L.
//
// Between the two it appends one record of its own (MetaLastBackup), so
// the log copy is never empty: a log directory with no record would be
// opened as a new log starting at index 1. L is the last durable index
// once that record is: every write acknowledged before BackupState was
// called is at or below it.
func (e *Engine) BackupState(stateDir, walDir string, now time.Time) (StateBackup, error) {
	if !e.ready.Load() {
		return StateBackup{}, ErrNotReady
	}
	p := e.metaPart()
	if p.local == nil {
		// A backup is a store checkpoint plus the local log's records
		// after it; a cluster's log is the replicated stream itself.
		return StateBackup{}, ErrBackupClusterLog
	}
	if !e.backup.mu.TryLock() {
		return StateBackup{}, ErrBackupRunning
	}
	defer e.backup.mu.Unlock()
	if e.backup.closed {
		return StateBackup{}, errClosing
	}
	e.backup.pin.Store(p.applied.Load() + 1)
	defer e.backup.pin.Store(0)

	if err := e.store.WriteCheckpoint(stateDir); err != nil {
		return StateBackup{}, fmt.Errorf("actors: backup: %w", err)
	}
	applied, err := checkpointIndex(stateDir)
	if err != nil {
		return StateBackup{}, err
	}
	rec := domain.Record{Events: []domain.Event{{Kind: domain.EvMetaPut, ID: MetaLastBackup, Value: now.UTC().Format(time.RFC3339)}}}
	if _, err := p.log().Append(domain.MarshalRecord(nil, &rec)); err != nil {
		return StateBackup{}, fmt.Errorf("actors: backup: record %s: %w", MetaLastBackup, err)
	}
	last := p.log().LastIndex()
	rep, err := p.local.CopyRange(walDir, applied+1, last)
	if err != nil {
		return StateBackup{}, fmt.Errorf("actors: backup: %w", err)
	}
	return StateBackup{AppliedIndex: applied, LastIndex: last, Log: rep}, nil
}

// ErrBackupClusterLog refuses a backup of an engine on a cluster log.
var ErrBackupClusterLog = errors.New("actors: backup copies the local log; this engine's log is a cluster stream")

// checkpointIndex reads the applied index of the checkpoint in dir.
func checkpointIndex(dir string) (uint64, error) {
	cp, err := snapshot.OpenReadOnly(dir)
	if err != nil {
		return 0, fmt.Errorf("actors: backup: %w", err)
	}
	applied, err := cp.AppliedIndex()
	if cerr := cp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("actors: backup: checkpoint %s: %w", dir, err)
	}
	return applied, nil
}
