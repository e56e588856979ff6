package domain

import "fmt"

// Error is a refusal with a code from CONTRACT.md's error table. Every error
// the API returns is one of these; anything else is an internal failure.
type Error struct {
	Status  int    // HTTP status
	Code    string // contract slug
	Message string // human text; never contains secrets
	// RetryAfter, when > 0, is sent as the Retry-After header (seconds).
	RetryAfter int
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func newErr(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// The contract's codes. Constructors keep status and slug together so the
// table in CONTRACT.md is the only place a pairing is decided.
const (
	CodeInvalidRequest        = "invalid_request"
	CodeUnsupportedAsset      = "unsupported_asset"
	CodeInvalidSignature      = "invalid_signature"
	CodeAuthFailed            = "auth_failed"
	CodeStaleTimestamp        = "stale_timestamp"
	CodeReplayed              = "replayed"
	CodeInsufficientScope     = "insufficient_scope"
	CodeNotPermitted          = "not_permitted"
	CodeNotFound              = "not_found"
	CodeInvalidState          = "invalid_state"
	CodeIdempotencyInProgress = "idempotency_in_progress"
	CodeBodyTooLarge          = "body_too_large"
	CodeIdempotencyKeyReused  = "idempotency_key_reused"
	CodeOverLimit             = "over_limit"
	CodeUnavailable           = "unavailable"
)

// ErrInvalid is 400 invalid_request.
func ErrInvalid(format string, args ...any) *Error {
	return newErr(400, CodeInvalidRequest, format, args...)
}

// ErrUnsupportedAsset is 400 unsupported_asset.
func ErrUnsupportedAsset(symbol string) *Error {
	return newErr(400, CodeUnsupportedAsset, "currency %q is not supported; see GET /currencies", symbol)
}

// ErrNotFound is 404 not_found. It never says whether the id exists under
// another account.
func ErrNotFound(kind string) *Error { return newErr(404, CodeNotFound, "%s not found", kind) }

// ErrInvalidState is 409 invalid_state.
func ErrInvalidState(format string, args ...any) *Error {
	return newErr(409, CodeInvalidState, format, args...)
}

// ErrUnavailable is 503 unavailable, with Retry-After: 1 (every cause of
// it — recovering, the chain away, a full table — passes by itself).
func ErrUnavailable(format string, args ...any) *Error {
	e := newErr(503, CodeUnavailable, format, args...)
	e.RetryAfter = 1
	return e
}

// ErrInProgress is 409 idempotency_in_progress.
func ErrInProgress() *Error {
	e := newErr(409, CodeIdempotencyInProgress, "a request with this Idempotency-Key is still executing")
	e.RetryAfter = 1
	return e
}

// ErrReplayed is a second use of a signed request (CONTRACT.md: 401
// replayed): the replay cache's answer, and a signature guard's.
func ErrReplayed() *Error {
	return newErr(401, CodeReplayed, "this signed request was already accepted; sign each request anew")
}

// ErrKeyReused is 422 idempotency_key_reused.
func ErrKeyReused() *Error {
	return newErr(422, CodeIdempotencyKeyReused, "this Idempotency-Key was used with a different request body")
}

// More of the contract's codes, used by the FX flow.
const (
	CodeFundingNotVerified = "funding_not_verified"
	CodeQuoteExpired       = "quote_expired"
	CodeNoQuoteAvailable   = "no_quote_available"
)

// The exact messages of SPEC.md's 403 permission refusal.
const (
	MsgNotPermittedSwap = "Source wallet is not permitted for swap"
	MsgNotPermittedPay  = "Source wallet is not permitted for pay"
)

// ErrNotPermitted is 403 not_permitted with one of SPEC.md's exact messages
// (MsgNotPermittedSwap, MsgNotPermittedPay).
func ErrNotPermitted(msg string) *Error {
	return &Error{Status: 403, Code: CodeNotPermitted, Message: msg}
}

// ErrBadSignature is 400 invalid_signature.
func ErrBadSignature(format string, args ...any) *Error {
	return newErr(400, CodeInvalidSignature, format, args...)
}

// ErrFundingNotVerified is 400 funding_not_verified.
func ErrFundingNotVerified(format string, args ...any) *Error {
	return newErr(400, CodeFundingNotVerified, format, args...)
}

// ErrQuoteExpired is 409 quote_expired.
func ErrQuoteExpired(id string) *Error {
	return newErr(409, CodeQuoteExpired, "quote %s expired before it was accepted", id)
}

// ErrNoQuote is 502 no_quote_available.
func ErrNoQuote(format string, args ...any) *Error {
	return newErr(502, CodeNoQuoteAvailable, format, args...)
}

// The codes of payments and the relay pre-flight.
const (
	CodeTransferNotVerified   = "transfer_not_verified"
	CodeTxAlreadyUsed         = "tx_already_used"
	CodeInsufficientAllowance = "insufficient_allowance"
	CodeInsufficientBalance   = "insufficient_balance"
	CodeRelayWouldRevert      = "relay_would_revert"
)

// ErrTransferNotVerified is 400 transfer_not_verified.
func ErrTransferNotVerified(format string, args ...any) *Error {
	return newErr(400, CodeTransferNotVerified, format, args...)
}

// ErrTxAlreadyUsed is 409 tx_already_used.
func ErrTxAlreadyUsed(format string, args ...any) *Error {
	return newErr(409, CodeTxAlreadyUsed, format, args...)
}

// ErrPreflight is the relay pre-flight's 400: code is one of
// CodeInsufficientAllowance, CodeInsufficientBalance, CodeRelayWouldRevert.
func ErrPreflight(code, format string, args ...any) *Error {
	return newErr(400, code, format, args...)
}

// The webhook codes (CONTRACT.md "Errors").
const (
	CodeInvalidWebhookURL            = "invalid_webhook_url"
	CodeWebhookEncryptionUnavailable = "webhook_encryption_unavailable"
)

// ErrInvalidWebhookURL is a webhook URL that is not HTTPS or fails the
// SSRF screen; the message says why.
func ErrInvalidWebhookURL(format string, args ...any) *Error {
	return newErr(400, CodeInvalidWebhookURL, format, args...)
}

// ErrWebhookEncryptionUnavailable is POST /webhooks without a master key.
func ErrWebhookEncryptionUnavailable() *Error {
	return newErr(503, CodeWebhookEncryptionUnavailable,
		"webhook secrets cannot be stored: no master key is configured (SVC_WEBHOOK_MASTER_KEY or --webhook-master-key-file)")
}
