package cluster

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/forward"
	"github.com/fxd-labs/fxd/httpd"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/jslog"
	"github.com/fxd-labs/fxd/natsnode"
	"github.com/fxd-labs/fxd/partlog"
)

// apiNode is one node: its own engine behind its API on loopback, routed
// by a Router over its embedded NATS server.
type apiNode struct {
	nats   *natsnode.Node
	e      *actors.Engine
	url    string
	router *Router
	stop   func()
}

func startAPINode(t *testing.T, n *natsnode.Node, partitions int, live func() []string) *apiNode {
	t.Helper()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	nc, err := n.Connect(nats.MaxReconnects(0))
	require.NoError(t, err)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	// The engine runs on the partition streams, owning what the node leads
	// and following the rest.
	e, err := actors.Open(actors.Config{DataDir: t.TempDir(), Logger: quiet, Partitions: partitions, Handover: true,
		OpenLog: func(p int, opts partlog.Options) (partlog.PartitionLog, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			return jslog.Open(ctx, js, jslog.Config{Stream: StreamName(p), Replicas: 3}, opts)
		}})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	r := &Router{Owner: e, Leaders: NewLeaders(n.Server(), partitions, 20*time.Millisecond),
		Forwarder:    forward.NewForwarder(nc, forward.Config{OwnerWait: 2 * time.Second, RetryEvery: 20 * time.Millisecond}),
		Balancer:     NewBalancer(nc, js, partitions, n.Server().JetStreamIsLeader, live),
		BalanceEvery: 200 * time.Millisecond, Logger: quiet}
	s, err := httpd.New(httpd.Config{BasePath: "/public/v1", Logger: quiet, Started: time.Now().Add(-time.Second), Cluster: r}, e)
	require.NoError(t, err)
	r.Responder = forward.NewResponder(nc, s.Handler(), httpd.WriteError)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(ln) }()
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- r.Run(ctx) }()
	node := &apiNode{nats: n, e: e, url: "http://" + ln.Addr().String(), router: r}
	node.stop = func() {
		cancel()
		require.ErrorIs(t, <-ran, context.Canceled)
		_ = s.Shutdown(context.Background())
		nc.Close()
		_ = e.Close()
	}
	return node
}

// accountLedBy creates accounts on node's engine until one falls in a
// partition node leads, and a key for it; it returns the key. Account ids
// spread over all ids.Partitions (64) while the test runs four, so about
// one account in 64 falls in a partition the node leads: 5,000 tries miss
// with a probability below 1e-30.
func accountLedBy(t *testing.T, node *apiNode) (string, ed25519.PrivateKey, string) {
	t.Helper()
	ctx := context.Background()
	for range 5000 {
		out, err := node.e.CreateAccount(ctx, domain.CreateAccount{Name: "routed", KYC: domain.KYCApproved, Pay: true})
		if errors.Is(err, actors.ErrNotOwner) {
			continue // a partition another node owns (or one of the 60 no stream is for)
		}
		require.NoError(t, err)
		var a struct{ ID string }
		require.NoError(t, json.Unmarshal(out.Reply.Body, &a))
		if p, _ := ids.Partition(a.ID); !node.router.Leads(p) {
			continue
		}
		pub, priv, err := ed25519.GenerateKey(rand.Reader)
		require.NoError(t, err)
		keyID := node.e.NewID("svc_test_", a.ID)
		out, err = node.e.Exec(ctx, a.ID, domain.Request{Cmd: domain.CreateKey{KeyID: keyID, PublicKey: pub, Scopes: domain.ScopeByName("read") | domain.ScopeByName("pay")}})
		require.NoError(t, err)
		require.Equal(t, 201, out.Reply.Status, "%s", out.Reply.Body)
		return keyID, priv, a.ID
	}
	t.Fatal("no account fell in a partition the node leads")
	return "", nil, ""
}

// TestRouterFollowsLeadership: three nodes, four partitions, each node's
// engine on the partition streams. A key of an account held by the node
// leading its partition is answered by that node whichever node the
// client calls, and a write through another node lands there. When that
// node goes, its partition's leadership moves to a survivor, whose engine
// takes the partition up from the stream (it followed it all along), and
// the requests follow: the survivors answer with every acknowledged write.
func TestRouterFollowsLeadership(t *testing.T) {
	const partitions = 4
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := startWithStreams(ctx, t, partitions)
	var gone atomic.Int32 // read by the balancers' goroutines
	gone.Store(-1)
	live := func() []string {
		var out []string
		for i, n := range c.Nodes {
			if int32(i) != gone.Load() {
				out = append(out, n.Name())
			}
		}
		return out
	}
	var nodes []*apiNode
	for _, n := range c.Nodes {
		node := startAPINode(t, n, partitions, live)
		nodes = append(nodes, node)
	}
	defer func() {
		for i, n := range nodes {
			if int32(i) != gone.Load() {
				n.stop()
			}
		}
	}()
	// Balanced: every node leads one or two partitions.
	require.Eventually(t, func() bool {
		total := 0
		for _, n := range nodes {
			k := len(n.router.Leaders.Led())
			if k < 1 || k > 2 {
				return false
			}
			total += k
		}
		return total == partitions
	}, time.Minute, 20*time.Millisecond)

	owner := nodes[1]
	keyID, priv, acct := accountLedBy(t, owner)
	// The owner refuses signatures stamped before it took the key's
	// partition up (balancing just moved it): sign from the second after.
	p, _ := ids.Partition(keyID)
	time.Sleep(time.Until(owner.router.TookUp(p).Truncate(time.Second).Add(time.Second)))
	var contacts []string
	for i, n := range nodes {
		cl, err := client.New(n.url, keyID, priv)
		require.NoError(t, err)
		got, err := cl.Do(ctx, "POST", "/public/v1/contacts", fmt.Appendf(nil, `{"name":"via node %d","address":"0x%040x"}`, i, i+1), nil)
		require.NoError(t, err)
		require.Equal(t, 201, got.Status, "via %s: %s", n.url, got.Body)
		var c struct{ ID string }
		require.NoError(t, json.Unmarshal(got.Body, &c))
		contacts = append(contacts, c.ID)
	}
	for i, n := range nodes {
		cl, err := client.New(n.url, keyID, priv)
		require.NoError(t, err)
		// _r (which the server ignores) keeps the three clients' signatures
		// apart within one second.
		got, err := cl.Do(ctx, "GET", fmt.Sprintf("/public/v1/account?_r=n%d", i), nil, nil)
		require.NoError(t, err)
		require.Equal(t, 200, got.Status, "via %s: %s", n.url, got.Body)
		require.Contains(t, string(got.Body), acct)
	}

	gone.Store(1)
	owner.stop()
	owner.nats.Shutdown()
	for i, n := range []*apiNode{nodes[0], nodes[2]} {
		cl, err := client.New(n.url, keyID, priv)
		require.NoError(t, err)
		var body []byte
		require.Eventually(t, func() bool {
			got, err := cl.Do(ctx, "GET", fmt.Sprintf("/public/v1/contacts?_r=s%d", i), nil, nil)
			if err == nil && got.Status == 200 {
				body = got.Body
			}
			return body != nil
		}, time.Minute, 100*time.Millisecond, "partition %d answered by its new leader via %s", p, n.url)
		for _, id := range contacts {
			require.Contains(t, string(body), id, "an acknowledged contact after the owner died")
		}
	}
	require.True(t, nodes[0].router.Leads(p) != nodes[2].router.Leads(p), "one survivor leads partition %d", p)
}
