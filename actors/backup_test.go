package actors

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/wal"
	"github.com/stretchr/testify/require"
)

func TestTruncateBefore(t *testing.T) {
	tests := []struct {
		name          string
		pin, applied  uint64
		wantTruncated uint64
	}{
		{"no backup", 0, 99, 100},
		{"pin behind the store", 40, 99, 40},
		{"pin at the store", 100, 99, 100},
		{"pin ahead of a compaction that read an older index", 120, 99, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var g backupGuard
			g.pin.Store(tc.pin)
			require.Equal(t, tc.wantTruncated, g.truncateBefore(tc.applied))
		})
	}
}

func TestBackupStateRefuses(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(Config{DataDir: dir, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(t, err)
	_, err = e.BackupState(filepath.Join(dir, "b1", "state"), filepath.Join(dir, "b1", "wal"), time.Now())
	require.ErrorIs(t, err, ErrNotReady, "not before recovery")
	require.NoError(t, e.Recover())

	e.backup.mu.Lock() // as if a backup were running
	_, err = e.BackupState(filepath.Join(dir, "b2", "state"), filepath.Join(dir, "b2", "wal"), time.Now())
	require.ErrorIs(t, err, ErrBackupRunning)
	require.NoDirExists(t, filepath.Join(dir, "b2"))

	// Close waits for the running backup before it closes the log and
	// the store the backup reads.
	closed := make(chan error, 1)
	go func() { closed <- e.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned during a backup: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	e.backup.mu.Unlock() // the backup ends
	require.NoError(t, <-closed)
	_, err = e.BackupState(filepath.Join(dir, "b3", "state"), filepath.Join(dir, "b3", "wal"), time.Now())
	require.ErrorIs(t, err, errClosing)
}

// ackedWrite is one acknowledged contact create and the log indexes its
// record must lie between: above the last index seen before it was sent,
// at or below the last index seen once it was acknowledged.
type ackedWrite struct {
	name   string
	lo, hi uint64
}

// TestBackupStateUnderLoad takes a backup while writers keep creating
// contacts, with small log segments and a store sync (and log truncation)
// every few milliseconds, then recovers an engine from the backup alone:
// exactly the writes of the log prefix 1..L are there, each once.
func TestBackupStateUnderLoad(t *testing.T) {
	dir := t.TempDir()
	e := openEngineWith(t, Config{DataDir: dir, SyncEvery: 3 * time.Millisecond, WAL: wal.Options{SegmentSize: 2048}})
	acct := createAccount(t, e)
	var (
		mu    sync.Mutex
		acked []ackedWrite
		wg    sync.WaitGroup
	)
	backedUp := make(chan struct{})
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				lo := e.LastIndex() + 1
				cmd := domain.CreateContact{Name: fmt.Sprintf("w%d-%d", w, i), Address: fmt.Sprintf("0x%040x", w*100000+i+1)}
				out, err := e.Exec(context.Background(), acct, domain.Request{Cmd: cmd})
				if !assertCreated(t, out, err) {
					return
				}
				mu.Lock()
				acked = append(acked, ackedWrite{name: cmd.Name, lo: lo, hi: e.LastIndex()})
				mu.Unlock()
				select {
				case <-backedUp:
					if i > 40 { // keep writing a while after the backup
						return
					}
				default:
				}
			}
		}()
	}
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 150 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	restored := t.TempDir()
	b, err := e.BackupState(filepath.Join(restored, "state"), filepath.Join(restored, "wal"), time.Now())
	close(backedUp)
	require.NoError(t, err)
	wg.Wait()
	require.NoError(t, e.Close())
	require.Equal(t, b.AppliedIndex+1, b.Log.First)
	require.Equal(t, b.LastIndex, b.Log.Last)
	require.Greater(t, b.LastIndex, b.AppliedIndex, "the backup's own record is in the log copy")

	r := openEngine(t, restored)
	defer r.Close()
	require.Equal(t, b.LastIndex, r.LastIndex())
	last, err := r.Meta(MetaLastBackup)
	require.NoError(t, err)
	require.NotEmpty(t, last)
	present := contactNames(t, r, acct)
	for _, a := range acked {
		switch {
		case a.hi <= b.LastIndex:
			require.Equal(t, 1, present[a.name], "write %s (index ≤ %d) acknowledged before L=%d", a.name, a.hi, b.LastIndex)
		case a.lo > b.LastIndex:
			require.Zero(t, present[a.name], "write %s (index ≥ %d) came after L=%d", a.name, a.lo, b.LastIndex)
		}
		delete(present, a.name)
	}
	require.Empty(t, present, "contacts that were never acknowledged")
}

func assertCreated(t *testing.T, out domain.Outcome, err error) bool {
	if err != nil || out.Reply.Status != 201 {
		t.Errorf("create contact: %v %d %s", err, out.Reply.Status, out.Reply.Body)
		return false
	}
	return true
}

// contactNames lists every contact of acct: name → how many carry it.
func contactNames(t *testing.T, e *Engine, acct string) map[string]int {
	t.Helper()
	names := map[string]int{}
	after := ""
	for {
		r, err := e.Ask(context.Background(), acct, domain.ListContacts{Page: domain.Page{Limit: 200, StartingAfter: after}})
		require.NoError(t, err)
		var page struct {
			Data []struct {
				ID, Name string
			}
			HasMore bool `json:"has_more"`
		}
		require.NoError(t, json.Unmarshal(r.Body, &page))
		for _, c := range page.Data {
			names[c.Name]++
			after = c.ID
		}
		if !page.HasMore {
			return names
		}
	}
}
