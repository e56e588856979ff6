package client

import (
	"context"
	"iter"
)

// CreateWebhook is POST /webhooks: the endpoint and its signing secret,
// which no later answer shows.
func (c *Client) CreateWebhook(ctx context.Context, req WebhookCreate, opts ...CallOption) (*WebhookCreated, error) {
	return do[WebhookCreated](ctx, c, &rCreateWebhook, req, opts)
}

// ListWebhooks is GET /webhooks: one page, newest first.
func (c *Client) ListWebhooks(ctx context.Context, p ListParams, opts ...CallOption) (*Page[Webhook], error) {
	return list[Webhook](ctx, c, &rListWebhooks, p.query(), opts)
}

// AllWebhooks iterates over the endpoints from p on, page by page.
func (c *Client) AllWebhooks(ctx context.Context, p ListParams, opts ...CallOption) iter.Seq2[Webhook, error] {
	return paginate(p, func(p ListParams) (*Page[Webhook], error) { return c.ListWebhooks(ctx, p, opts...) })
}

// GetWebhook is GET /webhooks/{id}.
func (c *Client) GetWebhook(ctx context.Context, webhookID string, opts ...CallOption) (*Webhook, error) {
	return do[Webhook](ctx, c, &rGetWebhook, nil, opts, webhookID)
}

// UpdateWebhook is PATCH /webhooks/{id}.
func (c *Client) UpdateWebhook(ctx context.Context, webhookID string, req WebhookUpdate, opts ...CallOption) (*Webhook, error) {
	return do[Webhook](ctx, c, &rUpdateWebhook, req, opts, webhookID)
}

// DeleteWebhook is DELETE /webhooks/{id}.
func (c *Client) DeleteWebhook(ctx context.Context, webhookID string, opts ...CallOption) (*Deleted, error) {
	return do[Deleted](ctx, c, &rDeleteWebhook, nil, opts, webhookID)
}

// TestWebhook is POST /webhooks/{id}/test: a webhook.test event for the
// endpoint; the answer names its delivery.
func (c *Client) TestWebhook(ctx context.Context, webhookID string, opts ...CallOption) (*WebhookTest, error) {
	return do[WebhookTest](ctx, c, &rTestWebhook, nil, opts, webhookID)
}

// ResendWebhook is POST /webhooks/{id}/resend: the event's failed
// delivery to the endpoint goes out once more; the answer names it.
func (c *Client) ResendWebhook(ctx context.Context, webhookID string, req WebhookResend, opts ...CallOption) (*WebhookTest, error) {
	return do[WebhookTest](ctx, c, &rResendWebhook, req, opts, webhookID)
}

// RotateWebhookSecret is POST /webhooks/{id}/rotate-secret: the new
// secret, shown only here; the old one also signs for 24 h.
func (c *Client) RotateWebhookSecret(ctx context.Context, webhookID string, opts ...CallOption) (*WebhookSecret, error) {
	return do[WebhookSecret](ctx, c, &rRotateWebhookSecret, nil, opts, webhookID)
}

// ListWebhookDeliveries is GET /webhooks/{id}/deliveries: one page, a row
// per attempt (a delivery's attempts are never split across pages).
func (c *Client) ListWebhookDeliveries(ctx context.Context, webhookID string, p ListParams, opts ...CallOption) (*Page[Delivery], error) {
	return list[Delivery](ctx, c, &rListWebhookDeliveries, p.query(), opts, webhookID)
}

// AllWebhookDeliveries iterates over the endpoint's delivery attempts
// from p on, page by page.
func (c *Client) AllWebhookDeliveries(ctx context.Context, webhookID string, p ListParams, opts ...CallOption) iter.Seq2[Delivery, error] {
	return paginate(p, func(p ListParams) (*Page[Delivery], error) {
		return c.ListWebhookDeliveries(ctx, webhookID, p, opts...)
	})
}

// ListEvents is GET /events: one page of the last 30 days' events.
func (c *Client) ListEvents(ctx context.Context, p EventListParams, opts ...CallOption) (*Page[Event], error) {
	return list[Event](ctx, c, &rListEvents, p.ListParams.query().add("type", p.Type), opts)
}

// AllEvents iterates over the events from p on, page by page.
func (c *Client) AllEvents(ctx context.Context, p EventListParams, opts ...CallOption) iter.Seq2[Event, error] {
	return paginate(p.ListParams, func(lp ListParams) (*Page[Event], error) {
		return c.ListEvents(ctx, EventListParams{lp, p.Type}, opts...)
	})
}

// GetEvent is GET /events/{id}: the event exactly as delivered.
func (c *Client) GetEvent(ctx context.Context, eventID string, opts ...CallOption) (*Event, error) {
	return do[Event](ctx, c, &rGetEvent, nil, opts, eventID)
}
