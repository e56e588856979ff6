package httpd

import (
	"context"
	"errors"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/fx"
)

// idemHome is where a write route keeps the answers of its
// Idempotency-Key: the entity whose store the route's command meets
// first. The route table names it so that a request the handler refuses
// itself, before any entity decides (a body that does not decode or
// validate), is stored in and looked up from that same record: a second
// identical request replays the refusal, and another body under the key
// is 422 whichever of the two came first (CONTRACT.md "Idempotency").
type idemHome uint8

const (
	// idemNone: reads, and the public writes, which take no key.
	idemNone idemHome = iota
	// idemAccount: the caller's account decides the route's command
	// (contacts, wallets) or keeps its answer (quotes). Also
	// POST /webhooks/{id}/resend: the event its body names keeps a valid
	// request's answer, and a body that does not decode names none, so
	// its refusal stays with the account, the route's owner.
	idemAccount
	// idemReserve: a create whose account reserves the new record's id
	// under the key before anything else (actors.Engine.Reserve: the
	// scope with domain.ReserveSuffix), so that record is the first any
	// retry of the create meets.
	idemReserve
	// idemQuoteOrder: the order an accept of quote {id} makes (fx.OrderID),
	// which keeps the accept's answers, refusals included, from
	// before the order exists.
	idemQuoteOrder
	// The entity {id} names, of the kind the route acts on, which
	// decides the route's command.
	idemOrder
	idemTransfer
	idemLink
	idemEndpoint
)

// pathKind is the kind of entity {id} names for a home that is one.
func (h idemHome) pathKind() (domain.Kind, bool) {
	switch h {
	case idemOrder:
		return domain.KindOrder, true
	case idemTransfer:
		return domain.KindTransfer, true
	case idemLink:
		return domain.KindLink, true
	case idemEndpoint:
		return domain.KindEndpoint, true
	}
	return 0, false
}

// answered looks idem up in the route's home before the desk runs
// (actors.Engine.Answered): the stored answer replayed, or 422 for
// another body, found = true. The desks read the chain before their
// entity decides (a submitted tx looked up, a relay pre-flight), so
// without this a replay would wait on the chain, and answer 503 while it
// is away, instead of the stored answer CONTRACT.md promises. Only the
// homes that replay their answers as stored: an order, a transfer, a link
// (the entity {id} names), and the order an accept makes. Not a webhook
// endpoint (its desk reveals a sealed secret in the answer on the way
// out: its own path replays), nor a reserve (the account holds the
// reserved id there, not the answer), nor the account. found is false
// without a key, for a signature guard alone, and where the home does not
// exist yet or holds nothing of the key: run decides as before, and an
// answer still in flight is met there (409).
func (rc *reqCtx) answered(ctx context.Context, idem *domain.IdemRequest) (domain.Outcome, bool, error) {
	if idem == nil || idem.Guard() || rc.route.Idem == idemEndpoint {
		return domain.Outcome{}, false, nil
	}
	id, _, ok := rc.homeEntity()
	if !ok {
		return domain.Outcome{}, false, nil
	}
	out, found, err := rc.s.engine.Answered(ctx, id, idem)
	if errors.Is(err, actors.ErrNoEntity) {
		return domain.Outcome{}, false, nil
	}
	return out, found, err
}

// homeEntity is the entity the route's home is, and its kind: the order
// an accept of quote {id} makes (fx.OrderID), or the entity {id} names
// when it is of the home's kind. ok is false for the homes that are not
// an entity (account, reserve, none) and for a path naming no such id.
func (rc *reqCtx) homeEntity() (id string, kind domain.Kind, ok bool) {
	h := rc.route.Idem
	if h == idemQuoteOrder {
		id, ok = fx.OrderID(rc.params.get("id"))
		return id, domain.KindOrder, ok
	}
	want, ok := h.pathKind()
	if !ok {
		return "", 0, false
	}
	id = rc.params.get("id")
	if k, ok := domain.KindOf(id); !ok || k != want {
		return "", 0, false
	}
	return id, want, true
}

// refuse answers err, a refusal the handler decided before any entity
// did (a body that does not decode or validate). Without an
// Idempotency-Key it is written as it is: nothing ran, so nothing is
// stored, not even a signature guard (a second use of the signature would
// act on nothing either). Under a key it is the handler's answer like any
// other (CONTRACT.md stores every answer once the handler ran), so it
// goes to the route's home (refuseUnder).
func (rc *reqCtx) refuse(err *domain.Error) {
	if idem, ok := rc.idemKey(); ok {
		rc.refuseUnder(idem, err)
	}
}

// refuseUnder answers err under idem (nil: no key) as a RecordAnswer
// decided by the route's home: its store answers first (the stored answer
// replayed, 422 for another body, 409 while one is in flight), else keeps
// err with the key and answers it. Where the home holds nothing of the
// caller's (no such entity, or another account's), there is nowhere to
// keep it and err is answered as it is, as without a key.
func (rc *reqCtx) refuseUnder(idem *domain.IdemRequest, err *domain.Error) {
	if idem == nil {
		writeError(rc.ctx, err)
		return
	}
	rc.writeOutcome(rc.recordRefusal(idem, err))
}

// recordRefusal sends err, as a RecordAnswer under idem, to the entity the
// route's home names, with the scope the route's own command uses there.
func (rc *reqCtx) recordRefusal(idem *domain.IdemRequest, err *domain.Error) (domain.Outcome, error) {
	e, h := rc.s.engine, rc.route.Idem
	ctx := rc.s.deadlines.at(time.Now())
	ans := domain.RecordAnswer{Reply: err.Reply()}
	switch h {
	case idemAccount:
		return e.Exec(ctx, rc.key.Account, domain.Request{Cmd: ans, Idem: idem})
	case idemReserve:
		key := *idem
		key.Scope += domain.ReserveSuffix
		return e.Exec(ctx, rc.key.Account, domain.Request{Cmd: ans, Idem: &key})
	}
	id, k, ok := rc.homeEntity()
	if !ok {
		// No home (a write without one fails
		// TestEveryWriteRouteHasAnIdempotencyHome), or {id} names no
		// entity of its kind: nowhere to keep it.
		return domain.Refuse(err), nil
	}
	if h == idemQuoteOrder {
		// The order the desk's accept meets; created if need be, as the
		// desk creates it to keep a refused accept.
		ans.Kind = k
		return e.Create(ctx, id, domain.Request{Cmd: ans, Idem: idem})
	}
	// A request that never reached a desk writes nothing into an entity
	// that is not the caller's: the refusal is answered as it is.
	if _, rerr := e.Row(ctx, k, id, rc.key.Account); rerr != nil {
		if errors.Is(rerr, actors.ErrNoEntity) {
			return domain.Refuse(err), nil
		}
		return domain.Outcome{}, rerr
	}
	ans.Kind = k
	return e.Exec(ctx, id, domain.Request{Cmd: ans, Idem: idem})
}
