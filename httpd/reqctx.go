package httpd

import (
	"crypto/sha256"
	"errors"
	"time"
	"unsafe"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/valyala/fasthttp"
)

// handler serves one route.
type handler func(*reqCtx)

// reqCtx is one request on its way through the pipeline.
type reqCtx struct {
	ctx    *fasthttp.RequestCtx
	s      *Server
	route  *route
	key    actors.KeyAuth // zero on public routes
	guard  *signatureGuard
	params params
}

// exec runs a command on the caller's account, with the request's
// Idempotency-Key if it has one, and writes the reply.
func (rc *reqCtx) exec(cmd domain.Command) {
	idem, ok := rc.idem()
	if !ok {
		return
	}
	out, err := rc.s.engine.Exec(rc.s.deadlines.at(time.Now()), rc.key.Account, domain.Request{Cmd: cmd, Idem: idem})
	rc.writeOutcome(out, err)
}

// idem is the write's idempotency identity: its Idempotency-Key, else
// its signature's guard (guardFor), else nil. ok is false when the key is
// malformed and the 400 is written.
func (rc *reqCtx) idem() (*domain.IdemRequest, bool) {
	idem, ok := rc.idemKey()
	if !ok || idem != nil || rc.guard == nil {
		return idem, ok
	}
	return &domain.IdemRequest{
		Scope:    domain.GuardScope(rc.key.ID, rc.route.Method, string(rawPath(rc.ctx)), &rc.guard.sig),
		BodyHash: sha256.Sum256(rc.ctx.Request.Body()),
		Until:    rc.guard.until,
		LookOnly: rc.guard.lookOnly,
	}, true
}

// idemKey reads the Idempotency-Key: nil without one; ok is false when it
// is malformed and the 400 is written.
func (rc *reqCtx) idemKey() (*domain.IdemRequest, bool) {
	raw := rc.ctx.Request.Header.Peek("Idempotency-Key")
	if raw == nil {
		return nil, true
	}
	if !validIdemKey(raw) {
		writeError(rc.ctx, domain.ErrInvalid("Idempotency-Key must be 1 to 255 printable ASCII characters"))
		return nil, false
	}
	return &domain.IdemRequest{
		Scope:    domain.IdemScope(rc.key.ID, rc.route.Method, string(rawPath(rc.ctx)), string(raw)),
		BodyHash: sha256.Sum256(rc.ctx.Request.Body()),
	}, true
}

// writeOutcome writes an entity's answer (marking a replay) or the
// engine's failure.
func (rc *reqCtx) writeOutcome(out domain.Outcome, err error) {
	if err != nil {
		rc.engineError(err)
		return
	}
	if out.Replayed {
		rc.ctx.Response.Header.Set("Idempotency-Replayed", "true")
	}
	writeReply(rc.ctx, out.Reply)
}

// ask answers a query from the caller's account.
func (rc *reqCtx) ask(q domain.Query) {
	r, err := rc.s.engine.Ask(rc.s.deadlines.at(time.Now()), rc.key.Account, q)
	if err != nil {
		rc.engineError(err)
		return
	}
	writeReply(rc.ctx, r)
}

// engineError maps an engine failure to the contract: a missing account
// behind a valid key is treated as a failed authentication (it cannot
// happen unless the operator broke the store), everything else is 503.
func (rc *reqCtx) engineError(err error) {
	switch {
	case errors.Is(err, actors.ErrNoAccount):
		writeError(rc.ctx, errNoSuchAcct)
	case errors.Is(err, actors.ErrNotReady):
		writeError(rc.ctx, errRecovering)
	case errors.Is(err, actors.ErrBusy):
		writeError(rc.ctx, errBusy)
	case errors.Is(err, actors.ErrNotOwner):
		writeError(rc.ctx, errNotOwner)
	default:
		writeError(rc.ctx, errTimeout)
	}
}

// validIdemKey: 1..255 printable ASCII (CONTRACT.md "Idempotency").
func validIdemKey(b []byte) bool {
	if len(b) == 0 || len(b) > maxIdemKeyLen {
		return false
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

// unsafeBytes views a string as bytes for a read-only lookup.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
