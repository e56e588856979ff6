package cluster

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/natsnode"
	"github.com/fxd-labs/fxd/natsnode/natstest"
	"github.com/fxd-labs/fxd/partlog"
)

// watched is one node's Leaders, run, with the changes it applied.
type watched struct {
	node    *natsnode.Node
	leaders *Leaders
	mu      sync.Mutex
	held    map[int]bool // what apply was told: the node's own view
	stop    context.CancelFunc
	done    chan struct{}
}

func watch(n *natsnode.Node, partitions int) *watched {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watched{node: n, leaders: NewLeaders(n.Server(), partitions, 20*time.Millisecond),
		held: map[int]bool{}, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		_ = w.leaders.Run(ctx, func(cs []Change) []int {
			w.mu.Lock()
			defer w.mu.Unlock()
			gained := false
			for _, c := range cs {
				if gained && !c.Leads {
					panic("a loss after a gain in one poll")
				}
				gained = gained || c.Leads
				if c.Leads == w.held[c.Partition] {
					panic(fmt.Sprintf("partition %d: told %v twice", c.Partition, c.Leads))
				}
				w.held[c.Partition] = c.Leads
			}
			return nil
		})
	}()
	return w
}

func (w *watched) close() { w.stop(); <-w.done }

// view is the partitions apply was told this node holds, and whether
// Leads agrees for each.
func (w *watched) view() []int {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []int
	for p, h := range w.held {
		if h {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// held reports whether every partition is held by exactly one of ws (by
// apply and by Leads both) and cond holds of the counts per node; if not,
// what it saw.
func held(ws []*watched, partitions int, cond func(counts []int) bool) (bool, string) {
	owners := make([]int, partitions)
	counts := make([]int, len(ws))
	agree := true
	for i, w := range ws {
		v := w.view()
		agree = agree && slices.Equal(v, w.leaders.Led())
		counts[i] = len(v)
		for _, p := range v {
			owners[p]++
		}
	}
	ok := agree && !slices.ContainsFunc(owners, func(k int) bool { return k != 1 }) && cond(counts)
	return ok, fmt.Sprintf("owners per partition %v, partitions per node %v, Leads agrees %v", owners, counts, agree)
}

// settled waits (up to a minute) until held.
func settled(t *testing.T, ws []*watched, partitions int, cond func(counts []int) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ok, saw := held(ws, partitions, cond)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not settled: %s", saw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startWithStreams starts a 3-node cluster and creates the streams of
// partitions 0..partitions-1, three replicas each.
func startWithStreams(ctx context.Context, t *testing.T, partitions int) *natstest.Cluster {
	t.Helper()
	c, err := natstest.StartCluster(t.TempDir(), 3, nil)
	require.NoError(t, err)
	t.Cleanup(c.Shutdown)
	setup, err := c.Nodes[0].Connect()
	require.NoError(t, err)
	defer setup.Close()
	js, err := jetstream.New(setup)
	require.NoError(t, err)
	for p := range partitions {
		l, err := jslog.Open(ctx, js, jslog.Config{Stream: StreamName(p), Replicas: 3}, partlog.Options{})
		require.NoError(t, err)
		require.NoError(t, l.Close())
	}
	return c
}

// TestLeadershipFollowsTheStreams: three nodes, six partition streams of
// three replicas. Each node's Leaders sees exactly the partitions its
// server leads, every partition on one node; Balance evens them out to two
// each; when a node shuts down the two survivors take its partitions over
// and Balance evens them out to three each.
func TestLeadershipFollowsTheStreams(t *testing.T) {
	const partitions = 6
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := startWithStreams(ctx, t, partitions)
	conns := make([]*nats.Conn, len(c.Nodes))
	for i, n := range c.Nodes {
		var err error
		conns[i], err = n.Connect()
		require.NoError(t, err)
		t.Cleanup(conns[i].Close)
	}
	var ws []*watched
	for _, n := range c.Nodes {
		w := watch(n, partitions)
		t.Cleanup(w.close)
		ws = append(ws, w)
	}
	settled(t, ws, partitions, func([]int) bool { return true })

	balance := func(live []int, want, streams int) {
		t.Helper()
		names := func() []string {
			var out []string
			for _, i := range live {
				out = append(out, c.Nodes[i].Name())
			}
			return out
		}
		deadline := time.Now().Add(90 * time.Second)
		for {
			for _, i := range live {
				js, err := jetstream.New(conns[i])
				require.NoError(t, err)
				b := NewBalancer(conns[i], js, streams, c.Nodes[i].Server().JetStreamIsLeader, names)
				if _, err := b.Round(ctx); err != nil {
					t.Logf("balance round on %s: %v", c.Nodes[i].Name(), err) // an election under way
				}
			}
			var lws []*watched
			for _, i := range live {
				lws = append(lws, ws[i])
			}
			ok, saw := held(lws, partitions, func(cs []int) bool { return !slices.ContainsFunc(cs, func(k int) bool { return k != want }) })
			if ok {
				return
			}
			require.True(t, time.Now().Before(deadline), "not balanced to %d each: %s", want, saw)
			time.Sleep(500 * time.Millisecond)
		}
	}
	start := time.Now()
	// One stream more than exist: its placement cannot be read (as when
	// its info request goes unanswered during an election), and the
	// rounds move the others all the same.
	balance([]int{0, 1, 2}, 2, partitions+1)
	t.Logf("balanced 2/2/2 in %s", time.Since(start))

	// The node leading partition 0 goes; the survivors take over.
	gone := slices.IndexFunc(ws, func(w *watched) bool { return w.leaders.Leads(0) })
	require.GreaterOrEqual(t, gone, 0)
	ws[gone].close()
	c.Nodes[gone].Shutdown()
	var live []int
	for i := range c.Nodes {
		if i != gone {
			live = append(live, i)
		}
	}
	start = time.Now()
	balance(live, 3, partitions)
	t.Logf("%s shut down; survivors balanced 3/3 in %s", c.Nodes[gone].Name(), time.Since(start))
}

// TestPollChanges steps one Leaders through polls of a scripted raft
// state: losses come before gains, a gain not taken is offered again, a
// poll without change calls nothing, and a partition the node dropped on
// its own is let go and, while its stream still names this node, taken
// up again in the same poll.
func TestPollChanges(t *testing.T) {
	leading := map[string]bool{}
	l := newLeaders(func(stream string) bool { return leading[stream] }, 3, 0)
	lead := func(ps ...int) {
		clear(leading)
		for _, p := range ps {
			leading[StreamName(p)] = true
		}
	}
	gain, loss := func(p int) Change { return Change{Partition: p, Leads: true} }, func(p int) Change { return Change{Partition: p} }
	steps := []struct {
		name     string
		leads    []int
		drop     []int
		notTaken []int
		want     []Change // nil: apply is not called
		led      []int
	}{
		{name: "two gained, one not taken", leads: []int{0, 2}, notTaken: []int{2}, want: []Change{gain(0), gain(2)}, led: []int{0}},
		{name: "the one not taken is offered again", leads: []int{0, 2}, want: []Change{gain(2)}, led: []int{0, 2}},
		{name: "nothing changed", leads: []int{0, 2}, led: []int{0, 2}},
		{name: "a loss before a gain", leads: []int{1, 2}, want: []Change{loss(0), gain(1)}, led: []int{1, 2}},
		{name: "dropped while still leading: let go, then taken up", leads: []int{1, 2}, drop: []int{1}, want: []Change{loss(1), gain(1)}, led: []int{1, 2}},
		{name: "dropped and no longer leading: one loss", leads: []int{1}, drop: []int{2}, want: []Change{loss(2)}, led: []int{1}},
		{name: "dropped while not led: nothing", leads: []int{1}, drop: []int{0}, led: []int{1}},
		{name: "dropped, not taken up again: offered at the next poll", leads: []int{1}, drop: []int{1}, notTaken: []int{1}, want: []Change{loss(1), gain(1)}, led: nil},
		{name: "then taken", leads: []int{1}, want: []Change{gain(1)}, led: []int{1}},
	}
	for _, s := range steps {
		lead(s.leads...)
		for _, p := range s.drop {
			l.Drop(p)
		}
		var got []Change
		l.poll(func(cs []Change) []int {
			require.NotEmpty(t, cs, s.name)
			got = cs
			return s.notTaken
		})
		require.Equal(t, s.want, got, s.name)
		require.Equal(t, s.led, l.Led(), s.name)
	}

	// Leadership moves away between two polls: Leads still says so until
	// the next poll, LeadsNow at once.
	require.True(t, l.LeadsNow(1))
	lead()
	require.True(t, l.Leads(1), "the poll has not seen it")
	require.False(t, l.LeadsNow(1), "the server no longer leads the stream")
	lead(1)
	require.True(t, l.LeadsNow(1))
	require.False(t, l.LeadsNow(0), "a stream the server leads but the node has not taken up")
	lead(0, 1)
	require.False(t, l.LeadsNow(0))
}
