package snapshot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
)

// loadBenchRows fills a store as a busy node's is: rows of many entities
// written in many small batches (the applier's), so that the store has
// flushed memtables into several levels, as after a few minutes of load.
func loadBenchRows(b *testing.B, n int) (*Store, []string) {
	b.Helper()
	s, err := Open(b.TempDir())
	require.NoError(b, err)
	b.Cleanup(func() { _ = s.Close() })
	var g ids.Generator
	made := make([]string, 0, n)
	var index uint64
	for len(made) < n {
		recs := make([]Applied, 0, 64)
		for range 64 {
			id := g.New("ord_", t0, len(made)%ids.Partitions)
			made = append(made, id)
			index++
			ev := domain.Event{Kind: domain.EvOrderPut, Order: orderRow(id, "acct_1", domain.OrderSettled, "")}
			recs = append(recs, Applied{Index: index, Record: &domain.Record{Entity: id, Events: []domain.Event{ev, idemEvent(id, t0)}}})
		}
		require.NoError(b, s.ApplyPart(0, index-uint64(len(recs)), recs))
	}
	// The compactions the fill started would run inside the timed loop
	// (two cores): let them finish first.
	waitCompactions(s)
	return s, made
}

// BenchmarkLoad is an entity's activation read (its row and its
// idempotency rows), of a stored entity and of an id the store has never
// seen (every create of a fresh record pays it).
func BenchmarkLoad(b *testing.B) {
	s, made := loadBenchRows(b, 200_000)
	var g ids.Generator
	for _, tc := range []struct {
		name string
		id   func(i int) string
	}{
		{"stored", func(i int) string { return made[(i*7919)%len(made)] }},
		{"missing", func(i int) string { return g.New("ord_", time.Now(), i%ids.Partitions) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				if _, _, err := s.Load(domain.KindOrder, tc.id(i), t0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
