package groupcommit

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/partlog"
)

// TestBatching: requests join the newest batch until its count or cost
// bound, indexes follow queue order, and the queue's own bounds refuse.
func TestBatching(t *testing.T) {
	var q Queue[int]
	q.Init(5, Limits{MaxQueue: 6, MaxQueueBytes: 1 << 20, MaxBatch: 3, MaxBatchCost: 10})
	sizes := []int{4, 4, 4, 1, 1, 20}
	for i, n := range sizes {
		index, sig, _, err := q.Add(Request{Payload: make([]byte, n)}, i == 0)
		require.NoError(t, err)
		require.Equal(t, uint64(5+i), index)
		require.Equal(t, i == 0, sig != nil)
	}
	_, _, _, err := q.Add(Request{Payload: []byte("x")}, false)
	require.ErrorIs(t, err, partlog.ErrQueueFull)
	var got [][]int
	for b := q.Take(false); b != nil; b = q.Take(false) {
		var lens []int
		for _, r := range b.Reqs {
			lens = append(lens, len(r.Payload))
		}
		got = append(got, lens)
		require.Equal(t, b.First+uint64(len(b.Reqs))-1, b.Last())
	}
	// 4+4 fits 10, a third 4 does not; 4,1,1 is three (MaxBatch); 20 alone.
	require.Equal(t, [][]int{{4, 4}, {4, 1, 1}, {20}}, got)
	require.Zero(t, q.Len())
}

// TestCompleteAndFailure: a durable batch runs durable, wakes its Append
// callers and then its done callbacks in order; after Fail every Add is
// ErrFailed and a failed batch's callers get ErrFailed, no callback.
func TestCompleteAndFailure(t *testing.T) {
	var q Queue[string]
	q.Init(1, Limits{MaxQueue: 10, MaxQueueBytes: 100, MaxBatch: 10, MaxBatchCost: 100})
	var order []string
	_, sig, _, err := q.Add(Request{Payload: []byte("a"), Done: func(i uint64) { order = append(order, "done a") }}, true)
	require.NoError(t, err)
	_, _, _, err = q.Add(Request{Payload: []byte("b"), Done: func(i uint64) { order = append(order, "done b") }}, false)
	require.NoError(t, err)
	b := q.Take(true)
	b.Own = "segment"
	q.Complete(b, nil, func(b *Batch[string]) {
		require.Equal(t, "segment", b.Own)
		order = append(order, "durable")
	})
	require.NoError(t, sig.Wait())
	require.Equal(t, []string{"durable", "done a", "done b"}, order)
	sizes := q.BatchSizes()
	require.Equal(t, uint64(1), sizes.Count(), "one durable batch")
	require.Equal(t, uint64(2), sizes.Sum, "of two requests")
	require.Equal(t, uint64(1), sizes.Counts[1], "within the bucket up to 2")

	_, sig, _, err = q.Add(Request{Payload: []byte("c"), Done: func(uint64) { t.Fatal("a failed batch's callback ran") }}, true)
	require.NoError(t, err)
	boom := errors.New("fsync: EIO")
	require.True(t, q.Fail(boom))
	require.False(t, q.Fail(errors.New("later")), "the first failure stays")
	_, _, _, err = q.Add(Request{Payload: []byte("d")}, false)
	require.ErrorIs(t, err, partlog.ErrFailed)
	b = q.Take(true)
	q.Complete(b, q.Failure(), func(*Batch[string]) { t.Fatal("durable ran for a failed batch") })
	err = sig.Wait()
	require.ErrorIs(t, err, partlog.ErrFailed)
	require.ErrorIs(t, err, boom)
	require.Nil(t, q.Take(true), "a failed queue drains without waiting")
	require.Equal(t, uint64(1), q.BatchSizes().Count(), "a failed batch is not counted as durable")
}

// TestTakeGrownAndClose: TakeGrown waits for growth and has the Add that
// gets there report the kick; Close refuses further Adds once.
func TestTakeGrownAndClose(t *testing.T) {
	var q Queue[struct{}]
	q.Init(1, Limits{MaxQueue: 10, MaxQueueBytes: 100, MaxBatch: 1, MaxBatchCost: 100})
	require.Nil(t, q.TakeGrown(0, 2))
	_, _, kick, err := q.Add(Request{Payload: []byte("a")}, false)
	require.NoError(t, err)
	require.False(t, kick)
	_, _, kick, err = q.Add(Request{Payload: []byte("b")}, false)
	require.NoError(t, err)
	require.True(t, kick, "the queue reached what TakeGrown asked for")
	require.NotNil(t, q.TakeGrown(0, 2))
	require.True(t, q.Close())
	require.False(t, q.Close())
	_, _, _, err = q.Add(Request{Payload: []byte("c")}, false)
	require.ErrorIs(t, err, partlog.ErrClosed)
	require.NotNil(t, q.Take(true), "what waited is still taken after Close")
	require.Nil(t, q.Take(true))
}
