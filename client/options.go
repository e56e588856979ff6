package client

import (
	"context"
	"crypto/tls"
	"net/http"
	"time"
)

// Defaults and explicit limits of a Client.
const (
	DefaultMaxConns            = 64
	DefaultTimeout             = 30 * time.Second
	DefaultBasePath            = "/public/v1"
	DefaultMaxResponseBodySize = 64 << 20
	// MaxTargetLen bounds a request target; the server's request line
	// must fit its read buffer, so longer targets would fail there anyway.
	MaxTargetLen = 4096
)

// Option configures a Client.
type Option func(*config)

type config struct {
	maxConns    int
	timeout     time.Duration
	clock       func() time.Time
	basePath    string
	tlsConfig   *tls.Config
	maxBodySize int
	transport   http.RoundTripper
	retry       RetryPolicy
	sleep       func(context.Context, time.Duration) error
}

func defaultConfig() config {
	return config{
		maxConns:    DefaultMaxConns,
		timeout:     DefaultTimeout,
		clock:       time.Now,
		basePath:    DefaultBasePath,
		maxBodySize: DefaultMaxResponseBodySize,
		retry:       DefaultRetryPolicy,
		sleep:       sleepCtx,
	}
}

// WithMaxConns bounds the open connections to the server (default
// DefaultMaxConns). When all are busy a request waits for one, within its
// timeout. It configures the Client's own transport: with WithTransport
// the given transport decides.
func WithMaxConns(n int) Option { return func(c *config) { c.maxConns = n } }

// WithTimeout bounds each attempt of a request, connection wait and
// reading the answer included (default DefaultTimeout). A context
// deadline, if earlier, wins. For ExportTransactions it bounds the wait
// for the answer's headers; the streamed body is bounded by the context.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithClock replaces time.Now as the source of SVC-TIMESTAMP (tests).
func WithClock(now func() time.Time) Option { return func(c *config) { c.clock = now } }

// WithBasePath sets the API base path that the typed methods and
// SyncClock put in front of every route (default "/public/v1"; "/v1" for
// the live environment). Do and DoUnsigned take whole targets and do not
// use it.
func WithBasePath(p string) Option { return func(c *config) { c.basePath = p } }

// WithTLSConfig sets the TLS configuration for https base URLs. It
// configures the Client's own transport: with WithTransport the given
// transport decides.
func WithTLSConfig(t *tls.Config) Option { return func(c *config) { c.tlsConfig = t } }

// WithMaxResponseBodySize bounds a response body read into memory
// (default 64 MiB); a longer answer is an error wrapping
// ErrResponseTooLarge. The CSV export is streamed and not bounded by it.
func WithMaxResponseBodySize(n int) Option { return func(c *config) { c.maxBodySize = n } }

// WithTransport replaces the Client's own HTTP transport (an
// *http.Transport with WithMaxConns connections, WithTLSConfig, no proxy
// and no compression) with rt: for a proxy, tracing, or a test double.
// The Client still never follows redirects: a redirect is returned as the
// answer, since the signature covers the target it was sent to.
func WithTransport(rt http.RoundTripper) Option { return func(c *config) { c.transport = rt } }

// WithRetryPolicy sets how the typed methods retry (default
// DefaultRetryPolicy). Do and DoUnsigned never retry.
func WithRetryPolicy(p RetryPolicy) Option { return func(c *config) { c.retry = p } }

// WithSleep replaces the wait between retries (default: a timer that the
// context can cut short). Tests inject one that records the waits and
// returns at once. sleep must return ctx's error if ctx ends first.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *config) { c.sleep = sleep }
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
