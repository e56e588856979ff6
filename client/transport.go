package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrTimeout is wrapped by the error of an attempt that ran past the
// Client's timeout (WithTimeout); the error names the request.
var ErrTimeout = errors.New("request timed out")

// ErrResponseTooLarge is wrapped by the error of an answer whose body is
// longer than WithMaxResponseBodySize allows; the error names the request.
var ErrResponseTooLarge = errors.New("response body too large")

// errLostAfterSend: the connection died after the request was written, so
// whether the server acted on it is unknown. The typed methods retry it
// like any transport error when that is safe.
var errLostAfterSend = errors.New("connection lost after the request was sent; outcome unknown")

// exchange is one HTTP exchange in flight: the response with its body
// unread, and what must happen once the body is done with.
type exchange struct {
	resp *http.Response
	// resent: net/http's transport used more than one connection for
	// the request. It resends a request it considers idempotent (a GET,
	// or one with an Idempotency-Key) when a kept-alive connection turns
	// out dead; the server's single-use signatures make that resend
	// either the only copy it saw or a 401 replayed, which sendOnce
	// turns back into the transport error it stands for.
	resent    bool
	method    string
	target    string
	ctx       context.Context // the caller's
	cause     func() error    // why the attempt's context ended, if it did
	stopTimer func() bool
	release   func()
}

// exchange sends one request and returns once the answer's headers are
// in. The attempt's context ends at the Client's timeout; release (which
// the caller must call) stops the timer and frees the context.
func (c *Client) exchange(ctx context.Context, method, target string, body []byte, h http.Header) (*exchange, error) {
	req, err := c.newHTTPRequest(method, target, body, h)
	if err != nil {
		return nil, err
	}
	actx, cancel := context.WithCancelCause(ctx)
	timer := time.AfterFunc(c.timeout, func() { cancel(ErrTimeout) })
	var conns atomic.Int32
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { conns.Add(1) }}
	ex := &exchange{method: method, target: target, ctx: ctx,
		cause:     func() error { return context.Cause(actx) },
		stopTimer: timer.Stop,
		release:   func() { timer.Stop(); cancel(nil) },
	}
	resp, err := c.hc.Do(req.WithContext(httptrace.WithClientTrace(actx, trace)))
	if err != nil {
		err = ex.fail(err)
		ex.release()
		return nil, err
	}
	if resp.Body == nil {
		resp.Body = http.NoBody
	}
	ex.resp, ex.resent = resp, conns.Load() > 1
	inner := ex.release
	ex.release = sync.OnceFunc(func() { _ = resp.Body.Close(); inner() })
	return ex, nil
}

// streamBody is an answer's body handed to the caller unread; closing it
// ends the exchange.
type streamBody struct{ ex *exchange }

func (s *streamBody) Read(p []byte) (int, error) {
	n, err := s.ex.resp.Body.Read(p)
	if err != nil && err != io.EOF {
		err = s.ex.fail(err)
	}
	return n, err
}

func (s *streamBody) Close() error {
	s.ex.release()
	return nil
}

// fail explains an error of the exchange: the caller's context, the
// Client's timeout, or the transport's own error.
func (ex *exchange) fail(err error) error {
	switch cause := ex.cause(); {
	case ex.ctx.Err() != nil:
		err = ex.ctx.Err()
	case errors.Is(cause, ErrTimeout):
		err = cause
	default:
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // the method and target are said once, below
		}
	}
	return fmt.Errorf("client: %s %s: %w", ex.method, ex.target, err)
}

// newHTTPRequest builds the request so that net/http writes target
// byte for byte as the request target: the path as an opaque URL (never
// cleaned or re-escaped) and the query as given, even an empty one.
func (c *Client) newHTTPRequest(method, target string, body []byte, h http.Header) (*http.Request, error) {
	path, query, hasQuery := strings.Cut(target, "?")
	u := &url.URL{Scheme: c.scheme, Host: c.host, Opaque: path, RawQuery: query, ForceQuery: hasQuery && query == ""}
	if got := u.RequestURI(); got != target {
		return nil, fmt.Errorf("client: %s %s: target would be sent as %q, not as signed", method, target, got)
	}
	req := &http.Request{
		Method: method, URL: u, Host: c.host, Header: h,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Body: http.NoBody,
	}
	if len(body) > 0 {
		// No GetBody: the transport must not resend a signed body.
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	return req, nil
}

// readBody reads a whole answer of at most max bytes; n is its
// Content-Length, or -1.
func readBody(r io.Reader, n int64, max int) ([]byte, error) {
	if n > int64(max) {
		return nil, fmt.Errorf("%w: Content-Length %d, limit %d", ErrResponseTooLarge, n, max)
	}
	var buf bytes.Buffer
	if n > 0 {
		buf.Grow(int(n))
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, int64(max)+1)); err != nil {
		return nil, err
	}
	if buf.Len() > max {
		return nil, fmt.Errorf("%w: over %d bytes", ErrResponseTooLarge, max)
	}
	if buf.Len() == 0 {
		return nil, nil
	}
	return buf.Bytes(), nil
}
