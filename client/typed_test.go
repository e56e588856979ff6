package client

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

// fixedServer answers every request with one status, content type and
// body, and counts the requests.
func fixedServer(t *testing.T, status int, contentType, body string, header map[string]string) (*atomic.Int32, string) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return &n, srv.URL
}

func TestTypedAnswers(t *testing.T) {
	ctx := context.Background()
	clock := newClock(clockStart)

	// GET /health's 503 is an answer: the Health body, not retried.
	n, base := fixedServer(t, 503, "application/json", `{"status":"recovering","version":"1.0.0","wal_index":3,"chain":null}`, nil)
	h, err := newTestClient(t, base, clock).GetHealth(ctx)
	require.NoError(t, err)
	require.Equal(t, &Health{Status: "recovering", Version: "1.0.0", WALIndex: 3}, h)
	require.Equal(t, int32(1), n.Load())

	// CaptureResponse hands over the answer's headers.
	_, base = fixedServer(t, 201, "application/json", `{"id":"ct_1","name":"Ada"}`, map[string]string{"Idempotency-Replayed": "true", "X-RateLimit-Remaining": "119"})
	var resp Response
	ct, err := newTestClient(t, base, clock).CreateContact(ctx, ContactCreate{Name: "Ada", Address: "0xab"}, CaptureResponse(&resp))
	require.NoError(t, err)
	require.Equal(t, "Ada", ct.Name)
	require.Equal(t, 201, resp.Status)
	require.Equal(t, "true", resp.Header.Get("Idempotency-Replayed"))
	require.Equal(t, "/public/v1/contacts", resp.Target)

	// An APIError carries everything, errors.As finds it.
	_, base = fixedServer(t, 404, "application/json", `{"error":{"code":"not_found","message":"no such order"}}`,
		map[string]string{"X-RateLimit-Limit": "600", "Request-Id": "req_abc"})
	_, err = newTestClient(t, base, clock).GetOrder(ctx, "ord_1")
	var apiErr *APIError
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, &APIError{Status: 404, Code: CodeNotFound, Message: "no such order", Header: apiErr.Header,
		Method: "GET", Target: "/public/v1/fx/orders/ord_1", RequestID: "req_abc"}, apiErr)
	require.Equal(t, "600", apiErr.Header.Get("X-RateLimit-Limit"))
	require.Equal(t, "client: GET /public/v1/fx/orders/ord_1: 404 not_found: no such order (request req_abc)", err.Error())

	// A body that is not a contract error: its start is the message.
	_, base = fixedServer(t, 502, "text/html", "<html>"+strings.Repeat("x", 2000)+"</html>", nil)
	_, err = newTestClient(t, base, clock).GetAccount(ctx, MaxAttempts(1))
	require.ErrorAs(t, err, &apiErr)
	require.Equal(t, "", apiErr.Code)
	require.Len(t, apiErr.Message, maxErrorMessage)

	// A body over the limit is an error, and not retried.
	n, base = fixedServer(t, 200, "application/json", `{"id":"`+strings.Repeat("x", 100)+`"}`, nil)
	_, err = newTestClient(t, base, clock, WithMaxResponseBodySize(50)).GetContact(ctx, "ct_1")
	require.ErrorIs(t, err, ErrResponseTooLarge)
	require.Equal(t, int32(1), n.Load())

	// An undecodable 2xx answer is an error naming the route.
	_, base = fixedServer(t, 200, "application/json", `{"id":5}`, nil)
	_, err = newTestClient(t, base, clock).GetContact(ctx, "ct_1")
	require.ErrorContains(t, err, "GET /public/v1/contacts/ct_1: decode the 200 answer")

	// Path parameters are escaped, so an id cannot address another route.
	rec := &recorder{status: 200, body: `{}`}
	srv := httptest.NewServer(rec)
	t.Cleanup(srv.Close)
	_, err = newTestClient(t, srv.URL, clock).GetOrder(ctx, "../account?x=1")
	require.NoError(t, err)
	require.Equal(t, "/public/v1/fx/orders/..%2Faccount%3Fx=1", rec.last().Path)
}

func TestExportTransactions(t *testing.T) {
	ctx := context.Background()
	csvBody := "id,type\r\nord_1,fx_amm\r\n" + strings.Repeat("tr_x,transfer\r\n", 5000)
	// An error answer is retried before the stream starts.
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(503)
			_, _ = io.WriteString(w, `{"error":{"code":"unavailable","message":"recovering"}}`)
			return
		}
		require.Equal(t, "type=transfer&currency=EURC", r.URL.RawQuery)
		w.Header().Set("Content-Type", "text/csv")
		_, _ = io.WriteString(w, csvBody)
	}))
	t.Cleanup(srv.Close)
	clock := newClock(clockStart)
	sl := &sleeper{clock: clock}
	// The stream is longer than the response limit: it is not read into memory.
	c := newTestClient(t, srv.URL, clock, WithSleep(sl.sleep), WithMaxResponseBodySize(1024))
	body, err := c.ExportTransactions(ctx, TransactionFilter{Type: "transfer", Currency: "EURC"})
	require.NoError(t, err)
	got, err := io.ReadAll(body)
	require.NoError(t, err)
	require.NoError(t, body.Close())
	require.NoError(t, body.Close(), "closing twice is harmless")
	require.Equal(t, csvBody, string(got))
	require.Equal(t, int32(2), n.Load())

	_, base := fixedServer(t, 400, "application/json", `{"error":{"code":"invalid_request","message":"bad from"}}`, nil)
	_, err = newTestClient(t, base, clock).ExportTransactions(ctx, TransactionFilter{})
	require.Equal(t, CodeInvalidRequest, ErrorCode(err))
}

// TestTransportResendIsNotAReplay: when a kept-alive connection dies with
// a signed request on it, net/http resends the request on a new one; the
// server, which had the first copy, answers replayed. Do reports what
// that is, a lost answer, not a 401.
func TestTransportResendIsNotAReplay(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	var conns atomic.Int32
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveScripted(conn, conns.Add(1))
		}
	}()
	c := newTestClient(t, "http://"+ln.Addr().String(), newClock(clockStart))
	resp, err := c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.NoError(t, err)
	require.Equal(t, 200, resp.Status)
	_, err = c.Do(context.Background(), "GET", "/public/v1/account", nil, nil)
	require.ErrorContains(t, err, "outcome unknown")
	require.Equal(t, int32(2), conns.Load(), "the transport did resend on a second connection")
}

// serveScripted: on connection 1, answer the first request and hang up
// on the second after reading it; on connection 2, answer replayed.
func serveScripted(conn net.Conn, n int32) {
	defer conn.Close()
	br := bufio.NewReader(conn)
	for i := 0; ; i++ {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		switch {
		case n == 1 && i == 1:
			return
		case n == 2:
			body := `{"error":{"code":"replayed","message":"replayed"}}`
			_, _ = io.WriteString(conn, "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
		default:
			_, _ = io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
		}
	}
}
