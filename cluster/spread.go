package cluster

import (
	"context"
	"fmt"
	"slices"
)

// Evacuate asks JetStream to move Stream's replica off Peer: the meta
// leader places a new replica on a node without one, lets it catch up,
// then drops Peer's (the stream keeps its replicas meanwhile).
type Evacuate struct {
	Stream, Peer string
}

// planSpread returns the replica moves that even out how many partition
// replicas each node holds, when some node holds two or more than
// another (a node added to the cluster holds none), at most
// MaxMovesPerRound: while that is so, a replica of the node holding most,
// from a stream the node holding fewest lacks and no move touches yet,
// never the leader's (its partition would stop for an election). Nothing
// moves while any stream is not settled: moves under way, or a replica
// catching up, are waited for. Deterministic: nodes and streams in name
// order on ties.
//
// While the replicas are uneven but a stream holds the moves back, it
// says which (for the operator's log) instead.
func planSpread(ps []Placement, nodes []string) ([]Evacuate, string) {
	count := make(map[string]int, len(nodes))
	for _, n := range nodes {
		count[n] = 0
	}
	unsettled := -1
	for i, p := range ps {
		if !p.Settled && unsettled < 0 {
			unsettled = i
		}
		for _, n := range p.Peers {
			if _, live := count[n]; live {
				count[n]++
			}
		}
	}
	if order := byLoad(count); len(order) < 2 || count[order[0]]-count[order[len(order)-1]] < 2 {
		return nil, ""
	}
	if unsettled >= 0 {
		p := ps[unsettled]
		return nil, fmt.Sprintf("replicas uneven, waiting for %s to settle: leader %q, peers %v, current %v", p.Stream, p.Leader, p.Peers, p.Eligible)
	}
	var moves []Evacuate
	moving := map[string]bool{}
	for len(moves) < MaxMovesPerRound {
		order := byLoad(count) // most first
		most, fewest := order[0], order[len(order)-1]
		if count[most]-count[fewest] < 2 {
			break
		}
		i := slices.IndexFunc(ps, func(p Placement) bool {
			return !moving[p.Stream] && p.Leader != most && slices.Contains(p.Peers, most) && !slices.Contains(p.Peers, fewest)
		})
		if i < 0 {
			break
		}
		moves = append(moves, Evacuate{Stream: ps[i].Stream, Peer: most})
		moving[ps[i].Stream] = true
		count[most]--
		count[fewest]++ // where JetStream will likely place it; the next round reads the truth
	}
	return moves, ""
}

// evacuate sends ev to JetStream ($JS.API.STREAM.PEER.EVACUATE; the meta
// leader answers).
func (b *Balancer) evacuate(ctx context.Context, ev Evacuate) error {
	return jsRequest(ctx, b.nc, "$JS.API.STREAM.PEER.EVACUATE."+ev.Stream, map[string]string{"peer": ev.Peer},
		fmt.Sprintf("evacuate %s from %s", ev.Stream, ev.Peer))
}
