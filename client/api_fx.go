package client

import (
	"context"
	"iter"
)

// The typed methods, one per route: each is the route's operationId with
// its first letter upper-cased. Writes carry an Idempotency-Key (the
// caller's, see IdempotencyKey, or a fresh one) and every call retries as
// RetryPolicy says.

// GetHealth is GET /health (public). A recovering service answers 503
// with the Health body; GetHealth returns it (Status "recovering") with
// no error, and does not retry it.
func (c *Client) GetHealth(ctx context.Context, opts ...CallOption) (*Health, error) {
	return do[Health](ctx, c, &rGetHealth, nil, opts)
}

// GetTime is GET /time (public). SyncClock uses it to correct the
// signing clock.
func (c *Client) GetTime(ctx context.Context, opts ...CallOption) (*ServerTime, error) {
	return do[ServerTime](ctx, c, &rGetTime, nil, opts)
}

// GetOpenAPI is GET /openapi.json (public): the OpenAPI 3.1 document,
// as sent.
func (c *Client) GetOpenAPI(ctx context.Context, opts ...CallOption) ([]byte, error) {
	var resp Response
	target, err := c.target(&rGetOpenAPI, nil)
	if err != nil {
		return nil, err
	}
	if err := c.call(ctx, &rGetOpenAPI, target, nil, nil, append(opts[:len(opts):len(opts)], CaptureResponse(&resp))); err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// CreateQuotes is POST /fx/quotes: the AMM's indicative quote and the
// makers' firm ones for an exact input. It sends no Idempotency-Key
// unless given one (a keyed quote is stored in the log; an unkeyed one
// is an offer that a retry just makes again).
func (c *Client) CreateQuotes(ctx context.Context, req QuoteRequest, opts ...CallOption) (*QuoteList, error) {
	return do[QuoteList](ctx, c, &rCreateQuotes, req, opts)
}

// AcceptQuote is POST /fx/quotes/{id}/accept: the order, with the typed
// data to sign and the issues in the way of its funding. Accepting again
// returns the same order. req may be nil.
func (c *Client) AcceptQuote(ctx context.Context, quoteID string, req *AcceptQuoteRequest, opts ...CallOption) (*AcceptedOrder, error) {
	if req == nil {
		req = &AcceptQuoteRequest{}
	}
	return do[AcceptedOrder](ctx, c, &rAcceptQuote, req, opts, quoteID)
}

// SubmitOrder is POST /fx/orders/{id}/submit: the signature (AMM) or the
// funding tx hash (RFQ).
func (c *Client) SubmitOrder(ctx context.Context, orderID string, req SubmitRequest, opts ...CallOption) (*Order, error) {
	return do[Order](ctx, c, &rSubmitOrder, req, opts, orderID)
}

// GetOrder is GET /fx/orders/{id}.
func (c *Client) GetOrder(ctx context.Context, orderID string, opts ...CallOption) (*Order, error) {
	return do[Order](ctx, c, &rGetOrder, nil, opts, orderID)
}

// ListOrders is GET /fx/orders: one page, newest first.
func (c *Client) ListOrders(ctx context.Context, p ListParams, opts ...CallOption) (*Page[Order], error) {
	return list[Order](ctx, c, &rListOrders, p.query(), opts)
}

// AllOrders iterates over the orders from p on, page by page.
func (c *Client) AllOrders(ctx context.Context, p ListParams, opts ...CallOption) iter.Seq2[Order, error] {
	return paginate(p, func(p ListParams) (*Page[Order], error) { return c.ListOrders(ctx, p, opts...) })
}

// GetRates is GET /fx/rates: the day's opening rate of each pair.
func (c *Client) GetRates(ctx context.Context, opts ...CallOption) (*Rates, error) {
	return do[Rates](ctx, c, &rGetRates, nil, opts)
}

// ListCurrencies is GET /currencies: the supported tokens.
func (c *Client) ListCurrencies(ctx context.Context, opts ...CallOption) (*CurrencyList, error) {
	return do[CurrencyList](ctx, c, &rListCurrencies, nil, opts)
}
