package webhook

import (
	"context"
	"time"
)

// takeUpRetry is how often the take-up loop looks again at parts gained
// but not yet running (Own tells the desk just before the part's entities
// run) or whose resume failed.
const takeUpRetry = 200 * time.Millisecond

// ownership is the engine's ownership hook (actors.Engine.AddOwnership): a
// cluster node drives the endpoints, events and deliveries of the
// partitions it owns, and only those.
//
// A part taken up has its endpoints indexed here, before its entities run,
// so the first event fanned out there sees every endpoint of its account.
// Its pending deliveries and unfanned events are resumed by the take-up
// loop, off the handover lock. A part given up leaves the index; the
// drivers let go of its records when they next look at them (jobs.Config
// Owned), and closeDone then closes the senders left with nothing.
func (d *Desk) ownership(part int, owned bool) {
	if !owned {
		d.mu.Lock()
		delete(d.gained, part)
		for id, ep := range d.endpoints {
			if d.e.PartOf(id) == part {
				delete(d.endpoints, id)
				d.byAccount[ep.Account] = remove(d.byAccount[ep.Account], id)
				if len(d.byAccount[ep.Account]) == 0 {
					delete(d.byAccount, ep.Account)
				}
			}
		}
		d.mu.Unlock()
		return
	}
	n, err := d.loadEndpoints(func(id string) bool { return d.e.PartOf(id) == part })
	if err != nil {
		// The store failing ends the process (snapshot.OpenFatal); until
		// then, say so: this part's events may miss an endpoint.
		d.cfg.Logger.Error("webhook endpoints of a partition taken up not loaded", "part", part, "err", err.Error())
	}
	d.mu.Lock()
	d.gained[part] = true
	d.mu.Unlock()
	select {
	case d.takeUps <- struct{}{}:
	default:
	}
	d.cfg.Logger.Debug("webhook endpoints of a partition taken up", "part", part, "endpoints", n)
}

// takeUpLoop resumes the parts gained once their entities run: their
// pending deliveries, and the events not fanned out.
func (d *Desk) takeUpLoop() {
	t := time.NewTicker(takeUpRetry)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-d.takeUps:
		case <-t.C:
		}
		if parts := d.runningGained(); len(parts) > 0 {
			d.takeUp(parts)
		}
	}
}

// runningGained takes out of gained the parts that run now.
func (d *Desk) runningGained() map[int]bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	parts := map[int]bool{}
	for p := range d.gained {
		if d.e.OwnsPart(p) {
			parts[p] = true
			delete(d.gained, p)
		}
	}
	return parts
}

// takeUp resumes parts: one scan of the store for all of them. A failed
// scan puts them back for the next round.
func (d *Desk) takeUp(parts map[int]bool) {
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	want := func(id string) bool { return parts[d.e.PartOf(id)] && d.e.Owns(id) }
	pending, err := d.resume(ctx, want)
	if err == nil {
		err = d.sweepFanOut()
	}
	if err != nil {
		d.cfg.Logger.Error("webhook deliveries of partitions taken up not resumed; retrying", "parts", len(parts), "err", err.Error())
		d.mu.Lock()
		for p := range parts {
			if d.e.OwnsPart(p) {
				d.gained[p] = true
			}
		}
		d.mu.Unlock()
		return
	}
	d.cfg.Logger.Info("webhook deliveries resumed for partitions taken up", "parts", len(parts), "pending_deliveries", pending)
}
