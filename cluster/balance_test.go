package cluster

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/internal/logsink"
)

// everywhere is a placement whose stream every other node may take.
func everywhere(stream, leader string, nodes []string) Placement {
	p := Placement{Stream: stream, Leader: leader}
	for _, n := range nodes {
		if n != leader {
			p.Eligible = append(p.Eligible, n)
		}
	}
	return p
}

// counts applies moves to ps and counts leaders per node.
func counts(ps []Placement, moves []Move, nodes []string) map[string]int {
	leader := map[string]string{}
	for _, p := range ps {
		leader[p.Stream] = p.Leader
	}
	for _, m := range moves {
		leader[m.Stream] = m.To
	}
	out := map[string]int{}
	for _, n := range nodes {
		out[n] = 0
	}
	for _, l := range leader {
		if _, ok := out[l]; ok {
			out[l]++
		}
	}
	return out
}

func TestPlan(t *testing.T) {
	three := []string{"n0", "n1", "n2"}
	four := append(three[:3:3], "n3")
	on := func(nodes []string, leaders ...string) []Placement {
		var ps []Placement
		for i, l := range leaders {
			ps = append(ps, everywhere(fmt.Sprintf("S%d", i), l, nodes))
		}
		return ps
	}
	all := func(leaders ...string) []Placement { return on(three, leaders...) }
	cases := []struct {
		name  string
		ps    []Placement
		nodes []string
		want  []Move
	}{
		{"balanced", all("n0", "n1", "n2", "n0", "n1", "n2"), three, nil},
		{"off by one stays", all("n0", "n0", "n0", "n1", "n1", "n2", "n2"), three, nil},
		{"all on one", all("n0", "n0", "n0", "n0", "n0", "n0"), three,
			[]Move{{"S0", "n1"}, {"S1", "n2"}, {"S2", "n1"}, {"S3", "n2"}}},
		{"a dead node's streams count for nobody", all("n9", "n9", "n0", "n0", "n1", "n2"), three, nil},
		{"elections in progress are left alone", all("", "", "", "n0", "n0", "n0"), three,
			[]Move{{"S3", "n1"}, {"S4", "n2"}}},
		{"only to an eligible replica", []Placement{
			{Stream: "S0", Leader: "n0", Eligible: []string{"n1"}},
			{Stream: "S1", Leader: "n0", Eligible: []string{"n1"}},
			{Stream: "S2", Leader: "n0", Eligible: []string{"n1"}},
			{Stream: "S3", Leader: "n0", Eligible: []string{"n1"}},
		}, three, []Move{{"S0", "n1"}, {"S1", "n1"}}},
		{"a lagging replica is not eligible", []Placement{
			{Stream: "S0", Leader: "n0"},
			{Stream: "S1", Leader: "n0"},
		}, three, nil},
		{"a node that joined takes its share", on(four, "n0", "n0", "n1", "n1", "n2", "n2"), four,
			[]Move{{"S0", "n3"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, plan(c.ps, c.nodes))
		})
	}
}

// Where every replica is eligible, plan ends with each node leading its
// share or one more, whatever the start.
func TestPlanEvensOut(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		nodes := []string{"n0", "n1", "n2", "n3", "n4"}[:2+rng.IntN(4)]
		var ps []Placement
		for i := range 1 + rng.IntN(64) {
			ps = append(ps, everywhere(fmt.Sprintf("S%02d", i), nodes[rng.IntN(len(nodes))], nodes))
		}
		moves := plan(ps, nodes)
		c := counts(ps, moves, nodes)
		lo, hi := len(ps), 0
		for _, n := range nodes {
			lo, hi = min(lo, c[n]), max(hi, c[n])
		}
		require.LessOrEqual(t, hi-lo, 1, "round %d: %v after %v", round, c, moves)
		require.Equal(t, moves, plan(ps, nodes), "deterministic")
	}
}

// unevenLeadership names what keeps leadership uneven once plan has no
// move: a node leading fewer with no current replica of a busier node's
// partition, and nodes holding replicas the meta leader does not count
// as up (the state of a killed node restarted: TestClusterFailover).
func TestUnevenLeadership(t *testing.T) {
	stale := func(stream, leader string, peers ...string) Placement {
		return Placement{Stream: stream, Leader: leader, Peers: append([]string{leader}, peers...)}
	}
	cases := []struct {
		name  string
		ps    []Placement
		nodes []string
		want  string
	}{
		{"even", []Placement{stale("S0", "n0", "n1"), stale("S1", "n1", "n0")}, []string{"n0", "n1"}, ""},
		{"uneven, nothing eligible",
			[]Placement{stale("S0", "n1", "n0"), stale("S1", "n1", "n0"), stale("S2", "n2", "n0")}, []string{"n0", "n1", "n2"},
			"leadership uneven (n1 2, n2 1, n0 0) and no partition can move: no node leading fewer holds a current replica of one"},
		{"a replica holder not up",
			[]Placement{stale("S0", "n1", "n0", "n2"), stale("S1", "n2", "n0", "n1")}, []string{"n1", "n2"},
			"nodes holding replicas but not up for the meta leader: n0"},
		{"both",
			[]Placement{stale("S0", "n1", "n0", "n2"), stale("S1", "n1", "n0", "n2"), stale("S2", "n1", "n3")}, []string{"n1", "n2"},
			"leadership uneven (n1 3, n2 0) and no partition can move: no node leading fewer holds a current replica of one; " +
				"nodes holding replicas but not up for the meta leader: n0, n3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Empty(t, plan(c.ps, c.nodes), "no move: the case is one plan cannot help")
			require.Equal(t, c.want, unevenLeadership(c.ps, c.nodes))
		})
	}
}

// A replica takes leadership only when its stream leader calls it current
// and heard from it within replicaSeenWithin: JetStream calls a replica
// that died without a goodbye current for 10 s more.
func TestEligible(t *testing.T) {
	live := jetstream.PeerInfo{Name: "n0", Current: true, Active: 800 * time.Millisecond}
	cases := []struct {
		name string
		edit func(*jetstream.PeerInfo)
		want bool
	}{
		{"current and heard from", func(*jetstream.PeerInfo) {}, true},
		{"heard from at the bound", func(r *jetstream.PeerInfo) { r.Active = replicaSeenWithin }, true},
		{"silent past the bound (killed)", func(r *jetstream.PeerInfo) { r.Active = replicaSeenWithin + time.Millisecond }, false},
		{"lagging", func(r *jetstream.PeerInfo) { r.Current = false }, false},
		{"offline", func(r *jetstream.PeerInfo) { r.Offline = true }, false},
		{"not yet a member", func(r *jetstream.PeerInfo) { r.Pending = true }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := live
			c.edit(&r)
			require.Equal(t, c.want, eligible(&r))
		})
	}
}

// A round that does not come back is logged while it runs, with the step
// it waits in; it still returns what it found once it does.
func TestRoundStillRunningIsLogged(t *testing.T) {
	defer func(d time.Duration) { roundStuckAfter = d }(roundStuckAfter)
	roundStuckAfter = 20 * time.Millisecond
	release := make(chan struct{})
	b := NewBalancer(nil, nil, ids.Partitions, func() bool { <-release; return false }, func() []string { return nil })
	var log logsink.Buffer
	r := &Router{Balancer: b, Logger: slog.New(slog.NewJSONHandler(&log, nil))}
	type result struct {
		rm  RoundMoves
		err error
	}
	done := make(chan result, 1)
	go func() {
		rm, err := r.round(context.Background(), time.Hour)
		done <- result{rm, err}
	}()
	require.Eventually(t, func() bool {
		return strings.Contains(log.String(), `"msg":"cluster: balancing round still running"`) &&
			strings.Contains(log.String(), `"step":"asking whether this node is the meta leader"`)
	}, 10*time.Second, 5*time.Millisecond)
	close(release)
	res := <-done
	require.NoError(t, res.err)
	require.False(t, res.rm.Meta, "not the meta leader: nothing balanced")
	require.Equal(t, "not the meta leader", b.Step())
}

// The placements of TestClusterFailover's stall: a node restarted after a
// kill leads nothing and is eligible on only a few of one busy node's
// streams. plan moves those few (and evens the other two) and stops; it looped forever before (a
// moved stream was "moved" again to the node it had just gone to).
func TestPlanStopsWhenOnlySomeMovesHelp(t *testing.T) {
	var ps []Placement
	for i := range 56 {
		leader, eligible := "n1", []string{"n2"}
		if i%2 == 1 {
			leader, eligible = "n2", []string{"n1"}
		}
		if i < 6 && leader == "n1" {
			eligible = append(eligible, "n0") // caught up on these only
		}
		ps = append(ps, Placement{Stream: fmt.Sprintf("S%02d", i), Leader: leader, Eligible: eligible})
	}
	moves := planWithin(t, ps, []string{"n0", "n1", "n2"})
	// n0 takes the three it may; n2, then two ahead of n1, gives n1 one.
	require.Equal(t, []Move{{"S00", "n0"}, {"S02", "n0"}, {"S01", "n1"}, {"S04", "n0"}}, moves)
}

// With any replicas eligible, plan ends, moves a stream at most once and
// only to one of its eligible replicas, each move from a node leading at
// least two more than the one it goes to, and never widens the spread.
func TestPlanAnyEligibility(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 500 {
		nodes := []string{"n0", "n1", "n2", "n3"}[:2+rng.IntN(3)]
		var ps []Placement
		for i := range 1 + rng.IntN(64) {
			p := Placement{Stream: fmt.Sprintf("S%02d", i), Leader: nodes[rng.IntN(len(nodes))]}
			for _, n := range nodes {
				if n != p.Leader && rng.IntN(3) > 0 {
					p.Eligible = append(p.Eligible, n)
				}
			}
			ps = append(ps, p)
		}
		moves := planWithin(t, ps, nodes)
		c := leaderCounts(ps, nodes)
		spread := func() int {
			lo, hi := len(ps), 0
			for _, n := range nodes {
				lo, hi = min(lo, c[n]), max(hi, c[n])
			}
			return hi - lo
		}
		before := spread()
		byStream := map[string]Placement{}
		for _, p := range ps {
			byStream[p.Stream] = p
		}
		for _, m := range moves {
			p, ok := byStream[m.Stream]
			require.True(t, ok, "round %d: %s moved twice or unknown", round, m.Stream)
			delete(byStream, m.Stream)
			require.Contains(t, p.Eligible, m.To, "round %d", round)
			require.GreaterOrEqual(t, c[p.Leader]-c[m.To], 2, "round %d: %v", round, m)
			c[p.Leader]--
			c[m.To]++
		}
		require.LessOrEqual(t, spread(), before, "round %d", round)
	}
}

// planWithin runs plan, failing the test if it does not return: its bug
// was a loop that never ended.
func planWithin(t *testing.T, ps []Placement, nodes []string) []Move {
	t.Helper()
	done := make(chan []Move, 1)
	go func() { done <- plan(ps, nodes) }()
	select {
	case moves := <-done:
		return moves
	case <-time.After(10 * time.Second):
		require.FailNow(t, "plan did not return")
		return nil
	}
}
