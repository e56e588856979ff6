package httpd

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestDeadlinesShareASlot(t *testing.T) {
	const timeout = time.Second
	d := newDeadlines(timeout)
	now := time.Now()
	slotStart := now.Truncate(deadlineSlot)

	a := d.at(now)
	require.Same(t, a, d.at(slotStart), "one context for the whole slot")
	require.Same(t, a, d.at(slotStart.Add(deadlineSlot-1)))
	dl, ok := a.Deadline()
	require.True(t, ok)
	require.Equal(t, slotStart.Add(deadlineSlot+timeout).UnixNano(), dl.UnixNano(),
		"every request of the slot waits at least the timeout")

	b := d.at(slotStart.Add(deadlineSlot))
	require.NotSame(t, a, b, "the next slot has its own context")
	require.Same(t, b, d.at(slotStart), "a late request of an older slot gets the newer, longer deadline")
	require.NoError(t, a.Err())
}

func TestDeadlinesReleaseOnlyExpiredSlots(t *testing.T) {
	const timeout = 2 * time.Second // the loop below runs in far less
	d := newDeadlines(timeout)
	start := time.Now().Truncate(deadlineSlot)
	first := d.at(start)
	firstDeadline, _ := first.Deadline()
	for i := 1; i < len(d.cancels); i++ {
		d.at(start.Add(time.Duration(i) * deadlineSlot))
		require.NoError(t, first.Err(), "slot %d: the first context is still within its deadline", i)
	}
	evictAt := start.Add(time.Duration(len(d.cancels)) * deadlineSlot)
	d.at(evictAt)
	require.Error(t, first.Err(), "the ring released the oldest slot")
	require.False(t, firstDeadline.After(evictAt), "only once its deadline had passed (clock of the slot that evicted it)")
}
