package actors

import (
	"context"
	"encoding/json"

	"github.com/fxd-labs/fxd/domain"
)

// Reserved is the id Reserve drew for a new record.
type Reserved struct {
	ID string
	// Fresh marks an id drawn without a key (or under a signature
	// guard): no request before the one that drew it can know it, and the
	// store holds nothing under it (ids are unique by construction), so
	// CreateReserved spawns the entity without reading the store. An id
	// reserved under a key is not fresh: a retry with the key learns it,
	// and may have created the record.
	Fresh bool
}

// Reserve draws the id of a new record of kind k: under the request's key
// or signature guard through the account (ReserveID), else fresh. An
// empty id means the account answered out (422 key reused, 409 in
// flight, 401 replayed, 404).
func (e *Engine) Reserve(ctx context.Context, acct string, k domain.Kind, idem *domain.IdemRequest) (Reserved, domain.Outcome, error) {
	if idem == nil {
		if _, err := e.AccountInfo(ctx, acct); err != nil {
			return Reserved{}, domain.Outcome{}, err
		}
		return Reserved{ID: e.NewID(k.Prefix(), acct), Fresh: true}, domain.Outcome{}, nil
	}
	key := *idem
	key.Scope += domain.ReserveSuffix
	out, err := e.Exec(ctx, acct, domain.Request{Cmd: domain.ReserveID{Prefix: k.Prefix()}, Idem: &key})
	if err != nil || out.Reply.Status != 200 {
		return Reserved{}, out, err
	}
	var r domain.ReservedID
	if err := json.Unmarshal(out.Reply.Body, &r); err != nil || r.ID == "" {
		panic("actors: reserved id answer unreadable: " + string(out.Reply.Body))
	}
	// A signature guard's reserve answers a second use 401 replayed,
	// never the id: no request can learn it, so it is fresh.
	return Reserved{ID: r.ID, Fresh: idem.Guard()}, out, nil
}

// CreateReserved is Create for an id Reserve drew; a fresh one's entity
// starts empty without a read of the store. In make bench's webhook
// phase that read (a point get and a prefix scan that find nothing, made
// under the registry shard's lock) was 7 % of fxd's CPU.
func (e *Engine) CreateReserved(ctx context.Context, r Reserved, req domain.Request) (domain.Outcome, error) {
	how := mayCreate
	if r.Fresh {
		how = fresh
	}
	return e.exec(ctx, r.ID, req, how)
}
