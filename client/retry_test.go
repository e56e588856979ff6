package client

import (
	"context"
	"crypto/ed25519"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/reqsig"
)

// answer is one scripted answer of scriptServer.
type answer struct {
	status int
	code   string            // error code ("" for a success body {})
	header map[string]string // extra headers (Retry-After, SVC-Server-Time)
	drop   bool              // close the connection without answering
}

// attemptSeen is one request scriptServer received.
type attemptSeen struct {
	target, timestamp, signature, idemKey string
	verified                              bool
}

// scriptServer answers the n-th request with script[n] and records what
// it received, verifying each signature with pub.
type scriptServer struct {
	pub    ed25519.PublicKey
	mu     sync.Mutex
	script []answer
	seen   []attemptSeen
}

func startScript(t *testing.T, script ...answer) (*scriptServer, string) {
	_, pub := testKey()
	s := &scriptServer{pub: pub, script: script}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func (s *scriptServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	a := attemptSeen{target: r.RequestURI, timestamp: r.Header.Get("SVC-Timestamp"),
		signature: r.Header.Get("SVC-Signature"), idemKey: r.Header.Get("Idempotency-Key")}
	var sig [64]byte
	if _, ok := reqsig.ParseTimestamp([]byte(a.timestamp)); ok && reqsig.DecodeSignature(&sig, []byte(a.signature)) {
		a.verified = reqsig.VerifyDecoded(s.pub, []byte(a.timestamp), []byte(r.Method), []byte(r.RequestURI), body, &sig)
	}
	s.mu.Lock()
	n := len(s.seen)
	s.seen = append(s.seen, a)
	ans := answer{status: 500, code: "unexpected_request"}
	if n < len(s.script) {
		ans = s.script[n]
	}
	s.mu.Unlock()
	if ans.drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close()
		}
		return
	}
	for k, v := range ans.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(ans.status)
	if ans.code != "" {
		_, _ = io.WriteString(w, `{"error":{"code":"`+ans.code+`","message":"scripted"}}`)
		return
	}
	_, _ = io.WriteString(w, `{}`)
}

func (s *scriptServer) attempts() []attemptSeen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]attemptSeen(nil), s.seen...)
}

// sleeper records the waits asked for and moves the fake clock by them,
// instead of sleeping.
type sleeper struct {
	clock *fixedClock
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	s.clock.advance(d)
	return ctx.Err()
}

// span is an accepted range of one wait (min == max: exactly).
type span struct{ min, max time.Duration }

func exactly(d time.Duration) span { return span{d, d} }

// backoffSpan is the range of the n-th backoff of DefaultRetryPolicy.
func backoffSpan(n int) span {
	d := DefaultRetryPolicy.BaseDelay << (n - 1)
	return span{d / 2, d}
}

func ra(s string) map[string]string { return map[string]string{"Retry-After": s} }

const clockStart = 1_795_000_000

// Calls of the retry cases.
func callAccount(c *Client, o ...CallOption) error {
	_, err := c.GetAccount(context.Background(), o...)
	return err
}

func callContact(c *Client, o ...CallOption) error {
	_, err := c.CreateContact(context.Background(), ContactCreate{Name: "Ada", Address: "0xab"}, o...)
	return err
}

func callTransfer(c *Client, o ...CallOption) error {
	_, err := c.CreateTransfer(context.Background(), TransferRequest{FromCurrency: "USDC", Currency: "USDC", Amount: "1"}, o...)
	return err
}

func callQuotes(c *Client, o ...CallOption) error {
	_, err := c.CreateQuotes(context.Background(), QuoteRequest{}, o...)
	return err
}

// retryCases: a call, the server's answers to its attempts, and what the
// client must have done.
var retryCases = []struct {
	name     string
	call     func(*Client, ...CallOption) error
	opts     []CallOption
	script   []answer
	attempts int
	waits    []span
	code     string // the APIError's code; "" success
	key      string // "auto": a generated key on every attempt; "": none
}{
	{"503 then created: Retry-After honoured", callContact, nil,
		[]answer{{status: 503, code: CodeUnavailable, header: ra("2")}, {status: 201}}, 2, []span{exactly(2 * time.Second)}, "", "auto"},
	{"429 twice: each Retry-After", callAccount, nil,
		[]answer{{status: 429, code: CodeOverLimit, header: ra("1")}, {status: 429, code: CodeOverLimit, header: ra("3")}, {status: 200}},
		3, []span{exactly(time.Second), exactly(3 * time.Second)}, "", ""},
	{"Retry-After as an HTTP date", callAccount, nil,
		[]answer{{status: 503, code: CodeUnavailable, header: ra(time.Unix(clockStart+5, 0).UTC().Format(http.TimeFormat))}, {status: 200}},
		2, []span{exactly(5 * time.Second)}, "", ""},
	{"500 on a keyed write: backoff", callTransfer, nil,
		[]answer{{status: 500}, {status: 500}, {status: 201}}, 3, []span{backoffSpan(1), backoffSpan(2)}, "", "auto"},
	{"transport error on a keyed write", callContact, nil,
		[]answer{{drop: true}, {status: 201}}, 2, []span{backoffSpan(1)}, "", "auto"},
	{"transport error on a read", callAccount, nil,
		[]answer{{drop: true}, {status: 200}}, 2, []span{backoffSpan(1)}, "", ""},
	{"attempts spent: the last answer", callAccount, nil,
		[]answer{{status: 503, code: CodeUnavailable, header: ra("1")}, {status: 503, code: CodeUnavailable, header: ra("1")},
			{status: 503, code: CodeUnavailable, header: ra("1")}, {status: 503, code: CodeUnavailable, header: ra("1")}},
		4, []span{exactly(time.Second), exactly(time.Second), exactly(time.Second)}, CodeUnavailable, ""},
	{"409 idempotency_in_progress waits", callContact, nil,
		[]answer{{status: 409, code: CodeIdempotencyInProgress, header: ra("1")}, {status: 201}}, 2, []span{exactly(time.Second)}, "", "auto"},
	{"401 replayed was refused before acting", callAccount, nil,
		[]answer{{status: 401, code: CodeReplayed}, {status: 200}}, 2, []span{backoffSpan(1)}, "", ""},
	{"502 no_quote_available is an answer", callQuotes, nil,
		[]answer{{status: 502, code: CodeNoQuoteAvailable}}, 1, nil, CodeNoQuoteAvailable, ""},
	{"quotes retry a 500 without a key", callQuotes, nil,
		[]answer{{status: 500}, {status: 200}}, 2, []span{backoffSpan(1)}, "", ""},
	{"400 is final", callContact, nil,
		[]answer{{status: 400, code: CodeInvalidRequest}}, 1, nil, CodeInvalidRequest, "auto"},
	{"503 webhook_encryption_unavailable is final", callContact, nil,
		[]answer{{status: 503, code: CodeWebhookEncryptionUnavailable}}, 1, nil, CodeWebhookEncryptionUnavailable, "auto"},
	{"Retry-After beyond MaxRetryAfter: returned", callAccount, nil,
		[]answer{{status: 429, code: CodeOverLimit, header: ra("120")}}, 1, nil, CodeOverLimit, ""},
	{"MaxAttempts(1) sends once", callAccount, []CallOption{MaxAttempts(1)},
		[]answer{{status: 503, code: CodeUnavailable, header: ra("1")}}, 1, nil, CodeUnavailable, ""},
	{"the caller's key on every attempt", callTransfer, []CallOption{IdempotencyKey("pay-supplier-1")},
		[]answer{{status: 503, code: CodeUnavailable}, {status: 201}}, 2, []span{backoffSpan(1)}, "", "pay-supplier-1"},
}

// TestRetries runs retryCases against a scripted server, with a sleep
// that records the waits instead of sleeping.
func TestRetries(t *testing.T) {
	for _, tc := range retryCases {
		t.Run(tc.name, func(t *testing.T) {
			srv, base := startScript(t, tc.script...)
			clock := newClock(clockStart)
			sl := &sleeper{clock: clock}
			c := newTestClient(t, base, clock, WithSleep(sl.sleep))
			err := tc.call(c, tc.opts...)
			if tc.code == "" {
				require.NoError(t, err)
			} else {
				var apiErr *APIError
				require.ErrorAs(t, err, &apiErr)
				require.Equal(t, tc.code, apiErr.Code)
				require.Equal(t, tc.script[len(tc.script)-1].status, apiErr.Status)
				if v := tc.script[len(tc.script)-1].header["Retry-After"]; v != "" {
					s, _ := strconv.Atoi(v)
					require.Equal(t, time.Duration(s)*time.Second, apiErr.RetryAfter)
				}
			}
			got := srv.attempts()
			require.Len(t, got, tc.attempts)
			requireFreshSignatures(t, got, tc.key)
			require.Len(t, sl.waits, len(tc.waits), "waits %v", sl.waits)
			for i, w := range tc.waits {
				require.True(t, w.min <= sl.waits[i] && sl.waits[i] <= w.max, "wait %d: %v, want %v..%v", i, sl.waits[i], w.min, w.max)
			}
		})
	}
}

// requireFreshSignatures: every attempt was signed (valid, never the
// same signature twice) and carried the same Idempotency-Key.
func requireFreshSignatures(t *testing.T, got []attemptSeen, key string) {
	t.Helper()
	sigs := map[string]bool{}
	for i, a := range got {
		require.True(t, a.verified, "attempt %d: signature verifies", i)
		require.False(t, sigs[a.signature], "attempt %d: a resent signature", i)
		sigs[a.signature] = true
		switch key {
		case "":
			require.Empty(t, a.idemKey, "attempt %d", i)
		case "auto":
			require.NoError(t, checkIdemKey(a.idemKey))
			require.Equal(t, got[0].idemKey, a.idemKey, "attempt %d: the same key", i)
		default:
			require.Equal(t, key, a.idemKey, "attempt %d", i)
		}
	}
}

// TestStaleTimestampAdoptsServerClock: a stale_timestamp answer with
// SVC-Server-Time sets the clock offset and the call is retried once,
// signed with the server's time.
func TestStaleTimestampAdoptsServerClock(t *testing.T) {
	stale := func(server int64) answer {
		return answer{status: 401, code: CodeStaleTimestamp, header: map[string]string{"SVC-Server-Time": strconv.FormatInt(server, 10)}}
	}
	tests := []struct {
		name       string
		script     []answer
		code       string
		timestamps []string // SVC-TIMESTAMP of each attempt
		waits      []time.Duration
	}{
		{"our clock 100 s slow", []answer{stale(clockStart + 100), {status: 200}}, "",
			[]string{"1795000000", "1795000100"}, []time.Duration{0}},
		{"our clock 100 s fast", []answer{stale(clockStart - 100), {status: 200}}, "",
			[]string{"1795000000", "1794999900"}, []time.Duration{0}},
		{"same clock: the server restarted this second", []answer{stale(clockStart), {status: 200}}, "",
			[]string{"1795000000", "1795000001"}, []time.Duration{500 * time.Millisecond}},
		{"stale again: retried once only", []answer{stale(clockStart + 100), stale(clockStart + 300)}, CodeStaleTimestamp,
			[]string{"1795000000", "1795000100"}, []time.Duration{0}},
		{"no SVC-Server-Time: not retried", []answer{{status: 401, code: CodeStaleTimestamp}}, CodeStaleTimestamp,
			[]string{"1795000000"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, base := startScript(t, tc.script...)
			clock := newClock(clockStart)
			sl := &sleeper{clock: clock}
			c := newTestClient(t, base, clock, WithSleep(sl.sleep))
			_, err := c.GetAccount(context.Background())
			require.Equal(t, tc.code, ErrorCode(err), "%v", err)
			got := srv.attempts()
			require.Len(t, got, len(tc.timestamps))
			for i, a := range got {
				require.Equal(t, tc.timestamps[i], a.timestamp, "attempt %d", i)
			}
			requireFreshSignatures(t, got, "")
			require.Equal(t, tc.waits, sl.waits)
		})
	}
}

// TestRawDoNeverRetries: Do answers what the server said, once.
func TestRawDoNeverRetries(t *testing.T) {
	srv, base := startScript(t, answer{status: 503, code: CodeUnavailable, header: ra("1")},
		answer{status: 401, code: CodeStaleTimestamp, header: map[string]string{"SVC-Server-Time": "1795000100"}})
	clock := newClock(clockStart)
	sl := &sleeper{clock: clock}
	c := newTestClient(t, base, clock, WithSleep(sl.sleep))
	for _, want := range []int{503, 401} {
		resp, err := c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
		require.NoError(t, err)
		require.Equal(t, want, resp.Status)
	}
	require.Len(t, srv.attempts(), 2)
	require.Empty(t, sl.waits)
	require.Zero(t, c.ClockOffset(), "Do leaves the clock offset alone")
}

// TestRetryStopsWithTheContext: a wait is cut short by the context, and
// no wait starts that would end past its deadline.
func TestRetryStopsWithTheContext(t *testing.T) {
	_, base := startScript(t, answer{status: 503, code: CodeUnavailable, header: ra("30")}, answer{status: 200})
	c := newTestClient(t, base, newClock(clockStart))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.GetAccount(ctx)
	require.Equal(t, CodeUnavailable, ErrorCode(err), "the 503 is returned at once: its 30 s wait would pass the deadline")

	srv, base := startScript(t, answer{status: 503, code: CodeUnavailable, header: ra("1")}, answer{status: 200})
	ctx, cancel = context.WithCancel(context.Background())
	c = newTestClient(t, base, newClock(clockStart), WithSleep(func(context.Context, time.Duration) error {
		cancel()
		return context.Canceled
	}))
	_, err = c.GetAccount(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.Len(t, srv.attempts(), 1)
}

func TestRetryPolicyValidation(t *testing.T) {
	priv, _ := testKey()
	for _, p := range []RetryPolicy{
		{MaxAttempts: 0},
		{MaxAttempts: 2, BaseDelay: -1},
		{MaxAttempts: 2, BaseDelay: time.Second, MaxDelay: time.Millisecond},
		{MaxAttempts: 2, MaxRetryAfter: -1},
	} {
		_, err := New("http://127.0.0.1:1", "k", priv, WithRetryPolicy(p))
		require.Error(t, err, "%+v", p)
	}
	_, err := New("http://127.0.0.1:1", "k", priv, WithSleep(nil))
	require.Error(t, err)
	for n := 1; n < 10; n++ {
		d := DefaultRetryPolicy.backoff(n)
		require.True(t, d > 0 && d <= DefaultRetryPolicy.MaxDelay, "backoff %d: %v", n, d)
	}
	require.Equal(t, time.Duration(0), RetryPolicy{MaxAttempts: 3}.backoff(2), "no delay configured")
}

// TestCallOptionErrors: bad call options fail before anything is sent.
func TestCallOptionErrors(t *testing.T) {
	srv, base := startScript(t)
	c := newTestClient(t, base, newClock(clockStart))
	ctx := context.Background()
	_, err := c.GetAccount(ctx, IdempotencyKey("k"))
	require.ErrorContains(t, err, "takes no Idempotency-Key")
	_, err = c.CreateContact(ctx, ContactCreate{}, IdempotencyKey("bad\nkey"))
	require.ErrorContains(t, err, "printable ASCII")
	_, err = c.GetAccount(ctx, MaxAttempts(0))
	require.ErrorContains(t, err, "MaxAttempts")
	_, err = c.GetOrder(ctx, "")
	require.ErrorContains(t, err, "empty {id}")
	unsigned, err := New(base, "", nil)
	require.NoError(t, err)
	_, err = unsigned.GetAccount(ctx)
	require.ErrorIs(t, err, ErrNoKey)
	require.Empty(t, srv.attempts())
	_, err = unsigned.GetHealth(ctx, MaxAttempts(1))
	require.Error(t, err, "the empty script answers 500")
	require.True(t, errors.As(err, new(*APIError)))
}
