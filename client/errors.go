package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The error codes of CONTRACT.md's table ("Errors"), the values of
// APIError.Code.
const (
	CodeInvalidRequest               = "invalid_request"
	CodeUnsupportedAsset             = "unsupported_asset"
	CodeInvalidSignature             = "invalid_signature"
	CodeFundingNotVerified           = "funding_not_verified"
	CodeTransferNotVerified          = "transfer_not_verified"
	CodeInsufficientAllowance        = "insufficient_allowance"
	CodeInsufficientBalance          = "insufficient_balance"
	CodeRelayWouldRevert             = "relay_would_revert"
	CodeInvalidWebhookURL            = "invalid_webhook_url"
	CodeAuthFailed                   = "auth_failed"
	CodeStaleTimestamp               = "stale_timestamp"
	CodeReplayed                     = "replayed"
	CodeInsufficientScope            = "insufficient_scope"
	CodeNotPermitted                 = "not_permitted"
	CodeNotFound                     = "not_found"
	CodeInvalidState                 = "invalid_state"
	CodeTxAlreadyUsed                = "tx_already_used"
	CodeQuoteExpired                 = "quote_expired"
	CodeIdempotencyInProgress        = "idempotency_in_progress"
	CodeBodyTooLarge                 = "body_too_large"
	CodeIdempotencyKeyReused         = "idempotency_key_reused"
	CodeOverLimit                    = "over_limit"
	CodeNoQuoteAvailable             = "no_quote_available"
	CodeWebhookEncryptionUnavailable = "webhook_encryption_unavailable"
	CodeUnavailable                  = "unavailable"
)

// maxErrorMessage bounds APIError.Message taken from a body that is not a
// contract error (a proxy's HTML page, say).
const maxErrorMessage = 512

// APIError is a non-2xx answer to a typed method. Use errors.As to get
// it:
//
//	var apiErr *client.APIError
//	if errors.As(err, &apiErr) && apiErr.Code == client.CodeNotFound { … }
type APIError struct {
	// Status is the HTTP status.
	Status int
	// Code is the contract's error code (the Code* constants); "" when
	// the body is not a contract error.
	Code string
	// Message is the contract error's message, or the start of a body
	// that is not one.
	Message string
	// RetryAfter is the answer's Retry-After (429, 503, 409
	// idempotency_in_progress); 0 when absent.
	RetryAfter time.Duration
	// Header holds the answer's headers (X-RateLimit-*, SVC-Server-Time,
	// Idempotency-Replayed, …).
	Header http.Header
	// Method and Target are the request as last sent.
	Method, Target string
	// RequestID is the answer's Request-Id ("req_…"): the server's log
	// names it on every line about the request, so it is what to quote
	// when asking the operator about a failed call.
	RequestID string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "client: %s %s: %d", e.Method, e.Target, e.Status)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RequestID != "" {
		b.WriteString(" (request " + e.RequestID + ")")
	}
	return b.String()
}

// ErrorCode returns the contract error code of err if it is (or wraps) an
// *APIError, and "" otherwise.
func ErrorCode(err error) string {
	var e *APIError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// errorBody is the contract's error shape.
type errorBody struct {
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// errorCodeOf is error.code of a contract error body, or "".
func errorCodeOf(body []byte) string {
	if len(body) == 0 || body[0] != '{' {
		return ""
	}
	var e errorBody
	if json.Unmarshal(body, &e) != nil || e.Error == nil {
		return ""
	}
	return e.Error.Code
}

// newAPIError builds the error of a non-2xx answer.
func newAPIError(method string, resp *Response, now time.Time) *APIError {
	e := &APIError{Status: resp.Status, Header: resp.Header, Method: method, Target: resp.Target,
		RequestID: resp.Header.Get("Request-Id")}
	e.RetryAfter, _ = retryAfter(resp.Header, now)
	var body errorBody
	if json.Unmarshal(resp.Body, &body) == nil && body.Error != nil && body.Error.Code != "" {
		e.Code, e.Message = body.Error.Code, body.Error.Message
		return e
	}
	msg := resp.Body
	if len(msg) > maxErrorMessage {
		msg = msg[:maxErrorMessage]
		for len(msg) > 0 && !utf8.Valid(msg) {
			msg = msg[:len(msg)-1] // do not cut a character in two
		}
	}
	e.Message = strings.TrimSpace(string(msg))
	return e
}

// retryAfter reads Retry-After: whole seconds (what the server sends) or
// an HTTP date (RFC 9110 allows both).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 || s > int64(24*time.Hour/time.Second) {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
