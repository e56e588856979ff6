package snapshot

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

func metaRecord(i uint64, value string) Applied {
	return Applied{Index: i, Record: &domain.Record{Events: []domain.Event{{Kind: domain.EvMetaPut, ID: "k", Value: value}}}}
}

func dirFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// TestWriteCheckpointReadOnly: the checkpoint holds what was applied
// before it (memtable included) and nothing applied after; opening it
// read-only reads the applied index and changes no file but the lock, and
// refuses writes.
func TestWriteCheckpointReadOnly(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "db"))
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.ApplyPart(0, 0, []Applied{metaRecord(1, "one"), metaRecord(2, "two")}))
	cp := filepath.Join(dir, "cp")
	require.NoError(t, s.WriteCheckpoint(cp))
	require.NoError(t, s.ApplyPart(0, 2, []Applied{metaRecord(3, "three")}))
	require.Error(t, s.WriteCheckpoint(cp), "the directory must not exist")

	before := dirFiles(t, cp)
	require.NotContains(t, before, LockFile)
	ro, err := OpenReadOnly(cp)
	require.NoError(t, err)
	idx, err := ro.AppliedIndex()
	require.NoError(t, err)
	require.Equal(t, uint64(2), idx)
	v, err := ro.Meta("k")
	require.NoError(t, err)
	require.Equal(t, "two", v)
	require.Error(t, ro.ApplyPart(0, 2, []Applied{metaRecord(3, "x")}), "read-only")
	require.NoError(t, ro.Close())
	require.ElementsMatch(t, append(before, LockFile), dirFiles(t, cp), "read-only open adds only the lock file")

	_, err = OpenReadOnly(filepath.Join(dir, "missing"))
	require.Error(t, err)
}
