package snapshot

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

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

// TestListBackups: the listing shows each checkpoint's applied index as
// Backup printed it (newest first), lists a directory that is no store
// without one, shows none for a data dir without backups and refuses a
// data dir that does not exist.
func TestListBackups(t *testing.T) {
	data := t.TempDir()
	list, err := ListBackups(data)
	require.NoError(t, err)
	require.Empty(t, list)
	_, err = ListBackups(filepath.Join(data, "missing"))
	require.ErrorContains(t, err, "data dir")

	s, err := Open(filepath.Join(data, "state"))
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.ApplyPart(0, 0, []Applied{metaRecord(1, "one"), metaRecord(2, "two")}))
	first, err := s.Backup(data, time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	require.NoError(t, s.ApplyPart(0, 2, []Applied{metaRecord(3, "three")}))
	second, err := s.Backup(data, time.Date(2026, 11, 30, 6, 0, 1, 0, time.UTC))
	require.NoError(t, err)
	require.Equal(t, []uint64{2, 3}, []uint64{first.Index, second.Index})
	require.NoError(t, os.Mkdir(filepath.Join(BackupDir(data), "20260101T000000.000000000Z"), 0o700))

	list, err = ListBackups(data)
	require.NoError(t, err)
	require.Len(t, list, 3)
	require.Equal(t, []string{second.Name, first.Name, "20260101T000000.000000000Z"}, []string{list[0].Name, list[1].Name, list[2].Name})
	require.Equal(t, []uint64{3, 2, 0}, []uint64{list[0].Index, list[1].Index, list[2].Index})
	require.Equal(t, second.Path, list[0].Path)
}
