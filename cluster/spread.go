package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Evacuate asks JetStream to move Stream's replica off Peer: the meta
// leader places a new replica on a node without one, lets it catch up,
// then drops Peer's (the stream keeps its replicas meanwhile).
type Evacuate struct {
	Stream, Peer string
}

// planSpread returns one replica move that evens out how many partition
// replicas each node holds, when some node holds two or more than
// another (a node added to the cluster holds none): a replica of the node
// holding most, from a stream the node holding fewest lacks, and never
// the leader's (its partition would stop for an election). Nothing moves
// while any stream is not settled: a move under way, or a replica
// catching up, is waited for, so moves go one at a time. Deterministic:
// nodes and streams in name order on ties.
func planSpread(ps []Placement, nodes []string) (Evacuate, bool) {
	count := make(map[string]int, len(nodes))
	for _, n := range nodes {
		count[n] = 0
	}
	for _, p := range ps {
		if !p.Settled {
			return Evacuate{}, false
		}
		for _, n := range p.Peers {
			if _, live := count[n]; live {
				count[n]++
			}
		}
	}
	order := byLoad(count) // most first
	if len(order) < 2 {
		return Evacuate{}, false
	}
	most, fewest := order[0], order[len(order)-1]
	if count[most]-count[fewest] < 2 {
		return Evacuate{}, false
	}
	for _, p := range ps {
		if p.Leader != most && slices.Contains(p.Peers, most) && !slices.Contains(p.Peers, fewest) {
			return Evacuate{Stream: p.Stream, Peer: most}, true
		}
	}
	return Evacuate{}, false
}

// evacuate sends ev to JetStream ($JS.API.STREAM.PEER.EVACUATE; the meta
// leader answers).
func (b *Balancer) evacuate(ctx context.Context, ev Evacuate) error {
	req, err := json.Marshal(map[string]string{"peer": ev.Peer})
	if err != nil {
		return fmt.Errorf("cluster: evacuate %s from %s: %w", ev.Stream, ev.Peer, err)
	}
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	msg, err := b.nc.RequestWithContext(ctx, "$JS.API.STREAM.PEER.EVACUATE."+ev.Stream, req)
	if err != nil {
		return fmt.Errorf("cluster: evacuate %s from %s: %w", ev.Stream, ev.Peer, err)
	}
	return apiAnswer(msg.Data, fmt.Sprintf("evacuate %s from %s", ev.Stream, ev.Peer))
}

// apiAnswer reads a JetStream API answer: success, or its error.
func apiAnswer(data []byte, what string) error {
	var resp struct {
		Success bool `json:"success"`
		Error   *struct {
			Code        int    `json:"code"`
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &resp); err != nil {
		return fmt.Errorf("cluster: %s: answer %q: %w", what, data, err)
	}
	if resp.Error != nil {
		return fmt.Errorf("cluster: %s: %d %s", what, resp.Error.Code, resp.Error.Description)
	}
	if !resp.Success {
		return errors.New("cluster: " + what + ": not done")
	}
	return nil
}
