package forward

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"strconv"

	"github.com/nats-io/nats.go"
	"github.com/valyala/fasthttp"
)

const (
	// SubjectPrefix + partition is the subject the partition's owner
	// answers on.
	SubjectPrefix = "fxd.cmd."
	// MaxRequest bounds an encoded request: the API's 64 KiB body limit
	// plus room for the headers (fasthttp's server reads at most 8 KiB of
	// them, the header limit in httpd).
	MaxRequest = 64<<10 + 16<<10
	// MaxResponse bounds an encoded answer (a list page is far below it);
	// it is under the NATS payload limit fxd's nodes run with
	// (natsnode.MaxPayload).
	MaxResponse = 16 << 20

	// HeaderClientIP carries the client's IP from the entry node.
	HeaderClientIP = "Fxd-Client-Ip"

	placeholderHost = "fxd.invalid"
)

// Subject is the request subject of partition p.
func Subject(p int) string { return SubjectPrefix + strconv.Itoa(p) }

// encodeRequest is the message carrying req from a client at ip.
func encodeRequest(subject string, req *fasthttp.Request, ip net.IP) (*nats.Msg, error) {
	if len(req.Host()) == 0 {
		// fasthttp will not write a request without one (an HTTP/1.0
		// client may send none); nothing the owner checks reads it.
		req.SetHost(placeholderHost)
	}
	var buf bytes.Buffer
	if _, err := req.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("forward: encode request: %w", err)
	}
	if buf.Len() > MaxRequest {
		return nil, fmt.Errorf("forward: encode request: %d bytes, over %d", buf.Len(), MaxRequest)
	}
	msg := nats.NewMsg(subject)
	msg.Data = buf.Bytes()
	if ip != nil {
		msg.Header.Set(HeaderClientIP, ip.String())
	}
	return msg, nil
}

// decodeRequest reads a request message into req and returns the client's
// address (nil when the message did not say).
func decodeRequest(msg *nats.Msg, req *fasthttp.Request) (net.Addr, error) {
	if len(msg.Data) > MaxRequest {
		return nil, fmt.Errorf("forward: decode request: %d bytes, over %d", len(msg.Data), MaxRequest)
	}
	if err := req.ReadLimitBody(bufio.NewReader(bytes.NewReader(msg.Data)), MaxRequest); err != nil {
		return nil, fmt.Errorf("forward: decode request: %w", err)
	}
	ip := net.ParseIP(msg.Header.Get(HeaderClientIP))
	if ip == nil {
		return nil, nil
	}
	return &net.TCPAddr{IP: ip}, nil
}

// errResponseTooLarge: an answer over MaxResponse (a streamed body is cut
// off there, not read to its end).
var errResponseTooLarge = fmt.Errorf("forward: encode response: over %d bytes", MaxResponse)

// encodeResponse is resp as the bytes of an answer message.
func encodeResponse(resp *fasthttp.Response) ([]byte, error) {
	w := cappedBuffer{max: MaxResponse}
	_, err := resp.WriteTo(&w)
	switch {
	case w.over: // however fasthttp's stream writer passed the error on
		return nil, errResponseTooLarge
	case err != nil:
		return nil, fmt.Errorf("forward: encode response: %w", err)
	}
	return w.buf.Bytes(), nil
}

// cappedBuffer refuses to grow past max.
type cappedBuffer struct {
	buf  bytes.Buffer
	max  int
	over bool
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	if c.buf.Len()+len(p) > c.max {
		c.over = true
		return 0, errResponseTooLarge
	}
	return c.buf.Write(p)
}

// decodeResponse reads an answer message into resp.
func decodeResponse(data []byte, resp *fasthttp.Response) error {
	if len(data) > MaxResponse {
		return fmt.Errorf("forward: decode response: %d bytes, over %d", len(data), MaxResponse)
	}
	if err := resp.ReadLimitBody(bufio.NewReader(bytes.NewReader(data)), MaxResponse); err != nil {
		return fmt.Errorf("forward: decode response: %w", err)
	}
	return nil
}
