package httpd

import (
	"context"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
	"github.com/fxd-labs/fxd/pay"
)

// errNoPay answers payment routes of a server built without the payments
// desk (unit tests only; fxd serve always has one).
var errNoPay = domain.ErrUnavailable("payments are not configured on this server")

// payWrite is the shape of the payment writes (see entityWrite).
func (s *Server) payWrite(rc *reqCtx, req any, optional bool, run func(context.Context, *domain.IdemRequest) (domain.Outcome, error)) {
	deskWrite(rc, s.cfg.Pay != nil, errNoPay, req, optional, run)
}

// deskWrite is entityWrite for a desk's route; without the desk (unit
// tests) the route answers missing.
func deskWrite(rc *reqCtx, configured bool, missing *domain.Error, req any, optional bool, run func(context.Context, *domain.IdemRequest) (domain.Outcome, error)) {
	if !configured {
		writeError(rc.ctx, missing)
		return
	}
	entityWrite(rc, req, optional, run)
}

func (s *Server) createTransfer(rc *reqCtx) {
	var req pay.TransferRequest
	s.payWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Pay.CreateTransfer(ctx, rc.key.Account, req, idem)
	})
}

func (s *Server) acceptTransfer(rc *reqCtx) {
	var req struct{} // no fields; an empty body or {}
	s.payWrite(rc, &req, true, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Pay.AcceptTransfer(ctx, rc.key.Account, rc.params.get("id"), idem)
	})
}

func (s *Server) submitTransfer(rc *reqCtx) {
	var req pay.SubmitRequest
	s.payWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Pay.SubmitTransfer(ctx, rc.key.Account, rc.params.get("id"), req, idem)
	})
}

func (s *Server) getTransfer(rc *reqCtx) {
	deskRead(rc, s.cfg.Pay != nil, errNoPay, "transfer", func(ctx context.Context) (any, error) {
		t, err := s.cfg.Pay.Transfer(ctx, rc.key.Account, rc.params.get("id"))
		if err != nil {
			return nil, err
		}
		return domain.ViewTransfer(t), nil
	})
}

func (s *Server) listTransfers(rc *reqCtx) {
	s.listRows(rc, domain.KindTransfer, transferCursor, func(r domain.Row) any { return domain.ViewTransfer(r.(*domain.Transfer)) })
}

// listRows answers a list of the account's records of kind k, newest
// first, a page at a time.
func (s *Server) listRows(rc *reqCtx, k domain.Kind, c cursor, view func(domain.Row) any) {
	page, derr := rc.page(c)
	if derr != nil {
		writeError(rc.ctx, derr)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	// One more than the page says whether there is a next one.
	rows, err := s.engine.AccountRows(ctx, rc.key.Account, k, page.StartingAfter, page.Limit+1)
	if err != nil {
		rc.engineError(err)
		return
	}
	writeJSON(rc, 200, domain.Paginate(rows, domain.Row.RowID, view, domain.Page{Limit: page.Limit}))
}

func (s *Server) createLink(rc *reqCtx) {
	var req pay.LinkRequest
	s.payWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Pay.CreateLink(ctx, rc.key.Account, req, idem)
	})
}

func (s *Server) cancelLink(rc *reqCtx) {
	var req pay.LinkUpdate
	s.payWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Pay.CancelLink(ctx, rc.key.Account, rc.params.get("id"), req, idem)
	})
}

func (s *Server) getLink(rc *reqCtx) {
	s.readLink(rc, rc.key.Account, func(l *domain.Link) any { return domain.ViewLink(l) })
}

func (s *Server) listLinks(rc *reqCtx) {
	now := s.cfg.Clock()
	s.listRows(rc, domain.KindLink, linkCursor, func(r domain.Row) any { return domain.ViewLink(r.(*domain.Link).At(now)) })
}

// getPublicLink is GET /pay/{id}: no key, the payer's view.
func (s *Server) getPublicLink(rc *reqCtx) {
	s.readLink(rc, "", func(l *domain.Link) any { return domain.ViewPublicLink(l) })
}

// readLink answers one link of acct ("" for the public page).
func (s *Server) readLink(rc *reqCtx, acct string, view func(*domain.Link) any) {
	deskRead(rc, s.cfg.Pay != nil, errNoPay, "payment link", func(ctx context.Context) (any, error) {
		l, err := s.cfg.Pay.Link(ctx, acct, rc.params.get("id"))
		if err != nil {
			return nil, err
		}
		return view(l), nil
	})
}

// payLink is POST /pay/{id}/submit: no key and no Idempotency-Key; it is
// idempotent by the transaction (a log counts once).
func (s *Server) payLink(rc *reqCtx) {
	if s.cfg.Pay == nil {
		writeError(rc.ctx, errNoPay)
		return
	}
	var req pay.PaySubmit
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &req); err != nil {
		writeError(rc.ctx, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	rc.writeOutcome(s.cfg.Pay.SubmitPayment(ctx, rc.params.get("id"), req))
}
