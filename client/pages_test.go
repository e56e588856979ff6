package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// pager serves a list of ids, newest first, by the contract's cursor
// rules, and records each request's query.
type pager struct {
	ids []string
	// brokenAfter: answer 500 once this many pages were served (0: never).
	brokenAfter int
	// cursor overrides next_cursor on pages with more ("null": null).
	cursor string

	mu      sync.Mutex
	queries []string
}

func (p *pager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	p.queries = append(p.queries, r.URL.RawQuery)
	n := len(p.queries)
	p.mu.Unlock()
	if p.brokenAfter > 0 && n > p.brokenAfter {
		w.WriteHeader(500)
		_, _ = w.Write([]byte(`{"error":{"code":"unavailable","message":"broken"}}`))
		return
	}
	q := r.URL.Query()
	limit := 50
	if v := q.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	start := 0
	if after := q.Get("starting_after"); after != "" {
		start = slices.Index(p.ids, after) + 1
	}
	end := min(start+limit, len(p.ids))
	page := map[string]any{"has_more": end < len(p.ids), "next_cursor": nil}
	data := []map[string]any{}
	for _, id := range p.ids[start:end] {
		data = append(data, map[string]any{"id": id})
	}
	page["data"] = data
	if end < len(p.ids) {
		page["next_cursor"] = p.ids[end-1]
		switch p.cursor {
		case "":
		case "null":
			page["next_cursor"] = nil
		default:
			page["next_cursor"] = p.cursor
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(page)
}

func ids(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, n-i) // newest first
	}
	return out
}

// collect drains an iterator: the ids it yielded and the errors.
func collect[T any](seq iter.Seq2[T, error], id func(T) string, stopAfter int) ([]string, []error) {
	var got []string
	var errs []error
	for v, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got = append(got, id(v))
		if len(got) == stopAfter {
			break
		}
	}
	return got, errs
}

func TestPagination(t *testing.T) {
	ctx := context.Background()
	ct := func(c Contact) string { return c.ID }
	tests := []struct {
		name      string
		pager     *pager
		limit     int
		stopAfter int
		want      []string
		queries   []string
		errs      int
	}{
		{"seven over three pages", &pager{ids: ids("ct_", 7)}, 3, 0, ids("ct_", 7),
			[]string{"limit=3", "limit=3&starting_after=ct_05", "limit=3&starting_after=ct_02"}, 0},
		{"exactly one full page", &pager{ids: ids("ct_", 3)}, 3, 0, ids("ct_", 3), []string{"limit=3"}, 0},
		{"empty", &pager{}, 0, 0, nil, []string{""}, 0},
		{"the caller stops: no page beyond", &pager{ids: ids("ct_", 7)}, 2, 3, ids("ct_", 7)[:3],
			[]string{"limit=2", "limit=2&starting_after=ct_06"}, 0},
		{"an error on page two ends the walk", &pager{ids: ids("ct_", 7), brokenAfter: 1}, 3, 0, ids("ct_", 7)[:3],
			[]string{"limit=3", "limit=3&starting_after=ct_05"}, 1},
		{"has_more without a cursor", &pager{ids: ids("ct_", 7), cursor: "null"}, 3, 0, ids("ct_", 7)[:3], []string{"limit=3"}, 1},
		{"a cursor that does not move", &pager{ids: ids("ct_", 7), cursor: "ct_07"}, 1, 0, []string{"ct_07", "ct_06"},
			[]string{"limit=1", "limit=1&starting_after=ct_07"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.pager)
			t.Cleanup(srv.Close)
			c := newTestClient(t, srv.URL, newClock(clockStart))
			got, errs := collect(c.AllContacts(ctx, ListParams{Limit: tc.limit}, MaxAttempts(1)), ct, tc.stopAfter)
			require.Equal(t, tc.want, got)
			require.Len(t, errs, tc.errs)
			require.Equal(t, tc.queries, tc.pager.queries)
		})
	}
}

// TestPaginationKeepsFilters: every page of the ledger, the events and
// the deliveries carries the caller's filters and path.
func TestPaginationKeepsFilters(t *testing.T) {
	ctx := context.Background()
	p := &pager{ids: ids("x_", 5)}
	var paths []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		p.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, newClock(clockStart))

	from := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))
	got, errs := collect(c.AllTransactions(ctx, TransactionListParams{ListParams{Limit: 3},
		TransactionFilter{Type: "transfer", Currency: "USDC", From: from}}), func(v Transaction) string { return v.ID }, 0)
	require.Empty(t, errs)
	require.Equal(t, ids("x_", 5), got)
	require.Equal(t, []string{
		"limit=3&type=transfer&currency=USDC&from=2026-01-02T02%3A04%3A05Z",
		"limit=3&starting_after=x_03&type=transfer&currency=USDC&from=2026-01-02T02%3A04%3A05Z",
	}, p.queries)

	p.queries = nil
	got, errs = collect(c.AllEvents(ctx, EventListParams{ListParams{Limit: 4}, "transfer.confirmed"}), func(v Event) string { return v.ID }, 0)
	require.Empty(t, errs)
	require.Len(t, got, 5)
	require.Equal(t, []string{"limit=4&type=transfer.confirmed", "limit=4&starting_after=x_02&type=transfer.confirmed"}, p.queries)

	p.queries = nil
	got, errs = collect(c.AllWebhookDeliveries(ctx, "wh_1", ListParams{Limit: 4}), func(v Delivery) string { return v.ID }, 0)
	require.Empty(t, errs)
	require.Len(t, got, 5)
	require.Equal(t, []string{"/public/v1/events", "/public/v1/events", "/public/v1/webhooks/wh_1/deliveries"}, paths[2:5])

	for name, seq := range map[string]func() ([]string, []error){
		"orders": func() ([]string, []error) {
			return collect(c.AllOrders(ctx, ListParams{}), func(v Order) string { return v.OrderID }, 0)
		},
		"wallets": func() ([]string, []error) {
			return collect(c.AllWallets(ctx, ListParams{}), func(v Wallet) string { return v.Address }, 0)
		},
		"transfers": func() ([]string, []error) {
			return collect(c.AllTransfers(ctx, ListParams{}), func(v Transfer) string { return v.ID }, 0)
		},
		"links": func() ([]string, []error) {
			return collect(c.AllPaymentLinks(ctx, ListParams{}), func(v PaymentLink) string { return v.ID }, 0)
		},
		"webhooks": func() ([]string, []error) {
			return collect(c.AllWebhooks(ctx, ListParams{}), func(v Webhook) string { return v.ID }, 0)
		},
	} {
		got, errs := seq()
		require.Empty(t, errs, name)
		require.Len(t, got, 5, name)
	}
}
