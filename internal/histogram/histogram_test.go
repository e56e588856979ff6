package histogram

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestFixed(t *testing.T) {
	var h Fixed
	h.Init([]uint64{10, 100})
	for _, v := range []uint64{0, 10, 11, 100, 101, 5000} {
		h.Observe(v)
	}
	s := h.Read()
	require.Equal(t, []uint64{2, 2, 2}, s.Counts, "bounds are inclusive; the last bucket is above every bound")
	require.Equal(t, uint64(6), s.Count())
	require.Equal(t, uint64(0+10+11+100+101+5000), s.Sum)
	count, sum, buckets := s.Cumulative(0.5)
	require.Equal(t, uint64(6), count)
	require.Equal(t, 2611.0, sum)
	require.Equal(t, map[float64]uint64{5: 2, 50: 4}, buckets)
	require.Panics(t, func() { new(Fixed).Init([]uint64{2, 2}) })
}

// TestSnapshotAdd: readings of histograms with the same bounds add bucket
// by bucket; an empty reading adds nothing; different bounds panic.
func TestSnapshotAdd(t *testing.T) {
	read := func(bounds []uint64, vs ...uint64) Snapshot {
		var h Fixed
		h.Init(bounds)
		for _, v := range vs {
			h.Observe(v)
		}
		return h.Read()
	}
	a, b := read([]uint64{10, 100}, 1, 50), read([]uint64{10, 100}, 7, 500, 600)
	sum := a.Add(b)
	require.Equal(t, []uint64{2, 1, 2}, sum.Counts)
	require.Equal(t, uint64(1+50+7+500+600), sum.Sum)
	require.Equal(t, []uint64{1, 1, 0}, a.Counts, "a is unchanged")
	require.Equal(t, sum, Snapshot{}.Add(a).Add(b), "from the zero reading")
	require.Equal(t, a, a.Add(Snapshot{}))
	require.Panics(t, func() { a.Add(read([]uint64{10})) })
}
