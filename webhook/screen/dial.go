package screen

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"syscall"
	"time"
)

const (
	// dialTimeout bounds one connection attempt; a delivery has 10 s in
	// all (CONTRACT.md), so a silent address must not take more.
	dialTimeout = 10 * time.Second
	// minAttempt is the least time an attempt gets when the deadline is
	// shared among several addresses, as Go's own dialer does.
	minAttempt = 2 * time.Second
)

// DialControl returns a net.Dialer.Control function that refuses to
// connect to an address Allowed refuses under p. It runs after the socket
// is made and before connect(2), so a refused connection sends nothing:
// the second line of defence, should any path reach the dialer with an
// address Screen did not judge.
func DialControl(p Policy) func(network, address string, c syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return refuse(fmt.Sprintf("refusing to connect to %q: not an IP address and port", address))
		}
		if err := Allowed(ap.Addr(), p); err != nil {
			return &Error{msg: fmt.Sprintf("refusing to connect to %s: %s", address, err), err: err}
		}
		return nil
	}
}

// Dialer returns a DialContext function for the delivery to t: it ignores
// the address it is asked for and connects to t's screened addresses, in
// order, on t's port, until one answers. It never resolves a name, so the
// addresses Screen judged are the addresses reached. Every attempt also
// passes DialControl(p).
//
// Use it as http.Transport.DialContext (or under DialTLSContext) with the
// TLS ServerName set to t.Host, and do not follow redirects.
func Dialer(p Policy, t Target) func(ctx context.Context, network, addr string) (net.Conn, error) {
	d := &net.Dialer{Timeout: dialTimeout, Control: DialControl(p)}
	return dialTarget(p, t, d.DialContext)
}

type dialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// dialTarget is Dialer with the connecting step given, so tests can watch
// what would be dialled without sending a packet.
func dialTarget(p Policy, t Target, dial dialFunc) func(ctx context.Context, network, addr string) (net.Conn, error) {
	addrs := slices.Clone(t.Addrs)
	port := strconv.Itoa(int(t.Port))
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		if network != "tcp" && network != "tcp4" && network != "tcp6" {
			return nil, refuse(fmt.Sprintf("refusing to connect over %q: webhooks use TCP", network))
		}
		// Judge every address before the first attempt: a Target made
		// under another policy, or by hand, is refused whole.
		for _, a := range addrs {
			if err := Allowed(a, p); err != nil {
				return nil, &Error{msg: fmt.Sprintf("refusing to connect to %s: %s", t.Host, err), err: err}
			}
		}
		todo := usable(addrs, network)
		if len(todo) == 0 {
			return nil, refuse(fmt.Sprintf("no screened address of %s to connect to", t.Host))
		}
		var first error
		for i, a := range todo {
			actx, cancel := attemptContext(ctx, len(todo)-i)
			conn, err := dial(actx, tcpFor(a), net.JoinHostPort(a.String(), port))
			cancel()
			if err == nil {
				return conn, nil
			}
			if first == nil {
				first = err
			}
			if ctx.Err() != nil {
				break
			}
		}
		return nil, fmt.Errorf("connecting to %s (%d screened addresses): %w", t.Host, len(todo), first)
	}
}

// usable keeps the addresses the requested network can reach.
func usable(addrs []netip.Addr, network string) []netip.Addr {
	out := make([]netip.Addr, 0, len(addrs))
	for _, a := range addrs {
		a = a.Unmap()
		if network == "tcp" || network == "tcp4" && a.Is4() || network == "tcp6" && a.Is6() {
			out = append(out, a)
		}
	}
	return out
}

func tcpFor(a netip.Addr) string {
	if a.Is4() {
		return "tcp4"
	}
	return "tcp6"
}

// attemptContext shares what is left of ctx's deadline among the remaining
// addresses (but gives each at least minAttempt), so one silent address
// cannot use up the whole delivery.
func attemptContext(ctx context.Context, remaining int) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok || remaining <= 1 {
		return context.WithCancel(ctx)
	}
	share := time.Until(deadline) / time.Duration(remaining)
	return context.WithTimeout(ctx, max(share, minAttempt))
}
