package snapshot

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/internal/cputime"
)

// BenchmarkApplyContacts is the applier's steady write load: contacts of
// 42 accounts, 32 records a batch (about what one 2 ms applier pass
// takes at 16,000 writes/s). It reports the process's CPU per record,
// the flushes and compactions it caused included (the timed loop waits
// for them to finish), and the bytes compacted per record: run it with
// -benchtime 2000000x so that memtables of any size flush many times.
// DECISIONS.md has what it measured for Pebble's L0 compaction threshold.
func BenchmarkApplyContacts(b *testing.B) {
	s, err := Open(b.TempDir())
	require.NoError(b, err)
	defer s.Close()
	var g ids.Generator
	accts := make([]string, 42)
	for i := range accts {
		accts[i] = fmt.Sprintf("acct_%02d", i)
	}
	const batch = 32
	recs := make([]Applied, 0, batch)
	var index uint64
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Self()
	for i := 0; i < b.N; i++ {
		acct := accts[i%len(accts)]
		c := &domain.Contact{ID: g.New("ctc_", time.Now(), 0), Account: acct, Name: "bench contact",
			Address: "0x00000000000000000000000000000000000000A1", Currency: "USDC", CreatedAt: t0, UpdatedAt: t0}
		index++
		recs = append(recs, Applied{Index: index, Record: &domain.Record{Entity: acct,
			Events: []domain.Event{{Kind: domain.EvContactPut, Contact: c}}}})
		if len(recs) == batch || i == b.N-1 {
			require.NoError(b, s.ApplyPart(0, index-uint64(len(recs)), recs))
			recs = recs[:0]
		}
	}
	waitCompactions(s)
	b.StopTimer()
	b.ReportMetric(float64(cputime.Self()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(s.db.Metrics().Total().TableBytesCompacted)/float64(b.N), "compacted-B/op")
}

// waitCompactions returns once Pebble has had no flush or compaction in
// progress for three looks 100 ms apart.
func waitCompactions(s *Store) {
	for quiet := 0; quiet < 3; {
		time.Sleep(100 * time.Millisecond)
		if m := s.db.Metrics(); m.Compact.NumInProgress == 0 && m.Flush.NumInProgress == 0 {
			quiet++
		} else {
			quiet = 0
		}
	}
}
