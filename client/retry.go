package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy says how the typed methods retry. Do and DoUnsigned never
// retry.
//
// An attempt is retried when that cannot make the server act twice:
//   - a transport error (no answer), a 5xx other than 503, or a 401
//     replayed, when the request is safe to repeat: a GET, a write
//     carrying an Idempotency-Key (the SDK adds one, see IdempotencyKey),
//     or a route that is idempotent by itself (POST /fx/quotes, accept,
//     POST /pay/{id}/submit);
//   - 429 over_limit, 503 and 409 idempotency_in_progress, always: the
//     server refused them before acting (CONTRACT.md "Idempotency"),
//     after the answer's Retry-After;
//   - 401 stale_timestamp carrying SVC-Server-Time: the Client adopts the
//     server's clock (ClockOffset) and retries once, beyond MaxAttempts.
//
// Never retried: other 4xx, 502 no_quote_available and 503
// webhook_encryption_unavailable (answers, not passing failures), and
// the caller's context ending. Each attempt is signed afresh (a resent
// signature is a replay) and carries the same Idempotency-Key.
type RetryPolicy struct {
	// MaxAttempts bounds the attempts of one call, the first included;
	// 1 turns retries off.
	MaxAttempts int
	// BaseDelay is the wait before the first retry without Retry-After;
	// each further one doubles, up to MaxDelay. Each wait is drawn from
	// its upper half, so clients that failed together spread apart.
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After waited for; an answer
	// asking for longer is returned as it is.
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy: four attempts, 250 ms, 500 ms, 1 s apart (or as
// Retry-After says, up to a minute).
var DefaultRetryPolicy = RetryPolicy{MaxAttempts: 4, BaseDelay: 250 * time.Millisecond, MaxDelay: 8 * time.Second, MaxRetryAfter: time.Minute}

func (p RetryPolicy) check() error {
	if p.MaxAttempts < 1 || p.BaseDelay < 0 || p.MaxDelay < p.BaseDelay || p.MaxRetryAfter < 0 {
		return fmt.Errorf("client: retry policy %+v: want MaxAttempts >= 1 and 0 <= BaseDelay <= MaxDelay, MaxRetryAfter >= 0", p)
	}
	return nil
}

// backoff is the wait before retry n (1 for the first retry).
func (p RetryPolicy) backoff(n int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < n && d < p.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, p.MaxDelay)
	if half := int64(d / 2); half > 0 {
		return time.Duration(half + rand.Int64N(half+1))
	}
	return d
}

// verdict is whether an attempt's outcome may be retried, and the wait
// the server asked for (Retry-After).
type verdict struct {
	retry    bool
	after    time.Duration
	hasAfter bool
}

// classify applies the policy's rules to one attempt's outcome; safe
// says whether the request may be repeated (see RetryPolicy).
func classify(safe bool, resp *Response, err error, now time.Time) verdict {
	if err != nil {
		// A body over the limit will be over it again.
		return verdict{retry: safe && !errors.Is(err, ErrResponseTooLarge)}
	}
	var v verdict
	switch code := errorCodeOf(resp.Body); {
	case resp.Status == http.StatusTooManyRequests,
		resp.Status == http.StatusConflict && code == CodeIdempotencyInProgress,
		resp.Status == http.StatusServiceUnavailable && code != CodeWebhookEncryptionUnavailable:
		v.retry = true
	case resp.Status == http.StatusUnauthorized && code == CodeReplayed:
		v.retry = safe
	case resp.Status >= 500 && code != CodeNoQuoteAvailable && code != CodeWebhookEncryptionUnavailable:
		v.retry = safe
	}
	if v.retry {
		v.after, v.hasAfter = retryAfter(resp.Header, now)
	}
	return v
}

// retrying sends a typed call's request until an answer is final or the
// policy's attempts are spent, and returns the last outcome.
func (c *Client) retrying(ctx context.Context, rt *route, target string, body []byte, h http.Header, safe bool, cc *callConfig) (*Response, error) {
	corrected := false
	for n := 1; ; n++ {
		resp, err := c.sendOnce(ctx, rt.method, target, body, h, !rt.public, cc.stream)
		if ctx.Err() != nil {
			return resp, err
		}
		if err == nil && !rt.public && !corrected {
			if wait, ok := c.adoptServerTime(resp); ok {
				corrected = true
				n-- // the correction's retry is not one of the policy's
				if err := c.sleep(ctx, wait); err != nil {
					return nil, fmt.Errorf("client: %s %s: %w", rt.method, resp.Target, err)
				}
				continue
			}
		}
		if err == nil && resp.Status == rt.alsoOK {
			return resp, nil // an answer, not a failure
		}
		v := classify(safe, resp, err, c.clock())
		if !v.retry || n >= cc.attempts {
			return resp, err
		}
		wait := c.retry.backoff(n)
		if v.hasAfter {
			if v.after > c.retry.MaxRetryAfter {
				return resp, err
			}
			wait = v.after
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return resp, err // the retry could not finish in time
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("client: %s %s: %w", rt.method, target, err)
		}
	}
}

// adoptServerTime handles 401 stale_timestamp with SVC-Server-Time: it
// sets the clock offset from the server's time and returns how long to
// wait before signing again. A stale answer to a timestamp within the
// window means the server refused one from before its own start (it had
// just restarted), so the wait reaches the server's next second.
func (c *Client) adoptServerTime(resp *Response) (time.Duration, bool) {
	if resp.Status != http.StatusUnauthorized || resp.signedAt == 0 || errorCodeOf(resp.Body) != CodeStaleTimestamp {
		return 0, false
	}
	server, err := strconv.ParseInt(resp.Header.Get("SVC-Server-Time"), 10, 64)
	if err != nil || server <= 0 {
		return 0, false
	}
	now := c.clock()
	// The server's second N is taken as N+0.5 s now (as SyncClock does).
	offset := time.Unix(server, int64(500*time.Millisecond)).Sub(now)
	c.offsetNs.Store(int64(offset))
	corrected := now.Add(offset)
	c.signed.rewind(corrected.Unix())
	if d := server - resp.signedAt; d < -freshness || d > freshness {
		return 0, true // the skew was the cause
	}
	return max(time.Unix(server+1, 0).Sub(corrected), 0), true
}

// freshness is the server's timestamp window (SPEC.md: ±30 s).
const freshness = 30
