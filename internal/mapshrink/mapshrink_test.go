package mapshrink

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShrink(t *testing.T) {
	cases := []struct {
		name       string
		peak, left int
		rebuilt    bool
	}{
		{"small maps are left alone", minPeak - 1, 0, false},
		{"a quarter of the peak is kept", 1000, 250, false},
		{"under a quarter is rebuilt", 1000, 249, true},
		{"emptied is rebuilt", 1000, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := map[int]int{}
			var p Peak
			for i := range c.peak {
				m[i] = i
				p.Saw(len(m))
			}
			for i := c.left; i < c.peak; i++ {
				delete(m, i)
			}
			before := m
			m = Shrink(m, &p)
			require.Len(t, m, c.left)
			for i := range c.left {
				require.Equal(t, i, m[i])
			}
			m[-1] = -1 // a write to the result shows whether it is the same map
			_, shared := before[-1]
			require.Equal(t, !c.rebuilt, shared)
			if c.rebuilt {
				require.Equal(t, c.left, p.n, "the peak restarts at the copy's size")
			} else {
				require.Equal(t, c.peak, p.n)
			}
		})
	}
}
