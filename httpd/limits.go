package httpd

import (
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/ratelimit"
	"github.com/valyala/fasthttp"
)

// rateLimit admits the request against its key's sliding windows and sets
// the X-RateLimit headers of the tightest class on the response (they stay
// on whatever the handler writes next). It answers 429 itself.
func (s *Server) rateLimit(ctx *fasthttp.RequestCtx, keyID string, rt *route, now time.Time) bool {
	d := s.limiters.Allow(unsafeBytes(keyID), now.UnixNano(), ratelimit.ClassFor(rt.Method, rt.Heavy))
	setLimitHeaders(ctx, d)
	if !d.Allowed {
		writeError(ctx, &domain.Error{Status: 429, Code: domain.CodeOverLimit,
			Message: "rate limit exceeded; see Retry-After", RetryAfter: d.RetryAfter})
	}
	return d.Allowed
}

// allowIP applies the unauthenticated routes' 60/min per client address.
func (s *Server) allowIP(ctx *fasthttp.RequestCtx) bool {
	var ip netip.Addr
	if a, ok := ctx.RemoteAddr().(*net.TCPAddr); ok {
		ip, _ = netip.AddrFromSlice(a.IP)
	}
	d := s.perIP.Allow(s.cfg.Clock().UnixNano(), ip.Unmap())
	if !d.Allowed {
		setLimitHeaders(ctx, d)
		writeError(ctx, &domain.Error{Status: 429, Code: domain.CodeOverLimit,
			Message: "rate limit exceeded; see Retry-After", RetryAfter: d.RetryAfter})
	}
	return d.Allowed
}

// The rate-limit header names as CONTRACT.md spells them. SetCanonical
// sends them as they are, where SetBytesV would copy and re-case each name
// on every response (to X-Ratelimit-…; names are case-insensitive).
var (
	limitHeader     = []byte(ratelimit.HeaderLimit)
	remainingHeader = []byte(ratelimit.HeaderRemaining)
	resetHeader     = []byte(ratelimit.HeaderReset)
)

func setLimitHeaders(ctx *fasthttp.RequestCtx, d ratelimit.Decision) {
	var buf [20]byte
	h := &ctx.Response.Header
	h.SetCanonical(limitHeader, strconv.AppendInt(buf[:0], int64(d.Limit), 10))
	h.SetCanonical(remainingHeader, strconv.AppendInt(buf[:0], int64(d.Remaining), 10))
	h.SetCanonical(resetHeader, strconv.AppendInt(buf[:0], d.Reset, 10))
}
