package httpd

import (
	"slices"

	"github.com/fxd-labs/fxd/domain"
)

// The JSON Schema (2020-12, the dialect of OpenAPI 3.1) components of the
// OpenAPI document: every request and response body of CONTRACT.md. Field
// names, types and enums follow CONTRACT.md exactly; where it leaves a field
// open (a transfer's states, say) the schema says so in words instead of
// inventing an enum. Request bodies refuse unknown fields, as the server
// does (400 invalid_request).

// obj is a JSON object under construction. encoding/json writes map keys
// sorted, so a document built from these is byte-for-byte deterministic.
type obj = map[string]any

// errorCodeByName finds a row of CONTRACT.md's error table
// (domain.ErrorTable, which the Error schema's code enum and every error
// response's list of codes come from; a test holds it equal to CONTRACT.md).
func errorCodeByName(code string) (domain.ErrorRow, bool) {
	for _, e := range domain.ErrorTable {
		if e.Code == code {
			return e, true
		}
	}
	return domain.ErrorRow{}, false
}

// Patterns of the wire formats.
const (
	patAmount    = `^(0|[1-9][0-9]*)(\.[0-9]{1,6})?$`
	patBaseUnits = `^(0|[1-9][0-9]*)$`
	patDecimal   = `^(0|[1-9][0-9]*)(\.[0-9]+)?$`
	patAddress   = `^0x[0-9a-fA-F]{40}$`
	patBytes32   = `^0x[0-9a-fA-F]{64}$`
	patHexBytes  = `^0x([0-9a-fA-F]{2})*$`
	// A 65-byte (r,s,v) or 64-byte EIP-2098 compact signature.
	patSignature = `^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$`
	// A 65-byte (r,s,v) EIP-191 signature (SIWE).
	patPersonalSig = `^0x[0-9a-fA-F]{130}$`
	patIdemKey     = `^[ -~]{1,255}$`
	// ids: a type prefix and 26 Crockford base32 characters (package ids).
	patIDBody = `[0-9A-HJKMNP-TV-Z]{32}$` // ids.Len characters
)

// The witness type strings of CONTRACT.md, signed verbatim.
const (
	gaslessWitnessType = "GaslessOrder witness)GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)"
	rfqWitnessType     = "RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)"
)

// Order states of SPEC.md, nominal progression first.
var orderStates = []string{"quoted", "accepted", "awaiting_funding", "funded", "settling", "settled", "failed", "expired", "refunded"}

// Webhook event types: SPEC.md's Events table and webhook.test.
var eventTypes = domain.EventTypes

const (
	orderSettledEvent      = domain.EventOrderSettled
	orderFailedEvent       = domain.EventOrderFailed
	orderRefundedEvent     = domain.EventOrderRefunded
	transferConfirmedEvent = domain.EventTransferConfirmed
	transferFailedEvent    = domain.EventTransferFailed
	linkPaidEvent          = domain.EventLinkPaid
	webhookTestEvent       = domain.EventWebhookTest
)

// eventEnvelopes are the component schemas of an event, by the record its
// data.object holds, and the event types each carries. Event is oneOf
// them; each entry of the document's top-level webhooks narrows one to
// its type.
var eventEnvelopes = []struct {
	schema, payload, what string
	types                 []string
}{
	{"OrderEvent", "Order", "the FX order as GET /fx/orders/{id} returned it at the transition", []string{orderSettledEvent, orderFailedEvent, orderRefundedEvent}},
	{"TransferEvent", "Transfer", "the transfer as GET /transfers/{id} returned it at the transition", []string{transferConfirmedEvent, transferFailedEvent}},
	{"PaymentLinkEvent", "PaymentLink", "the payment link as GET /payment-links/{id} returned it when it was paid", []string{linkPaidEvent}},
	{"WebhookTestEvent", "WebhookTestObject", "the tested endpoint's id", []string{webhookTestEvent}},
}

// eventEnvelopeOf is the envelope schema of an event type.
func eventEnvelopeOf(typ string) string {
	for _, e := range eventEnvelopes {
		if slices.Contains(e.types, typ) {
			return e.schema
		}
	}
	return ""
}

// Webhook bounds (CONTRACT.md "Webhooks", docs/DECISIONS.md).
const (
	maxWebhookURLBytes         = 2048
	maxWebhookDescriptionChars = 500
	// Standard Webhooks: v1, and the padded base64 of a 32-byte
	// HMAC-SHA256; a second one, space-separated, during a rotation.
	patWebhookSignature = `^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)?$`
	// whsec_ and the padded base64 of a 32-byte key.
	patWebhookSecret = `^whsec_[A-Za-z0-9+/]{43}=$`
	// https, case-insensitively, as the server reads a scheme.
	patHTTPSURL = `^[Hh][Tt][Tt][Pp][Ss]://`
)

func sref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// described returns a copy of s with a description ("" leaves s as is).
func described(s obj, desc string) obj {
	if desc == "" {
		return s
	}
	out := make(obj, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out["description"] = desc
	return out
}

// orNull admits JSON null besides s.
func orNull(s obj) obj {
	if t, ok := s["type"].(string); ok {
		out := make(obj, len(s))
		for k, v := range s {
			out[k] = v
		}
		out["type"] = []string{t, "null"}
		return out
	}
	return obj{"anyOf": []any{s, obj{"type": "null"}}}
}

func tString(desc string) obj {
	s := obj{"type": "string"}
	if desc != "" {
		s["description"] = desc
	}
	return s
}

func tInt(desc string) obj   { return obj{"type": "integer", "description": desc} }
func tBool(desc string) obj  { return obj{"type": "boolean", "description": desc} }
func tConst(v string) obj    { return obj{"type": "string", "const": v} }
func tEnum(vs ...string) obj { return obj{"type": "string", "enum": vs} }
func amount(desc string) obj { return described(sref("Amount"), desc) }
func address(desc string) obj {
	return described(sref("Address"), desc)
}
func currency(desc string) obj { return described(sref("CurrencySymbol"), desc) }
func dateTime(desc string) obj { return described(sref("DateTime"), desc) }
func baseUnits(desc string) obj {
	return described(sref("BaseUnits"), desc)
}
func id(prefix, desc string) obj {
	return obj{"type": "string", "pattern": "^" + prefix + patIDBody, "description": desc}
}

// object is a response object: required fields listed, others optional,
// further fields allowed (a client must ignore fields it does not know).
func object(desc string, props obj, required ...string) obj {
	s := obj{"type": "object", "properties": props}
	if desc != "" {
		s["description"] = desc
	}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

// request is a request body object: the server refuses unknown fields.
func request(desc string, props obj, required ...string) obj {
	s := object(desc, props, required...)
	s["additionalProperties"] = false
	return s
}

// closed is a response object with exactly the given fields.
func closed(desc string, props obj, required ...string) obj {
	s := object(desc, props, required...)
	s["additionalProperties"] = false
	return s
}

// list is CONTRACT.md's list envelope of item.
func list(desc, item string) obj {
	return object(desc, obj{
		"data":        obj{"type": "array", "items": sref(item), "description": "Newest first."},
		"has_more":    tBool("Whether more items follow this page."),
		"next_cursor": orNull(tString("Id of the last item, to pass as starting_after for the next page; null on the last page.")),
	}, "data", "has_more", "next_cursor")
}

// deliveryList is the list envelope of GET /webhooks/{id}/deliveries. Its
// next_cursor is not always an item's id: a page may end inside a
// delivery, and only the attempt number says where.
func deliveryList() obj {
	l := list("Attempts to deliver to this endpoint, one row per attempt, grouped by delivery, not interleaved by time: newest delivery first, each delivery's attempts together, newest first. A page holds at most limit rows, so a delivery with more attempts than fit may be split across pages; every attempt is listed once.", "Delivery")
	l["properties"].(obj)["next_cursor"] = orNull(tString("To pass as starting_after for the next page; null on the last page. When the page ends on a delivery's edge, the last row's id (a delivery id); when it ends inside a delivery, \"<delivery id>:<attempt>\" of the last row, and the next page goes on with that delivery's attempts numbered below it, then the older deliveries. Attempts made after the page was read are not shown."))
	return l
}

func arrayOf(items obj, desc string) obj {
	return obj{"type": "array", "items": items, "description": desc}
}

// openAPISchemas returns the components.schemas of the document, fresh on
// every call.
func openAPISchemas() obj {
	codes := make([]string, len(domain.ErrorTable))
	for i, e := range domain.ErrorTable {
		codes[i] = e.Code
	}
	schemas := obj{
		// Wire formats.
		"Amount": obj{"type": "string", "pattern": patAmount, "examples": []any{"1250.50"},
			"description": "Money: a decimal string in currency units with at most the token's decimals (6 for USDC, USDT, EURC). Never a JSON number."},
		"BaseUnits": obj{"type": "string", "pattern": patBaseUnits, "examples": []any{"1250500000"},
			"description": "An unsigned integer in base units (or seconds, or a nonce) as a decimal string, as used inside signing."},
		"Address": obj{"type": "string", "pattern": patAddress, "examples": []any{"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A"},
			"description": "A 0x-prefixed 20-byte hex address; responses carry the EIP-55 checksum, and mixed-case input must carry a correct one."},
		"Bytes32":   obj{"type": "string", "pattern": patBytes32, "description": "0x-prefixed 32 bytes of hex (a transaction hash, an id on chain)."},
		"HexBytes":  obj{"type": "string", "pattern": patHexBytes, "description": "0x-prefixed hex bytes."},
		"Signature": obj{"type": "string", "pattern": patSignature, "description": "0x-prefixed hex EIP-712 signature: 65 bytes (r, s, v) or 64 bytes (EIP-2098)."},
		"CurrencySymbol": obj{"type": "string", "minLength": 1, "examples": []any{"USDC", "USDT", "EURC"},
			"description": "A currency symbol from GET /currencies, matched exactly; any other is 400 unsupported_asset."},
		"DateTime":  obj{"type": "string", "format": "date-time", "description": "RFC 3339 time in UTC."},
		"EventType": obj{"type": "string", "enum": eventTypes, "description": "A webhook event type."},

		// Errors.
		"Error": closed("Every error: a code from CONTRACT.md's table and a human message.", obj{
			"error": closed("", obj{
				"code":    obj{"type": "string", "enum": codes, "description": "Stable machine-readable slug."},
				"message": tString("Human-readable; never contains secrets."),
			}, "code", "message"),
		}, "error"),

		// Meta.
		"Health": object("Service health. status is recovering (with HTTP 503) while the log is replayed.", obj{
			"status":    tEnum("ok", "recovering"),
			"version":   obj{"type": "string", "const": Version, "description": "Contract version."},
			"wal_index": obj{"type": "integer", "minimum": 0, "description": "Index of the last record in the write-ahead log."},
			"chain": orNull(object("The chain head. While the chain does not answer, the last head read (fxd_chain_rpc_up in /metrics says it is away); null only when the chain is not part of the service or no head was ever read.", obj{
				"chain_id": tInt("Chain id."),
				"head":     obj{"type": "integer", "minimum": 0, "description": "Latest block number."},
			}, "chain_id", "head")),
			"cluster": object("Present on a cluster node only: its name, the partitions it runs, and how many records of the partition streams it holds are not yet in its store.", obj{
				"node":              tString("The node's name (--node-name)."),
				"partitions_owned":  obj{"type": "integer", "minimum": 0, "maximum": 64, "description": "Partitions whose accounts this node runs now."},
				"apply_lag_records": obj{"type": "integer", "minimum": 0, "description": "Records of the partition streams not yet applied to this node's store."},
			}, "node", "partitions_owned", "apply_lag_records"),
		}, "status", "version", "wal_index", "chain"),
		"Time": object("Server time, to correct clock skew before signing.", obj{
			"unix": tInt("Server time in unix seconds."),
		}, "unix"),

		// FX.
		"QuoteRequest": request("Quote a pair for an exact input amount.", obj{
			"from_currency": currency("Currency paid in."),
			"to_currency":   currency("Currency received."),
			"amount":        amount("Exact input, in from_currency. Neither rail quotes more than 10000000: a larger amount is 502 no_quote_available."),
			"source_wallet": address("The wallet that will sign (the taker); default the primary wallet. One that is not the account's is quoted, and its accept is 403 not_permitted."),
		}, "from_currency", "to_currency", "amount"),
		"Quote": object("One quote. AMM quotes are indicative, RFQ quotes firm; a quote lives 30 s.", obj{
			"id":            id("q_", "Quote id."),
			"route":         tEnum("amm", "rfq"),
			"firm":          tBool("True for RFQ (firm), false for AMM (indicative)."),
			"provider":      tString("Market maker of an RFQ quote."),
			"taker":         address("Signer wallet that must sign: source_wallet or the primary wallet."),
			"from_currency": currency(""),
			"to_currency":   currency(""),
			"amount_in":     amount("Exact input, in from_currency."),
			"amount_out":    amount("Output, in to_currency."),
			"rate":          obj{"type": "string", "pattern": patDecimal, "description": "amount_out per unit of amount_in, as a decimal string."},
			"expires_at":    dateTime("When the quote can no longer be accepted."),
		}, "id", "route", "firm", "taker", "from_currency", "to_currency", "amount_in", "amount_out", "rate", "expires_at"),
		"QuoteList": object("Unified indicative AMM and firm RFQ quotes.", obj{
			"quotes":        obj{"type": "array", "items": sref("Quote"), "minItems": 1},
			"best_quote_id": tString("Id of the quote with the largest amount_out."),
		}, "quotes", "best_quote_id"),
		"AcceptRequest": request("Optional body of an accept.", obj{
			"source_wallet": address("The wallet that signs: the quote's taker (its source_wallet, else the primary wallet when it was quoted). Given, it must be one of the account's wallets (403 not_permitted otherwise) and that wallet (400 otherwise)."),
		}),
		"SubmitRequest": obj{
			"type":                 "object",
			"description":          "Exactly one of signature (AMM order, cross-currency transfer: relayed) or tx_hash (RFQ funding, same-currency transfer: verified on chain).",
			"additionalProperties": false,
			"properties": obj{
				"signature": described(sref("Signature"), "EIP-712 signature of signing.typed_data."),
				"tx_hash":   described(sref("Bytes32"), "Hash of the transaction the caller broadcast."),
			},
			"oneOf": []any{obj{"required": []string{"signature"}}, obj{"required": []string{"tx_hash"}}},
		},
		"OrderState": obj{"type": "string", "enum": orderStates,
			"description": "quoted → accepted → awaiting_funding → funded → settling → settled; failed, expired and refunded are the other end states."},
		"Order":     orderSchema(),
		"OrderList": list("Orders, newest first.", "Order"),
		"TypedData": typedDataSchema(),

		// The answer of accept: the order and its issues.
		"OrderAccepted": orderAcceptedSchema(),

		"AmmSigning": closed("What to sign for an AMM order (and a cross-currency transfer): a Permit2 PermitWitnessTransferFrom with the GaslessOrder witness; the service relays it.", obj{
			"type": tConst("permit2_witness"),
			"order": closed("The GaslessOrder witness; sign it exactly.", obj{
				"signer":       address("The signer wallet."),
				"tokenIn":      address(""),
				"tokenOut":     address(""),
				"amountIn":     baseUnits(""),
				"minAmountOut": baseUnits(""),
				"recipient":    address(""),
				"pool":         address(""),
				"deadline":     baseUnits("Unix seconds."),
				"nonce":        baseUnits("Permit2 nonce."),
			}, "signer", "tokenIn", "tokenOut", "amountIn", "minAmountOut", "recipient", "pool", "deadline", "nonce"),
			"relay": closed("", obj{
				"chainId":           tInt("Chain id."),
				"permit2":           address("Permit2 contract (the domain's verifyingContract)."),
				"relayRouter":       address("Gasless relay router; the Permit2 spender."),
				"witnessTypeString": described(tConst(gaslessWitnessType), "The Permit2 witness type string for GaslessOrder."),
			}, "chainId", "permit2", "relayRouter", "witnessTypeString"),
			"typed_data": described(sref("TypedData"), "The complete EIP-712 payload for eth_signTypedData_v4."),
		}, "type", "order", "relay", "typed_data"),
		"RfqSigning": closed("What to sign and broadcast for an RFQ order: a Permit2 PermitWitnessTransferFrom with the RfqEscrowFunding witness (spender = the escrow), then the caller broadcasts escrowQuoteWithPermit2(quote, providerSignature, funding, permit2Signature) on funding.escrow at its own gas cost. RFQ funding is not relayed.", obj{
			"type": tConst("permit2_witness"),
			"funding": closed("The RfqEscrowFunding witness.", obj{
				"escrow":      address("Escrow contract; the Permit2 spender and the call's target."),
				"token":       address("Token funded."),
				"amount":      baseUnits(""),
				"executionId": described(sref("Bytes32"), ""),
				"quoteHash":   described(sref("Bytes32"), ""),
				"deadline":    baseUnits("Unix seconds."),
				"nonce":       baseUnits("Permit2 nonce."),
				"signer":      address("The registered signer, equal to the quote's taker."),
			}, "escrow", "token", "amount", "executionId", "quoteHash", "deadline", "nonce", "signer"),
			"relay": closed("", obj{
				"chainId":           tInt("Chain id."),
				"permit2":           address("Permit2 contract (the domain's verifyingContract)."),
				"witnessTypeString": described(tConst(rfqWitnessType), "The Permit2 witness type string for RfqEscrowFunding; the field order must match exactly."),
			}, "chainId", "permit2", "witnessTypeString"),
			"typed_data": described(sref("TypedData"), "The complete EIP-712 payload for eth_signTypedData_v4."),
			"call": closed("The escrow call to broadcast: append the permit2 signature to args, encode with abi and send to to.", obj{
				"to":  address("funding.escrow."),
				"abi": described(sref("AbiFunction"), "JSON ABI fragment of escrowQuoteWithPermit2."),
				"args": obj{
					"type":        "array",
					"description": "The first three arguments: quote, providerSignature, funding. Integers are decimal strings.",
					"prefixItems": []any{
						obj{"type": []string{"object", "array"}, "description": "quote: the maker's quote tuple."},
						described(sref("HexBytes"), "providerSignature: the maker's signature of the quote."),
						obj{"type": []string{"object", "array"}, "description": "funding: the RfqEscrowFunding tuple."},
					},
					"minItems": 3,
					"maxItems": 3,
				},
			}, "to", "abi", "args"),
		}, "type", "funding", "relay", "typed_data", "call"),
		"AbiFunction": object("A Solidity JSON ABI function fragment.", obj{
			"type":            tConst("function"),
			"name":            tString(""),
			"inputs":          arrayOf(sref("AbiParameter"), ""),
			"outputs":         arrayOf(sref("AbiParameter"), ""),
			"stateMutability": tEnum("pure", "view", "nonpayable", "payable"),
		}, "type", "name", "inputs"),
		"AbiParameter": object("A Solidity JSON ABI parameter.", obj{
			"name":         tString(""),
			"type":         tString("e.g. address, uint256, bytes, tuple."),
			"internalType": tString(""),
			"components":   arrayOf(sref("AbiTupleMember"), "Members of a tuple."),
		}, "name", "type"),
		// Two levels, not a recursive reference: the escrow's arguments nest
		// one tuple deep, and validators cannot render recursive schemas.
		"AbiTupleMember": object("A member of a tuple parameter (a Solidity JSON ABI parameter).", obj{
			"name":         tString(""),
			"type":         tString("e.g. address, uint256, bytes32."),
			"internalType": tString(""),
			"components":   obj{"type": "array", "description": "Members of a nested tuple.", "items": obj{"type": "object"}},
		}, "name", "type"),
		"Erc20TransferSigning": closed("A standard ERC-20 transfer for the caller to sign and broadcast, then submit its tx_hash.", obj{
			"type": tConst("erc20_transfer"),
			"tx": closed("", obj{
				"chainId": tInt("Chain id."),
				"to":      address("The token contract."),
				"data":    described(sref("HexBytes"), "Calldata of transfer(recipient, amount)."),
				"value":   tConst("0"),
			}, "chainId", "to", "data", "value"),
		}, "type", "tx"),
		"Rates": object("Daily-open baseline rates: each pair's AMM mid price at the first observation after 00:00 UTC.", obj{
			"date": obj{"type": "string", "format": "date", "description": "The UTC day."},
			"data": arrayOf(object("", obj{
				"pair":  obj{"type": "string", "pattern": "^[A-Za-z0-9]+/[A-Za-z0-9]+$", "examples": []any{"USDC/EURC"}},
				"rate":  obj{"type": "string", "pattern": patDecimal, "description": "Units of the quote currency per unit of the base currency."},
				"as_of": dateTime("When the rate was observed."),
			}, "pair", "rate", "as_of"), ""),
		}, "date", "data"),
		"CurrencyList": object("The live set of supported currencies.", obj{
			"data": arrayOf(object("", obj{
				"symbol":   currency(""),
				"decimals": obj{"type": "integer", "minimum": 0},
				"address":  address("Token contract."),
				"chain_id": tInt("Chain id."),
			}, "symbol", "decimals", "address", "chain_id"), ""),
		}, "data"),

		// Account.
		"Account": object("The account profile.", obj{
			"id":          id("acct_", "Account id."),
			"name":        tString(""),
			"kyc_status":  tEnum(domain.KYCApproved, domain.KYCPending, domain.KYCRejected),
			"permissions": closed("What the account is permitted to do (KYC / launch access).", obj{"swap": tBool("May trade FX."), "pay": tBool("May pay (transfers, payment links).")}, "swap", "pay"),
			"wallets":     arrayOf(sref("Wallet"), "Linked signer wallets."),
			"created_at":  dateTime(""),
		}, "id", "name", "kyc_status", "permissions", "wallets", "created_at"),
		"Balances": object("Consolidated on-chain balances by currency and per wallet.", obj{
			"block_number": obj{"type": "integer", "minimum": 0, "description": "Block the balances were read at."},
			"data": arrayOf(object("", obj{
				"currency": currency(""),
				"total":    amount("Sum over the wallets."),
				"wallets": arrayOf(object("", obj{
					"address": address(""),
					"amount":  amount(""),
				}, "address", "amount"), ""),
			}, "currency", "total", "wallets"), ""),
		}, "block_number", "data"),

		// Wallets.
		"Wallet": object("A linked signer wallet.", obj{
			"address":    address(""),
			"primary":    tBool("The wallet that signs by default; the first registered is primary."),
			"label":      orNull(tString("")),
			"created_at": dateTime(""),
		}, "address", "primary", "label", "created_at"),
		"WalletList":             list("The account's linked wallets.", "Wallet"),
		"WalletChallengeRequest": request("", obj{"address": address("Wallet to register.")}, "address"),
		"WalletChallenge": object("A SIWE (EIP-4361) message to sign; the nonce is single-use and lives 10 minutes.", obj{
			"message":    tString("The EIP-4361 message to sign with personal_sign."),
			"nonce":      tString(""),
			"expires_at": dateTime(""),
		}, "message", "nonce", "expires_at"),
		"WalletRegisterRequest": request("A signed SIWE challenge.", obj{
			"message":   tString("The challenge message, verbatim."),
			"signature": obj{"type": "string", "pattern": patPersonalSig, "description": "EIP-191 signature of message by the wallet: 0x-prefixed hex of 65 bytes (r, s, v); another form is 400 invalid_request, one that does not recover to the message's address 400 invalid_signature."},
		}, "message", "signature"),
		"WalletUpdateRequest": request("", obj{
			"primary": tBool("true makes this the primary wallet."),
			"label":   tString(""),
		}),
		"Deleted": closed("The answer to every DELETE.", obj{
			"id":      tString("Id (or address) of the deleted record."),
			"deleted": obj{"type": "boolean", "const": true},
		}, "id", "deleted"),

		// Ledger.
		"Transaction": closed("One ledger entry.", obj{
			"id":            tString(""),
			"type":          tEnum("fx_amm", "fx_rfq", "transfer", "payment_link"),
			"state":         tString("State of the underlying record (an order's, a transfer's or a payment link's), or late: money that reached a link after it was paid, cancelled or expired, forwarded to its payout wallet all the same (one entry per such payment, reference_id the link)."),
			"from_currency": currency(""),
			"to_currency":   currency(""),
			"amount_in":     amount(""),
			"amount_out":    orNull(amount("In to_currency; null while not known: a cross-currency transfer before its accept (as the transfer's own amount_out). An empty cell in the export.")),
			"tx_hash":       orNull(described(sref("Bytes32"), "")),
			"reference_id":  tString("Id of the order, transfer or payment link."),
			"description":   orNull(tString("The transfer's memo or the payment link's description.")),
			"created_at":    dateTime(""),
		}, "id", "type", "state", "from_currency", "to_currency", "amount_in", "amount_out", "tx_hash", "reference_id", "description", "created_at"),
		"TransactionList": list("Unified ledger, newest first.", "Transaction"),

		// Transfers.
		"TransferRequest": obj{
			"type":                 "object",
			"description":          "A transfer: same-currency (ERC-20, self-broadcast) when from_currency equals currency, else one atomic swap to the payee. Exactly one of recipient or contact_id.",
			"additionalProperties": false,
			"properties": obj{
				"from_currency": currency("Currency paid from."),
				"currency":      currency("Currency the payee receives."),
				"amount":        amount("Amount, in from_currency."),
				"recipient":     address("Payee address; not the zero address."),
				"contact_id":    id("ct_", "A saved contact as the payee."),
				"source_wallet": address("Registered signer wallet paying; default the primary wallet. One that is not the account's is 403 not_permitted."),
				"memo":          tString(""),
			},
			"required": []string{"from_currency", "currency", "amount"},
			"oneOf":    []any{obj{"required": []string{"recipient"}}, obj{"required": []string{"contact_id"}}},
		},
		"Transfer":         transferSchema(),
		"TransferAccepted": transferAcceptedSchema(),
		"Issues": object("What stands in the way of the relay (as 0x's API answers): null where nothing is short. Amounts in currency units.", obj{
			"allowance": orNull(object("The signer's ERC-20 allowance for Permit2 is below the amount.", obj{
				"token": address(""), "spender": address("Permit2."), "actual": amount(""), "required": amount(""),
			}, "token", "spender", "actual", "required")),
			"balance": orNull(object("The signer's balance is below the amount.", obj{
				"token": address(""), "actual": amount(""), "required": amount(""),
			}, "token", "actual", "required")),
		}, "allowance", "balance"),
		"TransferList": list("Transfers of the account, newest first.", "Transfer"),

		// Payment links.
		"PaymentLinkRequest": request("", obj{
			"currency":      currency("Currency to be paid in."),
			"amount":        amount("Amount asked; payments add up until it is reached."),
			"description":   orNull(obj{"type": "string", "maxLength": 500}),
			"expires_at":    orNull(dateTime("After this the link is expired (money still arriving is forwarded and shown as late); null or absent: never.")),
			"payout_wallet": orNull(address("A registered wallet of the account, the only possible destination of the money; default the primary wallet.")),
		}, "currency", "amount"),
		"PaymentLink": closed("A payment link. Its receive_address is the CREATE2 address of a forwarder that can only pay payout_wallet; a payer sends a plain ERC-20 transfer there.", obj{
			"id":              id("pl_", "Payment link id (public, unguessable)."),
			"url":             obj{"type": "string", "format": "uri", "description": "<public base>/pay/{id}"},
			"state":           tEnum(domain.LinkOpen, domain.LinkPaid, domain.LinkCancelled, domain.LinkExpired),
			"currency":        currency(""),
			"amount":          amount(""),
			"amount_received": amount("Counted toward the amount while open; late money is not."),
			"receive_address": address("Where the payer sends the tokens."),
			"payout_wallet":   address("Where the forwarder sends them."),
			"description":     orNull(tString("")),
			"expires_at":      orNull(dateTime("")),
			"paid_at":         orNull(dateTime("")),
			"tx_hashes":       arrayOf(described(sref("Bytes32"), ""), "The payments counted toward the amount, oldest first."),
			"created_at":      dateTime(""),
		}, "id", "url", "state", "currency", "amount", "amount_received", "receive_address", "payout_wallet", "description", "expires_at", "paid_at", "tx_hashes", "created_at"),
		"PaymentLinkList": list("Payment links created by the account, newest first.", "PaymentLink"),
		"PaymentLinkUpdate": request("Cancel the link (only an open one).", obj{
			"state": tConst("cancelled"),
		}, "state"),
		"PublicPaymentLink": closed("What a payer sees of a payment link.", obj{
			"id":              id("pl_", ""),
			"state":           tEnum(domain.LinkOpen, domain.LinkPaid, domain.LinkCancelled, domain.LinkExpired),
			"currency":        currency(""),
			"amount":          amount(""),
			"amount_received": amount(""),
			"description":     orNull(tString("")),
			"receive_address": address(""),
			"token_address":   address(""),
			"chain_id":        tInt(""),
			"expires_at":      orNull(dateTime("")),
		}, "id", "state", "currency", "amount", "amount_received", "description", "receive_address", "token_address", "chain_id", "expires_at"),
		"TxHashRequest": request("", obj{
			"tx_hash": described(sref("Bytes32"), "A transaction holding an ERC-20 Transfer of the link's token to receive_address; each log counts once."),
		}, "tx_hash"),

		// Contacts.
		"ContactCreate": request("", obj{
			"name":     obj{"type": "string", "minLength": 1, "maxLength": 100},
			"address":  address("Payout address; not the zero address."),
			"currency": obj{"type": []string{"string", "null"}, "description": "Preferred currency symbol (see GET /currencies); null, \"\" or absent: none."},
			"memo":     obj{"type": []string{"string", "null"}, "maxLength": 140},
		}, "name", "address"),
		"ContactUpdate": request("Absent or null leaves a field as it is; \"\" clears currency or memo.", obj{
			"name":     obj{"type": []string{"string", "null"}, "minLength": 1, "maxLength": 100},
			"address":  orNull(address("")),
			"currency": obj{"type": []string{"string", "null"}, "description": "A currency symbol, or \"\" to clear."},
			"memo":     obj{"type": []string{"string", "null"}, "maxLength": 140, "description": "\"\" clears."},
		}),
		"Contact": closed("A saved payout recipient.", obj{
			"id":         id("ct_", "Contact id."),
			"name":       tString(""),
			"address":    address(""),
			"currency":   orNull(currency("")),
			"memo":       orNull(tString("")),
			"created_at": dateTime(""),
			"updated_at": dateTime(""),
		}, "id", "name", "address", "currency", "memo", "created_at", "updated_at"),
		"ContactList": list("Contacts, newest first.", "Contact"),

		// Webhooks.
		"WebhookURL": obj{"type": "string", "format": "uri", "pattern": patHTTPSURL, "maxLength": maxWebhookURLBytes,
			"description": "The receiver: an https URL of at most 2,048 bytes, without userinfo or fragment. Screened against SSRF at registration and before every new connection (400 invalid_webhook_url says why)."},
		"WebhookEvents": obj{
			"type": "array", "minItems": 1, "maxItems": len(eventTypes) + 1,
			"items":       obj{"anyOf": []any{sref("EventType"), obj{"type": "string", "const": "*"}}},
			"description": "Event types to deliver; [\"*\"] (the default) is every type. \"*\" anywhere means every type; repeats count once; an empty list or an unknown type is 400 invalid_request. Answers show [\"*\"] or each type once. webhook.test deliveries reach the tested endpoint whatever its list.",
		},
		"WebhookDescription": obj{"type": []string{"string", "null"}, "maxLength": maxWebhookDescriptionChars,
			"description": "Free text for the account's own use, at most 500 characters; null when none."},
		"WebhookCreate": request("Register a receiver. At most 16 endpoints per account (400 invalid_request beyond).", obj{
			"url":         sref("WebhookURL"),
			"events":      described(sref("WebhookEvents"), "Absent: [\"*\"]."),
			"description": sref("WebhookDescription"),
		}, "url"),
		"WebhookCreated": object("A registered endpoint and its signing secret, shown only in this answer (and its idempotent replay).", obj{
			"id":          id("wh_", "Endpoint id."),
			"url":         sref("WebhookURL"),
			"events":      sref("WebhookEvents"),
			"description": sref("WebhookDescription"),
			"state":       tConst("enabled"),
			"secret": obj{"type": "string", "pattern": patWebhookSecret,
				"description": "Standard Webhooks secret: whsec_ and the base64 of the 32-byte HMAC-SHA256 key. Keep it; it is never shown again (POST /webhooks/{id}/rotate-secret makes a new one)."},
			"created_at": dateTime(""),
		}, "id", "url", "events", "description", "state", "secret", "created_at"),
		"Webhook": object("A webhook endpoint; its secret is never shown again.", obj{
			"secret":      false,
			"id":          id("wh_", "Endpoint id."),
			"url":         sref("WebhookURL"),
			"events":      sref("WebhookEvents"),
			"description": sref("WebhookDescription"),
			"state": obj{"type": "string", "enum": []string{"enabled", "disabled"},
				"description": "disabled after 10 consecutive failed attempts (across events), or by PATCH; while disabled nothing is attempted and pending deliveries wait. PATCH {\"state\":\"enabled\"} resets the count and resumes them."},
			"created_at": dateTime(""),
		}, "id", "url", "events", "description", "state", "created_at"),
		"WebhookList": list("The account's endpoints, newest first.", "Webhook"),
		"WebhookUpdate": request("Change an endpoint; absent or null fields keep their value, \"\" clears description. A new url is screened as at registration.", obj{
			"url":         orNull(sref("WebhookURL")),
			"events":      orNull(sref("WebhookEvents")),
			"description": sref("WebhookDescription"),
			"state": obj{"type": []string{"string", "null"}, "enum": []any{"enabled", "disabled", nil},
				"description": "enabled re-enables a disabled endpoint: the failure count resets and pending deliveries resume (failed ones stay failed: POST /webhooks/{id}/resend sends one again). disabled pauses it."},
		}),
		"WebhookResend": request("The event whose failed delivery to this endpoint goes out once more: pending now, one more attempt numbered after the others (a failure fails it again; the retry schedule does not restart).", obj{
			"event_id": id("evt_", "An event of the account (GET /events) whose delivery to this endpoint failed."),
		}, "event_id"),
		"WebhookTest": object("A webhook.test event was created (or, for a resend, an event's delivery was queued again) and its delivery to this endpoint queued.", obj{
			"delivery_id": id("dlv_", "The delivery, as listed by GET /webhooks/{id}/deliveries once attempted."),
		}, "delivery_id"),
		"WebhookSecret": object("The endpoint's new signing secret, shown only here. For 24 h deliveries carry a signature by the previous secret too; a second rotation drops the oldest.", obj{
			"id": id("wh_", "Endpoint id."),
			"secret": obj{"type": "string", "pattern": patWebhookSecret,
				"description": "whsec_ and the base64 of the new 32-byte key."},
		}, "id", "secret"),
		"Delivery": object("One attempt of a delivery (an event to this endpoint).", obj{
			"id":          id("dlv_", "The delivery, shared by its attempts; equals POST /webhooks/{id}/test's delivery_id for a test."),
			"event_id":    id("evt_", "The event delivered (the webhook-id header)."),
			"attempt":     obj{"type": "integer", "minimum": 1, "description": "1 for the first attempt."},
			"status_code": obj{"type": []string{"integer", "null"}, "minimum": 100, "maximum": 599, "description": "The receiver's HTTP status; null on a transport error (refused by the SSRF screen, connection, TLS, timeout)."},
			"error":       orNull(tString("Why the attempt failed without a usable answer: \"redirect not followed\" (with the 3xx status), a timeout, a refused or reset connection, the SSRF screen's reason; null when the receiver answered otherwise (status_code says how).")),
			"duration_ms": obj{"type": "integer", "minimum": 0, "description": "Milliseconds from the start of the attempt to its outcome."},
			"at":          dateTime("When the attempt started."),
		}, "id", "event_id", "attempt", "status_code", "error", "duration_ms", "at"),
		"DeliveryList": deliveryList(),
		"WebhookTestObject": object("data.object of a webhook.test event.", obj{
			"endpoint_id": id("wh_", "The tested endpoint."),
		}, "endpoint_id"),
		"Event": obj{
			"description": "A webhook event: the body of every delivery attempt, byte for byte, and of GET /events/{id}. Its shape follows type.",
			"oneOf":       eventEnvelopeRefs(),
		},
		"EventList": list("Every event of the account of the last 30 days, webhook.test included, newest first.", "Event"),
	}
	for _, e := range eventEnvelopes {
		schemas[e.schema] = eventEnvelope(e.types, e.payload, e.what)
	}
	return schemas
}

// eventEnvelopeRefs are the branches of Event.
func eventEnvelopeRefs() []any {
	out := make([]any, len(eventEnvelopes))
	for i, e := range eventEnvelopes {
		out[i] = sref(e.schema)
	}
	return out
}

// eventEnvelope is the Standard Webhooks body of the types whose
// data.object is the component schema payload.
func eventEnvelope(types []string, payload, what string) obj {
	typ := obj{"type": "string", "enum": types, "description": "The event type."}
	if len(types) == 1 {
		typ = obj{"type": "string", "const": types[0], "description": "The event type."}
	}
	return object("An event whose data.object is "+what+".", obj{
		"id":          id("evt_", "Event id: the webhook-id header of every attempt, the same across retries. Receivers deduplicate on it."),
		"type":        typ,
		"created_at":  dateTime("When the transition that fired the event happened."),
		"api_version": described(tConst(domain.WebhookAPIVersion), "Version of the payload format."),
		"data": object("", obj{
			"object": sref(payload),
		}, "object"),
	}, "id", "type", "created_at", "api_version", "data")
}

// transferProps are the fields of a transfer (CONTRACT.md "Transfers").
func transferProps() obj {
	return obj{
		"id":             id("tr_", "Transfer id."),
		"state":          tEnum(domain.TransferCreated, domain.TransferAccepted, domain.TransferSubmitted, domain.TransferConfirmed, domain.TransferFailed, domain.TransferExpired),
		"from_currency":  currency(""),
		"currency":       currency(""),
		"amount":         amount("In from_currency."),
		"amount_out":     orNull(amount("In currency: the amount (same currency), the pool's quote from accept on, the amount delivered once confirmed; null before accept.")),
		"min_amount_out": orNull(amount("In currency: the least the payee receives (the signed leg's minimum); null before accept.")),
		"recipient":      address("Payee (the contact's address with contact_id)."),
		"contact_id":     orNull(tString("")),
		"source_wallet":  address("The paying signer wallet."),
		"memo":           orNull(tString("")),
		"signing": obj{"oneOf": []any{sref("Erc20TransferSigning"), sref("AmmSigning"), obj{"type": "null"}},
			"description": "What to sign: erc20_transfer (same currency) or permit2_witness (cross-currency, after accept, recipient = payee); null before accept."},
		"tx_hash":        orNull(described(sref("Bytes32"), "The caller's transaction (same currency) or the relay's (cross-currency).")),
		"failure_reason": orNull(tString("Decoded from our contracts' ABIs, never raw hex.")),
		"expires_at":     dateTime("created + 1 h; from accept on, the signed leg's deadline (accept + 120 s, never past created + 1 h)."),
		"created_at":     dateTime(""),
		"updated_at":     dateTime(""),
	}
}

var transferRequired = []string{"id", "state", "from_currency", "currency", "amount", "amount_out", "min_amount_out", "recipient",
	"contact_id", "source_wallet", "memo", "signing", "tx_hash", "failure_reason", "expires_at", "created_at", "updated_at"}

// transferSchema is a transfer.
func transferSchema() obj {
	return object("A transfer. Same-currency: created with an erc20_transfer signing; the caller broadcasts it and submits {tx_hash}. Cross-currency: created, then accept returns a permit2_witness signing; submit {signature} and the service relays it. Terminal states confirmed and failed emit transfer.confirmed or transfer.failed; expired emits nothing.",
		transferProps(), transferRequired...)
}

// transferAcceptedSchema is the answer of accept: the transfer and issues.
func transferAcceptedSchema() obj {
	props := transferProps()
	props["issues"] = sref("Issues")
	return object("The accepted cross-currency transfer and what stands in the way of its relay.", props, append(append([]string{}, transferRequired...), "issues")...)
}

// orderSchema is an FX order; signing follows the route.
func orderSchema() obj {
	s := object("An FX order. Poll GET /fx/orders/{id} until state is settled.", obj{
		"order_id":       id("ord_", "Order id."),
		"route":          tEnum("amm", "rfq"),
		"state":          sref("OrderState"),
		"signing":        obj{"oneOf": []any{sref("AmmSigning"), sref("RfqSigning")}, "description": "What to sign; its shape follows route."},
		"quote_id":       id("q_", "The accepted quote."),
		"from_currency":  currency(""),
		"to_currency":    currency(""),
		"amount_in":      amount(""),
		"amount_out":     amount(""),
		"min_amount_out": amount(""),
		"tx_hash":        orNull(described(sref("Bytes32"), "Relay (amm) or funding (rfq) transaction.")),
		"failure_reason": orNull(tString("")),
		"created_at":     dateTime("When its quote was made (the order is born quoted; its id carries this instant, so lists sort by it)."),
		"updated_at":     dateTime("Last state change (at first the accept). The order deadline is accept + 120 s (--order-deadline)."),
	}, "order_id", "route", "state", "signing", "quote_id", "from_currency", "to_currency", "amount_in", "amount_out", "min_amount_out", "tx_hash", "failure_reason", "created_at", "updated_at")
	s["allOf"] = []any{
		obj{"if": obj{"properties": obj{"route": obj{"const": "amm"}}, "required": []string{"route"}},
			"then": obj{"properties": obj{"signing": sref("AmmSigning")}}},
		obj{"if": obj{"properties": obj{"route": obj{"const": "rfq"}}, "required": []string{"route"}},
			"then": obj{"properties": obj{"signing": sref("RfqSigning")}}},
	}
	return s
}

// orderAcceptedSchema is the answer of accept: the order and what stands
// in the way of funding it (issues, recomputed on every accept).
func orderAcceptedSchema() obj {
	s := orderSchema()
	props := obj{}
	for k, v := range s["properties"].(obj) {
		props[k] = v
	}
	props["issues"] = sref("Issues")
	s["properties"] = props
	s["required"] = append(append([]string{}, s["required"].([]string)...), "issues")
	s["description"] = "The accepted order (a new one, or the order an earlier accept of the quote made) and what stands in the way of its funding: the signer's ERC-20 allowance for Permit2 and balance of the input token, read from the chain at this accept."
	return s
}

// typedDataSchema is an EIP-712 payload for eth_signTypedData_v4: a Permit2
// PermitWitnessTransferFrom.
func typedDataSchema() obj {
	field := closed("", obj{"name": tString(""), "type": tString("")}, "name", "type")
	return object("EIP-712 typed data, ready for eth_signTypedData_v4. Integers are decimal strings.", obj{
		"domain": object("The Permit2 domain.", obj{
			"name":              tConst("Permit2"),
			"chainId":           tInt(""),
			"verifyingContract": address("Permit2."),
		}, "name", "chainId", "verifyingContract"),
		"types": obj{
			"type":                 "object",
			"additionalProperties": arrayOf(field, ""),
			"required":             []string{"PermitWitnessTransferFrom", "TokenPermissions"},
		},
		"primaryType": tConst("PermitWitnessTransferFrom"),
		"message": object("", obj{
			"permitted": object("", obj{"token": address(""), "amount": baseUnits("")}, "token", "amount"),
			"spender":   address("relayRouter (amm) or the escrow (rfq)."),
			"nonce":     baseUnits(""),
			"deadline":  baseUnits(""),
			"witness":   obj{"type": "object", "description": "The GaslessOrder or RfqEscrowFunding witness."},
		}, "permitted", "spender", "nonce", "deadline", "witness"),
	}, "domain", "types", "primaryType", "message")
}
