package webhook

import "github.com/fxd-labs/fxd/domain"

// StateStats are the gauges of the endpoints in one state, for /metrics.
type StateStats struct {
	// Endpoints in the state.
	Endpoints int
	// Backlog is the pending deliveries held in memory for them; a
	// spilled endpoint has more waiting in the store.
	Backlog int
	// Failing counts those whose latest attempts failed (a consecutive
	// failure count above zero); Failures sums those counts.
	Failing, Failures int
}

// StatsByState reads the endpoint gauges by endpoint state: "enabled",
// "disabled", and "deleted" for the deliveries of deleted endpoints still
// being abandoned (its Endpoints is always 0).
func (d *Desk) StatsByState() map[string]StateStats {
	out := map[string]StateStats{domain.EndpointEnabled: {}, domain.EndpointDisabled: {}, domain.EndpointDeleted: {}}
	type held struct {
		s     *sender
		state string
	}
	d.mu.Lock()
	for _, ep := range d.endpoints {
		st := out[ep.State]
		st.Endpoints++
		if ep.Failures > 0 {
			st.Failing++
			st.Failures += ep.Failures
		}
		out[ep.State] = st
	}
	senders := make([]held, 0, len(d.senders))
	for id, s := range d.senders {
		state := domain.EndpointDeleted
		if ep := d.endpoints[id]; ep != nil {
			state = ep.State
		}
		senders = append(senders, held{s, state})
	}
	d.mu.Unlock()
	// A sender's counts take its driver's lock: read them outside the
	// desk's, as Stats does.
	for _, h := range senders {
		st := out[h.state]
		st.Backlog += h.s.drv.Len()
		out[h.state] = st
	}
	return out
}
