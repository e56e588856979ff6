package webhook

import (
	"context"
	"fmt"

	"github.com/fxd-labs/fxd/actors"
)

// followOwnership makes the desk drive, on a cluster node, the endpoints,
// events and deliveries of the partitions the node owns, and only those
// (actors.TakeUps):
//
// A part taken up has its endpoints indexed before its entities run, so
// the first event fanned out there sees every endpoint of its account.
// Its pending deliveries and unfanned events are resumed once it runs. A
// part given up leaves the index; the drivers let go of its records when
// they next look at them (jobs.Config Owned), and closeDone then closes
// the senders left with nothing.
func (d *Desk) followOwnership(e *actors.Engine) *actors.TakeUps {
	var f *actors.TakeUps
	f = e.FollowOwnership(actors.TakeUp{Name: "webhook desk", Logger: d.cfg.Logger,
		Index: func(part int) {
			if _, err := d.loadEndpoints(func(id string) bool { return d.e.PartOf(id) == part }); err != nil {
				// The store failing ends the process (snapshot.OpenFatal);
				// until then, say so: this part's events may miss an endpoint.
				d.cfg.Logger.Error("webhook endpoints of a partition taken up not loaded", "part", part, "err", err.Error())
			}
		},
		LetGo: d.dropEndpoints,
		Resume: func(parts map[int]bool) error {
			ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
			defer cancel()
			if _, err := d.resume(ctx, func(id string) bool { return f.In(parts, id) }); err != nil {
				return fmt.Errorf("webhook: resume deliveries: %w", err)
			}
			return d.sweepFanOut()
		}})
	return f
}

// dropEndpoints takes the endpoints of part out of the index.
func (d *Desk) dropEndpoints(part int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, ep := range d.endpoints {
		if d.e.PartOf(id) == part {
			delete(d.endpoints, id)
			d.byAccount[ep.Account] = remove(d.byAccount[ep.Account], id)
			if len(d.byAccount[ep.Account]) == 0 {
				delete(d.byAccount, ep.Account)
			}
		}
	}
}
