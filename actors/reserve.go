package actors

import (
	"context"
	"encoding/json"

	"github.com/fxd-labs/fxd/domain"
)

// Reserve draws the id of a new record of kind k: under the request's key
// through the account (ReserveID), else fresh. An empty id means the
// account answered out (422 key reused, 409 in flight, 404).
func (e *Engine) Reserve(ctx context.Context, acct string, k domain.Kind, idem *domain.IdemRequest) (string, domain.Outcome, error) {
	if idem == nil {
		if _, err := e.AccountInfo(ctx, acct); err != nil {
			return "", domain.Outcome{}, err
		}
		return e.NewID(k.Prefix(), acct), domain.Outcome{}, nil
	}
	key := *idem
	key.Scope += domain.ReserveSuffix
	out, err := e.Exec(ctx, acct, domain.Request{Cmd: domain.ReserveID{Prefix: k.Prefix()}, Idem: &key})
	if err != nil || out.Reply.Status != 200 {
		return "", out, err
	}
	var r domain.ReservedID
	if err := json.Unmarshal(out.Reply.Body, &r); err != nil || r.ID == "" {
		panic("actors: reserved id answer unreadable: " + string(out.Reply.Body))
	}
	return r.ID, out, nil
}
