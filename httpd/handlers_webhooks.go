package httpd

import (
	"context"
	"errors"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/webhook"
)

// errNoWebhooks answers the webhook routes of a server built without the
// webhook desk (unit tests only; fxd serve always has one).
var errNoWebhooks = domain.ErrUnavailable("webhooks are not configured on this server")

// hookWrite is the shape of the webhook writes (see entityWrite).
func (s *Server) hookWrite(rc *reqCtx, req any, optional bool, run func(context.Context, *domain.IdemRequest) (domain.Outcome, error)) {
	deskWrite(rc, s.cfg.Webhooks != nil, errNoWebhooks, req, optional, run)
}

// hookRead is deskRead for the webhook desk.
func (s *Server) hookRead(rc *reqCtx, what string, read func(context.Context) (any, error)) {
	deskRead(rc, s.cfg.Webhooks != nil, errNoWebhooks, what, read)
}

// deskRead answers a desk's read with the request's deadline: without the
// desk (unit tests) missing; ErrNoEntity is 404 (what names the record);
// []byte is sent as it is (an event, as delivered), anything else as JSON.
func deskRead(rc *reqCtx, configured bool, missing *domain.Error, what string, read func(context.Context) (any, error)) {
	if !configured {
		writeError(rc.ctx, missing)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), requestTimeout)
	defer cancel()
	v, err := read(ctx)
	switch {
	case errors.Is(err, actors.ErrNoEntity):
		writeError(rc.ctx, domain.ErrNotFound(what))
	case err != nil:
		rc.engineError(err)
	default:
		if raw, ok := v.([]byte); ok {
			writeReply(rc.ctx, domain.Reply{Status: 200, Body: raw})
			return
		}
		writeJSON(rc, 200, v)
	}
}

func (s *Server) createWebhook(rc *reqCtx) {
	var req webhook.EndpointRequest
	s.hookWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Webhooks.CreateEndpoint(ctx, rc.key.Account, req, idem)
	})
}

func (s *Server) updateWebhook(rc *reqCtx) {
	var req webhook.EndpointUpdate
	s.hookWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Webhooks.UpdateEndpoint(ctx, rc.key.Account, rc.params.get("id"), req, idem)
	})
}

func (s *Server) deleteWebhook(rc *reqCtx) {
	var req struct{}
	s.hookWrite(rc, &req, true, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Webhooks.DeleteEndpoint(ctx, rc.key.Account, rc.params.get("id"), idem)
	})
}

func (s *Server) testWebhook(rc *reqCtx) {
	var req struct{}
	s.hookWrite(rc, &req, true, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Webhooks.TestEndpoint(ctx, rc.key.Account, rc.params.get("id"), idem)
	})
}

func (s *Server) resendWebhook(rc *reqCtx) {
	var req webhook.ResendRequest
	s.hookWrite(rc, &req, false, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Webhooks.Resend(ctx, rc.key.Account, rc.params.get("id"), req, idem)
	})
}

func (s *Server) rotateWebhookSecret(rc *reqCtx) {
	var req struct{}
	s.hookWrite(rc, &req, true, func(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, error) {
		return s.cfg.Webhooks.RotateSecret(ctx, rc.key.Account, rc.params.get("id"), idem)
	})
}

func (s *Server) getWebhook(rc *reqCtx) {
	s.hookRead(rc, "webhook endpoint", func(ctx context.Context) (any, error) {
		ep, err := s.cfg.Webhooks.Endpoint(ctx, rc.key.Account, rc.params.get("id"))
		if err != nil {
			return nil, err
		}
		return domain.ViewEndpoint(ep), nil
	})
}

// pagedRead is hookRead for a list: the page is checked first (400).
func (s *Server) pagedRead(rc *reqCtx, what string, c cursor, read func(context.Context, domain.Page) (any, error)) {
	page, derr := rc.page(c)
	if derr != nil {
		writeError(rc.ctx, derr)
		return
	}
	s.hookRead(rc, what, func(ctx context.Context) (any, error) { return read(ctx, page) })
}

func (s *Server) listWebhooks(rc *reqCtx) {
	s.pagedRead(rc, "webhook endpoint", endpointCursor, func(ctx context.Context, p domain.Page) (any, error) {
		return s.cfg.Webhooks.ListEndpoints(ctx, rc.key.Account, p)
	})
}

// deliveryQuery is listQuery for GET /webhooks/{id}/deliveries, whose
// starting_after also takes the "<delivery id>:<attempt>" cursor this list
// alone hands out (the webhook desk reads it: see webhook.ListDeliveries).
var deliveryQuery = []param{
	listQuery[0],
	{"starting_after", "string", "next_cursor of the previous page: a delivery id, continuing after that delivery, or \"<delivery id>:<attempt>\", continuing with that delivery's attempts numbered below it"},
}

func (s *Server) listWebhookDeliveries(rc *reqCtx) {
	s.pagedRead(rc, "webhook endpoint", deliveryCursor, func(ctx context.Context, p domain.Page) (any, error) {
		return s.cfg.Webhooks.ListDeliveries(ctx, rc.key.Account, rc.params.get("id"), p)
	})
}

// eventTypeFilter is ?type of GET /events: "" for every type, else a
// known event type.
func eventTypeFilter(rc *reqCtx) (string, *domain.Error) {
	typ, err := rc.filterArg("type")
	if err != nil {
		return "", err
	}
	if typ != "" && !domain.KnownEventType(typ) {
		return "", domain.ErrInvalid("unknown event type %q", typ)
	}
	return typ, nil
}

func (s *Server) listEvents(rc *reqCtx) {
	typ, err := eventTypeFilter(rc)
	if err != nil {
		writeError(rc.ctx, err)
		return
	}
	s.pagedRead(rc, "event", eventCursor, func(ctx context.Context, p domain.Page) (any, error) {
		return s.cfg.Webhooks.ListEvents(ctx, rc.key.Account, typ, p)
	})
}

func (s *Server) getEvent(rc *reqCtx) {
	s.hookRead(rc, "event", func(ctx context.Context) (any, error) {
		return s.cfg.Webhooks.Event(ctx, rc.key.Account, rc.params.get("id"))
	})
}
