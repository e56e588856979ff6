package httpd

import (
	"crypto/ed25519"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/replay"
	"github.com/fxd-labs/fxd/reqsig"
	"github.com/valyala/fasthttp"
)

// authenticate checks the three SVC headers of SPEC.md "Authentication":
// a known, unrevoked key; a timestamp within ±30 s of now and not before
// this process started; an Ed25519 signature of the canonical string; and a
// signature never accepted before. Checks run cheapest first, and only a
// verified signature is remembered, so junk cannot fill the replay cache.
func (s *Server) authenticate(ctx *fasthttp.RequestCtx, now time.Time) (actors.KeyAuth, *domain.Error) {
	h := &ctx.Request.Header
	keyID := h.Peek(reqsig.HeaderKey)
	tsRaw := h.Peek(reqsig.HeaderTimestamp)
	sigRaw := h.Peek(reqsig.HeaderSignature)
	if len(keyID) == 0 || len(tsRaw) == 0 || len(sigRaw) == 0 {
		return actors.KeyAuth{}, authFailed("missing SVC-API-KEY, SVC-TIMESTAMP or SVC-SIGNATURE header")
	}
	key, ok := s.engine.Directory().Get(string(keyID))
	if !ok || key.Revoked {
		return actors.KeyAuth{}, authFailed("unknown or revoked API key")
	}
	ts, ok := reqsig.ParseTimestamp(tsRaw)
	if !ok {
		return actors.KeyAuth{}, authFailed("SVC-TIMESTAMP must be unix seconds")
	}
	nowS := now.Unix()
	if d := nowS - ts; d > int64(FreshnessWindow/time.Second) || -d > int64(FreshnessWindow/time.Second) {
		return actors.KeyAuth{}, &domain.Error{Status: 401, Code: domain.CodeStaleTimestamp,
			Message: "SVC-TIMESTAMP is more than 30 s from server time (see SVC-Server-Time)"}
	}
	if ts < s.cfg.Started.Unix() {
		return actors.KeyAuth{}, &domain.Error{Status: 401, Code: domain.CodeStaleTimestamp,
			Message: "SVC-TIMESTAMP is before the server started; sign again with a fresh timestamp"}
	}
	var sig [ed25519.SignatureSize]byte
	if !reqsig.DecodeSignature(&sig, sigRaw) {
		return actors.KeyAuth{}, authFailed("SVC-SIGNATURE must be base64 of a 64-byte Ed25519 signature")
	}
	if !reqsig.VerifyDecoded(key.PublicKey[:], tsRaw, ctx.Method(), ctx.Request.Header.RequestURI(), ctx.Request.Body(), &sig) {
		return actors.KeyAuth{}, authFailed("signature does not match the request")
	}
	fresh, err := s.replays.Remember(&sig, ts, nowS)
	switch {
	case err == replay.ErrFull:
		return actors.KeyAuth{}, &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "too many signed requests in flight; retry shortly", RetryAfter: 1}
	case err != nil:
		return actors.KeyAuth{}, &domain.Error{Status: 401, Code: domain.CodeStaleTimestamp, Message: "SVC-TIMESTAMP is outside the freshness window"}
	case !fresh:
		return actors.KeyAuth{}, &domain.Error{Status: 401, Code: domain.CodeReplayed, Message: "this signed request was already accepted; sign each request anew"}
	}
	return key, nil
}
