package snapshot

import (
	"math/big"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/stretchr/testify/require"
)

func orderRow(id, acct, state, event string) *domain.Order {
	return &domain.Order{ID: id, Account: acct, QuoteID: "q_" + id[4:], Route: domain.RouteAMM, State: state,
		FromCurrency: "USDC", ToCurrency: "EURC", AmountIn: big.NewInt(10), AmountOut: big.NewInt(9), MinAmountOut: big.NewInt(8),
		Signer: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", Deadline: t0.Add(2 * time.Minute), Signing: []byte(`{}`),
		EventID: event, CreatedAt: t0, UpdatedAt: t0}
}

// TestOrderRowsAndIndexes: an order row keeps its account list entry, the
// live index only while it is not terminal, and its fired event.
func TestOrderRowsAndIndexes(t *testing.T) {
	s, err := Open(t.TempDir())
	require.NoError(t, err)
	defer s.Close()
	put := func(o *domain.Order) domain.Event { return domain.Event{Kind: domain.EvOrderPut, Order: o} }
	require.NoError(t, s.ApplyPart(0, 0, []Applied{
		{Index: 1, Record: &domain.Record{Entity: "ord_a", Events: []domain.Event{put(orderRow("ord_a", "acct_1", domain.OrderAccepted, "")), idemEvent("sc", t0)}}},
		{Index: 2, Record: &domain.Record{Entity: "ord_b", Events: []domain.Event{put(orderRow("ord_b", "acct_1", domain.OrderAccepted, ""))}}},
		{Index: 3, Record: &domain.Record{Entity: "ord_c", Events: []domain.Event{put(orderRow("ord_c", "acct_2", domain.OrderAccepted, ""))}}},
		{Index: 4, Record: &domain.Record{Entity: "ord_b", Events: []domain.Event{put(orderRow("ord_b", "acct_1", domain.OrderFailed, "evt_1"))}}},
	}))

	list, err := s.AccountRows("acct_1", domain.KindOrder, "", 10)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, "ord_b", list[0].RowID())
	require.Equal(t, domain.OrderFailed, list[0].(*domain.Order).State)
	list, err = s.AccountRows("acct_1", domain.KindOrder, "ord_b", 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "ord_a", list[0].RowID())
	list, err = s.AccountRows("acct_1", domain.KindTransfer, "", 10)
	require.NoError(t, err)
	require.Empty(t, list, "another kind's list is its own")
	// The cursor is any string a client sends: beyond the kind's ids it
	// stays within them (a crash once: GET /events?starting_after=zzz
	// listed the account's orders as events), below them it leaves none.
	for _, after := range []string{"zzz", "ord_zzz", "q_1", "tr_1", "ord_b\xff", "\xff\xff"} {
		for _, kind := range []domain.Kind{domain.KindOrder, domain.KindTransfer, domain.KindEvent} {
			list, err = s.AccountRows("acct_1", kind, after, 10)
			require.NoError(t, err)
			for _, r := range list {
				got, _ := domain.KindOf(r.RowID())
				require.Equal(t, kind, got, "starting_after=%q", after)
			}
		}
	}
	list, err = s.AccountRows("acct_1", domain.KindOrder, "zzz", 10)
	require.NoError(t, err)
	require.Len(t, list, 2, "a cursor after every order: all of them")
	for _, after := range []string{"aaa", "ord_", "ord_a", "!"} {
		list, err = s.AccountRows("acct_1", domain.KindOrder, after, 10)
		require.NoError(t, err)
		require.Empty(t, list, "a cursor before every order (%q): none", after)
	}

	var live []string
	require.NoError(t, s.LiveRows(domain.KindOrder, nil, 10, func(r domain.Row) error { live = append(live, r.RowID()); return nil }))
	require.Equal(t, []string{"ord_a", "ord_c"}, live)
	live = nil
	require.NoError(t, s.LiveRows(domain.KindOrder, nil, 1, func(r domain.Row) error { live = append(live, r.RowID()); return nil }))
	require.Equal(t, []string{"ord_a"}, live, "bounded")
	live = nil
	require.NoError(t, s.LiveRows(domain.KindOrder, func(id string) bool { return id != "ord_a" }, 1,
		func(r domain.Row) error { live = append(live, r.RowID()); return nil }))
	require.Equal(t, []string{"ord_c"}, live, "filtered by id before the bound")

	ent, ok, err := s.Load(domain.KindOrder, "ord_a", t0)
	require.NoError(t, err)
	require.True(t, ok)
	st := ent.(*domain.OrderState)
	require.Equal(t, domain.OrderAccepted, st.Order.State)
	require.NotNil(t, st.Idem.Get("sc"))
	_, ok, err = s.Load(domain.KindOrder, "ord_none", t0)
	require.NoError(t, err)
	require.False(t, ok)

	// The ledger holds one entry per order, in its latest state.
	var entries []string
	require.NoError(t, s.scan(ledgerPrefix("acct_1"), func(_, v []byte) error {
		e, err := domain.UnmarshalLedger(v)
		require.NoError(t, err)
		entries = append(entries, e.ID+":"+e.State)
		return nil
	}))
	require.Equal(t, []string{"ord_a:accepted", "ord_b:failed"}, entries)
}
