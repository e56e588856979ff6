package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// idemMode is how a route takes an Idempotency-Key.
type idemMode uint8

const (
	idemNone     idemMode = iota // reads and public routes: none
	idemAuto                     // writes: the SDK makes one when the caller gives none
	idemOptional                 // the caller's only (POST /fx/quotes: a key stores the quotes in the log)
)

// route is one operation of the route table as the SDK calls it.
type route struct {
	name   string // the SDK method: the operationId with its first letter upper-cased
	method string
	path   string // relative to the base path; {name} is a parameter
	public bool   // unauthenticated: sent unsigned
	idem   idemMode
	// repeatable: sending it again is harmless without a key (reads,
	// and writes the contract makes idempotent by themselves).
	repeatable bool
	// alsoOK is a non-2xx status whose body is the route's result
	// (GET /health answers 503 with the Health body), never retried.
	alsoOK int
}

// CallOption adjusts one typed call.
type CallOption func(*callConfig)

type callConfig struct {
	idemKey  string
	attempts int
	capture  *Response
	stream   *io.ReadCloser // ExportTransactions: the 200 body, unread
}

// IdempotencyKey sends key as the call's Idempotency-Key (1..255
// printable ASCII characters), instead of the one the SDK makes for a
// write. Reuse it to make a later call the same request: the server
// answers it with the stored result (Idempotency-Replayed: true). On a
// route that takes no key (reads, public routes) the call fails.
func IdempotencyKey(key string) CallOption { return func(c *callConfig) { c.idemKey = key } }

// MaxAttempts overrides the RetryPolicy's attempts for one call; 1 sends
// it once.
func MaxAttempts(n int) CallOption { return func(c *callConfig) { c.attempts = n } }

// CaptureResponse copies the call's last HTTP answer into dst (status,
// headers such as Idempotency-Replayed and X-RateLimit-*, body, the target
// as sent), on success and on an APIError alike; dst is left as it is
// when no answer came.
func CaptureResponse(dst *Response) CallOption { return func(c *callConfig) { c.capture = dst } }

// newIdempotencyKey is a fresh key: 128 random bits.
func newIdempotencyKey() string { return "sdk_" + rand.Text() }

// checkIdemKey applies CONTRACT.md's format: 1..255 printable ASCII.
func checkIdemKey(k string) error {
	if len(k) == 0 || len(k) > 255 {
		return fmt.Errorf("Idempotency-Key of %d bytes, want 1..255", len(k))
	}
	for i := 0; i < len(k); i++ {
		if k[i] < ' ' || k[i] > '~' {
			return fmt.Errorf("Idempotency-Key has byte %q at %d: want printable ASCII", k[i], i)
		}
	}
	return nil
}

// call performs one typed call: in (nil: no body) as JSON, the route's
// retries, and the answer decoded into out (nil: ignored).
func (c *Client) call(ctx context.Context, rt *route, target string, in, out any, opts []CallOption) error {
	cc := callConfig{attempts: c.retry.MaxAttempts}
	for _, o := range opts {
		o(&cc)
	}
	if cc.attempts < 1 {
		return fmt.Errorf("client: %s: MaxAttempts %d, want >= 1", rt.name, cc.attempts)
	}
	if !rt.public && c.key == nil {
		return ErrNoKey
	}
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("client: %s: encode request: %w", rt.name, err)
		}
	}
	h := baseHeader(1, body)
	key := cc.idemKey
	switch {
	case rt.idem == idemNone && key != "":
		return fmt.Errorf("client: %s: %s %s takes no Idempotency-Key", rt.name, rt.method, rt.path)
	case rt.idem == idemAuto && key == "":
		key = newIdempotencyKey()
	}
	if key != "" {
		if err := checkIdemKey(key); err != nil {
			return fmt.Errorf("client: %s: %w", rt.name, err)
		}
		h["Idempotency-Key"] = []string{key}
	}
	resp, err := c.retrying(ctx, rt, target, body, h, rt.repeatable || key != "", &cc)
	if resp != nil && cc.capture != nil {
		*cc.capture = *resp
	}
	if err != nil {
		return err
	}
	if (resp.Status < 200 || resp.Status > 299) && resp.Status != rt.alsoOK {
		return newAPIError(rt.method, resp, c.clock())
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return fmt.Errorf("client: %s %s: decode the %d answer: %w", rt.method, resp.Target, resp.Status, err)
	}
	return nil
}

// typed performs a call whose answer is a T.
func typed[T any](ctx context.Context, c *Client, rt *route, target string, in any, opts []CallOption) (*T, error) {
	out := new(T)
	if err := c.call(ctx, rt, target, in, out, opts); err != nil {
		return nil, err
	}
	return out, nil
}

// target is the request target of rt: the base path, the route's path
// with each {parameter} replaced by the next arg (path-escaped), and the
// query. An empty arg is refused: it would address another route.
func (c *Client) target(rt *route, q query, args ...string) (string, error) {
	var b strings.Builder
	b.WriteString(c.basePath)
	rest := rt.path
	for {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '}') + i
		if len(args) == 0 || args[0] == "" {
			return "", fmt.Errorf("client: %s: empty %s", rt.name, rest[i:j+1])
		}
		b.WriteString(rest[:i])
		b.WriteString(url.PathEscape(args[0]))
		args, rest = args[1:], rest[j+1:]
	}
	b.WriteString(rest)
	b.WriteString(q.encode())
	return b.String(), nil
}

// query is a request's query parameters, in the order added (the order
// is signed, so it is fixed).
type query []string

func (q query) add(name, value string) query {
	if value == "" {
		return q
	}
	return append(q, name+"="+url.QueryEscape(value))
}

func (q query) addInt(name string, v int) query {
	if v == 0 {
		return q
	}
	return q.add(name, strconv.Itoa(v))
}

func (q query) addTime(name string, t time.Time) query {
	if t.IsZero() {
		return q
	}
	return q.add(name, t.UTC().Format(time.RFC3339))
}

func (q query) encode() string {
	if len(q) == 0 {
		return ""
	}
	return "?" + strings.Join(q, "&")
}

// do is a typed call of rt whose target takes args and no query.
func do[T any](ctx context.Context, c *Client, rt *route, in any, opts []CallOption, args ...string) (*T, error) {
	target, err := c.target(rt, nil, args...)
	if err != nil {
		return nil, err
	}
	return typed[T](ctx, c, rt, target, in, opts)
}
