package domain

import (
	"encoding/json"
	"time"
)

// Reply is the exact answer to a command: status and JSON body bytes. It is
// rendered inside the entity so that an idempotent replay can return the
// byte-identical body that was stored in the log.
type Reply struct {
	Status int
	Body   []byte
	// RetryAfter, when > 0, is sent as the Retry-After header. It is not
	// part of a stored idempotent answer (only unstored refusals carry it).
	RetryAfter int
}

// Body renders the contract's error shape {"error":{"code","message"}}.
func (e *Error) Body() []byte {
	b, err := json.Marshal(struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{Error: struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}{e.Code, e.Message}})
	if err != nil {
		panic("domain: marshal error body: " + err.Error())
	}
	return b
}

// Reply renders the error as a reply.
func (e *Error) Reply() Reply {
	return Reply{Status: e.Status, Body: e.Body(), RetryAfter: e.RetryAfter}
}

// jsonReply renders v; our views always marshal, so a failure is a bug.
func jsonReply(status int, v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic("domain: marshal reply: " + err.Error())
	}
	return Reply{Status: status, Body: b}
}

// RFC3339 renders a time the way the API shows every time: UTC, seconds.
func RFC3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }
