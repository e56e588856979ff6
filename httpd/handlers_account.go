package httpd

import (
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/httpd/jsonbody"
)

func (s *Server) getAccount(rc *reqCtx) { rc.ask(domain.GetAccount{}) }

func (s *Server) createContact(rc *reqCtx) {
	var c domain.CreateContact
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &c); err != nil {
		rc.refuse(err)
		return
	}
	rc.exec(c)
}

func (s *Server) listContacts(rc *reqCtx) {
	page, err := rc.page(contactCursor)
	if err != nil {
		writeError(rc.ctx, err)
		return
	}
	rc.ask(domain.ListContacts{Page: page})
}

func (s *Server) getContact(rc *reqCtx) { rc.ask(domain.GetContact{ID: rc.params.get("id")}) }

func (s *Server) updateContact(rc *reqCtx) {
	var c domain.UpdateContact
	if err := jsonbody.Decode(rc.ctx.Request.Body(), &c); err != nil {
		rc.refuse(err)
		return
	}
	c.ID = rc.params.get("id")
	rc.exec(c)
}

func (s *Server) deleteContact(rc *reqCtx) {
	if err := emptyBody(rc.ctx.Request.Body()); err != nil {
		rc.refuse(err)
		return
	}
	rc.exec(domain.DeleteContact{ID: rc.params.get("id")})
}

// page reads ?limit and ?starting_after, which must be one of c's.
func (rc *reqCtx) page(c cursor) (domain.Page, *domain.Error) {
	args := rc.ctx.QueryArgs()
	limit := args.Peek("limit")
	p, err := domain.ParsePage(string(limit), string(args.Peek("starting_after")), args.Has("limit"))
	if err == nil {
		err = c.check(p.StartingAfter)
	}
	return p, err
}

// filterArg is the value of a list's filter parameter, "" when absent. A
// filter given with no value (?type=) is a bad value, 400, as an empty
// limit is: answering the whole unfiltered list would hide a client's
// empty variable.
func (rc *reqCtx) filterArg(name string) (string, *domain.Error) {
	a := rc.ctx.QueryArgs()
	v := a.Peek(name)
	if len(v) == 0 && a.Has(name) {
		return "", domain.ErrInvalid("%s must not be empty", name)
	}
	return string(v), nil
}
