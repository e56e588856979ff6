package forward

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/natsnode/natstest"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

// writeErr renders errors as httpd does (status, Retry-After, JSON body).
func writeErr(ctx *fasthttp.RequestCtx, e *domain.Error) {
	r := e.Reply()
	if r.RetryAfter > 0 {
		ctx.Response.Header.Set("Retry-After", fmt.Sprint(r.RetryAfter))
	}
	ctx.SetStatusCode(r.Status)
	ctx.SetContentType("application/json")
	ctx.SetBody(r.Body)
}

// echo answers with what it saw: the request as the owner's handler sees
// it, so a test can compare it with what the client sent.
func echo(ctx *fasthttp.RequestCtx) {
	ctx.Response.Header.Set("X-Seen-Ip", ctx.RemoteIP().String())
	ctx.Response.Header.Set("X-Seen-Forwarded", fmt.Sprint(IsForwarded(ctx)))
	ctx.Response.Header.Set("X-Seen-Sig", string(ctx.Request.Header.Peek("SVC-SIGNATURE")))
	ctx.Response.Header.Set("Set-Cookie", "a=1")
	ctx.Response.Header.Add("X-Twice", "1")
	ctx.Response.Header.Add("X-Twice", "2")
	ctx.SetStatusCode(201)
	ctx.SetContentType("application/json")
	fmt.Fprintf(ctx, "%s %s %s", ctx.Method(), ctx.RequestURI(), ctx.PostBody())
}

// connect starts a standalone NATS node and returns n client connections.
func connect(t *testing.T, n int) []*nats.Conn {
	t.Helper()
	node, err := natstest.StartNode(t.TempDir(), "fwd", nil)
	require.NoError(t, err)
	t.Cleanup(node.Shutdown)
	out := make([]*nats.Conn, n)
	for i := range out {
		nc, err := node.Connect()
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		out[i] = nc
	}
	return out
}

// clientCtx is a request as the entry node's server hands it over.
func clientCtx(method, uri, body string) *fasthttp.RequestCtx {
	var req fasthttp.Request
	req.Header.SetMethod(method)
	req.SetRequestURI(uri)
	req.SetHost("api.example")
	req.Header.Set("SVC-API-KEY", "key_1")
	req.Header.Set("SVC-SIGNATURE", "c2lnbmF0dXJl")
	req.Header.Set("Idempotency-Key", "k-1")
	if body != "" {
		req.Header.SetContentType("application/json")
		req.SetBodyString(body)
	}
	ctx := &fasthttp.RequestCtx{}
	ctx.Init(&req, &net.TCPAddr{IP: net.ParseIP("203.0.113.7"), Port: 5555}, nil)
	return ctx
}

func TestForwardAnswersAsTheOwnerWrote(t *testing.T) {
	cs := connect(t, 2)
	owner := NewResponder(cs[1], echo, writeErr)
	require.NoError(t, owner.Own(7))
	require.NoError(t, cs[1].Flush())
	fw := NewForwarder(cs[0], Config{})

	ctx := clientCtx("POST", "/v1/contacts?x=1", `{"name":"Ada"}`)
	require.Nil(t, fw.Forward(ctx, 7))

	// What the owner's handler wrote for the same request, run here.
	direct := clientCtx("POST", "/v1/contacts?x=1", `{"name":"Ada"}`)
	markForwarded(direct)
	echo(direct)
	var got, want bytes.Buffer
	_, err := ctx.Response.WriteTo(&got)
	require.NoError(t, err)
	_, err = direct.Response.WriteTo(&want)
	require.NoError(t, err)
	require.Equal(t, want.String(), got.String())
	require.Equal(t, 201, ctx.Response.StatusCode())
	require.Equal(t, `POST /v1/contacts?x=1 {"name":"Ada"}`, string(ctx.Response.Body()))
	require.Equal(t, "203.0.113.7", string(ctx.Response.Header.Peek("X-Seen-Ip")))
	require.Equal(t, "true", string(ctx.Response.Header.Peek("X-Seen-Forwarded")))
	require.Equal(t, "c2lnbmF0dXJl", string(ctx.Response.Header.Peek("X-Seen-Sig")))
	require.Equal(t, []int{7}, owner.Owned())
}

func TestForwardAcrossNodes(t *testing.T) {
	cl, err := natstest.StartCluster(t.TempDir(), 2, nil)
	require.NoError(t, err)
	t.Cleanup(cl.Shutdown)
	var conns []*nats.Conn
	for _, n := range cl.Nodes {
		nc, err := n.Connect()
		require.NoError(t, err)
		t.Cleanup(nc.Close)
		conns = append(conns, nc)
	}
	owner := NewResponder(conns[1], echo, writeErr)
	require.NoError(t, owner.Own(3))
	fw := NewForwarder(conns[0], Config{})
	// Interest crosses the route shortly after the subscription: the
	// forwarder's looking for an owner covers that.
	ctx := clientCtx("GET", "/v1/contacts?limit=5", "")
	require.Nil(t, fw.Forward(ctx, 3))
	require.Equal(t, 201, ctx.Response.StatusCode())
	require.Equal(t, "GET /v1/contacts?limit=5 ", string(ctx.Response.Body()))
}

func TestForwardWithoutOwner(t *testing.T) {
	cs := connect(t, 2)
	fw := NewForwarder(cs[0], Config{OwnerWait: 300 * time.Millisecond, RetryEvery: 20 * time.Millisecond})
	ctx := clientCtx("GET", "/v1/accounts/me", "")
	require.Equal(t, errNoOwner, fw.Forward(ctx, 9))

	// An owner that turns up while the request looks for one answers it.
	fw = NewForwarder(cs[0], Config{OwnerWait: 20 * time.Second, RetryEvery: 20 * time.Millisecond})
	var calls atomic.Int32
	owner := NewResponder(cs[1], func(ctx *fasthttp.RequestCtx) { calls.Add(1); echo(ctx) }, writeErr)
	done := make(chan *domain.Error, 1)
	ctx = clientCtx("GET", "/v1/accounts/me", "")
	go func() { done <- fw.Forward(ctx, 9) }()
	time.Sleep(100 * time.Millisecond)
	require.NoError(t, owner.Own(9))
	require.Nil(t, <-done)
	require.Equal(t, 201, ctx.Response.StatusCode())
	require.EqualValues(t, 1, calls.Load())

	// Disowned: nobody answers any more.
	require.NoError(t, owner.Disown(9))
	require.Empty(t, owner.Owned())
	fw = NewForwarder(cs[0], Config{OwnerWait: 300 * time.Millisecond, RetryEvery: 20 * time.Millisecond})
	require.Equal(t, errNoOwner, fw.Forward(clientCtx("GET", "/v1/accounts/me", ""), 9))
	require.EqualValues(t, 1, calls.Load())
}

// A request the owner took is never sent twice, however long its answer
// takes: the owner would refuse the same signature as a replay.
func TestForwardSendsATakenRequestOnce(t *testing.T) {
	cs := connect(t, 2)
	var calls atomic.Int32
	release := make(chan struct{})
	owner := NewResponder(cs[1], func(ctx *fasthttp.RequestCtx) {
		calls.Add(1)
		<-release
		echo(ctx)
	}, writeErr)
	require.NoError(t, owner.Own(1))
	require.NoError(t, cs[1].Flush())
	fw := NewForwarder(cs[0], Config{AnswerWait: 200 * time.Millisecond})
	require.Equal(t, errNoAnswer, fw.Forward(clientCtx("POST", "/v1/contacts", `{}`), 1))
	close(release)
	require.EqualValues(t, 1, calls.Load())
}

func TestResponderRefusals(t *testing.T) {
	cs := connect(t, 2)
	owner := NewResponder(cs[1], func(ctx *fasthttp.RequestCtx) {
		ctx.SetBodyString(strings.Repeat("x", MaxResponse))
	}, writeErr)
	require.NoError(t, owner.Own(2))
	require.NoError(t, cs[1].Flush())
	fw := NewForwarder(cs[0], Config{})

	ctx := clientCtx("GET", "/big", "")
	require.Nil(t, fw.Forward(ctx, 2))
	require.Equal(t, 503, ctx.Response.StatusCode())
	require.Equal(t, "1", string(ctx.Response.Header.Peek("Retry-After")))
	require.JSONEq(t, string(errTooLarge.Reply().Body), string(ctx.Response.Body()))

	// A message that is no HTTP request is refused, not run.
	reply, err := cs[0].Request(Subject(2), []byte("not http"), 5*time.Second)
	require.NoError(t, err)
	var resp fasthttp.Response
	require.NoError(t, decodeResponse(reply.Data, &resp))
	require.Equal(t, 503, resp.StatusCode())
	require.JSONEq(t, string(errGarbled.Reply().Body), string(resp.Body()))
}

// failingReader gives n bytes, then an error (a store failing mid-export).
type failingReader struct{ n int }

func (r *failingReader) Read(b []byte) (int, error) {
	if r.n == 0 {
		return 0, errors.New("store failed")
	}
	k := min(len(b), r.n)
	for i := range b[:k] {
		b[i] = 'y'
	}
	r.n -= k
	return k, nil
}

// A streamed answer (the export) crosses in pieces pulled by the entry
// node: whole and in order when it ends, cut short (an error, never EOF)
// when the owner's body fails; the owner's handler may set deadlines on
// its connection as on a real one.
func TestForwardStreamsAnAnswer(t *testing.T) {
	cs := connect(t, 2)
	big := make([]byte, 5*PieceSize+12345)
	for i := range big {
		big[i] = byte(i * 7 % 251)
	}
	owner := NewResponder(cs[1], func(ctx *fasthttp.RequestCtx) {
		require.NoError(t, ctx.Conn().SetWriteDeadline(time.Now().Add(time.Second)))
		ctx.SetContentType("text/csv")
		switch string(ctx.Path()) {
		case "/export":
			ctx.SetBodyStreamWriter(func(w *bufio.Writer) {
				for off := 0; off < len(big); off += 1000 {
					_, _ = w.Write(big[off:min(off+1000, len(big))])
				}
			})
		case "/failing":
			ctx.SetBodyStream(&failingReader{n: 2*PieceSize + 10}, -1)
		}
	}, writeErr)
	require.NoError(t, owner.Own(5))
	require.NoError(t, cs[1].Flush())
	fw := NewForwarder(cs[0], Config{AnswerWait: 500 * time.Millisecond})

	ctx := clientCtx("GET", "/export", "")
	require.Nil(t, fw.Forward(ctx, 5))
	require.Equal(t, 200, ctx.Response.StatusCode())
	require.Equal(t, "text/csv", string(ctx.Response.Header.ContentType()))
	got, err := io.ReadAll(ctx.Response.BodyStream())
	require.NoError(t, err)
	require.True(t, bytes.Equal(big, got), "%d bytes of %d", len(got), len(big))

	ctx = clientCtx("GET", "/failing", "")
	require.Nil(t, fw.Forward(ctx, 5))
	got, err = io.ReadAll(ctx.Response.BodyStream())
	require.ErrorIs(t, err, errStreamBroken)
	require.Len(t, got, 2*PieceSize, "the whole pieces before the failure")
	require.Eventually(t, func() bool { return len(owner.streams) == 0 }, 5*time.Second, 10*time.Millisecond)
}

// A stream nobody pulls from any more is dropped after the idle time.
func TestAbandonedStreamIsDropped(t *testing.T) {
	cs := connect(t, 2)
	closed := make(chan struct{})
	owner := NewResponder(cs[1], func(ctx *fasthttp.RequestCtx) {
		ctx.SetBodyStreamWriter(func(w *bufio.Writer) {
			defer close(closed)
			for {
				if _, err := w.Write(make([]byte, 64<<10)); err != nil {
					return
				}
				if err := w.Flush(); err != nil {
					return
				}
			}
		})
	}, writeErr)
	owner.streamIdle = 200 * time.Millisecond
	require.NoError(t, owner.Own(6))
	require.NoError(t, cs[1].Flush())
	fw := NewForwarder(cs[0], Config{})
	ctx := clientCtx("GET", "/endless", "")
	require.Nil(t, fw.Forward(ctx, 6))
	_, err := ctx.Response.BodyStream().Read(make([]byte, 10))
	require.NoError(t, err)
	select {
	case <-closed: // the owner let go: its body's writer saw the pipe close
	case <-time.After(10 * time.Second):
		t.Fatal("the abandoned stream was kept")
	}
	require.Eventually(t, func() bool { return len(owner.streams) == 0 }, 5*time.Second, 10*time.Millisecond)
}

// Past MaxInFlight running handlers the owner refuses at once.
func TestResponderBusy(t *testing.T) {
	cs := connect(t, 2)
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(MaxInFlight)
	owner := NewResponder(cs[1], func(ctx *fasthttp.RequestCtx) {
		started.Done()
		<-release
		echo(ctx)
	}, writeErr)
	require.NoError(t, owner.Own(4))
	require.NoError(t, cs[1].Flush())
	fw := NewForwarder(cs[0], Config{})
	answers := make(chan int, MaxInFlight)
	for range MaxInFlight {
		go func() {
			ctx := clientCtx("GET", "/v1/accounts/me", "")
			if e := fw.Forward(ctx, 4); e != nil {
				answers <- e.Status
				return
			}
			answers <- ctx.Response.StatusCode()
		}()
	}
	started.Wait()
	ctx := clientCtx("GET", "/v1/accounts/me", "")
	require.Nil(t, fw.Forward(ctx, 4))
	require.Equal(t, 503, ctx.Response.StatusCode())
	require.JSONEq(t, string(errBusy.Reply().Body), string(ctx.Response.Body()))
	close(release)
	for range MaxInFlight {
		require.Equal(t, 201, <-answers)
	}
}
