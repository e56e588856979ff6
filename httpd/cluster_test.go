package httpd

import (
	"bufio"
	"context"
	"crypto/ed25519"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/forward"
	"github.com/fxd-labs/fxd/ids"
	"github.com/fxd-labs/fxd/natsnode/natstest"
	"github.com/fxd-labs/fxd/reqsig"
)

// testCluster is one node's view of a two-node cluster: it leads the
// partitions lead says and forwards the rest with a real Forwarder.
type testCluster struct {
	lead func(p int) bool
	fw   *forward.Forwarder
	took time.Time // TookUp of every partition
}

func (c *testCluster) Leads(p int) bool     { return c.lead(p) }
func (c *testCluster) TookUp(int) time.Time { return c.took }
func (c *testCluster) Forward(ctx *fasthttp.RequestCtx, p int) *domain.Error {
	return c.fw.Forward(ctx, p)
}

// clusterNode is a node's API on loopback and its responder, which counts
// the forwarded requests it served.
type clusterNode struct {
	url    string
	resp   *forward.Responder
	served atomic.Int64
}

// serveClusterNode serves ta's engine on loopback as a node of a cluster
// (lead says what it leads), forwarding over out and answering forwarded
// requests from in.
func serveClusterNode(t *testing.T, ta *testAPI, lead func(int) bool, out, in *nats.Conn) *clusterNode {
	t.Helper()
	c := &testCluster{lead: lead,
		fw: forward.NewForwarder(out, forward.Config{OwnerWait: 300 * time.Millisecond, RetryEvery: 20 * time.Millisecond})}
	s, err := New(Config{BasePath: "/public/v1", Logger: ta.s.cfg.Logger, Started: ta.s.cfg.Started, Cluster: c}, ta.e)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Shutdown(context.Background()) })
	n := &clusterNode{url: "http://" + ln.Addr().String()}
	h := s.Handler()
	n.resp = forward.NewResponder(in, func(ctx *fasthttp.RequestCtx) { n.served.Add(1); h(ctx) }, WriteError)
	return n
}

// TestClusterRouting: two nodes on one embedded NATS server; B leads every
// partition, A none. A client of an account B holds, calling A (which has
// never heard of its key), is answered by B: a read, an idempotent write
// and its replay under the key, the replay rule for one signed request
// sent twice, a public page by the id in its path. A answers its own
// unrouted routes; a request forwarded to a node that does not lead is
// refused, never forwarded again; a partition nobody answers for is 503
// with Retry-After.
func TestClusterRouting(t *testing.T) {
	node, err := natstest.StartNode(t.TempDir(), "routing", nil)
	require.NoError(t, err)
	t.Cleanup(node.Shutdown)
	conn := func() *nats.Conn {
		nc, err := node.Connect()
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		return nc
	}
	b := newTestAPI(t)
	keyID, priv := b.key(t, "read,pay")
	p, ok := ids.Partition(keyID)
	require.True(t, ok)
	nodeB := serveClusterNode(t, b, func(int) bool { return true }, conn(), conn())
	nodeA := serveClusterNode(t, newTestAPI(t), func(int) bool { return false }, conn(), conn())
	urlA, respB := nodeA.url, nodeB.resp
	require.NoError(t, respB.Own(p))

	ctx := context.Background()
	viaA, err := client.New(urlA, keyID, priv)
	require.NoError(t, err)
	viaB, err := client.New(nodeB.url, keyID, priv)
	require.NoError(t, err)

	// A read: B's account, through A.
	got, err := viaA.Do(ctx, "GET", "/public/v1/account", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, got.Status, "%s", got.Body)
	require.Contains(t, string(got.Body), b.acct)

	// A write and its replays under the key, through A and straight at B:
	// the same answer, byte for byte.
	body := []byte(`{"name":"Ada","address":"0x00000000000000000000000000000000000000aa"}`)
	key := map[string]string{"Idempotency-Key": "route-1"}
	first, err := viaA.Do(ctx, "POST", "/public/v1/contacts", body, key)
	require.NoError(t, err)
	require.Equal(t, 201, first.Status, "%s", first.Body)
	for i, c := range []*client.Client{viaA, viaB} {
		if i == 1 {
			nextSecond()
		}
		again, err := c.Do(ctx, "POST", "/public/v1/contacts", body, key)
		require.NoError(t, err)
		require.Equal(t, first.Status, again.Status)
		require.Equal(t, string(first.Body), string(again.Body))
		require.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
	}

	// The export streams across (its body pulled piece by piece): the same
	// bytes as straight from B.
	exA, err := viaA.Do(ctx, "GET", "/public/v1/transactions/export", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, exA.Status, "%s", exA.Body)
	require.Equal(t, "text/csv", exA.Header.Get("Content-Type"))
	nextSecond()
	exB, err := viaB.Do(ctx, "GET", "/public/v1/transactions/export", nil, nil)
	require.NoError(t, err)
	require.Equal(t, string(exB.Body), string(exA.Body))
	require.Contains(t, string(exA.Body), strings.Join(domain.LedgerCSVHeader[:], ","))

	// One signed request sent twice through A: the owner remembers it.
	raw := signedRaw(keyID, priv, "GET", "/public/v1/contacts", nil)
	require.Equal(t, 200, sendRaw(t, urlA, raw).StatusCode())
	second := sendRaw(t, urlA, raw)
	require.Equal(t, 401, second.StatusCode())
	require.Contains(t, string(second.Body()), domain.CodeReplayed)

	// A public page goes by its id's partition to B (whose test server
	// has no payments desk); routes of no partition are A's own.
	served := nodeB.served.Load()
	link := ids.Raw{8: byte(p)}.Format("pl_")
	pub, err := viaA.DoUnsigned(ctx, "GET", "/public/v1/pay/"+link, nil, nil)
	require.NoError(t, err)
	require.Equal(t, 503, pub.Status, "%s", pub.Body)
	require.Contains(t, string(pub.Body), "payments are not configured")
	require.Equal(t, served+1, nodeB.served.Load())
	health, err := viaA.DoUnsigned(ctx, "GET", "/public/v1/health", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, health.Status)
	require.Equal(t, served+1, nodeB.served.Load())

	// B's responder delivered to A (which leads nothing): refused, not
	// sent on.
	respA := serveClusterNode(t, newTestAPI(t), func(int) bool { return false }, conn(), conn()).resp
	require.NoError(t, respB.Disown(p))
	require.NoError(t, respA.Own(p))
	moved, err := viaA.Do(ctx, "GET", "/public/v1/account", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 503, moved.Status)
	require.JSONEq(t, string(errMoved.Reply().Body), string(moved.Body))

	// Nobody answers for the partition: 503 with Retry-After.
	require.NoError(t, respA.Disown(p))
	none, err := viaA.Do(ctx, "GET", "/public/v1/account", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 503, none.Status)
	require.Equal(t, "1", none.Header.Get("Retry-After"))
	require.Contains(t, string(none.Body), domain.CodeUnavailable)
}

// nextSecond waits for the next second: two clients of one key signing
// the same request within one second send the same signature (a replay).
func nextSecond() { time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second))) }

// signedRaw is one signed request as it goes on the wire.
func signedRaw(keyID string, priv ed25519.PrivateKey, method, target string, body []byte) []byte {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := reqsig.Sign(priv, ts, method, target, body)
	head := method + " " + target + " HTTP/1.1\r\nHost: fxd\r\n" +
		reqsig.HeaderKey + ": " + keyID + "\r\n" + reqsig.HeaderTimestamp + ": " + ts + "\r\n" +
		reqsig.HeaderSignature + ": " + sig + "\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n"
	return append([]byte(head), body...)
}

// sendRaw sends raw bytes to the server at url and reads one answer.
func sendRaw(t *testing.T, url string, raw []byte) *fasthttp.Response {
	t.Helper()
	c, err := net.Dial("tcp", url[len("http://"):])
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write(raw)
	require.NoError(t, err)
	var resp fasthttp.Response
	require.NoError(t, resp.Read(bufio.NewReader(c)))
	return &resp
}
