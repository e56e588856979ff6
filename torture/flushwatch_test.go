package torture

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestWatchSST: a new .sst file is reported by name; other files are not.
func TestWatchSST(t *testing.T) {
	dir := t.TempDir()
	w, err := watchSST(dir)
	require.NoError(t, err)
	defer w.Close()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "MANIFEST-000009"), nil, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "000012.sst"), []byte("x"), 0o600))
	select {
	case name := <-w.Created():
		require.Equal(t, "000012.sst", name)
	case <-time.After(30 * time.Second): // a deadline, not an expectation
		t.Fatal("no event for the new sstable")
	}
	require.NoError(t, w.Close())
	require.NoError(t, w.Close(), "twice")
}
