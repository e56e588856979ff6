package httpd

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/cputime"
	"github.com/fxd-labs/fxd/reqsig"
	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"
)

// benchKey is an API key of the in-process server benchmarks.
type benchKey struct {
	id   string
	priv ed25519.PrivateKey
}

// benchServer is a real engine (log with fsync, Pebble) behind a real
// Server, driven without a network: what remains is the server's own work.
type benchServer struct {
	s    *Server
	e    *actors.Engine
	keys []benchKey
}

// newBenchServer opens an engine in a temp dir with accounts×perAccount
// keys (read,pay) and the server in front of it.
func newBenchServer(b *testing.B, accounts, perAccount int) *benchServer {
	b.Helper()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actors.Config{DataDir: b.TempDir(), Logger: quiet})
	require.NoError(b, err)
	require.NoError(b, e.Recover())
	b.Cleanup(func() { _ = e.Close() })
	// Started a window ago: in a process's first 30 s every write carries
	// a signature guard (guardFor), which production's steady state does
	// not, so a bench started now would measure the guard's record too.
	s, err := New(Config{BasePath: "/public/v1", Logger: quiet, Started: time.Now().Add(-2 * FreshnessWindow)}, e)
	require.NoError(b, err)
	bs := &benchServer{s: s, e: e}
	ctx := context.Background()
	for range accounts {
		out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: "bench", KYC: domain.KYCApproved, Swap: true, Pay: true})
		require.NoError(b, err)
		var a struct{ ID string }
		require.NoError(b, json.Unmarshal(out.Reply.Body, &a))
		for range perAccount {
			pub, priv, err := ed25519.GenerateKey(rand.Reader)
			require.NoError(b, err)
			id := e.NewID("svc_test_", a.ID)
			out, err := e.Exec(ctx, a.ID, domain.Request{Cmd: domain.CreateKey{KeyID: id, PublicKey: pub,
				Scopes: domain.ScopeByName("read") | domain.ScopeByName("pay")}})
			require.NoError(b, err)
			require.Equal(b, 201, out.Reply.Status, string(out.Reply.Body))
			bs.keys = append(bs.keys, benchKey{id: id, priv: priv})
		}
	}
	return bs
}

// signed builds n signed requests, round robin over the keys; body(i)
// gives request i's body. A request without a body gets a query that
// makes it unique (the server refuses a signed request seen before).
func (bs *benchServer) signed(n int, method, path string, body func(i int) []byte) []*fasthttp.Request {
	reqs := make([]*fasthttp.Request, n)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	for i := range reqs {
		k := bs.keys[i%len(bs.keys)]
		var b []byte
		target := path
		if body != nil {
			b = body(i)
		} else {
			target += "?r=" + strconv.Itoa(i)
		}
		r := &fasthttp.Request{}
		r.Header.SetMethod(method)
		r.SetRequestURI(target)
		r.Header.Set(reqsig.HeaderKey, k.id)
		r.Header.Set(reqsig.HeaderTimestamp, ts)
		r.Header.Set(reqsig.HeaderSignature, reqsig.Sign(k.priv, ts, method, target, b))
		r.SetBody(b)
		reqs[i] = r
	}
	return reqs
}

// run serves reqs from 64 goroutines per P, like many connections, and
// fails on any answer but want.
func (bs *benchServer) run(b *testing.B, reqs []*fasthttp.Request, want int) {
	var next atomic.Int64
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}
	b.ReportAllocs()
	b.ResetTimer()
	// FXD_BENCH_CPUPROFILE=file profiles the timed region only (a plain
	// -cpuprofile also covers the setup: key creation and signing).
	if path := os.Getenv("FXD_BENCH_CPUPROFILE"); path != "" && b.N > 1 {
		f, err := os.Create(path)
		require.NoError(b, err)
		require.NoError(b, pprof.StartCPUProfile(f))
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	cpu0, idx0, batches0 := cputime.Self(), bs.e.LastIndex(), bs.e.LogBatches()
	defer func() {
		b.ReportMetric(float64(cputime.Self()-cpu0)/float64(b.N), "cpu-ns/op")
		if n := bs.e.LogBatches() - batches0; n > 0 {
			b.ReportMetric(float64(bs.e.LastIndex()-idx0)/float64(n), "records/fsync")
		}
	}()
	b.SetParallelism(32)
	b.RunParallel(func(pb *testing.PB) {
		var ctx fasthttp.RequestCtx
		for pb.Next() {
			req := reqs[next.Add(1)-1]
			ctx.Init(req, addr, nil)
			bs.s.serve(&ctx)
			if got := ctx.Response.StatusCode(); got != want {
				panic(fmt.Sprintf("status %d: %s", got, ctx.Response.Body()))
			}
			ctx.Response.Reset()
		}
	})
}

// BenchmarkServeCreateContact is POST /contacts through the whole server:
// auth, rate limit, strict JSON, the account actor, the log (group commit,
// fsync) and the reply; the Pebble applier trails it as in production.
func BenchmarkServeCreateContact(b *testing.B) {
	// Each key may write 120 times a minute: enough keys for b.N, 64 per
	// account (an account holds at most 10,000 contacts).
	bs := newBenchServer(b, b.N/(64*110)+1, 64)
	reqs := bs.signed(b.N, "POST", "/public/v1/contacts", func(i int) []byte {
		return fmt.Appendf(nil, `{"name":"bench contact %d","address":"0x%040x","currency":"USDC"}`, i, i+1)
	})
	bs.run(b, reqs, 201)
}

// BenchmarkServeGetAccount is an authenticated GET /account.
func BenchmarkServeGetAccount(b *testing.B) {
	bs := newBenchServer(b, b.N/(1000*590)+1, 1000) // 600 reads a minute per key
	reqs := bs.signed(b.N, "GET", "/public/v1/account", nil)
	bs.run(b, reqs, 200)
}

// BenchmarkVerifyOnly is the signature check of the same requests alone:
// the floor's work, for comparison.
func BenchmarkVerifyOnly(b *testing.B) {
	bs := newBenchServer(b, 1, 1)
	pub := bs.keys[0].priv.Public().(ed25519.PublicKey)
	reqs := bs.signed(b.N, "POST", "/public/v1/contacts", func(i int) []byte {
		return fmt.Appendf(nil, `{"name":"bench contact %d","address":"0x%040x","currency":"USDC"}`, i, i+1)
	})
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := reqs[next.Add(1)-1]
			h := &r.Header
			if !reqsig.Verify(pub, h.Peek(reqsig.HeaderTimestamp), h.Method(), h.RequestURI(), r.Body(), h.Peek(reqsig.HeaderSignature)) {
				panic("verify")
			}
		}
	})
}
