package httpd

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
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
	"github.com/fxd-labs/fxd/domain/domaintest"
	"github.com/fxd-labs/fxd/reqsig"
)

// Which bytes of a signed request the mutation tests change, and why
// these. The signed material (SPEC.md "Authentication", package reqsig)
// is the canonical string SVC-TIMESTAMP \n METHOD \n target \n
// sha256(body), signed by the key SVC-API-KEY names, the signature
// carried in SVC-SIGNATURE. So the parts are: the method, the request
// target (path and query, exactly as sent), the values of the three SVC-*
// headers and the body; every byte of each is changed. Left out, because
// they are not signed and change nothing the server does with this
// request: the Host header and the other headers (Content-Type;
// Content-Length is recomputed for a changed body, since a wrong one only
// cuts or stalls the body, which the body's hash or ReadTimeout refuses),
// the header names (case-insensitive in HTTP, so a changed case is the
// same request) and the white space around a header value (not part of
// the value, RFC 9110).
const (
	partMethod = iota
	partTarget
	partKey
	partTimestamp
	partSignature
	partBody
	numParts
)

var partNames = [numParts]string{"method", "target", "SVC-API-KEY", "SVC-TIMESTAMP", "SVC-SIGNATURE", "body"}

// signedParts is one request, part by part.
type signedParts [numParts][]byte

// signParts signs POST /contacts creating a contact named name, at ts.
func signParts(keyID string, priv ed25519.PrivateKey, ts int64, name string) signedParts {
	target := "/public/v1/contacts?n=" + name
	body := `{"name":"` + name + `","address":"0x00000000000000000000000000000000000000aa"}`
	tsText := strconv.FormatInt(ts, 10)
	sig := reqsig.Sign(priv, tsText, "POST", target, []byte(body))
	return signedParts{[]byte("POST"), []byte(target), []byte(keyID), []byte(tsText), []byte(sig), []byte(body)}
}

// with returns a copy of p whose part i is b.
func (p signedParts) with(i int, b []byte) signedParts {
	q := p
	q[i] = b
	return q
}

// wire is the request as it goes over the connection.
func (p signedParts) wire() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: fxd\r\n%s: %s\r\n%s: %s\r\n%s: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
		p[partMethod], p[partTarget], reqsig.HeaderKey, p[partKey], reqsig.HeaderTimestamp, p[partTimestamp],
		reqsig.HeaderSignature, p[partSignature], len(p[partBody]))
	b.Write(p[partBody])
	return b.Bytes()
}

// oneByteMutations are the copies of b with one byte changed: its lowest
// bit flipped, its ASCII case bit (0x20) flipped (what a normalising
// proxy or decoder would do), deleted, and doubled (a byte inserted).
func oneByteMutations(b []byte) [][]byte {
	var out [][]byte
	for i := range b {
		for _, bit := range []byte{0x01, 0x20} {
			m := bytes.Clone(b)
			m[i] ^= bit
			out = append(out, m)
		}
		out = append(out, append(bytes.Clone(b[:i]), b[i+1:]...))
		out = append(out, append(bytes.Clone(b[:i+1]), b[i:]...))
	}
	return out
}

// TestAuthMutationOverHTTP: over real HTTP, no copy of a valid signed POST
// /contacts with one byte of its signed material changed (every byte of
// every part, four ways) is admitted: each gets a contract refusal, not a
// 2xx, and writes nothing. The unchanged request, sent after its copies
// (so no copy was refused as a mere replay of it), is then admitted:
// exactly one contact per part at the end.
func TestAuthMutationOverHTTP(t *testing.T) {
	h := newHostileAPI(t, Config{})
	sent := 0
	for part := range numParts {
		t.Run(partNames[part], func(t *testing.T) {
			// A fresh original per part keeps each within the freshness window.
			orig := signParts(h.keyID, h.priv, time.Now().Unix(), "mut"+strconv.Itoa(part))
			index := h.e.LastIndex()
			codes := map[string]int{}
			for _, m := range oneByteMutations(orig[part]) {
				r := h.send(t, orig.with(part, m).wire())
				require.NoError(t, r.err, "%s %q: no answer", partNames[part], m)
				require.GreaterOrEqual(t, r.status, 400, "%s %q was admitted: %s", partNames[part], m, r.body)
				codes[requireContractStatus(t, r.status, r.body)]++
				sent++
			}
			t.Logf("%s: refusals by code %v", partNames[part], codes)
			require.Equal(t, index, h.e.LastIndex(), "a refused copy wrote to the log")
			r := h.send(t, orig.wire())
			require.Equal(t, 201, r.status, "the original: %s", r.body)
		})
	}
	require.Equal(t, numParts, h.contacts(t))
	t.Logf("%d one-byte copies refused", sent)
}

// requireContractStatus: an error body of the contract's shape whose code
// belongs to the status in CONTRACT.md's table (domaintest) and is one a
// mutated request may get. It returns the code.
func requireContractStatus(t *testing.T, status int, body []byte) string {
	t.Helper()
	domaintest.RequireContractReply(t, domain.Reply{Status: status, Body: body})
	var e struct {
		Error struct{ Code string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	require.Contains(t, []string{domain.CodeInvalidRequest, domain.CodeAuthFailed, domain.CodeStaleTimestamp,
		domain.CodeReplayed, domain.CodeNotFound, domain.CodeBodyTooLarge}, e.Error.Code,
		"code %q is not an answer a mutated request may get: %s", e.Error.Code, body)
	return e.Error.Code
}

// authFuzzTS is the signing time of FuzzAuthMutation's request; the
// server's clock stands still at it.
const authFuzzTS = 1_700_000_000

// authFuzzServer is a server over a real engine with one account and a
// key from a fixed seed, its clock at authFuzzTS.
func authFuzzServer(tb testing.TB) (*Server, *actors.Engine, string, ed25519.PrivateKey) {
	tb.Helper()
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	e, err := actors.Open(actors.Config{DataDir: tb.TempDir(), Logger: quiet})
	require.NoError(tb, err)
	require.NoError(tb, e.Recover())
	tb.Cleanup(func() { _ = e.Close() })
	ctx := context.Background()
	out, err := e.CreateAccount(ctx, domain.CreateAccount{Name: "fuzz", KYC: domain.KYCApproved, Pay: true})
	require.NoError(tb, err)
	var a struct{ ID string }
	require.NoError(tb, json.Unmarshal(out.Reply.Body, &a))
	priv := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	keyID := e.NewID("svc_test_", a.ID)
	out, err = e.Exec(ctx, a.ID, domain.Request{Cmd: domain.CreateKey{KeyID: keyID, PublicKey: priv.Public().(ed25519.PublicKey),
		Scopes: domain.ScopeByName("pay")}})
	require.NoError(tb, err)
	require.Equal(tb, 201, out.Reply.Status, "%s", out.Reply.Body)
	now := time.Unix(authFuzzTS, 0)
	s, err := New(Config{BasePath: "/public/v1", Logger: quiet, Clock: func() time.Time { return now }, Started: now.Add(-time.Second)}, e)
	require.NoError(tb, err)
	return s, e, keyID, priv
}

// serveParts serves p in process through the whole pipeline (route,
// auth, rate limit, scope, handler).
func serveParts(s *Server, p signedParts) *fasthttp.Response {
	var req fasthttp.Request
	req.Header.SetMethodBytes(p[partMethod])
	req.SetRequestURIBytes(p[partTarget])
	req.Header.SetBytesV(reqsig.HeaderKey, p[partKey])
	req.Header.SetBytesV(reqsig.HeaderTimestamp, p[partTimestamp])
	req.Header.SetBytesV(reqsig.HeaderSignature, p[partSignature])
	req.Header.SetContentType("application/json")
	req.SetBody(p[partBody])
	var ctx fasthttp.RequestCtx
	ctx.Init(&req, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}, nil)
	s.serve(&ctx)
	return &ctx.Response
}

// FuzzAuthMutation changes one byte of a valid signed POST /contacts (in
// part part%6 at pos: op%3 is 0 replace it with val, 1 delete it, 2
// insert val before it) and serves the copy in process through the
// server's whole pipeline. No copy is admitted: every answer is a contract
// refusal, and the log is never written. (The original itself is never
// sent, so no copy is refused as a replay of it.) The parts, and the bytes
// left out, are those of TestAuthMutationOverHTTP.
func FuzzAuthMutation(f *testing.F) {
	s, e, keyID, priv := authFuzzServer(f)
	orig := signParts(keyID, priv, authFuzzTS, "fuzz")
	index := e.LastIndex()
	f.Add(uint8(partMethod), uint8(0), uint16(0), byte('p'))
	f.Fuzz(func(t *testing.T, part, op uint8, pos uint16, val byte) {
		i := int(part) % numParts
		b := orig[i]
		var m []byte
		switch op % 3 {
		case 0:
			p := int(pos) % len(b)
			if b[p] == val {
				return // not a change
			}
			m = bytes.Clone(b)
			m[p] = val
		case 1:
			p := int(pos) % len(b)
			m = append(bytes.Clone(b[:p]), b[p+1:]...)
		default:
			p := int(pos) % (len(b) + 1)
			m = append(append(bytes.Clone(b[:p]), val), b[p:]...)
		}
		resp := serveParts(s, orig.with(i, m))
		require.GreaterOrEqual(t, resp.StatusCode(), 400, "%s %q was admitted: %s", partNames[i], m, resp.Body())
		requireContractStatus(t, resp.StatusCode(), resp.Body())
		require.Equal(t, index, e.LastIndex(), "%s %q wrote to the log", partNames[i], m)
	})
}

// TestAuthFuzzOriginalIsAdmitted: FuzzAuthMutation's request, unchanged,
// is admitted (201), so the fuzz target's refusals come from the change.
func TestAuthFuzzOriginalIsAdmitted(t *testing.T) {
	s, e, keyID, priv := authFuzzServer(t)
	index := e.LastIndex()
	resp := serveParts(s, signParts(keyID, priv, authFuzzTS, "fuzz"))
	require.Equal(t, 201, resp.StatusCode(), "%s", resp.Body())
	require.Greater(t, e.LastIndex(), index)
}
