package webhook

import (
	"context"
	"fmt"

	"github.com/fxd-labs/fxd/domain"
)

// fanOut is the fan-out driver's job: the event's deliveries, one per
// endpoint of its account that wants its type, written in one record of
// the event. Disabled endpoints are included: their deliveries wait,
// pending, until the endpoint is enabled again, so a receiver that was
// down misses nothing. A webhook.test event is born fanned out.
func (d *Desk) fanOut(ctx context.Context, wp **domain.WebhookEvent) error {
	w := *wp
	eps := d.matching(w.Account, w.Type)
	ids := make([]string, len(eps))
	for i := range eps {
		ids[i] = d.e.NewID(domain.DeliveryPrefix, w.Account)
	}
	out, err := d.e.Create(ctx, w.ID, domain.Request{Cmd: domain.FanOut{Event: w, Endpoints: eps, DeliveryIDs: ids}})
	if err != nil {
		return fmt.Errorf("webhook: fan out %s: %w", w.ID, err)
	}
	if out.Err != nil {
		return fmt.Errorf("webhook: fan out %s refused: %s: %s", w.ID, out.Err.Code, out.Err.Message)
	}
	// Done: the hook forgot it already if this wrote the fan-out; if the
	// event was fanned out before (a sweep that read a lagging store), no
	// record was written and nothing else would.
	d.fanout.Forget(w.ID)
	return nil
}

// matching lists the live endpoints of acct that want events of type typ,
// in creation order.
func (d *Desk) matching(acct, typ string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, id := range d.byAccount[acct] {
		if ep := d.endpoints[id]; ep != nil && typ != domain.EventWebhookTest && ep.Wants(typ) && len(out) < domain.MaxDeliveriesPerEvent {
			out = append(out, id)
		}
	}
	return out
}
