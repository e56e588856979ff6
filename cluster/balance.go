package cluster

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// MaxMovesPerRound bounds the step-downs of one Balance round: each moves
// a partition (its requests wait for the election, ~100s of ms), so a
// round moves few and the next one looks again.
const MaxMovesPerRound = 4

// Placement is one partition stream's leader and the replicas that could
// take over ("" leader: an election in progress).
type Placement struct {
	Stream   string
	Leader   string
	Eligible []string // current, online replicas other than the leader
	// Peers are every node holding a replica, the leader included;
	// Settled says the stream has its configured replicas, each current
	// and online (no move under way, none catching up).
	Peers   []string
	Settled bool
}

// Move asks Stream's leader to hand over to To.
type Move struct {
	Stream, To string
}

// plan returns the moves that even out leadership over nodes: while some
// node leads two or more partitions more than another, one partition of
// the node leading most goes to its eligible replica leading fewest.
// A partition moves at most once a plan: its Eligible replicas are those
// of its leader now. (Before, a moved partition joined its new leader's
// list with its old leader's replicas; once the busiest nodes could not
// be relieved, plan "moved" such a partition to the node already holding
// it, which changed nothing, and looped forever: a meta leader stopped
// balancing for good, TestClusterFailover.) Each move takes an index out
// of a list, so plan ends. Deterministic: nodes and streams are taken in
// name order on ties.
func plan(ps []Placement, nodes []string) []Move {
	count := leaderCounts(ps, nodes)
	led := make(map[string][]int) // node → indexes into ps it leads
	for i, p := range ps {
		if _, ok := count[p.Leader]; ok {
			led[p.Leader] = append(led[p.Leader], i)
		}
	}
	var moves []Move
	for {
		from, m, ok := "", relief{}, false
		for _, n := range byLoad(count) {
			if m, ok = relieve(ps, led[n], count); ok {
				from = n
				break
			}
		}
		if !ok {
			return moves
		}
		if m.to == from || ps[m.i].Leader != from {
			panic(fmt.Sprintf("cluster: plan moves %s from %s to %s (leader %s)", ps[m.i].Stream, from, m.to, ps[m.i].Leader))
		}
		moves = append(moves, Move{Stream: ps[m.i].Stream, To: m.to})
		count[from]--
		count[m.to]++
		led[from] = slices.DeleteFunc(led[from], func(i int) bool { return i == m.i })
	}
}

// unevenLeadership says why leadership stays uneven after plan found no
// move, "" when it is even and every node holding a replica is up: a node
// leading two or more fewer than another that holds no current replica
// of a busier node's partition, and nodes holding replicas that the meta
// leader does not count as up. The router logs it when it changes, so a
// node that never becomes eligible is visible in the log.
func unevenLeadership(ps []Placement, nodes []string) string {
	count := leaderCounts(ps, nodes)
	down := map[string]bool{}
	for _, p := range ps {
		for _, n := range p.Peers {
			if _, up := count[n]; !up {
				down[n] = true
			}
		}
	}
	var why []string
	if order := byLoad(count); len(order) > 0 && count[order[0]]-count[order[len(order)-1]] >= 2 {
		led := make([]string, len(order))
		for i, n := range order {
			led[i] = fmt.Sprintf("%s %d", n, count[n])
		}
		why = append(why, fmt.Sprintf("leadership uneven (%s) and no partition can move: no node leading fewer holds a current replica of one",
			strings.Join(led, ", ")))
	}
	if len(down) > 0 {
		why = append(why, "nodes holding replicas but not up for the meta leader: "+strings.Join(slices.Sorted(maps.Keys(down)), ", "))
	}
	return strings.Join(why, "; ")
}

// leaderCounts is the number of partitions each node that is up leads
// (0 for one that leads none).
func leaderCounts(ps []Placement, nodes []string) map[string]int {
	count := make(map[string]int, len(nodes))
	for _, n := range nodes {
		count[n] = 0
	}
	for _, p := range ps {
		if _, ok := count[p.Leader]; ok {
			count[p.Leader]++
		}
	}
	return count
}

// byLoad lists the nodes leading most first (by name on a tie).
func byLoad(count map[string]int) []string {
	out := make([]string, 0, len(count))
	for n := range count {
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b string) int {
		if d := count[b] - count[a]; d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out
}

type relief struct {
	i  int
	to string
}

// relieve picks, among the partitions idx (led by one node), the first
// with an eligible replica leading at least two fewer, and that replica.
func relieve(ps []Placement, idx []int, count map[string]int) (relief, bool) {
	for _, i := range idx {
		from := count[ps[i].Leader]
		to := ""
		for _, n := range ps[i].Eligible {
			c, known := count[n]
			if known && n != ps[i].Leader && c <= from-2 && (to == "" || c < count[to] || c == count[to] && n < to) {
				to = n
			}
		}
		if to != "" {
			return relief{i: i, to: to}, true
		}
	}
	return relief{}, false
}

// Balancer evens out partition leadership; the JetStream meta leader runs
// it (Round does nothing elsewhere, so two nodes never move the same
// partition two ways).
type Balancer struct {
	nc         *nats.Conn
	js         jetstream.JetStream
	partitions int
	isMeta     func() bool
	nodes      func() []string
	// step is what the round under way is doing (Step), for the log line
	// of a round that takes long.
	step atomic.Pointer[string]
}

// Step says what the round under way is doing, or did last.
func (b *Balancer) Step() string {
	if s := b.step.Load(); s != nil {
		return *s
	}
	return "no round yet"
}

// at records the round's step.
func (b *Balancer) at(step string) { b.step.Store(&step) }

// NewBalancer balances partitions 0..partitions-1. isMeta reports whether
// this node is the meta leader now; nodes lists the cluster's nodes
// that are up (by server name).
func NewBalancer(nc *nats.Conn, js jetstream.JetStream, partitions int, isMeta func() bool, nodes func() []string) *Balancer {
	return &Balancer{nc: nc, js: js, partitions: partitions, isMeta: isMeta, nodes: nodes}
}

// RoundMoves is what one balancing round asked JetStream for, and why it
// left leadership or the replicas uneven if it did (Waiting, "" otherwise).
type RoundMoves struct {
	Meta     bool // this node was the meta leader: the round balanced
	Leaders  []Move
	Replicas []Evacuate
	Waiting  string
}

// Round reads every partition stream's placement and asks for at most
// MaxMovesPerRound of plan's moves; when leadership is even it evens out
// the replicas (planSpread: a node added to the cluster holds none). It
// does nothing on a node that is not the meta leader.
func (b *Balancer) Round(ctx context.Context) (RoundMoves, error) {
	var rm RoundMoves
	b.at("asking whether this node is the meta leader")
	if !b.isMeta() {
		b.at("not the meta leader")
		return rm, nil
	}
	rm.Meta = true
	b.at("reading the placements")
	ps, unread := b.placements(ctx)
	if unread == b.partitions {
		return rm, fmt.Errorf("cluster: no partition stream's placement could be read")
	}
	b.at("asking the meta leader which nodes are up")
	nodes := b.nodes()
	b.at("planning leadership moves")
	if rm.Leaders = plan(ps, nodes); len(rm.Leaders) > MaxMovesPerRound {
		rm.Leaders = rm.Leaders[:MaxMovesPerRound]
	}
	for _, m := range rm.Leaders {
		b.at("stepping " + m.Stream + " down to " + m.To)
		if err := b.stepDown(ctx, m); err != nil {
			return rm, err
		}
	}
	if len(rm.Leaders) > 0 {
		return rm, nil
	}
	b.at("planning replica moves")
	rm.Replicas, rm.Waiting = planSpread(ps, nodes)
	if why := unevenLeadership(ps, nodes); why != "" {
		rm.Waiting = strings.TrimSuffix(why+"; "+rm.Waiting, "; ")
	}
	for _, ev := range rm.Replicas {
		b.at("evacuating " + ev.Stream + " from " + ev.Peer)
		if err := b.evacuate(ctx, ev); err != nil {
			return rm, err
		}
	}
	return rm, nil
}

// placements reads every partition stream's placement (streamInfos). A
// stream whose placement cannot be read (its info request unanswered while
// its leader is elected or a replica moves: up to requestTimeout) is
// returned with no leader and unsettled, so the round moves nothing of it
// and spreads no replica, and goes on with the others; unread counts
// them. Before, one such stream failed the whole round, and the 64 reads,
// one after another, took up to 5 s each: a node added to the cluster
// waited minutes for its first partition.
func (b *Balancer) placements(ctx context.Context) (ps []Placement, unread int) {
	names := make([]string, b.partitions)
	for p := range names {
		names[p] = StreamName(p)
	}
	infos := streamInfos(ctx, b.js, names, requestTimeout)
	ps = make([]Placement, len(names))
	for i, info := range infos {
		if info == nil {
			ps[i] = Placement{Stream: names[i]}
			unread++
			continue
		}
		ps[i] = placementOf(names[i], info)
	}
	return ps, unread
}

// placementOf is one stream's leader and eligible replicas, from its info.
func placementOf(stream string, info *jetstream.StreamInfo) Placement {
	pl := Placement{Stream: stream}
	if info.Cluster == nil {
		return pl
	}
	pl.Leader = info.Cluster.Leader
	if pl.Leader != "" {
		pl.Peers = append(pl.Peers, pl.Leader)
	}
	for _, r := range info.Cluster.Replicas {
		pl.Peers = append(pl.Peers, r.Name)
		if eligible(r) {
			pl.Eligible = append(pl.Eligible, r.Name)
		}
	}
	pl.Settled = pl.Leader != "" && len(pl.Peers) == info.Config.Replicas && len(pl.Eligible) == len(pl.Peers)-1
	return pl
}

// replicaSeenWithin is how recently a replica must have answered its
// stream leader to be handed leadership. The leader heartbeats every
// second; JetStream still calls a replica current for 10 s after its last
// answer, and its meta leader does not count a node down that died
// without a goodbye (kill -9) until its orphan sweep. A round run in
// those seconds asked a dead node to lead: the stream's raft then chose
// another live replica, a needless move, and the dead node still counted
// as leading none.
const replicaSeenWithin = 3 * time.Second

// eligible says whether replica r may take its stream's leadership now:
// current, online, a member of the group, and heard from recently.
func eligible(r *jetstream.PeerInfo) bool {
	return r.Current && !r.Offline && !r.Pending && r.Active <= replicaSeenWithin
}

// stepDown asks m.Stream's leader to hand over to m.To (the JetStream API
// takes a preferred server since nats-server 2.11).
func (b *Balancer) stepDown(ctx context.Context, m Move) error {
	return jsRequest(ctx, b.nc, "$JS.API.STREAM.LEADER.STEPDOWN."+m.Stream,
		map[string]any{"placement": map[string]string{"preferred": m.To}}, fmt.Sprintf("step down %s to %s", m.Stream, m.To))
}
