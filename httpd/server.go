package httpd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/chain/connect"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/httpd/ratelimit"
	"github.com/fxd-labs/fxd/httpd/replay"
	"github.com/fxd-labs/fxd/pay"
	"github.com/fxd-labs/fxd/webhook"
	"github.com/valyala/fasthttp"
)

// Version is the contract version served (SPEC.md "Versioning").
const Version = "1.0.0"

// Limits of the front door.
const (
	MaxBodyBytes = 64 << 10 // CONTRACT.md: bodies over 64 KiB are 413
	// readBodyBytes is what fasthttp reads before it refuses a body. A
	// body refused on its Content-Length alone is answered while the
	// client still writes it, and the close that follows can reset the
	// connection before the client reads the 413; so bodies up to this
	// size are read whole and refused by serve, on a connection that
	// stays usable. Only bigger ones get fasthttp's early refusal. Twice
	// the limit keeps the worst case of DefaultMaxConns bodies in memory
	// at 2 GiB (it was 1 GiB).
	readBodyBytes = 2 * MaxBodyBytes
	// FreshnessWindow is SPEC.md's ±30 s for SVC-TIMESTAMP.
	FreshnessWindow = 30 * time.Second
	// replayWindow is how long an accepted signature is remembered after
	// its timestamp: the freshness window plus margin for future-dated
	// timestamps.
	replayWindow = 2 * FreshnessWindow
	// maxReplayEntries bounds the replay cache (~80 B each).
	maxReplayEntries = 4 << 20
	// requestTimeout bounds how long a request waits for its entity.
	requestTimeout = 10 * time.Second
	maxIdemKeyLen  = 255
)

// Limits of the connection, set deliberately on fasthttp (left alone, it
// reads without a deadline and serves 256 K connections). Each is a close
// or a refusal in CONTRACT.md's error body, never fasthttp's plain text.
const (
	// MaxHeaderBytes is fasthttp's ReadBufferSize, the one buffer a
	// connection reads its header through: the request line (the target
	// and its query) and every header line must fit in it together,
	// however many headers there are. A signed request needs under 1 KiB.
	// A bigger header is answered 400 invalid_request ("request header is
	// larger than 4096 bytes"; CONTRACT.md has no 431) and the connection
	// closes. Every open connection holds one such buffer.
	MaxHeaderBytes = 4 << 10
	// DefaultReadTimeout bounds reading one whole request, header and body
	// together: from the accept for a connection's first request, from its
	// first byte for the next ones. A client that trickles its header or
	// its body (slow loris), or sends nothing at all, is answered 400
	// invalid_request ("the request was not received within 10 s") and
	// closed. 10 s still lets the largest body read (readBodyBytes) arrive
	// at 13 KiB/s.
	DefaultReadTimeout = 10 * time.Second
	// writeTimeout bounds writing one answer: a client that stops reading
	// is closed. The CSV export moves it forward before each page.
	writeTimeout = 30 * time.Second
	// DefaultIdleTimeout is how long a keep-alive connection may wait for
	// its next request; then it is closed without an answer. It is longer
	// than the idle timeout of client pools (Go's 90 s), so the client
	// closes first and never sends a request into our close.
	DefaultIdleTimeout = 2 * time.Minute
	// DefaultMaxConns bounds the connections served at once, idle
	// keep-alive ones included. Each holds a goroutine and its buffers:
	// 15 KiB idle (e2e TestTenThousandIdleConnections measured +147 MiB
	// for 10,000), so at most about 240 MiB. fasthttp's ReduceMemoryUsage
	// would make it about 6 KiB for an extra read and pool round trips
	// per request; the cap already bounds the total, so it stays off.
	DefaultMaxConns = 16 << 10
	// busyConns more connections are read, one request each, and answered
	// 503 unavailable ("the service is at capacity", Retry-After: 1,
	// Connection: close): reading the request first means the client gets
	// that answer rather than a reset. Beyond them a connection is closed
	// at once, unanswered.
	busyConns = 1 << 10
	// closeSlack is room in fasthttp's own connection cap (which answers
	// in plain text) for connections already closed and counted out by
	// connLimit whose worker fasthttp has not released yet; connLimit is
	// the cap that holds.
	closeSlack = 1 << 10
)

// errHeaderTooBig answers a request whose header exceeds MaxHeaderBytes.
var errHeaderTooBig = domain.ErrInvalid("request header is larger than %d bytes (request line and headers together)", MaxHeaderBytes)

// Config configures the API server.
type Config struct {
	BasePath string // "/public/v1" (test) or "/v1" (live)
	Clock    func() time.Time
	Logger   *slog.Logger
	// Started is the server's start time; signatures with older
	// timestamps are refused, so the in-memory replay cache needs no disk.
	Started time.Time
	// ServerURL is advertised in the OpenAPI document.
	ServerURL string
	// Chain is the chain the service runs on; nil serves no chain routes
	// (they answer 503) — only unit tests run without one.
	Chain *connect.Chain
	// Desk is the FX desk; nil answers the FX routes 503 (unit tests).
	Desk *fx.Desk
	// Pay is the payments desk; nil answers the payment routes 503 (unit
	// tests).
	Pay *pay.Desk
	// Webhooks is the webhook desk; nil answers the webhook routes 503
	// (unit tests).
	Webhooks *webhook.Desk
	// ReadTimeout, IdleTimeout and MaxConns are the connection limits;
	// zero is DefaultReadTimeout, DefaultIdleTimeout and DefaultMaxConns
	// (fxd serve keeps them; tests shorten them).
	ReadTimeout time.Duration
	IdleTimeout time.Duration
	MaxConns    int
	// Cluster, if set, is the cluster this node is one of: a request for
	// a partition another node leads is forwarded there (cluster.go). Nil:
	// one node, every partition is here.
	Cluster Cluster
	// Node is the cluster node's name, shown by /health ("": one node).
	Node string
	// PublicURL is --public-url as the operator gave it ("": not given):
	// the service as callers reach it, base path included. When set, a
	// SIWE challenge names its host and URL, whatever Host header the
	// request carried (the header is not signed).
	PublicURL string
}

// ParsePublicURL checks --public-url, the service as callers reach it:
// http(s), a host, an optional path (the base path), nothing else. It
// returns the host and the URL without a trailing slash: a SIWE
// challenge's domain and URI.
func ParsePublicURL(raw string) (host, uri string, err error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", "", fmt.Errorf("--public-url %q: want http(s)://host[:port][/base path]", raw)
	}
	return u.Host, strings.TrimSuffix(raw, "/"), nil
}

// Server is the public API.
type Server struct {
	cfg      Config
	engine   *actors.Engine
	router   *router
	table    []route
	limiters *ratelimit.PerKey
	perIP    *ratelimit.PerIP
	replays  *replay.Cache
	// deadlines bounds how long requests wait for their entity (shared
	// per 100 ms slot; deadline.go).
	deadlines *deadlines
	openapi   []byte
	rates     *rates // nil without a chain
	// siweHost and siweURI are a SIWE challenge's domain and URI when
	// Config.PublicURL is set ("": the request's Host).
	siweHost, siweURI string
	fast              *fasthttp.Server
	// conns counts the open connections (connlimit.go).
	conns *connLimit
	// errReadTimeout answers a request not read within ReadTimeout.
	errReadTimeout *domain.Error
	// stats count and time the answers (metrics_http.go); failures logs
	// the 5xx ones (requestid_log.go).
	stats     *httpStats
	failures  *failureLog
	stopSweep chan struct{} // closed by Shutdown
	sweepOnce sync.Once     // one sweeper, however many listeners Serve
	stopOnce  sync.Once
}

// New builds the server over an engine.
func New(cfg Config, e *actors.Engine) (*Server, error) {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Started.IsZero() {
		cfg.Started = cfg.Clock()
	}
	cfg.ReadTimeout = cmp.Or(cfg.ReadTimeout, DefaultReadTimeout)
	cfg.IdleTimeout = cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout)
	cfg.MaxConns = cmp.Or(cfg.MaxConns, DefaultMaxConns)
	s := &Server{
		cfg:            cfg,
		conns:          newConnLimit(int64(cfg.MaxConns), int64(cfg.MaxConns+busyConns), cfg.Logger),
		errReadTimeout: domain.ErrInvalid("the request was not received within %v; send it whole, at once", cfg.ReadTimeout),
		engine:         e,
		limiters:       ratelimit.NewPerKey(ratelimit.DefaultLimits),
		perIP:          ratelimit.NewPerIP(ratelimit.DefaultPerIPLimits),
		replays:        replay.New(replayWindow, maxReplayEntries),
		deadlines:      newDeadlines(requestTimeout),
		stopSweep:      make(chan struct{}),
	}
	if cfg.Chain != nil {
		s.rates = &rates{engine: e, chain: cfg.Chain}
	}
	if cfg.PublicURL != "" {
		var err error
		if s.siweHost, s.siweURI, err = ParsePublicURL(cfg.PublicURL); err != nil {
			return nil, err
		}
	}
	s.table = s.routes()
	for _, rt := range s.table {
		if rt.Handler == nil {
			panic("httpd: route " + rt.Method + " " + rt.Path + " has no handler")
		}
	}
	s.router = newRouter(s.table)
	s.stats = newHTTPStats(s.table)
	s.failures = newFailureLog(cfg.Logger)
	doc, err := buildOpenAPI(s.table, cfg.BasePath, cfg.ServerURL)
	if err != nil {
		return nil, err
	}
	s.openapi = doc
	linkAPI(e, s.stats)
	s.fast = &fasthttp.Server{
		Handler:            s.serve,
		ErrorHandler:       s.readError,
		Name:               "fxd",
		MaxRequestBodySize: readBodyBytes,
		ReadBufferSize:     MaxHeaderBytes,
		Concurrency:        cfg.MaxConns + busyConns + closeSlack,
		ReadTimeout:        cfg.ReadTimeout,
		WriteTimeout:       writeTimeout,
		IdleTimeout:        cfg.IdleTimeout,
		// TCPKeepalive stays off here: Go's listener already turns TCP
		// keep-alive on for every accepted connection (15 s), which finds
		// a vanished peer; MaxConnsPerIP stays unset, since clients behind
		// one proxy share an address (the public routes have a per-IP
		// request limit instead).
		NoDefaultDate:                true,
		NoDefaultContentType:         true,
		DisablePreParseMultipartForm: true,
		// fasthttp's own errors (a malformed request it answers itself)
		// go to the service's JSON log, without the request's bytes, and
		// at most failureLinesPerSecond of them: each malformed request
		// is one, so a flood of them must not become a flood of lines.
		Logger:                &printfLogger{l: cfg.Logger, budget: lineBudget{max: failureLinesPerSecond}},
		SecureErrorLogMessage: true,
	}
	return s, nil
}

// printfLogger is fasthttp's Logger on the service's slog logger, so every
// log line is JSON, within a budget of lines per second (the first line
// admitted after some were left out says how many).
type printfLogger struct {
	l      *slog.Logger
	budget lineBudget
}

func (p *printfLogger) Printf(format string, args ...any) {
	ok, dropped := p.budget.take(time.Now())
	if !ok {
		return
	}
	var attrs []any
	if dropped > 0 {
		attrs = append(attrs, "lines_left_out", dropped)
	}
	p.l.Warn("http: "+fmt.Sprintf(format, args...), attrs...)
}

// Serve serves on the listener until Shutdown.
func (s *Server) Serve(ln net.Listener) error {
	s.sweepOnce.Do(func() { go s.sweepLimiters() })
	return s.fast.Serve(s.conns.listen(ln))
}

// Shutdown stops accepting and waits for open requests.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopOnce.Do(func() {
		close(s.stopSweep)
		unlinkAPI(s.engine, s.stats)
	})
	return s.fast.ShutdownWithContext(ctx)
}

// limiterSweep is how often the rate limiters of keys idle for a window
// are dropped: a pass costs about 50 ns a limiter held.
const limiterSweep = 10 * time.Second

// sweepLimiters drops the rate limiters of keys idle for a window, so a
// key that stopped calling costs only its directory entry.
func (s *Server) sweepLimiters() {
	t := time.NewTicker(limiterSweep)
	defer t.Stop()
	for {
		select {
		case <-s.stopSweep:
			return
		case <-t.C:
			s.limiters.Sweep(s.cfg.Clock().UnixNano())
		}
	}
}

// Handler serves one request as the listener does: in-process benchmarks
// call it, and a cluster node's forward.Responder runs the requests
// forwarded to it through it.
func (s *Server) Handler() fasthttp.RequestHandler { return s.serve }

// readError answers requests fasthttp could not read (it closes the
// connection after): an oversized body is the contract's 413; an
// oversized header, a request not read within ReadTimeout and anything
// else malformed are 400 invalid_request, each with its own message. No
// route saw them: they count as unmatched, answered at once.
func (s *Server) readError(ctx *fasthttp.RequestCtx, err error) {
	setRequestID(&ctx.Response.Header)
	var small *fasthttp.ErrSmallBuffer
	switch {
	case errors.Is(err, fasthttp.ErrBodyTooLarge):
		writeError(ctx, errBodyTooBig)
	case errors.As(err, &small):
		writeError(ctx, errHeaderTooBig)
	case errors.Is(err, os.ErrDeadlineExceeded) && muteIfUnheard(ctx):
		// A connection that never sent a byte asked nothing: it is closed
		// unanswered, as an idle keep-alive one is. An answer would be
		// unsolicited, and a client putting its first request on the
		// connection at that moment would read it as that request's.
		return
	case errors.Is(err, os.ErrDeadlineExceeded):
		writeError(ctx, s.errReadTimeout)
	default:
		writeError(ctx, domain.ErrInvalid("malformed HTTP request"))
	}
	s.answered(ctx, -1, 0)
}

// serve answers one request: a fresh Request-Id first (so every answer
// has one, whichever step writes it), then the pipeline, then the
// answer's count and latency, and a log line if it failed.
func (s *Server) serve(ctx *fasthttp.RequestCtx) {
	// fasthttp stamps each request just before calling the handler; an
	// in-process caller (the benchmarks) may not.
	start := ctx.Time()
	if start.IsZero() {
		start = time.Now()
	}
	setRequestID(&ctx.Response.Header)
	i := -1
	if busy(ctx) {
		refuseBusy(ctx)
	} else {
		i = s.dispatch(ctx)
	}
	s.answered(ctx, i, time.Since(start))
}

// answered counts the answer in route i's metrics row (i < 0: no route
// matched) and logs it, with its Request-Id, if the server failed it
// (5xx). A streamed body is never read back.
func (s *Server) answered(ctx *fasthttp.RequestCtx, i int, took time.Duration) {
	row := s.stats.row(i, ctx.Method())
	status := ctx.Response.StatusCode()
	row.observe(status, took)
	if status >= 500 {
		var body []byte
		if !ctx.Response.IsBodyStream() {
			body = ctx.Response.Body()
		}
		s.failures.failed("request failed", answerRequestID(ctx), string(ctx.Method()), row.route, status, body, took)
	}
}

// rawPath is the request's path as sent (without the query), which is
// what it is routed by: the request is signed over its raw target, and a
// path that reaches a record through "..", "//" or an escaped character
// is no route, not the route fasthttp's normalized Path resolves it to.
func rawPath(ctx *fasthttp.RequestCtx) []byte {
	return ctx.Request.URI().PathOriginal()
}

// dispatch is the pipeline of every request: route, then (for
// authenticated routes) auth, rate limit, scope, then the handler. It
// returns the route's index in the table, -1 when none matched.
func (s *Server) dispatch(ctx *fasthttp.RequestCtx) int {
	if len(ctx.Request.Body()) > MaxBodyBytes {
		writeError(ctx, errBodyTooBig)
		return -1
	}
	path := rawPath(ctx)
	base := s.cfg.BasePath
	if len(path) < len(base) || string(path[:len(base)]) != base {
		writeError(ctx, errNoRoute)
		return -1
	}
	rc := reqCtx{ctx: ctx, s: s}
	i := s.router.match(string(ctx.Method()), path[len(base):], &rc.params)
	if i < 0 {
		writeError(ctx, errNoRoute)
		return -1
	}
	rt := &s.table[i]
	rc.route = rt
	if s.cfg.Cluster != nil && s.forwarded(ctx, rt, &rc.params) {
		return i
	}
	if rt.Scope == 0 {
		if s.allowIP(ctx) {
			s.run(&rc)
		}
		return i
	}
	if !s.engine.Ready() {
		writeError(ctx, errRecovering)
		return i
	}
	now := s.cfg.Clock()
	if err := s.authenticate(&rc, now); err != nil {
		if err.Code == domain.CodeStaleTimestamp {
			ctx.Response.Header.Set("SVC-Server-Time", strconv.FormatInt(now.Unix(), 10))
		}
		writeError(ctx, err)
		return i
	}
	key := rc.key
	if !s.rateLimit(ctx, key.ID, rt, now) {
		return i
	}
	if rt.Scope != scopeAny && key.Scopes&rt.Scope == 0 {
		writeError(ctx, &domain.Error{Status: 403, Code: domain.CodeInsufficientScope,
			Message: "this key lacks the " + rt.Scope.String() + " scope"})
		return i
	}
	s.run(&rc)
	return i
}

// run calls the route's handler.
func (s *Server) run(rc *reqCtx) { rc.route.Handler(rc) }
