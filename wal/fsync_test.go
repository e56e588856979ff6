package wal

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSyncerModes: the default is AIO on Linux unless the kernel refuses
// a context, in which case the fallback is reported; plain is fdatasync.
func TestSyncerModes(t *testing.T) {
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, format) }

	auto, err := newSyncer(SyncAuto, logf)
	require.NoError(t, err)
	defer auto.close()
	switch {
	case runtime.GOOS != "linux":
		require.Equal(t, SyncPlain, auto.mode())
	case auto.mode() == SyncPlain:
		require.Len(t, logged, 1, "a fallback from AIO is reported")
		require.True(t, strings.HasPrefix(logged[0], "wal: kernel AIO unavailable"))
	default:
		require.Equal(t, "aio", auto.mode())
		require.Empty(t, logged)
	}

	plain, err := newSyncer(SyncPlain, logf)
	require.NoError(t, err)
	require.Equal(t, SyncPlain, plain.mode())

	_, err = newSyncer("sometimes", logf)
	require.ErrorContains(t, err, `unknown sync mode "sometimes"`)
}

// TestSyncerSyncsAndReportsFailure syncs a written file with every mode,
// many times (the AIO context and eventfd are reused), and checks that a
// descriptor that cannot be synced is an error, not a silent success:
// a pipe has no fsync, so the kernel refuses the AIO submission, the
// fallback fdatasync fails too, and that failure comes back.
func TestSyncerSyncsAndReportsFailure(t *testing.T) {
	for _, mode := range []string{SyncAuto, SyncPlain} {
		t.Run("sync="+mode, func(t *testing.T) {
			s, err := newSyncer(mode, t.Logf)
			require.NoError(t, err)
			defer func() { require.NoError(t, s.close()) }()

			f, err := os.Create(filepath.Join(t.TempDir(), "seg"))
			require.NoError(t, err)
			defer f.Close()
			for i := range 50 {
				_, err := f.Write([]byte{byte(i)})
				require.NoError(t, err)
				require.NoError(t, s.sync(f), "sync %d", i)
			}

			r, w, err := os.Pipe()
			require.NoError(t, err)
			defer r.Close()
			defer w.Close()
			err = s.sync(w)
			require.Error(t, err)
			t.Logf("sync of a pipe: %v", err)
			require.NoError(t, s.sync(f), "a refused sync leaves the syncer usable")
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
