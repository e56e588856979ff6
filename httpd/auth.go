package httpd

import (
	"crypto/ed25519"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/replay"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/reqsig"
	"github.com/valyala/fasthttp"
)

// authenticate checks the three SVC headers of SPEC.md "Authentication":
// a known, unrevoked key; a timestamp within ±30 s of now and not before
// this process started (nor, in a cluster, before it took the key's
// partition up); an Ed25519 signature of the canonical string; and a
// signature never accepted before. Checks run cheapest first, and only a
// verified signature is remembered, so junk cannot fill the replay cache.
// On success it sets rc.key, and for a write rc.guard when another
// process may accept its signature too (see guardFor).
func (s *Server) authenticate(rc *reqCtx, now time.Time) *domain.Error {
	key, ts, floor, err := s.checkHeaders(rc.ctx, now)
	if err != nil {
		return err
	}
	var sig [ed25519.SignatureSize]byte
	if err := s.checkSignature(rc.ctx, key, ts, now, &sig); err != nil {
		return err
	}
	rc.key = key
	if rc.route.Method != "GET" { // a read replayed acts on nothing
		rc.guard = guardFor(&sig, ts, now, floor)
	}
	return nil
}

// signatureGuard is a signature another process may accept too (guardFor):
// the write it makes stores it until until, or only looks for it.
type signatureGuard struct {
	sig      [ed25519.SignatureSize]byte
	until    time.Time
	lookOnly bool
}

// guardFor is the guard of a signature stamped ts, accepted at now by a
// process whose replay cache holds everything since floor (signedFloor),
// or nil. The replay cache lives in memory: a process started later (or a
// partition's next owner) refuses only timestamps before its own floor.
//   - Stamped after now: a later process would accept it until the window
//     closes, so the write it makes stores it in the log (IdemRequest.Until),
//     and its second use is refused wherever it arrives.
//   - Stamped before floor plus the window: a process before floor may
//     have accepted it, stamped ahead of its own clock, and stored its
//     guard; the write looks for it and stores nothing (no later process
//     accepts it).
//
// A client whose clock is right signs with a second that has begun, so
// after the first 30 s of a process its requests carry no guard.
func guardFor(sig *[ed25519.SignatureSize]byte, ts int64, now, floor time.Time) *signatureGuard {
	stamped := time.Unix(ts, 0)
	ahead := stamped.After(now)
	if !ahead && !stamped.Before(floor.Add(FreshnessWindow)) {
		return nil
	}
	return &signatureGuard{sig: *sig, until: stamped.Add(FreshnessWindow + time.Second), lookOnly: !ahead}
}

// checkSignature verifies the signature of the request and remembers it
// (a second use is 401 replayed).
func (s *Server) checkSignature(ctx *fasthttp.RequestCtx, key actors.KeyAuth, ts int64, now time.Time, sig *[ed25519.SignatureSize]byte) *domain.Error {
	h := &ctx.Request.Header
	if !reqsig.DecodeSignature(sig, h.Peek(reqsig.HeaderSignature)) {
		return authFailed("SVC-SIGNATURE must be base64 of a 64-byte Ed25519 signature")
	}
	if !reqsig.VerifyDecoded(key.PublicKey[:], h.Peek(reqsig.HeaderTimestamp), ctx.Method(), h.RequestURI(), ctx.Request.Body(), sig) {
		return authFailed("signature does not match the request")
	}
	fresh, err := s.replays.Remember(sig, ts, now.Unix())
	switch {
	case err == replay.ErrFull:
		return &domain.Error{Status: 503, Code: domain.CodeUnavailable, Message: "too many signed requests in flight; retry shortly", RetryAfter: 1}
	case err != nil:
		return &domain.Error{Status: 401, Code: domain.CodeStaleTimestamp, Message: "SVC-TIMESTAMP is outside the freshness window"}
	case !fresh:
		return domain.ErrReplayed()
	}
	return nil
}

// checkHeaders checks what comes before the signature: the headers are
// there, the key is known and not revoked, the timestamp is well formed,
// fresh and not before the key's floor (signedFloor), which it returns.
func (s *Server) checkHeaders(ctx *fasthttp.RequestCtx, now time.Time) (actors.KeyAuth, int64, time.Time, *domain.Error) {
	h := &ctx.Request.Header
	keyID := h.Peek(reqsig.HeaderKey)
	tsRaw := h.Peek(reqsig.HeaderTimestamp)
	if len(keyID) == 0 || len(tsRaw) == 0 || len(h.Peek(reqsig.HeaderSignature)) == 0 {
		return actors.KeyAuth{}, 0, time.Time{}, authFailed("missing SVC-API-KEY, SVC-TIMESTAMP or SVC-SIGNATURE header")
	}
	key, ok := s.engine.Directory().Get(string(keyID))
	if !ok || key.Revoked {
		return actors.KeyAuth{}, 0, time.Time{}, authFailed("unknown or revoked API key")
	}
	ts, ok := reqsig.ParseTimestamp(tsRaw)
	if !ok {
		return key, 0, time.Time{}, authFailed("SVC-TIMESTAMP must be unix seconds")
	}
	if d := now.Unix() - ts; d > int64(FreshnessWindow/time.Second) || -d > int64(FreshnessWindow/time.Second) {
		return key, ts, time.Time{}, &domain.Error{Status: 401, Code: domain.CodeStaleTimestamp,
			Message: "SVC-TIMESTAMP is more than 30 s from server time (see SVC-Server-Time)"}
	}
	floor, tookOver := s.signedFloor(keyID)
	if time.Unix(ts, 0).Before(floor) {
		msg := "SVC-TIMESTAMP is before the server started; sign again with a fresh timestamp"
		if tookOver {
			msg = "SVC-TIMESTAMP is before this node took the account over; sign again with a fresh timestamp"
		}
		return key, ts, floor, &domain.Error{Status: 401, Code: domain.CodeStaleTimestamp, Message: msg}
	}
	return key, ts, floor, nil
}

// signedFloor is the earliest instant a signature may be stamped with:
// the process's start, or in a cluster the moment this node took the
// key's partition up if later. Its replay cache holds nothing older, so
// an older signature could have been accepted by a process (or a
// partition's previous owner) whose cache is gone. CONTRACT.md: "after a
// restart it refuses timestamps earlier than its own start time" (serve
// starts at the next whole second, so no timestamp of the previous
// process's last second passes). tookOver says the take-up is the floor.
func (s *Server) signedFloor(keyID []byte) (floor time.Time, tookOver bool) {
	floor = s.cfg.Started
	if s.cfg.Cluster == nil {
		return floor, false
	}
	if p, ok := ids.Partition(string(keyID)); ok {
		if took := s.cfg.Cluster.TookUp(p); took.After(floor) {
			return took, true
		}
	}
	return floor, false
}
