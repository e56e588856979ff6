package domain

// ErrorRow is one row of CONTRACT.md's error table: a code, the one status
// it is sent with, and when.
type ErrorRow struct {
	Status  int
	Code    string
	Meaning string
}

// ErrorTable is CONTRACT.md's error table, in its order (a row that lists
// several codes there is one row per code here). It is the one copy in
// code: the OpenAPI document's Error enum and error responses are built
// from it (httpd, whose test holds it equal to CONTRACT.md), and tests
// check every refusal against it (domaintest.RequireContractReply).
// Nothing may change it at run time.
var ErrorTable = []ErrorRow{
	{400, CodeInvalidRequest, "malformed JSON, missing or unknown field, bad amount, bad limit"},
	{400, CodeUnsupportedAsset, "currency not in GET /currencies"},
	{400, CodeInvalidSignature, "a submitted EIP-712 signature does not recover to the order's signer (checked before anything is relayed)"},
	{400, CodeFundingNotVerified, "a mined tx_hash lacks the expected QuoteEscrowed log (state unchanged)"},
	{400, CodeTransferNotVerified, "a mined tx_hash lacks the expected Transfer log (state unchanged)"},
	{400, CodeInsufficientAllowance, "relay pre-flight: the signer's ERC-20 allowance for Permit2 is short; nothing relayed, record unchanged"},
	{400, CodeInsufficientBalance, "relay pre-flight: the signer's balance is short; nothing relayed, record unchanged"},
	{400, CodeRelayWouldRevert, "relay pre-flight: the simulated relay reverts (message names the decoded reason); nothing relayed"},
	{400, CodeInvalidWebhookURL, "not HTTPS, or fails SSRF screening (message says why)"},
	{401, CodeAuthFailed, "missing or unknown key, revoked key, bad signature encoding, signature mismatch"},
	{401, CodeStaleTimestamp, "SVC-TIMESTAMP outside ±30 s of server time; the response carries SVC-Server-Time"},
	{401, CodeReplayed, "an identical signed request was already accepted"},
	{403, CodeInsufficientScope, "the key lacks the route's scope"},
	{403, CodeNotPermitted, `KYC / launch access refuses the action; message exactly "Source wallet is not permitted for swap" or "Source wallet is not permitted for pay"`},
	{404, CodeNotFound, "unknown id, or an id of another account"},
	{409, CodeInvalidState, "transition not allowed from the record's state"},
	{409, CodeTxAlreadyUsed, "a transaction log already confirmed another transfer"},
	{409, CodeQuoteExpired, "accept after the quote's expires_at"},
	{409, CodeIdempotencyInProgress, "the same Idempotency-Key is still executing; Retry-After given"},
	{413, CodeBodyTooLarge, "body over 64 KiB"},
	{422, CodeIdempotencyKeyReused, "same Idempotency-Key and route, different body"},
	{429, CodeOverLimit, "rate limit exceeded; Retry-After gives the seconds until a slot frees"},
	{502, CodeNoQuoteAvailable, "neither rail can quote the pair and amount"},
	{503, CodeWebhookEncryptionUnavailable, "no webhook master key is configured; nothing is stored"},
	{503, CodeUnavailable, "recovering, or the chain is unreachable for a call that needs it"},
}

// StatusOfCode is the status CONTRACT.md sends code with; false for a code
// that is not in the table. A scan: the table is short and this is not on
// a hot path.
func StatusOfCode(code string) (int, bool) {
	for _, r := range ErrorTable {
		if r.Code == code {
			return r.Status, true
		}
	}
	return 0, false
}
