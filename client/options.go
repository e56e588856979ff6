package client

import (
	"crypto/tls"
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
}

func defaultConfig() config {
	return config{
		maxConns:    DefaultMaxConns,
		timeout:     DefaultTimeout,
		clock:       time.Now,
		basePath:    DefaultBasePath,
		maxBodySize: DefaultMaxResponseBodySize,
	}
}

// WithMaxConns bounds the open connections to the server (default
// DefaultMaxConns). When all are busy a request waits for one, within its
// timeout.
func WithMaxConns(n int) Option { return func(c *config) { c.maxConns = n } }

// WithTimeout bounds each request, connection wait included (default
// DefaultTimeout). A context deadline, if earlier, wins.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithClock replaces time.Now as the source of SVC-TIMESTAMP (tests).
func WithClock(now func() time.Time) Option { return func(c *config) { c.clock = now } }

// WithBasePath sets the API base path SyncClock uses for GET /time
// (default "/public/v1"; "/v1" for the live environment).
func WithBasePath(p string) Option { return func(c *config) { c.basePath = p } }

// WithTLSConfig sets the TLS configuration for https base URLs.
func WithTLSConfig(t *tls.Config) Option { return func(c *config) { c.tlsConfig = t } }

// WithMaxResponseBodySize bounds a response body (default 64 MiB).
func WithMaxResponseBodySize(n int) Option { return func(c *config) { c.maxBodySize = n } }
