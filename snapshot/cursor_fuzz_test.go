package snapshot

import (
	"testing"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

// FuzzAccountRowsCursor: starting_after is any string a client sends. For
// every cursor a list holds only its own kind's rows of its own account,
// each older than the cursor, newest first (GET /events?starting_after=zzz
// once listed the account's orders as events and crashed the server).
func FuzzAccountRowsCursor(f *testing.F) {
	for _, seed := range []string{"", "zzz", "aaa", "ord_", "ord_b", "ord_b\x00", "ord_\xff", "\xff", "evt_", "tr_1", "al/"} {
		f.Add(seed)
	}
	s, err := Open(f.TempDir())
	require.NoError(f, err)
	f.Cleanup(func() { _ = s.Close() })
	put := func(o *domain.Order) domain.Event { return domain.Event{Kind: domain.EvOrderPut, Order: o} }
	require.NoError(f, s.ApplyPart(0, 0, []Applied{
		{Index: 1, Record: &domain.Record{Entity: "ord_a", Events: []domain.Event{put(orderRow("ord_a", "acct_1", domain.OrderAccepted, ""))}}},
		{Index: 2, Record: &domain.Record{Entity: "ord_b", Events: []domain.Event{put(orderRow("ord_b", "acct_1", domain.OrderAccepted, ""))}}},
		{Index: 3, Record: &domain.Record{Entity: "ord_c", Events: []domain.Event{put(orderRow("ord_c", "acct_2", domain.OrderAccepted, ""))}}},
	}))
	f.Fuzz(func(t *testing.T, after string) {
		for _, kind := range []domain.Kind{domain.KindOrder, domain.KindTransfer, domain.KindLink, domain.KindEndpoint, domain.KindEvent} {
			rows, err := s.AccountRows("acct_1", kind, after, 10)
			require.NoError(t, err)
			prev := ""
			for _, r := range rows {
				got, _ := domain.KindOf(r.RowID())
				require.Equal(t, kind, got, "starting_after=%q", after)
				require.Equal(t, "acct_1", r.RowAccount())
				if after != "" {
					require.Less(t, r.RowID(), after)
				}
				if prev != "" {
					require.Less(t, r.RowID(), prev, "newest first")
				}
				prev = r.RowID()
			}
		}
	})
}
