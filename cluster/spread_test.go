package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"
)

// TestPlanSpread holds the replica plan to its rules.
func TestPlanSpread(t *testing.T) {
	four := []string{"n0", "n1", "n2", "n3"}
	settled := func(stream string, peers ...string) Placement {
		return Placement{Stream: stream, Leader: peers[0], Peers: peers, Eligible: peers[1:], Settled: true}
	}
	// Three streams on n0..n2, as before n3 joined: 3, 3, 3 and 0.
	before := []Placement{settled("S0", "n0", "n1", "n2"), settled("S1", "n1", "n2", "n0"), settled("S2", "n2", "n0", "n1")}
	cases := []struct {
		name  string
		ps    []Placement
		nodes []string
		want  []Evacuate
	}{
		{"a new node: follower replicas of the busiest nodes (by name on a tie) move, one per stream",
			before, four, []Evacuate{{"S1", "n0"}, {"S0", "n1"}}},
		{"even: 3, 3, 3 on three nodes", before, four[:3], nil},
		{"within one: 2, 2, 3, 2", []Placement{settled("S0", "n0", "n1", "n3"), settled("S1", "n1", "n2", "n3"),
			settled("S2", "n2", "n0", "n3")}, four, nil},
		{"a stream not settled (a move under way) holds every move",
			append(before[:2:2], Placement{Stream: "S2", Leader: "n2", Peers: []string{"n2", "n0", "n1"}, Eligible: []string{"n0"}}),
			four, nil},
		{"never the leader's replica: n0 leads all three, so nothing moves",
			[]Placement{settled("S0", "n0", "n1", "n2"), settled("S1", "n0", "n2", "n1"), settled("S2", "n0", "n1", "n2")},
			[]string{"n0", "n3"}, nil},
		{"a dead node's replicas do not count", before, []string{"n1", "n2", "n3"}, []Evacuate{{"S0", "n1"}, {"S1", "n2"}}},
		{"at most MaxMovesPerRound a round", manyOn3(12), four, []Evacuate{{"S1", "n0"}, {"S0", "n1"}, {"S3", "n2"}, {"S2", "n0"}}},
	}
	for _, c := range cases {
		got, _ := planSpread(c.ps, c.nodes)
		require.Equal(t, c.want, got, c.name)
	}
	_, why := planSpread(cases[3].ps, cases[3].nodes)
	require.Contains(t, why, "waiting for S2 to settle", "an unsettled stream holding uneven replicas back is named")
	_, why = planSpread(before, four[:3])
	require.Empty(t, why, "even replicas wait for nothing")
}

// manyOn3 is n settled streams on n0..n2, leadership rotating.
func manyOn3(n int) []Placement {
	three := []string{"n0", "n1", "n2"}
	var ps []Placement
	for i := range n {
		peers := []string{three[i%3], three[(i+1)%3], three[(i+2)%3]}
		ps = append(ps, Placement{Stream: fmt.Sprintf("S%d", i), Leader: peers[0], Peers: peers, Eligible: peers[1:], Settled: true})
	}
	return ps
}

// TestSpreadOntoANewNode: three nodes hold six partition streams; a fourth
// node joins, and balancing rounds on the meta leader move replicas onto
// it, a few streams a round, until every node holds four or five; then
// leadership follows, so the new node leads partitions too.
func TestSpreadOntoANewNode(t *testing.T) {
	const partitions = 6
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	c := startWithStreams(ctx, t, partitions)
	_, err := c.Add()
	require.NoError(t, err)
	names := func() []string {
		var out []string
		for _, n := range c.Nodes {
			out = append(out, n.Name())
		}
		return out
	}
	deadline := time.Now().Add(3 * time.Minute)
	var evacuated int
	for {
		var ps []Placement
		for _, n := range c.Nodes {
			nc, err := n.Connect()
			require.NoError(t, err)
			js, err := jetstream.New(nc)
			require.NoError(t, err)
			b := NewBalancer(nc, js, partitions, n.Server().JetStreamIsLeader, names)
			rm, err := b.Round(ctx)
			if err != nil {
				t.Logf("round on %s: %v", n.Name(), err) // an election or a move under way
			}
			evacuated += len(rm.Replicas)
			if b.isMeta() && ps == nil {
				var unread int
				if ps, unread = b.placements(ctx); unread > 0 {
					ps = nil // an election under way: look again
				}
			}
			nc.Close()
		}
		if done, why := spreadDone(ps, names()); done {
			break
		} else {
			require.True(t, time.Now().Before(deadline), "not spread: %s", why)
		}
		time.Sleep(time.Second)
	}
	require.Greater(t, evacuated, 0, "replicas were moved onto the new node")
}

// spreadDone: every stream settled, replicas per node within one, and
// leadership within one too.
func spreadDone(ps []Placement, nodes []string) (bool, string) {
	if len(ps) == 0 {
		return false, "no placements read"
	}
	replicas, leaders := map[string]int{}, map[string]int{}
	for _, p := range ps {
		if !p.Settled {
			return false, fmt.Sprintf("%s not settled: %+v", p.Stream, p)
		}
		leaders[p.Leader]++
		for _, n := range p.Peers {
			replicas[n]++
		}
	}
	within := func(m map[string]int) bool {
		lo, hi := 1<<30, 0
		for _, n := range nodes {
			lo, hi = min(lo, m[n]), max(hi, m[n])
		}
		return hi-lo <= 1
	}
	if !within(replicas) || !within(leaders) {
		return false, fmt.Sprintf("replicas %v, leaders %v", replicas, leaders)
	}
	return true, ""
}
