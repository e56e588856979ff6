package client

import (
	"context"
	"fmt"
	"io"
	"iter"
)

// GetAccount is GET /account.
func (c *Client) GetAccount(ctx context.Context, opts ...CallOption) (*Account, error) {
	return do[Account](ctx, c, &rGetAccount, nil, opts)
}

// GetBalances is GET /balances.
func (c *Client) GetBalances(ctx context.Context, opts ...CallOption) (*Balances, error) {
	return do[Balances](ctx, c, &rGetBalances, nil, opts)
}

// ListWallets is GET /wallets: one page (the cursor is an address).
func (c *Client) ListWallets(ctx context.Context, p ListParams, opts ...CallOption) (*Page[Wallet], error) {
	return list[Wallet](ctx, c, &rListWallets, p.query(), opts)
}

// AllWallets iterates over the wallets from p on, page by page.
func (c *Client) AllWallets(ctx context.Context, p ListParams, opts ...CallOption) iter.Seq2[Wallet, error] {
	return paginate(p, func(p ListParams) (*Page[Wallet], error) { return c.ListWallets(ctx, p, opts...) })
}

// CreateWalletChallenge is POST /wallets/challenge: the SIWE message the
// wallet signs with personal_sign for RegisterWallet.
func (c *Client) CreateWalletChallenge(ctx context.Context, req WalletChallengeRequest, opts ...CallOption) (*WalletChallenge, error) {
	return do[WalletChallenge](ctx, c, &rCreateWalletChallenge, req, opts)
}

// RegisterWallet is POST /wallets: a signed challenge links the wallet.
func (c *Client) RegisterWallet(ctx context.Context, req WalletRegisterRequest, opts ...CallOption) (*Wallet, error) {
	return do[Wallet](ctx, c, &rRegisterWallet, req, opts)
}

// UpdateWallet is PATCH /wallets/{address}: make it primary, or relabel it.
func (c *Client) UpdateWallet(ctx context.Context, address string, req WalletUpdateRequest, opts ...CallOption) (*Wallet, error) {
	return do[Wallet](ctx, c, &rUpdateWallet, req, opts, address)
}

// DeleteWallet is DELETE /wallets/{address}.
func (c *Client) DeleteWallet(ctx context.Context, address string, opts ...CallOption) (*Deleted, error) {
	return do[Deleted](ctx, c, &rDeleteWallet, nil, opts, address)
}

// ListTransactions is GET /transactions: one page of the ledger.
func (c *Client) ListTransactions(ctx context.Context, p TransactionListParams, opts ...CallOption) (*Page[Transaction], error) {
	return list[Transaction](ctx, c, &rListTransactions, p.TransactionFilter.add(p.ListParams.query()), opts)
}

// AllTransactions iterates over the ledger from p on, page by page.
func (c *Client) AllTransactions(ctx context.Context, p TransactionListParams, opts ...CallOption) iter.Seq2[Transaction, error] {
	return paginate(p.ListParams, func(lp ListParams) (*Page[Transaction], error) {
		return c.ListTransactions(ctx, TransactionListParams{lp, p.TransactionFilter}, opts...)
	})
}

// ExportTransactions is GET /transactions/export: the ledger as CSV
// (RFC 4180, a header row), streamed. The caller reads and closes the
// body; it is not bounded by WithMaxResponseBodySize (the export has no
// row limit) and, once the answer's headers are in, only ctx bounds the
// reading. Failed attempts are retried before the stream starts, never
// during it.
func (c *Client) ExportTransactions(ctx context.Context, f TransactionFilter, opts ...CallOption) (io.ReadCloser, error) {
	target, err := c.target(&rExportTransactions, f.add(nil))
	if err != nil {
		return nil, err
	}
	var body io.ReadCloser
	// The stream is opened through the retry loop: an error answer is
	// read whole (and may be retried); a 200 is handed over unread.
	err = c.call(ctx, &rExportTransactions, target, nil, nil, append(opts[:len(opts):len(opts)], stream(&body)))
	if err != nil {
		return nil, err
	}
	if body == nil {
		return nil, fmt.Errorf("client: GET %s: no body", target)
	}
	return body, nil
}

// stream makes a call hand over a 200 answer's body unread.
func stream(dst *io.ReadCloser) CallOption { return func(c *callConfig) { c.stream = dst } }
