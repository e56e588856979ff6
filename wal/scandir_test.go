package wal

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestScanDirReadsEveryRecordWithoutTheLock(t *testing.T) {
	dir := t.TempDir()
	l, _, err := Open(dir, Options{SegmentSize: 4096})
	require.NoError(t, err)
	for i := 1; i <= 300; i++ {
		_, err := l.Append([]byte(fmt.Sprintf("record-%d", i)))
		require.NoError(t, err)
	}
	// The log is still open (and locked): ScanDir must read it anyway.
	var got []string
	require.NoError(t, ScanDir(dir, func(index uint64, payload []byte) error {
		require.Equal(t, uint64(len(got)+1), index)
		got = append(got, string(payload))
		return nil
	}))
	require.Len(t, got, 300)
	require.Equal(t, "record-300", got[299])
	require.NoError(t, l.Close())

	// A flipped payload byte in the middle is reported with its index.
	segs, err := listSegments(dir)
	require.NoError(t, err)
	require.Greater(t, len(segs), 1)
	data, err := os.ReadFile(segs[0].path)
	require.NoError(t, err)
	data[len(data)/2] ^= 0x40
	require.NoError(t, os.WriteFile(filepath.Join(dir, segs[0].name), data, 0o600))
	err = ScanDir(dir, func(uint64, []byte) error { return nil })
	require.ErrorContains(t, err, "index")
}
