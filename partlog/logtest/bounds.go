package logtest

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/partlog"
	"github.com/fxd-labs/fxd/wal"
)

func testScanBounds(t *testing.T, open Open) {
	l := opened(t, open, partlog.Options{})
	never := func(index uint64, _ []byte) error {
		t.Errorf("scan called fn for index %d", index)
		return nil
	}
	require.NoError(t, l.Scan(1, never), "empty log")
	require.ErrorIs(t, l.Scan(0, never), partlog.ErrOutOfRange, "empty log, from 0")

	appendAll(t, l, entries(1, 5, 10))
	require.NoError(t, l.Scan(6, never), "from LastIndex+1")
	require.NoError(t, l.Scan(1000, never), "from far past LastIndex")
	require.ErrorIs(t, l.Scan(0, never), partlog.ErrOutOfRange, "from 0")

	stop := errors.New("stop here")
	calls := 0
	err := l.Scan(2, func(index uint64, _ []byte) error {
		calls++
		if index == 3 {
			return stop
		}
		return nil
	})
	require.Equal(t, stop, err, "fn's error is returned as is")
	require.Equal(t, 2, calls)
}

// TruncateFront keeps every entry at or above its index, moves FirstIndex
// (the suite asks the log to drop something, see the package comment),
// and what it keeps stays after a reopen.
func testTruncateFront(t *testing.T, open Open) {
	want := entries(1, 64, 1024)
	l := opened(t, open, partlog.Options{})
	appendAll(t, l, want)
	require.NoError(t, l.TruncateFront(1))
	require.Equal(t, uint64(1), l.FirstIndex(), "TruncateFront(1) drops nothing")

	require.NoError(t, l.TruncateFront(48))
	first := l.FirstIndex()
	require.Greater(t, first, uint64(1), "nothing dropped")
	require.LessOrEqual(t, first, uint64(48), "dropped an entry at or above the index")
	requireLog(t, l, first, want[first-1:])
	requireLog(t, l, 48, want[47:])
	require.ErrorIs(t, l.Scan(first-1, func(uint64, []byte) error { return nil }), partlog.ErrOutOfRange)
	require.NoError(t, l.TruncateFront(10), "below FirstIndex: nothing to do")
	require.Equal(t, first, l.FirstIndex())

	require.ErrorIs(t, l.TruncateFront(66), partlog.ErrOutOfRange, "beyond LastIndex+1")
	require.NoError(t, l.TruncateFront(65), "LastIndex+1 is allowed")
	first = l.FirstIndex()
	require.LessOrEqual(t, first, uint64(65))
	requireLog(t, l, first, want[first-1:])
	require.NoError(t, l.Close())

	l = opened(t, open, partlog.Options{})
	require.Equal(t, uint64(64), l.LastIndex())
	reFirst := l.FirstIndex()
	require.LessOrEqual(t, reFirst, first, "reopened log lost entries it kept")
	requireLog(t, l, reFirst, want[reFirst-1:])
	index, err := l.Append(payload(65, 1024))
	require.NoError(t, err)
	require.Equal(t, uint64(65), index)
	requireLog(t, l, reFirst, append(want[reFirst-1:], payload(65, 1024)))
}

func testTooLarge(t *testing.T, open Open) {
	l := opened(t, open, partlog.Options{})
	big := make([]byte, wal.MaxPayload+1)
	_, err := l.Append(big)
	require.ErrorIs(t, err, partlog.ErrTooLarge)
	require.ErrorIs(t, l.Enqueue(big, func(uint64) { t.Error("done called for a refused payload") }), partlog.ErrTooLarge)
	index, err := l.Append([]byte("after"))
	require.NoError(t, err, "the log goes on after a refused payload")
	require.Equal(t, uint64(1), index)
}

func testClosed(t *testing.T, open Open) {
	l := opened(t, open, partlog.Options{})
	appendAll(t, l, entries(1, 3, 10))
	require.NoError(t, l.Close())
	_, err := l.Append([]byte("x"))
	require.ErrorIs(t, err, partlog.ErrClosed)
	require.ErrorIs(t, l.Enqueue([]byte("x"), nil), partlog.ErrClosed)
	require.ErrorIs(t, l.Scan(1, func(uint64, []byte) error { return nil }), partlog.ErrClosed)
	require.ErrorIs(t, l.TruncateFront(2), partlog.ErrClosed)
	require.ErrorIs(t, l.Close(), partlog.ErrClosed)
}
