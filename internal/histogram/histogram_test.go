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
