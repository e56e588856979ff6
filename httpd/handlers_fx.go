package httpd

import (
	"context"
	"errors"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
)

// errNoDesk answers FX routes of a server built without the FX desk (unit
// tests only; fxd serve always has one).
var errNoDesk = domain.ErrUnavailable("FX is not configured on this server")

// createQuotes is entityWrite's shape, with two savings for the hottest
// write: the answer is appended by fx (QuotesView.AppendJSON, the bytes
// encoding/json would write), and the request shares the deadline context
// of its 100 ms slot, as reads do, instead of a timer of its own (the
// desk waits only for a maker's balance refresh, within its own 250 ms,
// and, under an Idempotency-Key, for the log).
func (s *Server) createQuotes(rc *reqCtx) {
	if s.cfg.Desk == nil {
		writeError(rc.ctx, errNoDesk)
		return
	}
	// Only a key, no signature guard (rc.guard): quotes are offers held
	// in memory, so a signature used again after a restart makes new
	// offers and changes no record; a guard would cost a durable write
	// per quote.
	idem, ok := rc.idemKey()
	if !ok {
		return
	}
	ctx := s.deadlines.at(time.Now())
	// The key's record is looked at before anything is quoted: a replay
	// (or another body, 422) must not ask the makers for offers nobody
	// sees. One still in flight is met by RecordAnswer below (409).
	if idem != nil {
		if out, found, err := s.engine.Answered(ctx, rc.key.Account, idem); err != nil || found {
			rc.writeOutcome(out, err)
			return
		}
	}
	var req fx.QuoteRequest
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &req); err != nil {
		rc.refuseUnder(idem, err)
		return
	}
	reply := domain.Reply{Status: 200}
	if out, err := s.cfg.Desk.Quote(ctx, rc.key.Account, req); err != nil {
		reply = err.Reply()
	} else {
		reply.Body = out.AppendJSON(nil)
	}
	if idem == nil {
		writeReply(rc.ctx, reply)
		return
	}
	// Quotes live in memory, not in the log: under an Idempotency-Key
	// the answer itself is stored in the account, so a replay returns the
	// same quotes (the first answer stored wins a race).
	rc.writeOutcome(s.engine.Exec(ctx, rc.key.Account, domain.Request{Cmd: domain.RecordAnswer{Reply: reply}, Idem: idem}))
}

func (s *Server) acceptQuote(rc *reqCtx) {
	var req fx.AcceptRequest // the body is optional
	deskWrite(rc, s.cfg.Desk != nil, errNoDesk, &req, true, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Desk.Accept(ctx, rc.key.Account, rc.params.get("id"), req, idem)
	})
}

func (s *Server) submitOrder(rc *reqCtx) {
	var req fx.SubmitRequest
	deskWrite(rc, s.cfg.Desk != nil, errNoDesk, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Desk.Submit(ctx, rc.key.Account, rc.params.get("id"), req, idem)
	})
}

// entityWrite is the shape of every write a desk serves: decode the body
// into req (an empty body allowed when optional), read the
// Idempotency-Key, look it up where the route keeps its answers
// (reqCtx.answered: a replay needs no chain), run, and write the entity's
// answer. A body that does not decode is refused where the route keeps
// its key's answers (reqCtx.refuse), so the key's record answers it as it
// answers run.
func entityWrite(rc *reqCtx, req any, optional bool, run func(context.Context, *domain.IdemRequest) (domain.Outcome, error)) {
	if body := rc.ctx.Request.Body(); len(body) > 0 || !optional {
		if err := jsonbody.Decode(body, req); err != nil {
			rc.refuse(err)
			return
		}
	}
	idem, ok := rc.idem()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	if out, found, err := rc.answered(ctx, idem); err != nil || found {
		rc.writeOutcome(out, err)
		return
	}
	out, err := run(ctx, idem)
	if err == nil && keptUnder(idem, out) {
		// The desk refused before any entity decided (no record took the
		// key): under a key that is the handler's answer all the same, kept
		// and looked up where the route keeps its key's answers, as a body
		// that does not decode is.
		rc.refuseUnder(idem, out.Err)
		return
	}
	rc.writeOutcome(out, err)
}

// keptUnder says whether out is a refusal decided before any entity
// (domain.Refuse) to keep under idem: only under an Idempotency-Key (a
// signature guard alone acts on nothing), and never a 503, the service's
// passing state, which asks for the retry (domain.IdemStore stores none
// either).
func keptUnder(idem *domain.IdemRequest, out domain.Outcome) bool {
	return out.Unkept && out.Err != nil && idem != nil && !idem.Guard() && out.Reply.Status != 503
}

func (s *Server) getOrder(rc *reqCtx) {
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	o, err := s.engine.Order(ctx, rc.params.get("id"))
	if errors.Is(err, actors.ErrNoOrder) || err == nil && o.Account != rc.key.Account {
		writeError(rc.ctx, domain.ErrNotFound("order"))
		return
	}
	if err != nil {
		rc.engineError(err)
		return
	}
	writeJSON(rc, 200, domain.ViewOrder(o))
}

func (s *Server) listOrders(rc *reqCtx) {
	s.listRows(rc, domain.KindOrder, orderCursor, func(r domain.Row) any { return domain.ViewOrder(r.(*domain.Order)) })
}
