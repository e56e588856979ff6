package forward

import (
	"errors"
	"net"
	"time"
)

// errNoConn: a forwarded request has no connection of its own to read
// from or write to; its answer travels by NATS.
var errNoConn = errors.New("forward: a forwarded request has no connection")

// ownerConn is what a handler on the owner sees as the request's
// connection: the client's address, deadlines that do nothing (the
// entry node holds the client's real connection and its deadlines), and
// no bytes to read or write. fasthttp's own stand-in (RequestCtx.Init)
// panics on a deadline, which the ledger export sets before every page.
type ownerConn struct {
	remote net.Addr
}

var zeroAddr = &net.TCPAddr{IP: net.IPv4zero}

func (c *ownerConn) Read([]byte) (int, error)         { return 0, errNoConn }
func (c *ownerConn) Write([]byte) (int, error)        { return 0, errNoConn }
func (c *ownerConn) Close() error                     { return nil }
func (c *ownerConn) LocalAddr() net.Addr              { return zeroAddr }
func (c *ownerConn) RemoteAddr() net.Addr             { return c.remote }
func (c *ownerConn) SetDeadline(time.Time) error      { return nil }
func (c *ownerConn) SetReadDeadline(time.Time) error  { return nil }
func (c *ownerConn) SetWriteDeadline(time.Time) error { return nil }
