package client

import "net/http"

// The route table of CONTRACT.md (httpd/routes.go), one entry per
// operation, named after its SDK method. routes_test.go holds it equal to
// the OpenAPI document the server publishes, route for route.
var (
	// Meta (public).
	rGetHealth  = route{name: "GetHealth", method: http.MethodGet, path: "/health", public: true, repeatable: true, alsoOK: http.StatusServiceUnavailable}
	rGetTime    = route{name: "GetTime", method: http.MethodGet, path: "/time", public: true, repeatable: true}
	rGetOpenAPI = route{name: "GetOpenAPI", method: http.MethodGet, path: "/openapi.json", public: true, repeatable: true}

	// FX. A quote is an offer: asking again is harmless, and a key
	// would store the quotes in the log, so none is made. Accept is
	// idempotent without a key (CONTRACT.md "Idempotency").
	rCreateQuotes   = route{name: "CreateQuotes", method: http.MethodPost, path: "/fx/quotes", idem: idemOptional, repeatable: true}
	rAcceptQuote    = route{name: "AcceptQuote", method: http.MethodPost, path: "/fx/quotes/{id}/accept", idem: idemAuto, repeatable: true}
	rSubmitOrder    = route{name: "SubmitOrder", method: http.MethodPost, path: "/fx/orders/{id}/submit", idem: idemAuto}
	rGetOrder       = route{name: "GetOrder", method: http.MethodGet, path: "/fx/orders/{id}", repeatable: true}
	rListOrders     = route{name: "ListOrders", method: http.MethodGet, path: "/fx/orders", repeatable: true}
	rGetRates       = route{name: "GetRates", method: http.MethodGet, path: "/fx/rates", repeatable: true}
	rListCurrencies = route{name: "ListCurrencies", method: http.MethodGet, path: "/currencies", repeatable: true}

	// Account, wallets, ledger.
	rGetAccount            = route{name: "GetAccount", method: http.MethodGet, path: "/account", repeatable: true}
	rGetBalances           = route{name: "GetBalances", method: http.MethodGet, path: "/balances", repeatable: true}
	rListWallets           = route{name: "ListWallets", method: http.MethodGet, path: "/wallets", repeatable: true}
	rCreateWalletChallenge = route{name: "CreateWalletChallenge", method: http.MethodPost, path: "/wallets/challenge", idem: idemAuto}
	rRegisterWallet        = route{name: "RegisterWallet", method: http.MethodPost, path: "/wallets", idem: idemAuto}
	rUpdateWallet          = route{name: "UpdateWallet", method: http.MethodPatch, path: "/wallets/{address}", idem: idemAuto}
	rDeleteWallet          = route{name: "DeleteWallet", method: http.MethodDelete, path: "/wallets/{address}", idem: idemAuto}
	rListTransactions      = route{name: "ListTransactions", method: http.MethodGet, path: "/transactions", repeatable: true}
	rExportTransactions    = route{name: "ExportTransactions", method: http.MethodGet, path: "/transactions/export", repeatable: true}

	// Transfers.
	rCreateTransfer = route{name: "CreateTransfer", method: http.MethodPost, path: "/transfers", idem: idemAuto}
	rListTransfers  = route{name: "ListTransfers", method: http.MethodGet, path: "/transfers", repeatable: true}
	rGetTransfer    = route{name: "GetTransfer", method: http.MethodGet, path: "/transfers/{id}", repeatable: true}
	rAcceptTransfer = route{name: "AcceptTransfer", method: http.MethodPost, path: "/transfers/{id}/accept", idem: idemAuto}
	rSubmitTransfer = route{name: "SubmitTransfer", method: http.MethodPost, path: "/transfers/{id}/submit", idem: idemAuto}

	// Payment links. Submitting a tx to a link again is 200 with the
	// link as it is: a log counts once.
	rCreatePaymentLink    = route{name: "CreatePaymentLink", method: http.MethodPost, path: "/payment-links", idem: idemAuto}
	rListPaymentLinks     = route{name: "ListPaymentLinks", method: http.MethodGet, path: "/payment-links", repeatable: true}
	rGetPaymentLink       = route{name: "GetPaymentLink", method: http.MethodGet, path: "/payment-links/{id}", repeatable: true}
	rCancelPaymentLink    = route{name: "CancelPaymentLink", method: http.MethodPatch, path: "/payment-links/{id}", idem: idemAuto}
	rGetPublicPaymentLink = route{name: "GetPublicPaymentLink", method: http.MethodGet, path: "/pay/{id}", public: true, repeatable: true}
	rPayPaymentLink       = route{name: "PayPaymentLink", method: http.MethodPost, path: "/pay/{id}/submit", public: true, repeatable: true}

	// Contacts.
	rCreateContact = route{name: "CreateContact", method: http.MethodPost, path: "/contacts", idem: idemAuto}
	rListContacts  = route{name: "ListContacts", method: http.MethodGet, path: "/contacts", repeatable: true}
	rGetContact    = route{name: "GetContact", method: http.MethodGet, path: "/contacts/{id}", repeatable: true}
	rUpdateContact = route{name: "UpdateContact", method: http.MethodPatch, path: "/contacts/{id}", idem: idemAuto}
	rDeleteContact = route{name: "DeleteContact", method: http.MethodDelete, path: "/contacts/{id}", idem: idemAuto}

	// Webhooks and events. rotate-secret without a key would rotate
	// twice on a retry, dropping the secret the receiver still holds.
	rCreateWebhook         = route{name: "CreateWebhook", method: http.MethodPost, path: "/webhooks", idem: idemAuto}
	rListWebhooks          = route{name: "ListWebhooks", method: http.MethodGet, path: "/webhooks", repeatable: true}
	rGetWebhook            = route{name: "GetWebhook", method: http.MethodGet, path: "/webhooks/{id}", repeatable: true}
	rUpdateWebhook         = route{name: "UpdateWebhook", method: http.MethodPatch, path: "/webhooks/{id}", idem: idemAuto}
	rDeleteWebhook         = route{name: "DeleteWebhook", method: http.MethodDelete, path: "/webhooks/{id}", idem: idemAuto}
	rTestWebhook           = route{name: "TestWebhook", method: http.MethodPost, path: "/webhooks/{id}/test", idem: idemAuto}
	rRotateWebhookSecret   = route{name: "RotateWebhookSecret", method: http.MethodPost, path: "/webhooks/{id}/rotate-secret", idem: idemAuto}
	rResendWebhook         = route{name: "ResendWebhook", method: http.MethodPost, path: "/webhooks/{id}/resend", idem: idemAuto}
	rListWebhookDeliveries = route{name: "ListWebhookDeliveries", method: http.MethodGet, path: "/webhooks/{id}/deliveries", repeatable: true}
	rListEvents            = route{name: "ListEvents", method: http.MethodGet, path: "/events", repeatable: true}
	rGetEvent              = route{name: "GetEvent", method: http.MethodGet, path: "/events/{id}", repeatable: true}
)

// routeTable lists every route the SDK calls.
var routeTable = []*route{
	&rGetHealth, &rGetTime, &rGetOpenAPI,
	&rCreateQuotes, &rAcceptQuote, &rSubmitOrder, &rGetOrder, &rListOrders, &rGetRates, &rListCurrencies,
	&rGetAccount, &rGetBalances, &rListWallets, &rCreateWalletChallenge, &rRegisterWallet, &rUpdateWallet, &rDeleteWallet,
	&rListTransactions, &rExportTransactions,
	&rCreateTransfer, &rListTransfers, &rGetTransfer, &rAcceptTransfer, &rSubmitTransfer,
	&rCreatePaymentLink, &rListPaymentLinks, &rGetPaymentLink, &rCancelPaymentLink, &rGetPublicPaymentLink, &rPayPaymentLink,
	&rCreateContact, &rListContacts, &rGetContact, &rUpdateContact, &rDeleteContact,
	&rCreateWebhook, &rListWebhooks, &rGetWebhook, &rUpdateWebhook, &rDeleteWebhook, &rTestWebhook, &rRotateWebhookSecret, &rResendWebhook,
	&rListWebhookDeliveries, &rListEvents, &rGetEvent,
}
