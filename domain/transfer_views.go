package domain

import "encoding/json"

// TransferView is a transfer on the wire (CONTRACT.md "Transfers"). Field
// order is the wire order; keep it stable, idempotent replays compare bytes.
type TransferView struct {
	ID            string          `json:"id"`
	State         string          `json:"state"`
	FromCurrency  string          `json:"from_currency"`
	Currency      string          `json:"currency"`
	Amount        string          `json:"amount"`
	AmountOut     *string         `json:"amount_out"`
	MinAmountOut  *string         `json:"min_amount_out"`
	Recipient     string          `json:"recipient"`
	ContactID     *string         `json:"contact_id"`
	SourceWallet  string          `json:"source_wallet"`
	Memo          *string         `json:"memo"`
	Signing       json.RawMessage `json:"signing"`
	TxHash        *string         `json:"tx_hash"`
	FailureReason *string         `json:"failure_reason"`
	ExpiresAt     string          `json:"expires_at"`
	CreatedAt     string          `json:"created_at"`
	UpdatedAt     string          `json:"updated_at"`
}

// ViewTransfer renders a transfer: amount in from_currency, amount_out and
// min_amount_out in currency (null for a cross-currency transfer until
// accept prices it), signing null until there is something to sign.
func ViewTransfer(t *Transfer) TransferView {
	signing := json.RawMessage(t.Signing)
	if len(signing) == 0 {
		signing = json.RawMessage("null")
	}
	v := TransferView{
		ID: t.ID, State: t.State, FromCurrency: t.FromCurrency, Currency: t.Currency,
		Amount: formatIn(t.Amount, t.FromCurrency), Recipient: t.Recipient, ContactID: nullable(t.ContactID),
		SourceWallet: t.SourceWallet, Memo: nullable(t.Memo), Signing: signing,
		TxHash: nullable(t.TxHash), FailureReason: nullable(t.FailureReason),
		ExpiresAt: RFC3339(t.ExpiresAt), CreatedAt: RFC3339(t.CreatedAt), UpdatedAt: RFC3339(t.UpdatedAt),
	}
	if t.Priced() {
		out, min := formatIn(t.AmountOut, t.Currency), formatIn(t.MinAmountOut, t.Currency)
		v.AmountOut, v.MinAmountOut = &out, &min
	}
	return v
}

// AllowanceIssue says the signer's ERC-20 allowance to Permit2 is short.
type AllowanceIssue struct {
	Token    string `json:"token"`
	Spender  string `json:"spender"`
	Actual   string `json:"actual"`
	Required string `json:"required"`
}

// BalanceIssue says the signer's balance is short.
type BalanceIssue struct {
	Token    string `json:"token"`
	Actual   string `json:"actual"`
	Required string `json:"required"`
}

// Issues is what an accept answer says stands in the way of the relay
// (CONTRACT.md, as 0x's API does): null where nothing is short. Amounts
// are decimal strings in currency units.
type Issues struct {
	Allowance *AllowanceIssue `json:"allowance"`
	Balance   *BalanceIssue   `json:"balance"`
}

// TransferAcceptView is the answer of POST /transfers/{id}/accept: the
// transfer and the pre-flight's issues.
type TransferAcceptView struct {
	TransferView
	Issues Issues `json:"issues"`
}

// ViewTransferAccept renders an accept answer.
func ViewTransferAccept(t *Transfer, issues Issues) TransferAcceptView {
	return TransferAcceptView{TransferView: ViewTransfer(t), Issues: issues}
}

// The webhook event types a transfer fires (SPEC.md "Events").
const (
	EventTransferConfirmed = "transfer.confirmed"
	EventTransferFailed    = "transfer.failed"
)
