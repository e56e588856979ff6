package logtest

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/partlog"
)

// opened opens the log with opts and closes it at t's cleanup (a second
// Close is harmless). Unless opts sets its own, OnFatal fails t: no test
// here makes a log fail.
func opened(t *testing.T, open Open, opts partlog.Options) partlog.PartitionLog {
	t.Helper()
	if opts.OnFatal == nil {
		opts.OnFatal = func(err error) { t.Errorf("OnFatal: %v", err) }
	}
	if opts.Logf == nil {
		opts.Logf = t.Logf
	}
	l, err := open(opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// payload is the deterministic payload of entry i, size bytes long (at
// least long enough to name i unless size is 0).
func payload(i uint64, size int) []byte {
	if size == 0 {
		return []byte{}
	}
	tag := fmt.Sprintf("entry-%d;", i)
	return bytes.Repeat([]byte(tag), size/len(tag)+1)[:max(size, len(tag))]
}

// requireLog checks that l holds exactly want[k] at index first+k for
// every k, through Scan from first, and that LastIndex agrees.
func requireLog(t *testing.T, l partlog.PartitionLog, first uint64, want [][]byte) {
	t.Helper()
	require.Equal(t, first+uint64(len(want))-1, l.LastIndex(), "LastIndex")
	next := first
	err := l.Scan(first, func(index uint64, p []byte) error {
		if index != next {
			return fmt.Errorf("scan gave index %d, want %d", index, next)
		}
		if !bytes.Equal(p, want[index-first]) {
			return fmt.Errorf("index %d: payload %q, want %q", index, trunc(p), trunc(want[index-first]))
		}
		next++
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, first+uint64(len(want)), next, "scan stopped early")
}

func trunc(p []byte) []byte {
	if len(p) > 40 {
		return p[:40]
	}
	return p
}

// appendAll appends payloads one Append at a time, checking that the
// indexes follow LastIndex.
func appendAll(t *testing.T, l partlog.PartitionLog, payloads [][]byte) {
	t.Helper()
	for _, p := range payloads {
		want := l.LastIndex() + 1
		got, err := l.Append(p)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
}

// entries makes the payloads of indexes from..to, size bytes each.
func entries(from, to uint64, size int) [][]byte {
	out := make([][]byte, 0, to-from+1)
	for i := from; i <= to; i++ {
		out = append(out, payload(i, size))
	}
	return out
}
