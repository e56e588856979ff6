package httpd

import "github.com/fxd-labs/fxd/domain"

// scopeAny marks a route any valid key may call (GET /currencies).
const scopeAny = domain.AllScopes

// route is one row of the route table. The same row drives the router, the
// auth pipeline (scope, rate class) and the OpenAPI document, so the
// published contract cannot drift from the code.
type route struct {
	Method string
	Path   string        // relative to the base path; {name} is a parameter
	Scope  domain.Scopes // 0: public, unauthenticated; scopeAny: any scope
	Heavy  bool          // counts against the heavy limit (and write)
	// OpenAPI description.
	OperationID string
	Summary     string
	Body        string  // component schema of the JSON request body; "" = none
	Query       []param // query parameters
	OK          int     // success status
	Result      string  // component schema of the success body ("" = none)
	ContentType string  // success content type; "" = application/json
	Errors      []int   // error statuses this route may answer besides the common ones
	// Idem is where a write keeps its Idempotency-Key's answers, so the
	// handler's own refusals are kept there too (idemHome).
	Idem idemHome
	// Handler serves the route; every route has one (the server refuses
	// a table with a nil handler, so no route of the contract is left
	// unbuilt).
	Handler handler
}

// param is a query parameter in the OpenAPI document.
type param struct {
	Name, Type, Description string
}

var listQuery = []param{
	{"limit", "integer", "1..200, default 50"},
	{"starting_after", "string", "id of the last item of the previous page (its next_cursor); a string that is not an id of the list's kind is 400 invalid_request"},
}

// ledgerFilters are the ledger's filters; the export takes them alone (it
// is not paged: it streams every matching entry).
var ledgerFilters = []param{
	{"type", "string", "fx_amm, fx_rfq, transfer or payment_link"},
	{"currency", "string", "a currency symbol"},
	{"from", "string", "RFC 3339 lower bound of created_at, inclusive (a '+' of an offset percent-encoded as %2B; sent raw, it arrives as a space and is read as '+')"},
	{"to", "string", "RFC 3339 upper bound of created_at, inclusive (an offset's '+' as for from)"},
}

var ledgerQuery = append(append([]param{}, listQuery...), ledgerFilters...)

var eventQuery = append(append([]param{}, listQuery...),
	param{"type", "string", "only events of this type"},
)

// routes returns the route table of SPEC.md and CONTRACT.md.
func (s *Server) routes() []route {
	return []route{
		// Meta, unauthenticated.
		{Method: "GET", Path: "/health", OperationID: "getHealth", Summary: "Liveness, log index and chain head; 503 while recovering", OK: 200, Result: "Health", Errors: []int{503}, Handler: s.getHealth},
		{Method: "GET", Path: "/time", OperationID: "getTime", Summary: "Server time, to correct clock skew before signing", OK: 200, Result: "Time", Handler: s.getTime},
		{Method: "GET", Path: "/openapi.json", OperationID: "getOpenAPI", Summary: "This document", OK: 200, Result: "", Handler: s.getOpenAPI},

		// FX.
		{Method: "POST", Path: "/fx/quotes", Scope: domain.ScopeTrade, Heavy: true, OperationID: "createQuotes", Summary: "Unified indicative AMM and firm RFQ quotes", Body: "QuoteRequest", OK: 200, Result: "QuoteList", Errors: []int{400, 502}, Idem: idemAccount, Handler: s.createQuotes},
		{Method: "POST", Path: "/fx/quotes/{id}/accept", Scope: domain.ScopeTrade, Heavy: true, OperationID: "acceptQuote", Summary: "Accept a quote; returns the order with typed data to sign and the relay pre-flight's issues (idempotent)", Body: "AcceptRequest", OK: 200, Result: "OrderAccepted", Errors: []int{400, 403, 404, 409}, Idem: idemQuoteOrder, Handler: s.acceptQuote},
		{Method: "POST", Path: "/fx/orders/{id}/submit", Scope: domain.ScopeTrade, Heavy: true, OperationID: "submitOrder", Summary: "Submit the signature (amm) or funding tx_hash (rfq)", Body: "SubmitRequest", OK: 200, Result: "Order", Errors: []int{400, 403, 404, 409}, Idem: idemOrder, Handler: s.submitOrder},
		{Method: "GET", Path: "/fx/orders/{id}", Scope: domain.ScopeTrade, OperationID: "getOrder", Summary: "One order", OK: 200, Result: "Order", Errors: []int{404}, Handler: s.getOrder},
		{Method: "GET", Path: "/fx/orders", Scope: domain.ScopeTrade, OperationID: "listOrders", Summary: "Orders, newest first", Query: listQuery, OK: 200, Result: "OrderList", Errors: []int{400}, Handler: s.listOrders},
		{Method: "GET", Path: "/fx/rates", Scope: domain.ScopeRead, OperationID: "getRates", Summary: "Daily-open baseline rates per pair", OK: 200, Result: "Rates", Errors: []int{503}, Handler: s.getRates},
		{Method: "GET", Path: "/currencies", Scope: scopeAny, OperationID: "listCurrencies", Summary: "Live set of supported currencies (any scope)", OK: 200, Result: "CurrencyList", Handler: s.listCurrencies},

		// Account.
		{Method: "GET", Path: "/account", Scope: domain.ScopeRead, OperationID: "getAccount", Summary: "Profile, KYC status, permissions and wallets", OK: 200, Result: "Account", Handler: s.getAccount},
		{Method: "GET", Path: "/balances", Scope: domain.ScopeRead, OperationID: "getBalances", Summary: "On-chain balances by currency and per wallet", OK: 200, Result: "Balances", Errors: []int{503}, Handler: s.getBalances},
		{Method: "GET", Path: "/wallets", Scope: domain.ScopeRead, OperationID: "listWallets", Summary: "Linked signer wallets (read-only)", Query: listQuery, OK: 200, Result: "WalletList", Errors: []int{400}, Handler: s.listWallets},
		{Method: "POST", Path: "/wallets/challenge", Scope: domain.ScopeWallets, OperationID: "createWalletChallenge", Summary: "SIWE (EIP-4361) challenge for a wallet address", Body: "WalletChallengeRequest", OK: 200, Result: "WalletChallenge", Errors: []int{400}, Idem: idemAccount, Handler: s.createChallenge},
		{Method: "POST", Path: "/wallets", Scope: domain.ScopeWallets, OperationID: "registerWallet", Summary: "Register a signer wallet with a signed SIWE message", Body: "WalletRegisterRequest", OK: 201, Result: "Wallet", Errors: []int{400, 409}, Idem: idemAccount, Handler: s.registerWallet},
		{Method: "PATCH", Path: "/wallets/{address}", Scope: domain.ScopeWallets, OperationID: "updateWallet", Summary: "Make primary or relabel a wallet", Body: "WalletUpdateRequest", OK: 200, Result: "Wallet", Errors: []int{400, 404}, Idem: idemAccount, Handler: s.updateWallet},
		{Method: "DELETE", Path: "/wallets/{address}", Scope: domain.ScopeWallets, OperationID: "deleteWallet", Summary: "Unlink a wallet (409 for the primary while others remain)", OK: 200, Result: "Deleted", Errors: []int{404, 409}, Idem: idemAccount, Handler: s.deleteWallet},
		{Method: "GET", Path: "/transactions", Scope: domain.ScopeRead, OperationID: "listTransactions", Summary: "Unified ledger, newest first", Query: ledgerQuery, OK: 200, Result: "TransactionList", Errors: []int{400}, Handler: s.listTransactions},
		{Method: "GET", Path: "/transactions/export", Scope: domain.ScopeRead, OperationID: "exportTransactions", Summary: "Ledger as CSV (RFC 4180), streamed: a header row, the columns of a Transaction in its order, null an empty cell, a text cell starting with = + - @, tab or CR prefixed with '", Query: ledgerFilters, OK: 200, ContentType: "text/csv", Errors: []int{400}, Handler: s.exportTransactions},

		// Transfers.
		{Method: "POST", Path: "/transfers", Scope: domain.ScopePay, OperationID: "createTransfer", Summary: "Create a transfer (idempotent with Idempotency-Key)", Body: "TransferRequest", OK: 201, Result: "Transfer", Errors: []int{400, 403, 404}, Idem: idemReserve, Handler: s.createTransfer},
		{Method: "GET", Path: "/transfers", Scope: domain.ScopePay, OperationID: "listTransfers", Summary: "Transfers of the account", Query: listQuery, OK: 200, Result: "TransferList", Errors: []int{400}, Handler: s.listTransfers},
		{Method: "GET", Path: "/transfers/{id}", Scope: domain.ScopePay, OperationID: "getTransfer", Summary: "One transfer", OK: 200, Result: "Transfer", Errors: []int{404}, Handler: s.getTransfer},
		{Method: "POST", Path: "/transfers/{id}/accept", Scope: domain.ScopePay, Heavy: true, OperationID: "acceptTransfer", Summary: "Accept a cross-currency transfer; returns the transfer with signing and issues", OK: 200, Result: "TransferAccepted", Errors: []int{400, 403, 404, 409, 502}, Idem: idemTransfer, Handler: s.acceptTransfer},
		{Method: "POST", Path: "/transfers/{id}/submit", Scope: domain.ScopePay, Heavy: true, OperationID: "submitTransfer", Summary: "Submit the signature (cross-currency) or tx_hash (same currency)", Body: "SubmitRequest", OK: 200, Result: "Transfer", Errors: []int{400, 403, 404, 409}, Idem: idemTransfer, Handler: s.submitTransfer},

		// Payment links.
		{Method: "POST", Path: "/payment-links", Scope: domain.ScopePay, OperationID: "createPaymentLink", Summary: "Create a payment link", Body: "PaymentLinkRequest", OK: 201, Result: "PaymentLink", Errors: []int{400, 403}, Idem: idemReserve, Handler: s.createLink},
		{Method: "GET", Path: "/payment-links", Scope: domain.ScopeRead, OperationID: "listPaymentLinks", Summary: "Payment links created by the account", Query: listQuery, OK: 200, Result: "PaymentLinkList", Errors: []int{400}, Handler: s.listLinks},
		{Method: "GET", Path: "/payment-links/{id}", Scope: domain.ScopeRead, OperationID: "getPaymentLink", Summary: "One payment link", OK: 200, Result: "PaymentLink", Errors: []int{404}, Handler: s.getLink},
		{Method: "PATCH", Path: "/payment-links/{id}", Scope: domain.ScopePay, OperationID: "cancelPaymentLink", Summary: "Cancel a payment link ({\"state\":\"cancelled\"})", Body: "PaymentLinkUpdate", OK: 200, Result: "PaymentLink", Errors: []int{400, 404, 409}, Idem: idemLink, Handler: s.cancelLink},
		{Method: "GET", Path: "/pay/{id}", OperationID: "getPublicPaymentLink", Summary: "Public view of a payment link", OK: 200, Result: "PublicPaymentLink", Errors: []int{404, 503}, Handler: s.getPublicLink},
		{Method: "POST", Path: "/pay/{id}/submit", OperationID: "payPaymentLink", Summary: "Submit the tx_hash that paid a link", Body: "TxHashRequest", OK: 200, Result: "PublicPaymentLink", Errors: []int{400, 404, 503}, Handler: s.payLink},

		// Contacts.
		{Method: "POST", Path: "/contacts", Scope: domain.ScopePay, OperationID: "createContact", Summary: "Save a payout recipient", Body: "ContactCreate", OK: 201, Result: "Contact", Errors: []int{400, 409}, Idem: idemAccount, Handler: s.createContact},
		{Method: "GET", Path: "/contacts", Scope: domain.ScopePay, OperationID: "listContacts", Summary: "Contacts, newest first", Query: listQuery, OK: 200, Result: "ContactList", Errors: []int{400}, Handler: s.listContacts},
		{Method: "GET", Path: "/contacts/{id}", Scope: domain.ScopePay, OperationID: "getContact", Summary: "One contact", OK: 200, Result: "Contact", Errors: []int{404}, Handler: s.getContact},
		{Method: "PATCH", Path: "/contacts/{id}", Scope: domain.ScopePay, OperationID: "updateContact", Summary: "Change a contact (\"\" clears currency or memo)", Body: "ContactUpdate", OK: 200, Result: "Contact", Errors: []int{400, 404}, Idem: idemAccount, Handler: s.updateContact},
		{Method: "DELETE", Path: "/contacts/{id}", Scope: domain.ScopePay, OperationID: "deleteContact", Summary: "Delete a contact", OK: 200, Result: "Deleted", Errors: []int{404}, Idem: idemAccount, Handler: s.deleteContact},

		// Webhooks.
		{Method: "POST", Path: "/webhooks", Scope: domain.ScopeWebhooks, OperationID: "createWebhook", Summary: "Register an HTTPS endpoint; the secret is returned only here", Body: "WebhookCreate", OK: 201, Result: "WebhookCreated", Errors: []int{400, 503}, Idem: idemReserve, Handler: s.createWebhook},
		{Method: "GET", Path: "/webhooks", Scope: domain.ScopeWebhooks, OperationID: "listWebhooks", Summary: "The account's endpoints (never the secret)", Query: listQuery, OK: 200, Result: "WebhookList", Errors: []int{400}, Handler: s.listWebhooks},
		{Method: "GET", Path: "/webhooks/{id}", Scope: domain.ScopeWebhooks, OperationID: "getWebhook", Summary: "One endpoint (never the secret)", OK: 200, Result: "Webhook", Errors: []int{404}, Handler: s.getWebhook},
		{Method: "PATCH", Path: "/webhooks/{id}", Scope: domain.ScopeWebhooks, OperationID: "updateWebhook", Summary: "Change an endpoint's url, events, description or state ({\"state\":\"enabled\"} re-enables it)", Body: "WebhookUpdate", OK: 200, Result: "Webhook", Errors: []int{400, 404}, Idem: idemEndpoint, Handler: s.updateWebhook},
		{Method: "DELETE", Path: "/webhooks/{id}", Scope: domain.ScopeWebhooks, OperationID: "deleteWebhook", Summary: "Delete an endpoint; its pending deliveries are abandoned (failed, never attempted again)", OK: 200, Result: "Deleted", Errors: []int{404}, Idem: idemEndpoint, Handler: s.deleteWebhook},
		{Method: "POST", Path: "/webhooks/{id}/test", Scope: domain.ScopeWebhooks, OperationID: "testWebhook", Summary: "Send a webhook.test event to the endpoint (409 while disabled)", OK: 202, Result: "WebhookTest", Errors: []int{404, 409}, Idem: idemReserve, Handler: s.testWebhook},
		{Method: "POST", Path: "/webhooks/{id}/resend", Scope: domain.ScopeWebhooks, OperationID: "resendWebhook", Summary: "Send an event's failed delivery to the endpoint once more (409 unless that delivery is failed and the endpoint enabled)", Body: "WebhookResend", OK: 202, Result: "WebhookTest", Errors: []int{400, 404, 409}, Idem: idemAccount, Handler: s.resendWebhook},
		{Method: "POST", Path: "/webhooks/{id}/rotate-secret", Scope: domain.ScopeWebhooks, OperationID: "rotateWebhookSecret", Summary: "Make a new signing secret, shown only here; the previous one also signs for 24 h", OK: 200, Result: "WebhookSecret", Errors: []int{404}, Idem: idemEndpoint, Handler: s.rotateWebhookSecret},
		{Method: "GET", Path: "/webhooks/{id}/deliveries", Scope: domain.ScopeWebhooks, OperationID: "listWebhookDeliveries", Summary: "Delivery attempts to the endpoint, one row per attempt", Query: deliveryQuery, OK: 200, Result: "DeliveryList", Errors: []int{400, 404}, Handler: s.listWebhookDeliveries},

		// Events.
		{Method: "GET", Path: "/events", Scope: domain.ScopeWebhooks, OperationID: "listEvents", Summary: "The account's events of the last 30 days, newest first, exactly as delivered", Query: eventQuery, OK: 200, Result: "EventList", Errors: []int{400}, Handler: s.listEvents},
		{Method: "GET", Path: "/events/{id}", Scope: domain.ScopeWebhooks, OperationID: "getEvent", Summary: "One event, exactly as delivered", OK: 200, Result: "Event", Errors: []int{404}, Handler: s.getEvent},
	}
}

// OpenAPIDocument renders the OpenAPI document of the route table, as
// GET /openapi.json serves it, without a running server: the Go SDK's
// tests hold their typed methods and bodies equal to it.
func OpenAPIDocument(basePath, serverURL string) ([]byte, error) {
	return buildOpenAPI((&Server{}).routes(), basePath, serverURL)
}
