package wal

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSyncerSyncsAndStopsAtFailure syncs a written file many times, then
// checks that a descriptor that cannot be synced is an error, not a silent
// success (a pipe has no fsync), and that after it the syncer refuses every
// sync, even of a file that could be synced: a retried fsync may report
// success for pages the kernel dropped.
func TestSyncerSyncsAndStopsAtFailure(t *testing.T) {
	s := newSyncer(make(chan struct{}, 1))
	defer s.close()

	f, err := os.Create(filepath.Join(t.TempDir(), "seg"))
	require.NoError(t, err)
	defer f.Close()
	for i := range 50 {
		_, err := f.Write([]byte{byte(i)})
		require.NoError(t, err)
		require.NoError(t, syncNow(s, f), "sync %d", i)
	}

	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	err = syncNow(s, w)
	require.Error(t, err)
	require.NotErrorIs(t, err, errSyncerFailed, "the failure itself is reported")
	require.ErrorIs(t, syncNow(s, f), errSyncerFailed, "nothing is synced after a failure")
}

// TestSyncerRunsInStartOrder: two syncs started back to back run one at a
// time, in start order, and report in that order; the second starts once
// the first returned, before anyone collected the first's result (the
// device does not wait for the writer).
func TestSyncerRunsInStartOrder(t *testing.T) {
	s := newSyncer(make(chan struct{}, 1))
	release := make(chan struct{})
	var releaseOnce sync.Once
	defer s.close()
	defer releaseOnce.Do(func() { close(release) }) // first, even if a check fails: close waits for the sync
	var order []int
	first := errors.New("first")
	s.start(func() error { <-release; order = append(order, 1); return nil })
	ran2 := make(chan struct{})
	s.start(func() error { order = append(order, 2); close(ran2); return first })
	require.Panics(t, func() { s.start(func() error { return nil }) },
		"a third sync started before the first was collected breaks the pipeline's bound, whether or not the first is running")
	releaseOnce.Do(func() { close(release) })
	<-ran2 // a syncer that waited to be collected would hang here
	done, err := s.wait()
	require.True(t, done)
	require.NoError(t, err)
	done, err = s.wait()
	require.True(t, done)
	require.ErrorIs(t, err, first)
	require.Equal(t, []int{1, 2}, order)
}

// TestSyncerWaitReturnsOnKick: a kick ends a wait with nothing collected.
func TestSyncerWaitReturnsOnKick(t *testing.T) {
	kick := make(chan struct{}, 1)
	s := newSyncer(kick)
	defer s.close()
	kick <- struct{}{}
	done, err := s.wait()
	require.False(t, done)
	require.NoError(t, err)
}

// syncNow starts a sync and waits for it, kicks or not.
func syncNow(s *syncer, f *os.File) error {
	s.start(func() error { return fdatasync(f) })
	for {
		if done, err := s.wait(); done {
			return err
		}
	}
}
