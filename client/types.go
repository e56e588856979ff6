package client

import (
	"encoding/json"
	"fmt"
)

// The request and response bodies of CONTRACT.md, typed by hand: field
// names and JSON tags are the contract's, money amounts are decimal
// strings in currency units ("1250.50"; base units, also strings, inside
// signing), and times are the RFC 3339 UTC strings the API sends
// (parse them with time.Parse(time.RFC3339, s) where needed). A field the
// API may send as null is a pointer (or a nil slice); answers may grow
// fields, which decoding ignores.

// ---- Meta ------------------------------------------------------------

// Health is GET /health: status "ok", or "recovering" (with HTTP 503)
// while the log replays.
type Health struct {
	Status   string       `json:"status"`
	Version  string       `json:"version"`
	WALIndex uint64       `json:"wal_index"`
	Chain    *HealthChain `json:"chain"`
	// Cluster is set by a cluster node only.
	Cluster *HealthCluster `json:"cluster,omitempty"`
}

// HealthChain is the chain head of /health; nil when it cannot be read.
type HealthChain struct {
	ChainID uint64 `json:"chain_id"`
	Head    uint64 `json:"head"`
}

// HealthCluster is a cluster node's part of /health: its name, the
// partitions it runs, and the stream records its store has yet to apply.
type HealthCluster struct {
	Node            string `json:"node"`
	PartitionsOwned int    `json:"partitions_owned"`
	ApplyLagRecords uint64 `json:"apply_lag_records"`
}

// ServerTime is GET /time.
type ServerTime struct {
	Unix int64 `json:"unix"`
}

// Deleted is the answer of every DELETE.
type Deleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// ---- FX ----------------------------------------------------------------

// QuoteRequest is POST /fx/quotes: an exact input amount in FromCurrency.
type QuoteRequest struct {
	FromCurrency string `json:"from_currency"`
	ToCurrency   string `json:"to_currency"`
	Amount       string `json:"amount"`
	// SourceWallet is the signer (the taker); "" means the primary wallet.
	SourceWallet string `json:"source_wallet,omitempty"`
}

// Quote is one quote: route "amm" (indicative) or "rfq" (firm, with the
// maker as Provider). It lives 30 s.
type Quote struct {
	ID           string  `json:"id"`
	Route        string  `json:"route"`
	Firm         bool    `json:"firm"`
	Provider     *string `json:"provider,omitempty"`
	Taker        string  `json:"taker"`
	FromCurrency string  `json:"from_currency"`
	ToCurrency   string  `json:"to_currency"`
	AmountIn     string  `json:"amount_in"`
	AmountOut    string  `json:"amount_out"`
	Rate         string  `json:"rate"`
	ExpiresAt    string  `json:"expires_at"`
}

// QuoteList is the answer of POST /fx/quotes.
type QuoteList struct {
	Quotes      []Quote `json:"quotes"`
	BestQuoteID string  `json:"best_quote_id"`
}

// Best is the quote named by BestQuoteID, or nil.
func (l *QuoteList) Best() *Quote {
	for i := range l.Quotes {
		if l.Quotes[i].ID == l.BestQuoteID {
			return &l.Quotes[i]
		}
	}
	return nil
}

// AcceptQuoteRequest is the optional body of POST /fx/quotes/{id}/accept.
type AcceptQuoteRequest struct {
	// SourceWallet, if set, must be the quote's taker.
	SourceWallet string `json:"source_wallet,omitempty"`
}

// SubmitRequest is the body of an order's or a transfer's submit: exactly
// one of Signature (AMM order, cross-currency transfer: relayed) or
// TxHash (RFQ funding, same-currency transfer: verified on chain).
type SubmitRequest struct {
	Signature string `json:"signature,omitempty"`
	TxHash    string `json:"tx_hash,omitempty"`
}

// Order is an FX order; poll GetOrder until State is "settled" (or
// another end state: "failed", "expired", "refunded").
type Order struct {
	OrderID       string   `json:"order_id"`
	Route         string   `json:"route"`
	State         string   `json:"state"`
	Signing       *Signing `json:"signing"`
	QuoteID       string   `json:"quote_id"`
	FromCurrency  string   `json:"from_currency"`
	ToCurrency    string   `json:"to_currency"`
	AmountIn      string   `json:"amount_in"`
	AmountOut     string   `json:"amount_out"`
	MinAmountOut  string   `json:"min_amount_out"`
	TxHash        *string  `json:"tx_hash"`
	FailureReason *string  `json:"failure_reason"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// AcceptedOrder is the answer of accept: the order and what stands in the
// way of funding it.
type AcceptedOrder struct {
	Order
	Issues Issues `json:"issues"`
}

// Issues is what stands in the way of a relay or a funding (as 0x's API
// answers): nil where nothing is short. Amounts in currency units.
type Issues struct {
	Allowance *AllowanceIssue `json:"allowance"`
	Balance   *BalanceIssue   `json:"balance"`
}

// AllowanceIssue: the signer's ERC-20 allowance for Permit2 (Spender) is
// below Required.
type AllowanceIssue struct {
	Token    string `json:"token"`
	Spender  string `json:"spender"`
	Actual   string `json:"actual"`
	Required string `json:"required"`
}

// BalanceIssue: the signer's balance is below Required.
type BalanceIssue struct {
	Token    string `json:"token"`
	Actual   string `json:"actual"`
	Required string `json:"required"`
}

// Signing is what the caller signs, one shape per Type:
//   - "permit2_witness" with Order: an AMM order or a cross-currency
//     transfer (GaslessOrder witness); sign TypedData, submit the signature.
//   - "permit2_witness" with Funding: an RFQ order (RfqEscrowFunding
//     witness); sign TypedData, append the signature to Call.Args,
//     broadcast Call, submit the tx hash.
//   - "erc20_transfer" with Tx: a same-currency transfer; sign and
//     broadcast Tx, submit the tx hash.
type Signing struct {
	Type      string         `json:"type"`
	Order     *GaslessOrder  `json:"order,omitempty"`
	Funding   *RFQFunding    `json:"funding,omitempty"`
	Relay     *Relay         `json:"relay,omitempty"`
	TypedData *TypedData     `json:"typed_data,omitempty"`
	Call      *EscrowCall    `json:"call,omitempty"`
	Tx        *ERC20Transfer `json:"tx,omitempty"`
}

// GaslessOrder is signing.order: the GaslessOrder witness, integers as
// decimal strings of base units.
type GaslessOrder struct {
	Signer       string `json:"signer"`
	TokenIn      string `json:"tokenIn"`
	TokenOut     string `json:"tokenOut"`
	AmountIn     string `json:"amountIn"`
	MinAmountOut string `json:"minAmountOut"`
	Recipient    string `json:"recipient"`
	Pool         string `json:"pool"`
	Deadline     string `json:"deadline"`
	Nonce        string `json:"nonce"`
}

// RFQFunding is signing.funding: the RfqEscrowFunding witness.
type RFQFunding struct {
	Escrow      string `json:"escrow"`
	Token       string `json:"token"`
	Amount      string `json:"amount"`
	ExecutionID string `json:"executionId"`
	QuoteHash   string `json:"quoteHash"`
	Deadline    string `json:"deadline"`
	Nonce       string `json:"nonce"`
	Signer      string `json:"signer"`
}

// Relay is signing.relay; RelayRouter is set for the AMM shape only (an
// RFQ funding is broadcast by the caller).
type Relay struct {
	ChainID           uint64 `json:"chainId"`
	Permit2           string `json:"permit2"`
	RelayRouter       string `json:"relayRouter,omitempty"`
	WitnessTypeString string `json:"witnessTypeString"`
}

// TypedData is signing.typed_data: the complete EIP-712 payload for
// eth_signTypedData_v4 (a Permit2 PermitWitnessTransferFrom).
type TypedData struct {
	Domain      TypedDataDomain             `json:"domain"`
	Types       map[string][]TypedDataField `json:"types"`
	PrimaryType string                      `json:"primaryType"`
	Message     PermitMessage               `json:"message"`
}

// TypedDataDomain is the Permit2 domain.
type TypedDataDomain struct {
	Name              string `json:"name"`
	ChainID           uint64 `json:"chainId"`
	VerifyingContract string `json:"verifyingContract"`
}

// TypedDataField is one member of an EIP-712 type.
type TypedDataField struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// PermitMessage is the PermitWitnessTransferFrom message.
type PermitMessage struct {
	Permitted TokenPermissions `json:"permitted"`
	Spender   string           `json:"spender"`
	Nonce     string           `json:"nonce"`
	Deadline  string           `json:"deadline"`
	// Witness is the GaslessOrder (AMM) or RfqEscrowFunding (RFQ)
	// witness, kept as sent: decode it into a GaslessOrder or an
	// RFQFunding.
	Witness json.RawMessage `json:"witness"`
}

// TokenPermissions is the permitted token and amount (base units).
type TokenPermissions struct {
	Token  string `json:"token"`
	Amount string `json:"amount"`
}

// EscrowCall is signing.call of an RFQ order: send
// escrowQuoteWithPermit2(args..., permit2Signature) to To.
type EscrowCall struct {
	To  string      `json:"to"`
	ABI ABIFunction `json:"abi"`
	// Args are the first three arguments (quote, providerSignature,
	// funding), as sent: named tuples with decimal-string integers.
	Args []json.RawMessage `json:"args"`
}

// ABIFunction is a Solidity JSON ABI function fragment.
type ABIFunction struct {
	Type            string         `json:"type"`
	Name            string         `json:"name"`
	Inputs          []ABIParameter `json:"inputs"`
	Outputs         []ABIParameter `json:"outputs"`
	StateMutability string         `json:"stateMutability,omitempty"`
}

// ABIParameter is a parameter (or tuple member) of an ABI fragment.
type ABIParameter struct {
	Name         string         `json:"name"`
	Type         string         `json:"type"`
	InternalType string         `json:"internalType,omitempty"`
	Components   []ABIParameter `json:"components,omitempty"`
}

// ERC20Transfer is signing.tx of a same-currency transfer.
type ERC20Transfer struct {
	ChainID uint64 `json:"chainId"`
	To      string `json:"to"`
	Data    string `json:"data"`
	Value   string `json:"value"`
}

// Rates is GET /fx/rates: each pair's AMM mid price at the day's open.
type Rates struct {
	Date string `json:"date"`
	Data []Rate `json:"data"`
}

// Rate is one pair's baseline ("USDC/EURC": EURC per USDC).
type Rate struct {
	Pair string `json:"pair"`
	Rate string `json:"rate"`
	AsOf string `json:"as_of"`
}

// CurrencyList is GET /currencies.
type CurrencyList struct {
	Data []Currency `json:"data"`
}

// Currency is one supported token.
type Currency struct {
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
	Address  string `json:"address"`
	ChainID  uint64 `json:"chain_id"`
}

// ---- Account, wallets, ledger -----------------------------------------

// Account is GET /account.
type Account struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	KYCStatus   string      `json:"kyc_status"`
	Permissions Permissions `json:"permissions"`
	Wallets     []Wallet    `json:"wallets"`
	CreatedAt   string      `json:"created_at"`
}

// Permissions is what the account may do (KYC / launch access).
type Permissions struct {
	Swap bool `json:"swap"`
	Pay  bool `json:"pay"`
}

// Balances is GET /balances, read from the chain at BlockNumber.
type Balances struct {
	BlockNumber uint64            `json:"block_number"`
	Data        []CurrencyBalance `json:"data"`
}

// CurrencyBalance is one currency over every wallet.
type CurrencyBalance struct {
	Currency string          `json:"currency"`
	Total    string          `json:"total"`
	Wallets  []WalletBalance `json:"wallets"`
}

// WalletBalance is one wallet's amount of a currency.
type WalletBalance struct {
	Address string `json:"address"`
	Amount  string `json:"amount"`
}

// Wallet is a linked signer wallet.
type Wallet struct {
	Address   string  `json:"address"`
	Primary   bool    `json:"primary"`
	Label     *string `json:"label"`
	CreatedAt string  `json:"created_at"`
}

// WalletChallengeRequest is POST /wallets/challenge.
type WalletChallengeRequest struct {
	Address string `json:"address"`
}

// WalletChallenge is a SIWE (EIP-4361) message to sign with personal_sign.
type WalletChallenge struct {
	Message   string `json:"message"`
	Nonce     string `json:"nonce"`
	ExpiresAt string `json:"expires_at"`
}

// WalletRegisterRequest is POST /wallets: the challenge, signed.
type WalletRegisterRequest struct {
	Message   string `json:"message"`
	Signature string `json:"signature"`
}

// WalletUpdateRequest is PATCH /wallets/{address}; nil fields stay.
type WalletUpdateRequest struct {
	Primary *bool   `json:"primary,omitempty"`
	Label   *string `json:"label,omitempty"`
}

// Transaction is one ledger entry.
type Transaction struct {
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	State        string  `json:"state"`
	FromCurrency string  `json:"from_currency"`
	ToCurrency   string  `json:"to_currency"`
	AmountIn     string  `json:"amount_in"`
	AmountOut    *string `json:"amount_out"` // nil: not known yet (a cross-currency transfer before its accept)
	TxHash       *string `json:"tx_hash"`
	ReferenceID  string  `json:"reference_id"`
	Description  *string `json:"description"`
	CreatedAt    string  `json:"created_at"`
}

// ---- Transfers --------------------------------------------------------

// TransferRequest is POST /transfers: exactly one of Recipient and
// ContactID. Amount is in FromCurrency.
type TransferRequest struct {
	FromCurrency string `json:"from_currency"`
	Currency     string `json:"currency"`
	Amount       string `json:"amount"`
	Recipient    string `json:"recipient,omitempty"`
	ContactID    string `json:"contact_id,omitempty"`
	SourceWallet string `json:"source_wallet,omitempty"`
	Memo         string `json:"memo,omitempty"`
}

// Transfer is a transfer: states created, accepted, submitted,
// confirmed, failed, expired.
type Transfer struct {
	ID            string   `json:"id"`
	State         string   `json:"state"`
	FromCurrency  string   `json:"from_currency"`
	Currency      string   `json:"currency"`
	Amount        string   `json:"amount"`
	AmountOut     *string  `json:"amount_out"`
	MinAmountOut  *string  `json:"min_amount_out"`
	Recipient     string   `json:"recipient"`
	ContactID     *string  `json:"contact_id"`
	SourceWallet  string   `json:"source_wallet"`
	Memo          *string  `json:"memo"`
	Signing       *Signing `json:"signing"`
	TxHash        *string  `json:"tx_hash"`
	FailureReason *string  `json:"failure_reason"`
	ExpiresAt     string   `json:"expires_at"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// AcceptedTransfer is the answer of POST /transfers/{id}/accept.
type AcceptedTransfer struct {
	Transfer
	Issues Issues `json:"issues"`
}

// ---- Payment links ----------------------------------------------------

// PaymentLinkRequest is POST /payment-links.
type PaymentLinkRequest struct {
	Currency    string `json:"currency"`
	Amount      string `json:"amount"`
	Description string `json:"description,omitempty"`
	// ExpiresAt is RFC 3339, in the future; "" never expires.
	ExpiresAt string `json:"expires_at,omitempty"`
	// PayoutWallet is a registered wallet; "" means the primary.
	PayoutWallet string `json:"payout_wallet,omitempty"`
}

// PaymentLink is a payment link as its account sees it: states open,
// paid, cancelled, expired.
type PaymentLink struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	State          string   `json:"state"`
	Currency       string   `json:"currency"`
	Amount         string   `json:"amount"`
	AmountReceived string   `json:"amount_received"`
	ReceiveAddress string   `json:"receive_address"`
	PayoutWallet   string   `json:"payout_wallet"`
	Description    *string  `json:"description"`
	ExpiresAt      *string  `json:"expires_at"`
	PaidAt         *string  `json:"paid_at"`
	TxHashes       []string `json:"tx_hashes"`
	CreatedAt      string   `json:"created_at"`
}

// PaymentLinkUpdate is PATCH /payment-links/{id}; the only change is
// {"state":"cancelled"} (CancelPaymentLink).
type PaymentLinkUpdate struct {
	State string `json:"state"`
}

// PublicPaymentLink is what a payer sees (GET /pay/{id}).
type PublicPaymentLink struct {
	ID             string  `json:"id"`
	State          string  `json:"state"`
	Currency       string  `json:"currency"`
	Amount         string  `json:"amount"`
	AmountReceived string  `json:"amount_received"`
	Description    *string `json:"description"`
	ReceiveAddress string  `json:"receive_address"`
	TokenAddress   string  `json:"token_address"`
	ChainID        uint64  `json:"chain_id"`
	ExpiresAt      *string `json:"expires_at"`
}

// TxHashRequest is POST /pay/{id}/submit.
type TxHashRequest struct {
	TxHash string `json:"tx_hash"`
}

// ---- Contacts ---------------------------------------------------------

// ContactCreate is POST /contacts.
type ContactCreate struct {
	Name     string `json:"name"`
	Address  string `json:"address"`
	Currency string `json:"currency,omitempty"`
	Memo     string `json:"memo,omitempty"`
}

// ContactUpdate is PATCH /contacts/{id}: nil fields stay; a pointer to ""
// clears Currency or Memo.
type ContactUpdate struct {
	Name     *string `json:"name,omitempty"`
	Address  *string `json:"address,omitempty"`
	Currency *string `json:"currency,omitempty"`
	Memo     *string `json:"memo,omitempty"`
}

// Contact is a saved payout recipient.
type Contact struct {
	ID        string  `json:"id"`
	Name      string  `json:"name"`
	Address   string  `json:"address"`
	Currency  *string `json:"currency"`
	Memo      *string `json:"memo"`
	CreatedAt string  `json:"created_at"`
	UpdatedAt string  `json:"updated_at"`
}

// ---- Webhooks and events ----------------------------------------------

// WebhookCreate is POST /webhooks; nil Events means every type (["*"]).
type WebhookCreate struct {
	URL         string   `json:"url"`
	Events      []string `json:"events,omitempty"`
	Description string   `json:"description,omitempty"`
}

// WebhookUpdate is PATCH /webhooks/{id}: nil fields stay; a pointer to
// "" clears Description; State "enabled" re-enables a disabled endpoint.
type WebhookUpdate struct {
	URL         *string  `json:"url,omitempty"`
	Events      []string `json:"events,omitempty"`
	Description *string  `json:"description,omitempty"`
	State       *string  `json:"state,omitempty"`
}

// Webhook is an endpoint (states enabled, disabled); its secret is shown
// only at creation and rotation.
type Webhook struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description"`
	State       string   `json:"state"`
	CreatedAt   string   `json:"created_at"`
}

// WebhookCreated is the answer of POST /webhooks: the endpoint and its
// signing secret ("whsec_…"), shown only here.
type WebhookCreated struct {
	Webhook
	Secret string `json:"secret"`
}

// WebhookResend is POST /webhooks/{id}/resend: the event whose failed
// delivery to the endpoint is sent again.
type WebhookResend struct {
	EventID string `json:"event_id"`
}

// WebhookTest is the answer of POST /webhooks/{id}/test (and of a resend).
type WebhookTest struct {
	DeliveryID string `json:"delivery_id"`
}

// WebhookSecret is the answer of rotate-secret: the new secret, shown
// only here.
type WebhookSecret struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
}

// Delivery is one attempt to deliver an event to an endpoint; ID is the
// delivery, shared by its attempts.
type Delivery struct {
	ID         string  `json:"id"`
	EventID    string  `json:"event_id"`
	Attempt    int     `json:"attempt"`
	StatusCode *int    `json:"status_code"`
	Error      *string `json:"error"`
	DurationMs int64   `json:"duration_ms"`
	At         string  `json:"at"`
}

// Event is a webhook event, exactly as delivered. Data.Object is the
// record at the transition, by Type: an Order (fx.order.*), a Transfer
// (transfer.*), a PaymentLink (payment_link.paid) or a WebhookTestObject
// (webhook.test); Object decodes it.
type Event struct {
	ID         string    `json:"id"`
	Type       string    `json:"type"`
	CreatedAt  string    `json:"created_at"`
	APIVersion string    `json:"api_version"`
	Data       EventData `json:"data"`
}

// EventData is an event's data, its object kept as sent.
type EventData struct {
	Object json.RawMessage `json:"object"`
}

// WebhookTestObject is data.object of a webhook.test event.
type WebhookTestObject struct {
	EndpointID string `json:"endpoint_id"`
}

// Object decodes Data.Object into the record its Type carries: *Order,
// *Transfer, *PaymentLink or *WebhookTestObject.
func (e *Event) Object() (any, error) {
	var v any
	switch e.Type {
	case "fx.order.settled", "fx.order.failed", "fx.order.refunded":
		v = new(Order)
	case "transfer.confirmed", "transfer.failed":
		v = new(Transfer)
	case "payment_link.paid":
		v = new(PaymentLink)
	case "webhook.test":
		v = new(WebhookTestObject)
	default:
		return nil, fmt.Errorf("client: event %s: unknown type %q", e.ID, e.Type)
	}
	if err := json.Unmarshal(e.Data.Object, v); err != nil {
		return nil, fmt.Errorf("client: event %s: decode data.object: %w", e.ID, err)
	}
	return v, nil
}
