package client

import (
	"crypto/ed25519"
	"encoding/json"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/reqsig"
)

// received is one request as the test server saw it on the wire.
type received struct {
	Method   string
	URI      string            // raw request target
	Headers  map[string]string // raw header names, as sent
	Body     []byte
	Verified bool
	Replayed bool
}

// authServer is a minimal stand-in for the API: a real fasthttp server on
// loopback that verifies signatures with reqsig, refuses replays, serves
// GET /public/v1/time, and records everything it received.
type authServer struct {
	t          testing.TB
	pub        ed25519.PublicKey
	serverUnix func() int64

	mu   sync.Mutex
	reqs []received
	seen map[[64]byte]bool
}

func startAuthServer(t testing.TB, pub ed25519.PublicKey) (*authServer, string) {
	s := &authServer{t: t, pub: pub, seen: map[[64]byte]bool{}, serverUnix: func() int64 { return time.Now().Unix() }}
	return s, serve(t, &fasthttp.Server{
		Handler: s.handle,
		// Record header names exactly as the client sent them.
		DisableHeaderNamesNormalizing: true,
	})
}

// serve runs srv on a fresh loopback listener until the test ends and
// returns its base URL.
func serve(t testing.TB, srv *fasthttp.Server) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln) //nolint:errcheck // returns when the test shuts it down
	t.Cleanup(func() { _ = srv.Shutdown() })
	return "http://" + ln.Addr().String()
}

func (s *authServer) handle(ctx *fasthttp.RequestCtx) {
	if string(ctx.Path()) == "/public/v1/time" {
		ctx.SetContentType("application/json")
		ctx.SetBodyString(`{"unix":` + strconv.FormatInt(s.serverUnix(), 10) + `}`)
		return
	}
	r := received{
		Method:  string(ctx.Method()),
		URI:     string(ctx.Request.Header.RequestURI()),
		Headers: map[string]string{},
		Body:    append([]byte(nil), ctx.PostBody()...),
	}
	for k, v := range ctx.Request.Header.All() {
		r.Headers[string(k)] = string(v)
	}
	tsText := ctx.Request.Header.Peek(reqsig.HeaderTimestamp)
	var sig [64]byte
	_, tsOK := reqsig.ParseTimestamp(tsText)
	if tsOK && reqsig.DecodeSignature(&sig, ctx.Request.Header.Peek(reqsig.HeaderSignature)) {
		r.Verified = reqsig.VerifyDecoded(s.pub, tsText, ctx.Method(), ctx.Request.Header.RequestURI(), ctx.PostBody(), &sig)
	}
	s.mu.Lock()
	if r.Verified {
		r.Replayed = s.seen[sig]
		s.seen[sig] = true
	}
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()

	ctx.Response.Header.Set("x-echo-target", r.URI)
	switch {
	case r.Replayed:
		ctx.SetStatusCode(fasthttp.StatusUnauthorized)
		ctx.SetBodyString(`{"error":{"code":"replayed","message":"replayed"}}`)
	case !r.Verified:
		ctx.SetStatusCode(fasthttp.StatusUnauthorized)
		ctx.SetBodyString(`{"error":{"code":"auth_failed","message":"auth failed"}}`)
	default:
		ctx.SetContentType("application/json")
		out, _ := json.Marshal(map[string]any{"ok": true})
		ctx.SetBody(out)
	}
}

func (s *authServer) received() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.reqs...)
}
