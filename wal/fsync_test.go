package wal

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSyncerModes: the default is fdatasync on a goroutine; AIO, on Linux,
// unless the kernel refuses a context, in which case the fallback to
// fdatasync is reported.
func TestSyncerModes(t *testing.T) {
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, format) }
	kick := make(chan struct{}, 1)

	for _, mode := range []string{SyncAuto, SyncPlain} {
		s, err := newSyncer(mode, logf, kick)
		require.NoError(t, err)
		require.Equal(t, SyncPlain, s.mode())
		require.NoError(t, s.close())
	}
	require.Empty(t, logged)

	aio, err := newSyncer(SyncAIO, logf, kick)
	require.NoError(t, err)
	defer aio.close()
	switch {
	case runtime.GOOS != "linux":
		require.Equal(t, SyncPlain, aio.mode())
	case aio.mode() == SyncPlain:
		require.Len(t, logged, 1, "a fallback from AIO is reported")
		require.True(t, strings.HasPrefix(logged[0], "wal: kernel AIO unavailable"))
	default:
		require.Equal(t, SyncAIO, aio.mode())
		require.Empty(t, logged)
	}

	_, err = newSyncer("sometimes", logf, kick)
	require.ErrorContains(t, err, `unknown sync mode "sometimes"`)
}

// TestSyncerSyncsAndReportsFailure syncs a written file with every mode,
// many times (the AIO context and its reaper are reused), and checks that a
// descriptor that cannot be synced is an error, not a silent success:
// a pipe has no fsync, so the kernel refuses the AIO submission, the
// fallback fdatasync fails too, and that failure comes back.
func TestSyncerSyncsAndReportsFailure(t *testing.T) {
	for _, mode := range []string{SyncPlain, SyncAIO} {
		t.Run("sync="+mode, func(t *testing.T) {
			s, err := newSyncer(mode, t.Logf, make(chan struct{}, 1))
			require.NoError(t, err)
			defer func() { require.NoError(t, s.close()) }()

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
			t.Logf("sync of a pipe: %v", err)
			require.NoError(t, syncNow(s, f), "a refused sync leaves the syncer usable")
		})
	}
}

// TestLogReportsSyncMode: the log says which mode it runs in, and a bad
// mode refuses to open.
func TestLogReportsSyncMode(t *testing.T) {
	l := openLog(t, t.TempDir(), Options{Sync: SyncPlain})
	require.Equal(t, SyncPlain, l.SyncMode())
	require.NoError(t, l.Close())

	_, _, err := Open(t.TempDir(), testOptions(t, Options{Sync: "never"}))
	require.ErrorContains(t, err, `unknown sync mode "never"`)
}

// syncNow starts a sync and waits for it, kicks or not.
func syncNow(s syncer, f *os.File) error {
	if err := s.start(f); err != nil {
		return err
	}
	for {
		if done, err := s.wait(); done {
			return err
		}
	}
}
