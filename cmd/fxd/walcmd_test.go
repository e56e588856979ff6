package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/wal"
)

// TestWALDumpIsOneObject: wal dump prints one JSON object, its records in
// index order, for a log of records and for an empty log; a log that
// cannot be read prints nothing and fails.
func TestWALDumpIsOneObject(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wal")
	l, _, err := wal.Open(dir, wal.Options{})
	require.NoError(t, err)
	for i := range 3 {
		rec := domain.Record{Entity: fmt.Sprintf("acct_%d", i), Events: []domain.Event{{Kind: domain.EvMetaPut, ID: "k", Value: fmt.Sprint(i)}}}
		_, err := l.Append(domain.MarshalRecord(nil, &rec))
		require.NoError(t, err)
	}
	require.NoError(t, l.Close())

	for _, tc := range []struct {
		name    string
		dir     string
		want    []string // entities, in order
		failing bool
	}{
		{"three records", dir, []string{"acct_0", "acct_1", "acct_2"}, false},
		{"an empty log", mkdir(t, filepath.Join(t.TempDir(), "wal")), nil, false},
		{"no log at all", filepath.Join(t.TempDir(), "missing"), nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := dumpWAL(&out, tc.dir)
			if tc.failing {
				require.Error(t, err)
				require.Empty(t, out.String(), "nothing on stdout when nothing was read")
				return
			}
			require.NoError(t, err)
			var got struct {
				Records []struct {
					Index  uint64           `json:"index"`
					Entity string           `json:"entity"`
					Events []map[string]any `json:"events"`
				} `json:"records"`
				Count int `json:"count"`
			}
			dec := json.NewDecoder(&out)
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&got))
			require.False(t, dec.More(), "one object, nothing after it")
			require.Len(t, got.Records, len(tc.want))
			require.Equal(t, len(tc.want), got.Count)
			for i, r := range got.Records {
				require.Equal(t, uint64(i+1), r.Index)
				require.Equal(t, tc.want[i], r.Entity)
				require.Equal(t, "meta_put", r.Events[0]["kind"])
			}
		})
	}
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o700))
	return dir
}

// TestSnapshotCreateRefusesADirWithoutAStore: an offline snapshot of a
// data dir that holds no store fails and creates nothing (a mistyped
// --data-dir must not be answered with an empty checkpoint).
func TestSnapshotCreateRefusesADirWithoutAStore(t *testing.T) {
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), t.TempDir()} {
		var out bytes.Buffer
		cmd := &cobra.Command{}
		cmd.SetOut(&out)
		require.ErrorContains(t, snapshotOffline(cmd, dir), "holds no snapshot store")
		require.Empty(t, out.String())
		_, err := os.Stat(filepath.Join(dir, "state"))
		require.ErrorIs(t, err, os.ErrNotExist, "nothing created")
	}
}
