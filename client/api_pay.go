package client

import (
	"context"
	"iter"
)

// CreateTransfer is POST /transfers. A same-currency transfer comes back
// with an erc20_transfer signing to broadcast; a cross-currency one needs
// AcceptTransfer first. Give an IdempotencyKey to make a retry after a
// crash reach the same transfer.
func (c *Client) CreateTransfer(ctx context.Context, req TransferRequest, opts ...CallOption) (*Transfer, error) {
	return do[Transfer](ctx, c, &rCreateTransfer, req, opts)
}

// ListTransfers is GET /transfers: one page, newest first.
func (c *Client) ListTransfers(ctx context.Context, p ListParams, opts ...CallOption) (*Page[Transfer], error) {
	return list[Transfer](ctx, c, &rListTransfers, p.query(), opts)
}

// AllTransfers iterates over the transfers from p on, page by page.
func (c *Client) AllTransfers(ctx context.Context, p ListParams, opts ...CallOption) iter.Seq2[Transfer, error] {
	return paginate(p, func(p ListParams) (*Page[Transfer], error) { return c.ListTransfers(ctx, p, opts...) })
}

// GetTransfer is GET /transfers/{id}.
func (c *Client) GetTransfer(ctx context.Context, transferID string, opts ...CallOption) (*Transfer, error) {
	return do[Transfer](ctx, c, &rGetTransfer, nil, opts, transferID)
}

// AcceptTransfer is POST /transfers/{id}/accept (cross-currency): the
// transfer with the permit2_witness signing and its issues.
func (c *Client) AcceptTransfer(ctx context.Context, transferID string, opts ...CallOption) (*AcceptedTransfer, error) {
	return do[AcceptedTransfer](ctx, c, &rAcceptTransfer, nil, opts, transferID)
}

// SubmitTransfer is POST /transfers/{id}/submit: the signature
// (cross-currency) or the tx hash (same currency).
func (c *Client) SubmitTransfer(ctx context.Context, transferID string, req SubmitRequest, opts ...CallOption) (*Transfer, error) {
	return do[Transfer](ctx, c, &rSubmitTransfer, req, opts, transferID)
}

// CreatePaymentLink is POST /payment-links.
func (c *Client) CreatePaymentLink(ctx context.Context, req PaymentLinkRequest, opts ...CallOption) (*PaymentLink, error) {
	return do[PaymentLink](ctx, c, &rCreatePaymentLink, req, opts)
}

// ListPaymentLinks is GET /payment-links: one page, newest first.
func (c *Client) ListPaymentLinks(ctx context.Context, p ListParams, opts ...CallOption) (*Page[PaymentLink], error) {
	return list[PaymentLink](ctx, c, &rListPaymentLinks, p.query(), opts)
}

// AllPaymentLinks iterates over the payment links from p on, page by page.
func (c *Client) AllPaymentLinks(ctx context.Context, p ListParams, opts ...CallOption) iter.Seq2[PaymentLink, error] {
	return paginate(p, func(p ListParams) (*Page[PaymentLink], error) { return c.ListPaymentLinks(ctx, p, opts...) })
}

// GetPaymentLink is GET /payment-links/{id}.
func (c *Client) GetPaymentLink(ctx context.Context, linkID string, opts ...CallOption) (*PaymentLink, error) {
	return do[PaymentLink](ctx, c, &rGetPaymentLink, nil, opts, linkID)
}

// CancelPaymentLink is PATCH /payment-links/{id} {"state":"cancelled"}
// (409 invalid_state unless the link is open).
func (c *Client) CancelPaymentLink(ctx context.Context, linkID string, opts ...CallOption) (*PaymentLink, error) {
	return do[PaymentLink](ctx, c, &rCancelPaymentLink, PaymentLinkUpdate{State: "cancelled"}, opts, linkID)
}

// GetPublicPaymentLink is GET /pay/{id} (public): what a payer sees.
func (c *Client) GetPublicPaymentLink(ctx context.Context, linkID string, opts ...CallOption) (*PublicPaymentLink, error) {
	return do[PublicPaymentLink](ctx, c, &rGetPublicPaymentLink, nil, opts, linkID)
}

// PayPaymentLink is POST /pay/{id}/submit (public): has the service
// verify the transaction that paid the link now, instead of waiting for
// its watcher.
func (c *Client) PayPaymentLink(ctx context.Context, linkID string, req TxHashRequest, opts ...CallOption) (*PublicPaymentLink, error) {
	return do[PublicPaymentLink](ctx, c, &rPayPaymentLink, req, opts, linkID)
}

// CreateContact is POST /contacts.
func (c *Client) CreateContact(ctx context.Context, req ContactCreate, opts ...CallOption) (*Contact, error) {
	return do[Contact](ctx, c, &rCreateContact, req, opts)
}

// ListContacts is GET /contacts: one page, newest first.
func (c *Client) ListContacts(ctx context.Context, p ListParams, opts ...CallOption) (*Page[Contact], error) {
	return list[Contact](ctx, c, &rListContacts, p.query(), opts)
}

// AllContacts iterates over the contacts from p on, page by page.
func (c *Client) AllContacts(ctx context.Context, p ListParams, opts ...CallOption) iter.Seq2[Contact, error] {
	return paginate(p, func(p ListParams) (*Page[Contact], error) { return c.ListContacts(ctx, p, opts...) })
}

// GetContact is GET /contacts/{id}.
func (c *Client) GetContact(ctx context.Context, contactID string, opts ...CallOption) (*Contact, error) {
	return do[Contact](ctx, c, &rGetContact, nil, opts, contactID)
}

// UpdateContact is PATCH /contacts/{id}.
func (c *Client) UpdateContact(ctx context.Context, contactID string, req ContactUpdate, opts ...CallOption) (*Contact, error) {
	return do[Contact](ctx, c, &rUpdateContact, req, opts, contactID)
}

// DeleteContact is DELETE /contacts/{id}.
func (c *Client) DeleteContact(ctx context.Context, contactID string, opts ...CallOption) (*Deleted, error) {
	return do[Deleted](ctx, c, &rDeleteContact, nil, opts, contactID)
}
