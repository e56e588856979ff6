package httpd

import (
	"errors"
	"log/slog"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/valyala/fasthttp"
)

// connLimit is the cap on open connections (Config.MaxConns). fasthttp's
// own cap answers the connection over it in plain text before reading its
// request, and the close that follows can reset the connection before the
// client reads even that; so the cap is kept here, and the connections
// over it are marked busy, read one request each and answered in the
// contract's body (refuseBusy). Past maxBusy, a connection is closed at
// once, unanswered.
type connLimit struct {
	max, maxBusy int64
	open         atomic.Int64
	logger       *slog.Logger
	lastLog      atomic.Int64 // unix seconds of the last warning
}

func newConnLimit(max, maxBusy int64, logger *slog.Logger) *connLimit {
	return &connLimit{max: max, maxBusy: maxBusy, logger: logger}
}

// listen returns ln counted by l. A server serves one listener at a time
// through l (fxd serve has one), so the count is the server's.
func (l *connLimit) listen(ln net.Listener) net.Listener {
	return &limitedListener{Listener: ln, l: l}
}

type limitedListener struct {
	net.Listener
	l *connLimit
}

// Accept counts every connection it returns (the count drops when the
// connection closes) and marks the ones over the cap busy. A shortage of
// descriptors or memory is waited out (as net/http does), never returned:
// fasthttp takes any accept error but a timeout for the listener's end
// and stops serving, so a flood that exhausted RLIMIT_NOFILE would
// otherwise end the server.
func (ll *limitedListener) Accept() (net.Conn, error) {
	l := ll.l
	var wait time.Duration
	for {
		c, err := ll.Listener.Accept()
		if err != nil {
			if !resourceShortage(err) {
				return nil, err
			}
			wait = min(max(2*wait, 5*time.Millisecond), time.Second)
			l.logOnce("http: accept is short of descriptors or memory; waiting", "err", err.Error(), "open", l.open.Load())
			time.Sleep(wait)
			continue
		}
		wait = 0
		n := l.open.Add(1)
		if n > l.max {
			l.logOnce("http: at the connection limit; new connections are answered 503 or closed", "open", n, "max_conns", l.max)
		}
		if n > l.maxBusy {
			l.open.Add(-1)
			_ = c.Close()
			continue
		}
		return &countedConn{Conn: c, l: l, busy: n > l.max}, nil
	}
}

// resourceShortage reports whether an accept failed for want of
// descriptors or kernel memory: a passing state, not the listener's end.
func resourceShortage(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.ENOBUFS) || errors.Is(err, syscall.ENOMEM)
}

// logOnce logs a warning at most once a minute (whichever comes first of
// the listener's warnings): a flood must not become a flood of lines.
func (l *connLimit) logOnce(msg string, args ...any) {
	now := time.Now().Unix()
	last := l.lastLog.Load()
	if now-last >= 60 && l.lastLog.CompareAndSwap(last, now) {
		l.logger.Warn(msg, args...)
	}
}

// countedConn is a connection counted by its connLimit until closed.
type countedConn struct {
	net.Conn
	l      *connLimit
	busy   bool
	closed atomic.Bool
	// heard: the peer has sent a byte; mute: writes are dropped (see
	// Server.readError). Both belong to the goroutine serving the
	// connection, which does all its reads and writes.
	heard, mute bool
}

// Read notes that the peer has spoken.
func (c *countedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.heard = true
	}
	return n, err
}

// Write drops what is written to a muted connection.
func (c *countedConn) Write(p []byte) (int, error) {
	if c.mute {
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// muteIfUnheard mutes ctx's connection if its peer never sent a byte,
// and reports whether it did.
func muteIfUnheard(ctx *fasthttp.RequestCtx) bool {
	c, ok := ctx.Conn().(*countedConn)
	if !ok || c.heard {
		return false
	}
	c.mute = true
	return true
}

// Close counts the connection out once, however often it is called.
func (c *countedConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.l.open.Add(-1)
	}
	return c.Conn.Close()
}

// busy reports whether the request came on a connection accepted over
// the cap.
func busy(ctx *fasthttp.RequestCtx) bool {
	c, ok := ctx.Conn().(*countedConn)
	return ok && c.busy
}

// refuseBusy answers a request on a busy connection: 503 unavailable,
// Retry-After: 1, and the connection closes after the answer, which
// frees its place.
func refuseBusy(ctx *fasthttp.RequestCtx) {
	writeError(ctx, errBusy)
	ctx.SetConnectionClose()
}
