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
	require.NoError(t, s.Apply(0, []Applied{
		{Index: 1, Record: &domain.Record{Entity: "ord_a", Events: []domain.Event{put(orderRow("ord_a", "acct_1", domain.OrderAccepted, "")), idemEvent("sc", t0)}}},
		{Index: 2, Record: &domain.Record{Entity: "ord_b", Events: []domain.Event{put(orderRow("ord_b", "acct_1", domain.OrderAccepted, ""))}}},
		{Index: 3, Record: &domain.Record{Entity: "ord_c", Events: []domain.Event{put(orderRow("ord_c", "acct_2", domain.OrderAccepted, ""))}}},
		{Index: 4, Record: &domain.Record{Entity: "ord_b", Events: []domain.Event{put(orderRow("ord_b", "acct_1", domain.OrderFailed, "evt_1"))}}},
	}))

	list, err := s.AccountOrders("acct_1", "", 10)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, "ord_b", list[0].ID)
	require.Equal(t, domain.OrderFailed, list[0].State)
	list, err = s.AccountOrders("acct_1", "ord_b", 10)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "ord_a", list[0].ID)

	var live []string
	require.NoError(t, s.LiveOrders(10, func(o *domain.Order) error { live = append(live, o.ID); return nil }))
	require.Equal(t, []string{"ord_a", "ord_c"}, live)
	live = nil
	require.NoError(t, s.LiveOrders(1, func(o *domain.Order) error { live = append(live, o.ID); return nil }))
	require.Equal(t, []string{"ord_a"}, live, "bounded")

	var events []string
	require.NoError(t, s.Events(10, func(id string, o *domain.Order) error { events = append(events, id+"="+o.ID); return nil }))
	require.Equal(t, []string{"evt_1=ord_b"}, events)
	o, err := s.EventOrder("evt_1")
	require.NoError(t, err)
	require.Equal(t, "ord_b", o.ID)

	st, ok, err := s.LoadOrder("ord_a")
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, domain.OrderAccepted, st.Order.State)
	require.Contains(t, st.Idem, "sc")
	_, ok, err = s.LoadOrder("ord_none")
	require.NoError(t, err)
	require.False(t, ok)
}
