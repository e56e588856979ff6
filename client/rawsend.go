package client

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
)

// rawFallback is the Client's own transport plus one escape: a request
// whose header net/http refuses to send (a control character in a value
// or name, which RFC 9110 forbids) is written by hand on a connection of
// its own. Do has always sent what it was given, and the integration
// tests rely on it to see the server refuse such an Idempotency-Key with
// 400 invalid_request; judging a header is the server's job, not the
// SDK's. Every other request goes through the inner transport.
type rawFallback struct {
	inner  *http.Transport
	dialer *net.Dialer
	tls    *tls.Config
}

func (f *rawFallback) CloseIdleConnections() { f.inner.CloseIdleConnections() }

func (f *rawFallback) RoundTrip(req *http.Request) (*http.Response, error) {
	if sendable(req.Header) {
		return f.inner.RoundTrip(req)
	}
	conn, err := f.dial(req.Context(), req.URL.Scheme, req.URL.Host)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(req.Context(), func() { _ = conn.Close() })
	resp, err := writeRaw(conn, req)
	if err != nil {
		stop()
		_ = conn.Close()
		return nil, err
	}
	resp.Body = &closeConn{ReadCloser: resp.Body, conn: conn, stop: stop}
	return resp, nil
}

// writeRaw writes req on conn as HTTP/1.1 (one request, then close) and
// reads the answer's head.
func writeRaw(conn net.Conn, req *http.Request) (*http.Response, error) {
	bw := bufio.NewWriter(conn)
	fmt.Fprintf(bw, "%s %s HTTP/1.1\r\nHost: %s\r\n", req.Method, req.URL.RequestURI(), req.Host)
	for k, vs := range req.Header {
		for _, v := range vs {
			fmt.Fprintf(bw, "%s: %s\r\n", k, v)
		}
	}
	fmt.Fprintf(bw, "Content-Length: %d\r\nConnection: close\r\n\r\n", req.ContentLength)
	if req.Body != nil {
		if _, err := io.Copy(bw, req.Body); err != nil {
			return nil, err
		}
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	return http.ReadResponse(bufio.NewReader(conn), req)
}

// dial opens a connection to host (default port by scheme), TLS for https.
func (f *rawFallback) dial(ctx context.Context, scheme, host string) (net.Conn, error) {
	addr := host
	if _, _, err := net.SplitHostPort(host); err != nil {
		addr = net.JoinHostPort(host, map[string]string{"http": "80", "https": "443"}[scheme])
	}
	if scheme == "https" {
		return (&tls.Dialer{NetDialer: f.dialer, Config: f.tls}).DialContext(ctx, "tcp", addr)
	}
	return f.dialer.DialContext(ctx, "tcp", addr)
}

// closeConn closes the connection with the answer's body.
type closeConn struct {
	io.ReadCloser
	conn net.Conn
	stop func() bool
}

func (c *closeConn) Close() error {
	c.stop()
	err := c.ReadCloser.Close()
	_ = c.conn.Close()
	return err
}

// sendable reports whether net/http will send the header: names are
// tokens, values hold no control character but tab (RFC 9110 5.5).
func sendable(h http.Header) bool {
	for k, vs := range h {
		if k == "" {
			return false
		}
		for i := 0; i < len(k); i++ {
			if c := k[i]; c <= ' ' || c >= 0x7f || c == ':' {
				return false
			}
		}
		for _, v := range vs {
			for i := 0; i < len(v); i++ {
				if c := v[i]; (c < ' ' && c != '\t') || c == 0x7f {
					return false
				}
			}
		}
	}
	return true
}
