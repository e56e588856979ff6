package httpd

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/domain"
	"github.com/fxd-labs/fxd/internal/logsink"
	"github.com/fxd-labs/fxd/reqsig"
)

// hostileDeadline bounds every wait of these tests for the server to
// answer or close. It is a deadline, never an expectation.
const hostileDeadline = 30 * time.Second

// hostileAPI is the real server on loopback over a real engine, with one
// account and one read,pay key: what a hostile client meets.
type hostileAPI struct {
	*testAPI
	srv   *Server
	addr  string
	keyID string
	priv  ed25519.PrivateKey
}

func newHostileAPI(t *testing.T, cfg Config) *hostileAPI {
	t.Helper()
	ta := newTestAPI(t)
	keyID, priv := ta.key(t, "read,pay")
	cfg.BasePath, cfg.Logger, cfg.Started = "/public/v1", ta.s.cfg.Logger, ta.s.cfg.Started
	srv, err := New(cfg, ta.e)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return &hostileAPI{testAPI: ta, srv: srv, addr: ln.Addr().String(), keyID: keyID, priv: priv}
}

// raw renders a request signed with the test key as it goes on the wire
// (made unique with ?n=), with extra header lines (each ending in CRLF).
func (h *hostileAPI) raw(method, target string, body []byte, extra string) []byte {
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	target += sep + "n=" + strconv.FormatInt(h.n.Add(1), 10)
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: fxd\r\n%s: %s\r\n%s: %s\r\n%s: %s\r\n", method, target,
		reqsig.HeaderKey, h.keyID, reqsig.HeaderTimestamp, ts, reqsig.HeaderSignature, reqsig.Sign(h.priv, ts, method, target, body))
	if body != nil {
		fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(body))
	}
	b.WriteString(extra)
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

// reply is one answer read off a connection, and whether the server
// closed the connection after it.
type reply struct {
	status int
	header http.Header
	body   []byte
	closed bool
	err    error // nothing could be read
}

// readReply reads one answer from br, then whether the connection ends
// (EOF) right after it.
func readReply(c net.Conn, br *bufio.Reader) reply {
	_ = c.SetReadDeadline(time.Now().Add(hostileDeadline))
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return reply{err: err}
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return reply{err: err}
	}
	r := reply{status: resp.StatusCode, header: resp.Header, body: body}
	if resp.Close {
		// EOF, or a reset when the server closed with our bytes unread.
		_, err = br.ReadByte()
		r.closed = err != nil && !errors.Is(err, os.ErrDeadlineExceeded)
	}
	return r
}

// send writes raw on a new connection (reading as it writes, so an early
// answer is never lost to a reset) and returns the first answer.
func (h *hostileAPI) send(t *testing.T, raw []byte) reply {
	t.Helper()
	c, err := net.Dial("tcp", h.addr)
	require.NoError(t, err)
	defer c.Close()
	got := make(chan reply, 1)
	go func() { got <- readReply(c, bufio.NewReader(c)) }()
	_, _ = c.Write(raw) // the server may answer and close before it read everything
	return <-got
}

// requireRefusal: the answer is the contract's error body with this
// status and code, its message contains msg, and it carries a Request-Id.
func requireRefusal(t *testing.T, r reply, status int, code, msg string) {
	t.Helper()
	require.NoError(t, r.err)
	require.Equal(t, status, r.status, "%s", r.body)
	requireContractError(t, r.body, code)
	require.Contains(t, string(r.body), msg)
	require.Equal(t, "application/json", r.header.Get("Content-Type"))
	require.NotEmpty(t, r.header.Get("Request-Id"))
}

// contacts is the number of contacts the account holds (committed).
func (h *hostileAPI) contacts(t *testing.T) int {
	t.Helper()
	n, err := h.e.Read(context.Background(), h.acct, func(s domain.Entity) any { return len(s.(*domain.AccountState).Contacts) })
	require.NoError(t, err)
	return n.(int)
}

// nothingWritten: the log has no record after index and the account no
// contact.
func (h *hostileAPI) nothingWritten(t *testing.T, index uint64) {
	t.Helper()
	require.Equal(t, index, h.e.LastIndex(), "a refused request wrote to the log")
	require.Zero(t, h.contacts(t))
}

func contactBody(pad int) []byte {
	return []byte(`{"name":"slow",` + strings.Repeat(" ", pad) + `"address":"0x00000000000000000000000000000000000000aa"}`)
}

// slowClient trickles raw[sent:] one byte every tick after sending
// raw[:sent] at once, until the server answers or closes. It reports the
// answer and whether the server cut it off before the request was whole.
func slowClient(addr string, raw []byte, sent int, tick time.Duration) (reply, bool, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return reply{}, false, err
	}
	defer c.Close()
	got := make(chan reply, 1)
	go func() { got <- readReply(c, bufio.NewReader(c)) }()
	if _, err := c.Write(raw[:sent]); err != nil {
		return reply{}, false, err
	}
	for i := sent; i < len(raw); i++ {
		select {
		case r := <-got:
			return r, true, nil
		case <-time.After(tick):
		}
		if _, err := c.Write(raw[i : i+1]); err != nil {
			return <-got, true, nil // closed under us: the answer, if any, was read first
		}
	}
	r := <-got
	return r, false, nil
}

// TestSlowClientsAreCutOff: clients that trickle their header or their
// body one byte at a time (slow loris) are answered 400 invalid_request
// once ReadTimeout passes and closed, long before their request would be
// whole; a connection that sends nothing is closed unanswered at
// ReadTimeout, and a keep-alive connection idle past IdleTimeout too.
// Meanwhile a normal client is served, and nothing is written.
func TestSlowClientsAreCutOff(t *testing.T) {
	const readTimeout, tick, perCase = 2 * time.Second, 40 * time.Millisecond, 20
	h := newHostileAPI(t, Config{ReadTimeout: readTimeout, IdleTimeout: readTimeout})
	index := h.e.LastIndex()
	// At a byte per tick, each request takes far longer than readTimeout.
	post := h.raw("POST", "/public/v1/contacts", contactBody(1200), "")
	headerEnd := bytes.Index(post, []byte("\r\n\r\n")) + 4
	require.Greater(t, time.Duration(headerEnd)*tick, 3*readTimeout)
	cases := []struct {
		name string
		sent int // bytes sent at once; the rest trickles
		raw  []byte
	}{
		{"silent", 0, nil},
		{"header", 0, post},
		{"body", headerEnd, post},
	}
	var open atomic.Int64
	var wg sync.WaitGroup
	results := make([][]reply, len(cases))
	for i, tc := range cases {
		results[i] = make([]reply, perCase)
		for j := range perCase {
			wg.Add(1)
			open.Add(1)
			go func() {
				defer wg.Done()
				defer open.Add(-1)
				r, cut, err := slowClient(h.addr, tc.raw, tc.sent, tick)
				if err == nil && !cut && tc.raw != nil {
					err = errors.New("the server read the whole trickled request")
				}
				if err != nil {
					r.err = err
				}
				results[i][j] = r
			}()
		}
	}
	servedMeanwhile := normalClientWhile(t, h, func() bool { return open.Load() > 0 })
	wg.Wait()
	require.Positive(t, servedMeanwhile, "no normal request was served while slow clients were connected")
	for i, tc := range cases {
		for _, r := range results[i] {
			if tc.raw == nil {
				// Closed with no byte of an answer (not the reader's
				// deadline: closed by the server at its ReadTimeout).
				require.True(t, errors.Is(r.err, io.ErrUnexpectedEOF) || errors.Is(r.err, io.EOF),
					"%s: a connection that sent nothing was answered %d %s (%v)", tc.name, r.status, r.body, r.err)
				continue
			}
			requireRefusal(t, r, 400, domain.CodeInvalidRequest, "not received within "+readTimeout.String())
			require.True(t, r.closed, "%s: the connection stays open after the refusal", tc.name)
		}
	}
	h.nothingWritten(t, index)
	t.Run("idle keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", h.addr)
		require.NoError(t, err)
		defer c.Close()
		br := bufio.NewReader(c)
		_, err = c.Write(h.raw("GET", "/public/v1/contacts", nil, ""))
		require.NoError(t, err)
		r := readReply(c, br)
		require.Equal(t, 200, r.status, "%s", r.body)
		require.False(t, r.closed)
		_ = c.SetReadDeadline(time.Now().Add(hostileDeadline))
		n, err := br.Read(make([]byte, 1))
		require.Zero(t, n, "the server wrote to an idle connection")
		require.ErrorIs(t, err, io.EOF, "the idle connection was not closed")
	})
}

// normalClientWhile sends signed reads through the SDK while busy() holds
// (and at least one), requiring each to be served; it returns how many
// were served while busy() still held after their answer.
func normalClientWhile(t *testing.T, h *hostileAPI, busy func() bool) int {
	t.Helper()
	c, err := client.New("http://"+h.addr, h.keyID, h.priv)
	require.NoError(t, err)
	defer c.CloseIdleConnections()
	served := 0
	for first := true; first || busy(); first = false {
		ctx, cancel := context.WithTimeout(context.Background(), hostileDeadline)
		resp, err := c.Do(ctx, "GET", "/public/v1/contacts?limit=1", nil, nil)
		cancel()
		require.NoError(t, err)
		require.Equal(t, 200, resp.Status, "%s", resp.Body)
		if busy() {
			served++
		}
		time.Sleep(10 * time.Millisecond)
	}
	return served
}

// TestOversizedHeaders: a request line and headers over MaxHeaderBytes,
// however made up, are refused 400 invalid_request naming the limit and
// the connection closes; a signed request just under the limit is served.
func TestOversizedHeaders(t *testing.T) {
	h := newHostileAPI(t, Config{})
	index := h.e.LastIndex()
	var many strings.Builder
	for i := range 400 {
		fmt.Fprintf(&many, "X-H%d: v\r\n", i)
	}
	body := contactBody(0)
	tests := []struct {
		name string
		raw  []byte
	}{
		{"one huge header", h.raw("POST", "/public/v1/contacts", body, "X-Pad: "+strings.Repeat("a", MaxHeaderBytes)+"\r\n")},
		{"many headers", h.raw("POST", "/public/v1/contacts", body, many.String())},
		{"long target", h.raw("GET", "/public/v1/contacts?pad="+strings.Repeat("a", MaxHeaderBytes), nil, "")},
		{"huge header, no end", []byte("GET / HTTP/1.1\r\nHost: fxd\r\nX-Pad: " + strings.Repeat("a", 64<<10))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.send(t, tc.raw)
			requireRefusal(t, r, 400, domain.CodeInvalidRequest, "request header is larger than 4096 bytes")
			require.True(t, r.closed, "the connection stays open after the refusal")
		})
	}
	h.nothingWritten(t, index)

	// Just under the limit: padded to MaxHeaderBytes less a margin for the
	// terminating CRLF the parser must see in the same buffer.
	base := h.raw("POST", "/public/v1/contacts", body, "")
	pad := MaxHeaderBytes - (len(base) - len(body)) - len("X-Pad: \r\n") - 8
	r := h.send(t, h.raw("POST", "/public/v1/contacts", body, "X-Pad: "+strings.Repeat("a", pad)+"\r\n"))
	require.Equal(t, 201, r.status, "%s", r.body)
	require.Equal(t, 1, h.contacts(t))
}

// TestConnectionLimit: with MaxConns connections open, the next ones get
// 503 unavailable with Retry-After and are closed, once their request is
// read; past busyConns more, a connection is closed unanswered. A place
// freed is served again.
func TestConnectionLimit(t *testing.T) {
	const maxConns = 4
	h := newHostileAPI(t, Config{MaxConns: maxConns})
	index := h.e.LastIndex()
	held := make([]net.Conn, maxConns)
	for i := range held {
		c, err := net.Dial("tcp", h.addr)
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Write(h.raw("GET", "/public/v1/contacts", nil, ""))
		require.NoError(t, err)
		r := readReply(c, bufio.NewReader(c))
		require.Equal(t, 200, r.status, "connection %d: %s", i, r.body)
		held[i] = c // idle keep-alive from here on
	}
	r := h.send(t, h.raw("POST", "/public/v1/contacts", contactBody(0), ""))
	requireRefusal(t, r, 503, domain.CodeUnavailable, "at capacity")
	require.Equal(t, "1", r.header.Get("Retry-After"))
	require.True(t, r.closed)
	h.nothingWritten(t, index)

	// Fill the busy places with silent connections: the next one is
	// closed at once.
	busy := make([]net.Conn, busyConns)
	for i := range busy {
		c, err := net.Dial("tcp", h.addr)
		require.NoError(t, err)
		defer c.Close()
		busy[i] = c
	}
	over, err := net.Dial("tcp", h.addr)
	require.NoError(t, err)
	defer over.Close()
	_ = over.SetReadDeadline(time.Now().Add(hostileDeadline))
	n, err := over.Read(make([]byte, 1))
	require.Zero(t, n)
	require.Error(t, err, "a connection past the busy places was not closed")
	require.False(t, errors.Is(err, os.ErrDeadlineExceeded), "a connection past the busy places was not closed")
	for _, c := range busy {
		_ = c.Close()
	}

	// A place freed is served again (the count drops once the server sees
	// the close, so poll).
	_ = held[0].Close()
	deadline := time.Now().Add(hostileDeadline)
	for {
		r := h.send(t, h.raw("GET", "/public/v1/contacts", nil, ""))
		if r.status == 200 {
			break
		}
		requireRefusal(t, r, 503, domain.CodeUnavailable, "at capacity")
		require.True(t, time.Now().Before(deadline), "a freed place was never served")
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHostileJSON: bodies that are malformed, too big, nested deep,
// numbers out of any range, invalid UTF-8 and repeated keys get a clear
// 4xx from the contract's table over real HTTP; nothing is written and
// the server stays up.
func TestHostileJSON(t *testing.T) {
	h := newHostileAPI(t, Config{})
	index := h.e.LastIndex()
	const addr = `"address":"0x00000000000000000000000000000000000000aa"`
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name   string
		body   string
		status int
		code   string
	}{
		{"truncated", `{"name":"a",`, 400, domain.CodeInvalidRequest},
		{"not an object", `[{"name":"a"}]`, 400, domain.CodeInvalidRequest},
		{"trailing data", `{"name":"a",` + addr + `} {}`, 400, domain.CodeInvalidRequest},
		{"byte order mark", "\xef\xbb\xbf{\"name\":\"a\"," + addr + "}", 400, domain.CodeInvalidRequest},
		{"empty", ``, 400, domain.CodeInvalidRequest},
		{"one byte over 64 KiB", `{"name":"a",` + addr + strings.Repeat(" ", MaxBodyBytes) + `}`, 413, domain.CodeBodyTooLarge},
		{"over what is read", `{"name":"a",` + addr + strings.Repeat(" ", 4*MaxBodyBytes) + `}`, 413, domain.CodeBodyTooLarge},
		{"nested 100,000 deep", `{"name":` + deep(100_000) + `,` + addr + `}`, 413, domain.CodeBodyTooLarge},
		{"nested 30,000 deep", `{"name":` + deep(30_000) + `,` + addr + `}`, 400, domain.CodeInvalidRequest},
		{"nested in an unknown field", `{"name":"a",` + addr + `,"x":` + deep(20_000) + `}`, 400, domain.CodeInvalidRequest},
		{"huge exponent", `{"name":1e999999999,` + addr + `}`, 400, domain.CodeInvalidRequest},
		{"huge integer", `{"name":"a",` + addr + `,"memo":` + strings.Repeat("9", 60_000) + `}`, 400, domain.CodeInvalidRequest},
		{"invalid UTF-8 outside strings", "{\"name\":\"a\"\xff," + addr + "}", 400, domain.CodeInvalidRequest},
		{"control character", `{"name":"a\u0000b",` + addr + `}`, 400, domain.CodeInvalidRequest},
		{"invalid UTF-8 in a string", "{\"name\":\"\xff\xfe\"," + addr + "}", 400, domain.CodeInvalidRequest},
		{"repeated key", `{"name":"a","name":"b",` + addr + `}`, 400, domain.CodeInvalidRequest},
		{"key repeated in another case", `{"name":"a","NAME":"b",` + addr + `}`, 400, domain.CodeInvalidRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := h.send(t, h.raw("POST", "/public/v1/contacts", []byte(tc.body), ""))
			require.NoError(t, r.err)
			require.Equal(t, tc.status, r.status, "%s", r.body)
			requireContractError(t, r.body, tc.code)
		})
	}
	for _, q := range []string{"limit=99999999999999999999999", "limit=1e400", "limit=-0", "starting_after=" + strings.Repeat("%ff", 900)} {
		r := h.send(t, h.raw("GET", "/public/v1/contacts?"+q, nil, ""))
		require.Equal(t, 400, r.status, "%s: %s", q, r.body)
		requireContractError(t, r.body, domain.CodeInvalidRequest)
	}
	h.nothingWritten(t, index)
	r := h.send(t, h.raw("POST", "/public/v1/contacts", contactBody(0), ""))
	require.Equal(t, 201, r.status, "the server still serves: %s", r.body)
}

// TestPathsAreTakenAsSent: a path is routed as it was sent and signed, not
// after dot segments, doubled slashes or escaped slashes are resolved: a
// path that names a record by a traversal is no route or no record (404),
// never the route it would resolve to.
func TestPathsAreTakenAsSent(t *testing.T) {
	h := newHostileAPI(t, Config{})
	for _, target := range []string{
		"/public/v1/contacts/..%2F..%2Fv1%2Faccount",
		"/public/v1/contacts/%2E%2E/%2E%2E/v1/account",
		"/public/v1/contacts/../../v1/account",
		"/public/v1/contacts/./../account",
		"/public/v1//account",
		"/public/v1/%61ccount",
	} {
		r := h.send(t, h.raw("GET", target, nil, ""))
		requireRefusal(t, r, 404, domain.CodeNotFound, "")
	}
	r := h.send(t, h.raw("GET", "/public/v1/account", nil, ""))
	require.Equal(t, 200, r.status, "%s", r.body)
}

// TestMalformedRequestLogIsBounded: fasthttp's line about each malformed
// request goes through a budget, so a flood of them cannot flood the log:
// of more lines than the budget within a second, some are left out.
func TestMalformedRequestLogIsBounded(t *testing.T) {
	var buf logsink.Buffer
	p := &printfLogger{l: slogTo(&buf), budget: lineBudget{max: 3}}
	for i := range 10 {
		p.Printf("error when serving connection %d", i)
	}
	lines := strings.Count(buf.String(), "\n")
	require.Positive(t, lines)
	require.LessOrEqual(t, lines, 6, "a budget of 3 a second admits at most 6 lines across one second's turn")
}

// shortListener fails its first accepts as the kernel does when the
// process is out of descriptors (EMFILE), then accepts for real.
type shortListener struct {
	net.Listener
	failures atomic.Int32
}

func (s *shortListener) Accept() (net.Conn, error) {
	if s.failures.Add(-1) >= 0 {
		return nil, &net.OpError{Op: "accept", Net: "tcp", Addr: s.Addr(), Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	return s.Listener.Accept()
}

// TestAcceptOutlivesDescriptorShortage: accepts failing for want of
// descriptors (a connection flood past RLIMIT_NOFILE) do not end the
// server: it waits and serves the connection once it can.
func TestAcceptOutlivesDescriptorShortage(t *testing.T) {
	ta := newTestAPI(t)
	srv, err := New(Config{BasePath: "/public/v1", Logger: ta.s.cfg.Logger}, ta.e)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	short := &shortListener{Listener: ln}
	short.failures.Store(5)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(short) }()
	t.Cleanup(func() { _ = srv.Shutdown(context.Background()) })
	c, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	got := make(chan reply, 1)
	go func() { got <- readReply(c, bufio.NewReader(c)) }()
	_, err = c.Write([]byte("GET /public/v1/nowhere HTTP/1.1\r\nHost: fxd\r\n\r\n"))
	require.NoError(t, err)
	select {
	case err := <-served:
		t.Fatalf("Serve ended on a passing accept error: %v", err)
	case r := <-got:
		require.NoError(t, r.err)
		require.Equal(t, 404, r.status, "%s", r.body)
	}
	require.Negative(t, short.failures.Load(), "the failing accepts were not all tried")
}
