package httpd

import (
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/forward"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/reqsig"
	"github.com/valyala/fasthttp"
)

// Cluster is what the server needs of the cluster it runs in (DESIGN.md,
// "Beyond one machine": Routing).
type Cluster interface {
	// Leads reports whether this node owns partition p now.
	Leads(p int) bool
	// TookUp is when this node last took partition p up (zero if never):
	// the replay cache holds nothing older for p's keys, so signatures
	// stamped before it are refused (Server.signedFloor).
	TookUp(p int) time.Time
	// Forward passes the request to p's owner and writes its answer into
	// ctx; a non-nil error is the answer instead (forward.Forwarder).
	Forward(ctx *fasthttp.RequestCtx, p int) *domain.Error
}

// errMoved answers a forwarded request for a partition this node no longer
// leads: it is never forwarded again (one hop), the client retries.
var errMoved = &domain.Error{Status: 503, Code: domain.CodeUnavailable,
	Message: "this account is moving between nodes; retry shortly", RetryAfter: 1}

// forwarded handles a request whose partition another node leads: it
// forwards a client's request there (and writes the owner's answer), and
// refuses a forwarded one. It reports whether it answered; false: the
// request is served here.
//
// A request is routed by the key that signs it (a key lives in its
// account's partition), a public request by the record id in its path;
// one that names neither (GET /health) or names a malformed one (answered
// 401 or 404 wherever it runs) is served here.
func (s *Server) forwarded(ctx *fasthttp.RequestCtx, rt *route, ps *params) bool {
	p, ok := requestPartition(ctx, rt, ps)
	if !ok || s.cfg.Cluster.Leads(p) {
		return false
	}
	if forward.IsForwarded(ctx) {
		writeError(ctx, errMoved)
		return true
	}
	if e := s.cfg.Cluster.Forward(ctx, p); e != nil {
		writeError(ctx, e)
	}
	return true
}

// requestPartition is the partition that owns a request.
func requestPartition(ctx *fasthttp.RequestCtx, rt *route, ps *params) (int, bool) {
	if rt.Scope != 0 {
		return ids.Partition(string(ctx.Request.Header.Peek(reqsig.HeaderKey)))
	}
	if id := ps.get("id"); id != "" {
		return ids.Partition(id)
	}
	return 0, false
}

// WriteError writes a contract error as every answer of the API does
// (forward.Responder's refusals).
func WriteError(ctx *fasthttp.RequestCtx, e *domain.Error) { writeError(ctx, e) }
