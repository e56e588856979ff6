package client

import (
	"context"
	"fmt"
	"iter"
	"time"
)

// Page is one page of a list (CONTRACT.md "Lists"): newest first;
// NextCursor is the id of the last item (a wallet's address, a
// delivery's id), to pass as StartingAfter, and nil on the last page.
type Page[T any] struct {
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// ListParams select a page.
type ListParams struct {
	// Limit is the page size, 1..200; 0 leaves it to the server (50).
	Limit int
	// StartingAfter is the NextCursor of the previous page; "" starts at
	// the newest item.
	StartingAfter string
}

func (p ListParams) query() query {
	return query(nil).addInt("limit", p.Limit).add("starting_after", p.StartingAfter)
}

// TransactionFilter selects ledger entries (GET /transactions and its
// export); zero fields do not filter.
type TransactionFilter struct {
	// Type is fx_amm, fx_rfq, transfer or payment_link.
	Type string
	// Currency matches either side of an entry.
	Currency string
	// From and To bound created_at, both inclusive, in whole seconds.
	From, To time.Time
}

func (f TransactionFilter) add(q query) query {
	return q.add("type", f.Type).add("currency", f.Currency).addTime("from", f.From).addTime("to", f.To)
}

// TransactionListParams select a page of the ledger.
type TransactionListParams struct {
	ListParams
	TransactionFilter
}

// EventListParams select a page of events.
type EventListParams struct {
	ListParams
	// Type is one event type ("transfer.confirmed", …); "" lists all.
	Type string
}

// list fetches one page of rt.
func list[T any](ctx context.Context, c *Client, rt *route, q query, opts []CallOption, args ...string) (*Page[T], error) {
	target, err := c.target(rt, q, args...)
	if err != nil {
		return nil, err
	}
	return typed[Page[T]](ctx, c, rt, target, nil, opts)
}

// paginate walks the pages from p on, following next_cursor as
// starting_after while has_more says there are more. It holds one page
// at a time. An error (after the call's own retries) is yielded once and
// ends the walk; so does a page that claims more without a new cursor,
// which would otherwise loop forever.
func paginate[T any](p ListParams, fetch func(ListParams) (*Page[T], error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		for {
			page, err := fetch(p)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range page.Data {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasMore {
				return
			}
			if page.NextCursor == nil || *page.NextCursor == "" || *page.NextCursor == p.StartingAfter {
				yield(zero, fmt.Errorf("client: page after %q has more items but no new next_cursor", p.StartingAfter))
				return
			}
			p.StartingAfter = *page.NextCursor
		}
	}
}
