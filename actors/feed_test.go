package actors

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func payloads(first, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, "p%d", first+i)
	}
	return out
}

func requireFed(t *testing.T, f *feed, from uint64, max int, want []string, ok bool) {
	t.Helper()
	got, held := f.from(from, max, nil)
	require.Equal(t, ok, held)
	var s []string
	for _, p := range got {
		s = append(s, string(p))
	}
	require.Equal(t, want, s)
}

func TestFeed(t *testing.T) {
	f := &feed{size: 8}
	requireFed(t, f, 1, 10, nil, false) // empty: read the log

	f.push(1, payloads(1, 3))
	f.push(4, payloads(4, 2))
	requireFed(t, f, 1, 10, []string{"p1", "p2", "p3", "p4", "p5"}, true)
	requireFed(t, f, 2, 2, []string{"p2", "p3"}, true) // at most max
	requireFed(t, f, 6, 10, nil, false)                // not yet pushed

	f.release(3)                        // the applier has 1 and 2
	requireFed(t, f, 1, 10, nil, false) // released: below the feed
	requireFed(t, f, 3, 10, []string{"p3", "p4", "p5"}, true)

	f.push(6, payloads(6, 4)) // wraps around the ring: 3..9 held
	requireFed(t, f, 3, 10, []string{"p3", "p4", "p5", "p6", "p7", "p8", "p9"}, true)
	require.Zero(t, f.dropped())

	f.push(10, payloads(10, 2)) // 9 records would not fit: all dropped
	require.Equal(t, uint64(1), f.dropped())
	requireFed(t, f, 3, 10, nil, false)
	requireFed(t, f, 10, 10, nil, false)

	f.push(12, payloads(12, 1)) // starts over after the gap (the log fills it)
	requireFed(t, f, 11, 10, nil, false)
	requireFed(t, f, 12, 10, []string{"p12"}, true)

	require.PanicsWithValue(t, "actors: feed holds 12..12 and got a batch at 14", func() { f.push(14, payloads(14, 1)) })
}

// A part handed over gets a new log whose indexes need not follow what
// the feed holds: reset forgets it, and the next push starts anew.
func TestFeedReset(t *testing.T) {
	f := newFeed(8)
	f.push(5, payloads(5, 3))
	require.Panics(t, func() { f.push(21, payloads(21, 1)) }, "a gap is a broken invariant")
	f.reset()
	requireFed(t, f, 5, 8, nil, false)
	f.push(21, payloads(21, 2))
	requireFed(t, f, 21, 8, []string{"p21", "p22"}, true)
}
