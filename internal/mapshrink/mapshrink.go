// Package mapshrink gives back the memory of a map that grew in a burst
// and then emptied. A Go map never returns the buckets it grew (deleting
// entries frees the values, not the table), so a table of active things
// (actors, rate limiters) that once held 100,000 entries would keep their
// slots for as long as the process lives. Shrink rebuilds such a map at
// its current size once it holds under a quarter of its peak; the copy is
// paid for by the deletes that preceded it, so it is O(1) amortized.
package mapshrink

// minPeak is the peak below which a map is left alone: rebuilding a small
// map saves nothing worth the copy.
const minPeak = 64

// Peak is the most entries a map held since it was made or last rebuilt.
type Peak struct{ n int }

// Saw records that the map now holds n entries (call after an insert).
func (p *Peak) Saw(n int) {
	if n > p.n {
		p.n = n
	}
}

// Max is the peak.
func (p Peak) Max() int { return p.n }

// Shrink returns m, or a copy of m sized to its entries when m holds
// under a quarter of its peak (which then becomes its size).
func Shrink[K comparable, V any](m map[K]V, p *Peak) map[K]V {
	if p.n < minPeak || len(m) >= p.n/4 {
		return m
	}
	c := make(map[K]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	p.n = len(c)
	return c
}
