package httpd

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/valyala/fasthttp"

	"github.com/fxd-labs/fxd/actors"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/reqsig"
)

// signedAt is one signed request, stamped ts, to send as it is to any
// server (the same bytes, the same signature).
type signedAt struct {
	method, target, keyID, ts, sig string
	body                           []byte
	headers                        map[string]string
}

func signAt(keyID string, priv ed25519.PrivateKey, ts time.Time, method, target string, body []byte, headers map[string]string) signedAt {
	t := strconv.FormatInt(ts.Unix(), 10)
	return signedAt{method: method, target: target, keyID: keyID, ts: t, body: body, headers: headers,
		sig: reqsig.Sign(priv, t, method, target, body)}
}

// serveOn serves r in process on s.
func (r signedAt) serveOn(s *Server) answer {
	var req fasthttp.Request
	req.Header.SetMethod(r.method)
	req.SetRequestURI(r.target)
	req.Header.Set(reqsig.HeaderKey, r.keyID)
	req.Header.Set(reqsig.HeaderTimestamp, r.ts)
	req.Header.Set(reqsig.HeaderSignature, r.sig)
	for k, v := range r.headers {
		req.Header.Set(k, v)
	}
	req.SetBody(r.body)
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
	s.serve(&ctx)
	return capture(&ctx.Response)
}

// restartable is an engine on a data dir that a test closes and opens
// again (recovery from the log, as after a restart), and a server over it
// with a clock and a start time of the test's choosing.
type restartable struct {
	dir string
	e   *actors.Engine
}

func (r *restartable) open(t *testing.T) {
	t.Helper()
	e, err := actors.Open(actors.Config{DataDir: r.dir, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	require.NoError(t, err)
	require.NoError(t, e.Recover())
	r.e = e
}

func (r *restartable) close(t *testing.T) {
	t.Helper()
	require.NoError(t, r.e.Close())
}

func (r *restartable) server(t *testing.T, now, started time.Time, c Cluster) *Server {
	t.Helper()
	s, err := New(Config{BasePath: "/public/v1", Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Clock: func() time.Time { return now }, Started: started, Cluster: c}, r.e)
	require.NoError(t, err)
	return s
}

// payKey makes an account with a pay-scoped key and returns the key.
func (r *restartable) payKey(t *testing.T) (string, ed25519.PrivateKey) {
	t.Helper()
	ctx := context.Background()
	out, err := r.e.CreateAccount(ctx, domain.CreateAccount{Name: "g", KYC: domain.KYCApproved, Swap: true, Pay: true})
	require.NoError(t, err)
	var acct struct{ ID string }
	require.NoError(t, json.Unmarshal(out.Reply.Body, &acct))
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	require.NoError(t, err)
	keyID := r.e.NewID("svc_test_", acct.ID)
	out, err = r.e.Exec(ctx, acct.ID, domain.Request{Cmd: domain.CreateKey{KeyID: keyID, PublicKey: pub, Scopes: domain.ScopeByName("pay")}})
	require.NoError(t, err)
	require.Equal(t, 201, out.Reply.Status, "%s", out.Reply.Body)
	return keyID, priv
}

// contactCount is how many contacts the account holds.
func contactCount(t *testing.T, s *Server, keyID string, priv ed25519.PrivateKey, now time.Time) int {
	t.Helper()
	a := signAt(keyID, priv, now, "GET", "/public/v1/contacts?limit=200&c="+strconv.FormatInt(now.UnixNano(), 10), nil, nil).serveOn(s)
	require.Equal(t, 200, a.status, "%s", a.body)
	var page struct{ Data []json.RawMessage }
	require.NoError(t, json.Unmarshal(a.body, &page))
	return len(page.Data)
}

// TestSignatureGuardAcrossRestart: a write signed ahead of the server's
// clock, accepted, then sent again to the process that recovers the log
// after a restart (an empty replay cache, a later start), is 401
// replayed, not a second contact: the guard it left in the log says so. A
// write stamped with a second that had begun is refused by the new
// process's start time instead, as before guards. With an
// Idempotency-Key the key's stored answer replays. A read is never
// guarded, and neither is a quote (offers in memory, no record).
func TestSignatureGuardAcrossRestart(t *testing.T) {
	r := &restartable{dir: t.TempDir()}
	r.open(t)
	ctx := context.Background()
	keyID, priv := r.payKey(t)

	// now is half a second into a second; the process that recovers
	// starts at the next second (as serve does), and serves 0.7 s later.
	now := time.Now().Truncate(time.Second).Add(500 * time.Millisecond)
	contact := func(name string) []byte {
		return []byte(`{"name":"` + name + `","address":"0x00000000000000000000000000000000000000aa"}`)
	}
	cases := []struct {
		name      string
		ts        time.Time
		headers   map[string]string
		first     int
		again     int
		againCode string
	}{
		{name: "signed 10 s ahead: guarded, replayed after the restart", ts: now.Add(10 * time.Second), first: 201, again: 401, againCode: domain.CodeReplayed},
		{name: "signed for the next second: guarded", ts: now.Add(time.Second), first: 201, again: 401, againCode: domain.CodeReplayed},
		{name: "signed in the second under way: stale after the restart", ts: now, first: 201, again: 401, againCode: domain.CodeStaleTimestamp},
		{name: "ahead with a key: the key's answer replays", ts: now.Add(10 * time.Second), headers: map[string]string{"Idempotency-Key": "g-1"}, first: 201, again: 201},
	}
	reqs := make([]signedAt, len(cases))
	s := r.server(t, now, now.Add(-time.Second), nil)
	for i, tc := range cases {
		reqs[i] = signAt(keyID, priv, tc.ts, "POST", "/public/v1/contacts", contact("c"+strconv.Itoa(i)), tc.headers)
		a := reqs[i].serveOn(s)
		require.Equal(t, tc.first, a.status, "%s: %s", tc.name, a.body)
		again := reqs[i].serveOn(s)
		require.Equal(t, 401, again.status, "%s: the replay cache refuses it before a restart", tc.name)
		requireContractError(t, again.body, domain.CodeReplayed)
	}
	require.Equal(t, len(cases), contactCount(t, s, keyID, priv, now))
	require.NoError(t, s.Shutdown(ctx))

	r.close(t)
	r.open(t)
	defer r.close(t)
	later := now.Add(700 * time.Millisecond)
	s = r.server(t, later, later.Truncate(time.Second), nil)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := reqs[i].serveOn(s)
			require.Equal(t, tc.again, a.status, "%s", a.body)
			if tc.againCode != "" {
				requireContractError(t, a.body, tc.againCode)
			} else {
				require.Equal(t, "true", a.header["Idempotency-Replayed"])
			}
		})
	}
	require.Equal(t, len(cases), contactCount(t, s, keyID, priv, later), "no contact was made twice")
}

// TestSignatureFloorAfterTakeover: in a cluster, a node that takes a
// partition up refuses signatures stamped before that moment (its replay
// cache never saw them; the previous owner's is gone), and a signature
// the previous owner accepted stamped ahead of its clock is refused by the
// guard it left in the partition's log. Two servers over one engine play
// the previous owner and the next (the engine is the state both hold).
func TestSignatureFloorAfterTakeover(t *testing.T) {
	r := &restartable{dir: t.TempDir()}
	r.open(t)
	defer r.close(t)
	keyID, priv := r.payKey(t)

	now := time.Now().Truncate(time.Second).Add(500 * time.Millisecond)
	leadsAll := func(int) bool { return true }
	previous := r.server(t, now, now.Add(-time.Hour), &testCluster{lead: leadsAll, took: now.Add(-time.Minute)})
	contact := func(name string) []byte {
		return []byte(`{"name":"` + name + `","address":"0x00000000000000000000000000000000000000aa"}`)
	}
	onTime := signAt(keyID, priv, now, "POST", "/public/v1/contacts", contact("on-time"), nil)
	ahead := signAt(keyID, priv, now.Add(5*time.Second), "POST", "/public/v1/contacts", contact("ahead"), nil)
	for _, req := range []signedAt{onTime, ahead} {
		a := req.serveOn(previous)
		require.Equal(t, 201, a.status, "%s", a.body)
	}

	// The next owner took the partition up 0.2 s later (a process that
	// ran long before: its own start is no floor).
	later := now.Add(200 * time.Millisecond)
	next := r.server(t, later, now.Add(-time.Hour), &testCluster{lead: leadsAll, took: later})
	a := onTime.serveOn(next)
	require.Equal(t, 401, a.status, "%s", a.body)
	requireContractError(t, a.body, domain.CodeStaleTimestamp)
	a = ahead.serveOn(next)
	require.Equal(t, 401, a.status, "%s", a.body)
	requireContractError(t, a.body, domain.CodeReplayed)
	require.Equal(t, 2, contactCount(t, next, keyID, priv, later.Add(time.Second)), "no contact was made twice")

	fresh := signAt(keyID, priv, later.Add(time.Second), "POST", "/public/v1/contacts", contact("fresh"), nil)
	a = fresh.serveOn(next)
	require.Equal(t, 201, a.status, "a signature after the take-up passes: %s", a.body)
}
