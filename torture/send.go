package torture

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/fxd-labs/fxd/client"
)

// basePath is the API's base path in the test environment.
const basePath = "/public/v1"

// maxTrying bounds how long one request is retried before it is given up
// (left unresolved, to be resolved at the end).
const maxTrying = 4 * time.Minute

// errGaveUp: the request never got an answer.
var errGaveUp = errors.New("torture: no answer")

// attemptClass is how one attempt ended.
type attemptClass uint8

const (
	attFinal   attemptClass = iota // the handler's answer
	attUnknown                     // no answer: it may or may not have executed
	attRefused                     // refused before the handler: it did not execute
)

// classify sorts an attempt's result and says how long to wait before the
// next attempt. A 503 not replayed is the server recovering or its chain
// unreachable; a replayed one is a stored answer, final.
func classify(resp *client.Response, err error) (attemptClass, time.Duration) {
	if err != nil {
		return attUnknown, 200 * time.Millisecond
	}
	replayed := resp.Header.Get("Idempotency-Replayed") == "true"
	switch {
	case resp.Status == http.StatusServiceUnavailable && !replayed:
		return attUnknown, 300 * time.Millisecond
	case resp.Status == http.StatusTooManyRequests:
		return attRefused, retryAfter(resp, time.Second)
	case resp.Status == http.StatusUnauthorized:
		switch errorCode(resp.Body) {
		case "stale_timestamp", "replayed":
			return attRefused, 300 * time.Millisecond
		}
	case resp.Status == http.StatusConflict && errorCode(resp.Body) == "idempotency_in_progress":
		return attRefused, retryAfter(resp, 500*time.Millisecond)
	}
	return attFinal, 0
}

// retryAfter reads Retry-After (seconds, at most 30), else def.
func retryAfter(resp *client.Response, def time.Duration) time.Duration {
	if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && n >= 0 {
		return min(time.Duration(n)*time.Second+100*time.Millisecond, 30*time.Second)
	}
	return def
}

// errorCode is error.code of a contract error body ("" if none).
func errorCode(body []byte) string {
	var e struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil {
		return ""
	}
	return e.Error.Code
}

// deliver sends r (with its Idempotency-Key, freshly signed each time)
// until the handler answers, recording every attempt; attempts without
// an answer make it "unknown" until an answer says what happened. It
// gives up (errGaveUp, the request left unresolved) when ctx ends or
// after maxTrying.
func (h *harness) deliver(ctx context.Context, c *client.Client, r *request) (*client.Response, error) {
	return h.deliverWith(ctx, c.Do, r)
}

// deliverPublic is deliver for an unauthenticated route.
func (h *harness) deliverPublic(ctx context.Context, r *request) (*client.Response, error) {
	return h.deliverWith(ctx, h.public.DoUnsigned, r)
}

// doFunc sends one request: a client's Do or DoUnsigned.
type doFunc func(ctx context.Context, method, target string, body []byte, headers map[string]string) (*client.Response, error)

func (h *harness) deliverWith(ctx context.Context, do doFunc, r *request) (*client.Response, error) {
	headers := map[string]string{}
	if r.idemKey != "" {
		headers["Idempotency-Key"] = r.idemKey
	}
	give := time.Now().Add(maxTrying)
	for {
		lease, err := h.srv.waitUp(ctx)
		if err != nil {
			h.hist.giveUp(r)
			return nil, errGaveUp
		}
		actx, cancel := context.WithTimeout(ctx, h.cfg.ClientTimeout)
		resp, err := do(actx, r.method, basePath+r.path, r.body, headers)
		cancel()
		cls, wait := classify(resp, err)
		h.hist.attempt(r, cls == attUnknown, cls == attRefused)
		if cls == attFinal {
			replayed := resp.Header.Get("Idempotency-Replayed") == "true"
			h.hist.settle(r, resp.Status, resp.Body, h.srv.answeredBy(lease), replayed)
			if replayed && r.unknowns == 0 && r.idemKey != "" {
				h.fail("%s %s (key %s): a fresh Idempotency-Key was answered as a replay: %d %.200s",
					r.method, r.path, r.idemKey, resp.Status, resp.Body)
			}
			return resp, nil
		}
		if ctx.Err() != nil || time.Now().After(give) {
			h.hist.giveUp(r)
			return nil, errGaveUp
		}
		sleep(ctx, wait)
	}
}

// write sends a new write of the workload with a fresh Idempotency-Key
// (or none, for routes that take none) and returns its request and
// final answer (nil when given up).
func (w *worker) write(ctx context.Context, opName, method, path string, body any, idem bool) (*request, *client.Response, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, nil, err
	}
	if body == nil {
		raw = nil
	}
	r := &request{worker: w.idx, op: opName, method: method, path: path, body: raw}
	if idem {
		r.idemKey = fmt.Sprintf("%s-w%d-%d", opName, w.idx, w.h.nextKey())
	}
	if !w.h.hist.add(r) {
		return nil, nil, errHistoryFull
	}
	resp, err := w.h.deliver(ctx, w.c, r)
	return r, resp, err
}

var errHistoryFull = errors.New("torture: the history is full")

// get reads path with c until answered (reads are harmless to repeat).
func (h *harness) get(ctx context.Context, c *client.Client, path string) (*client.Response, error) {
	give := time.Now().Add(maxTrying)
	for {
		if _, err := h.srv.waitUp(ctx); err != nil {
			return nil, err
		}
		actx, cancel := context.WithTimeout(ctx, h.cfg.ClientTimeout)
		resp, err := c.Do(actx, http.MethodGet, basePath+path, nil, nil)
		cancel()
		h.hist.read()
		cls, wait := classify(resp, err)
		if cls == attFinal {
			return resp, nil
		}
		if ctx.Err() != nil || time.Now().After(give) {
			return nil, fmt.Errorf("GET %s: %w", path, errGaveUp)
		}
		sleep(ctx, wait)
	}
}

// decode unmarshals an answer body into v.
func decode(resp *client.Response, v any) error {
	if err := json.Unmarshal(resp.Body, v); err != nil {
		return fmt.Errorf("%s: %w in %.200s", resp.Target, err, resp.Body)
	}
	return nil
}

// replayed reports whether an answer is a stored one.
func replayed(resp *client.Response) bool { return resp.Header.Get("Idempotency-Replayed") == "true" }

// unexpectedAnswer is an answer the contract does not allow for what was
// sent: the run fails.
type unexpectedAnswer struct{ msg string }

func (e *unexpectedAnswer) Error() string { return e.msg }

// unexpected describes an answer the operation did not expect.
func unexpected(opName string, resp *client.Response) error {
	return &unexpectedAnswer{fmt.Sprintf("%s: %s answered %d %.300s", opName, resp.Target, resp.Status, resp.Body)}
}

// unexpectedReq is unexpected with the request's history (attempts,
// refusals, unanswered attempts, the generation that answered).
func unexpectedReq(opName string, r *request, resp *client.Response) *unexpectedAnswer {
	return &unexpectedAnswer{fmt.Sprintf("%s: %s answered %d %.300s (attempt %d: %d refused, %d unanswered; generation %d)",
		opName, resp.Target, resp.Status, resp.Body, r.attempts, r.refusals, r.unknowns, r.gen)}
}
