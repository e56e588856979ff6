package httpd

import (
	"strconv"

	"github.com/fxd-labs/fxd/domain"
	"github.com/valyala/fasthttp"
)

// writeError is the one place an error response is written: the contract's
// {"error":{"code","message"}} with its status and, when set, Retry-After.
func writeError(ctx *fasthttp.RequestCtx, e *domain.Error) { writeReply(ctx, e.Reply()) }

// writeReply writes a rendered reply as JSON.
func writeReply(ctx *fasthttp.RequestCtx, r domain.Reply) {
	if r.RetryAfter > 0 {
		ctx.Response.Header.Set("Retry-After", strconv.Itoa(r.RetryAfter))
	}
	ctx.SetStatusCode(r.Status)
	ctx.SetContentType("application/json")
	ctx.SetBody(r.Body)
}

// Errors of the front door that have no home in domain.
var (
	errNoRoute    = &domain.Error{Status: 404, Code: domain.CodeNotFound, Message: "no such route"}
	errBodyTooBig = &domain.Error{Status: 413, Code: domain.CodeBodyTooLarge, Message: "request body is larger than 65536 bytes"}
	errRecovering = &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "the service is recovering; retry shortly", RetryAfter: 1}
	errBusy       = &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "the service is at capacity; retry shortly", RetryAfter: 1}
	errTimeout    = &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "the request did not complete in time; retry with the same Idempotency-Key", RetryAfter: 1}
	errNotOwner   = &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "the account's partition is moving to another node; retry shortly", RetryAfter: 1}
	errNoChain    = &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "the chain is unreachable; retry shortly", RetryAfter: 1}
	errNoSuchAcct = &domain.Error{Status: 401, Code: domain.CodeAuthFailed, Message: "authentication failed"}
)

func authFailed(msg string) *domain.Error {
	return &domain.Error{Status: 401, Code: domain.CodeAuthFailed, Message: msg}
}
