package screen

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// These tests connect only to listeners on 127.0.0.1. Refusals of any
// other address are tested through DialControl directly or through a
// Dialer whose connecting step fails the test if it is ever reached.

func TestDialControl(t *testing.T) {
	strict, lo := DialControl(Policy{}), DialControl(Policy{AllowLoopback: true})
	for _, addr := range []string{"127.0.0.1:443", "[::1]:443", "[::ffff:127.0.0.1]:443", "127.0.0.2:8443"} {
		require.ErrorContains(t, strict("tcp4", addr, nil), "loopback", addr)
		require.NoError(t, lo("tcp4", addr, nil), addr)
	}
	for _, addr := range []string{
		"10.0.0.1:443", "[::ffff:10.0.0.1]:443", "169.254.169.254:80", "[fd00:ec2::254]:80",
		"0.0.0.0:443", "[::]:443", "[fe80::1%eth0]:443", "224.0.0.1:443", "100.64.0.1:443",
		"[64:ff9b::7f00:1]:443", "[::7f00:1]:443",
	} {
		for _, c := range []func(string, string, syscall.RawConn) error{strict, lo} {
			err := c("tcp", addr, nil)
			require.Error(t, err, addr)
			require.ErrorContains(t, err, "refusing to connect to "+addr)
		}
	}
	require.NoError(t, strict("tcp6", "[2606:4700:4700::1111]:443", nil))
	require.NoError(t, strict("tcp4", "8.8.8.8:443", nil))
	require.ErrorContains(t, lo("tcp", "localhost:443", nil), "not an IP address and port")
	require.ErrorContains(t, lo("tcp", "127.0.0.1", nil), "not an IP address and port")
}

// The Dialer connects to the screened address whatever address it is
// asked for: the host in addr is never resolved.
func TestDialerConnectsToTheScreenedLoopbackAddress(t *testing.T) {
	ln, port := listen(t)
	target, err := Screen(context.Background(), "https://127.0.0.1:"+port+"/hook", Policy{AllowLoopback: true}, panicResolver{})
	require.NoError(t, err)

	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := Dialer(Policy{AllowLoopback: true}, target)(ctx, "tcp", "attacker.invalid:1")
	require.NoError(t, err)
	defer conn.Close()
	require.Equal(t, "127.0.0.1:"+port, conn.RemoteAddr().String())

	server := <-accepted
	defer server.Close()
	_, err = conn.Write([]byte("ping"))
	require.NoError(t, err)
	buf := make([]byte, 4)
	_, err = io.ReadFull(server, buf)
	require.NoError(t, err)
	require.Equal(t, "ping", string(buf))
}

// An IPv4-mapped loopback URL is dialled as plain IPv4 loopback.
func TestDialerMappedLoopback(t *testing.T) {
	ln, port := listen(t)
	target, err := Screen(context.Background(), "https://[::ffff:127.0.0.1]:"+port+"/", Policy{AllowLoopback: true}, panicResolver{})
	require.NoError(t, err)
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	conn, err := Dialer(Policy{AllowLoopback: true}, target)(context.Background(), "tcp", "ignored:443")
	require.NoError(t, err)
	require.NoError(t, conn.Close())
}

// Without AllowLoopback nothing reaches a loopback listener: the Dialer
// refuses before it dials, and DialControl refuses at connect time even
// when a plain net.Dialer is asked for the address directly.
func TestLoopbackRefusedAtDialTime(t *testing.T) {
	ln, port := listen(t)
	target := Target{Host: "127.0.0.1", Port: mustPort(t, port), Addrs: []netip.Addr{netip.MustParseAddr("127.0.0.1")}}

	_, err := Dialer(Policy{}, target)(context.Background(), "tcp", "ignored:443")
	var serr *Error
	require.ErrorAs(t, err, &serr)
	require.ErrorContains(t, err, "loopback")

	d := &net.Dialer{Control: DialControl(Policy{})}
	_, err = d.DialContext(context.Background(), "tcp4", ln.Addr().String())
	require.ErrorAs(t, err, &serr)
	require.ErrorContains(t, err, "loopback")

	require.NoError(t, ln.(*net.TCPListener).SetDeadline(time.Now().Add(100*time.Millisecond)))
	_, err = ln.Accept()
	require.ErrorIs(t, err, os.ErrDeadlineExceeded, "the listener must not have been reached")
}

// A Target holding any refused address is refused whole, before any
// attempt, even if an allowed address comes first.
func TestDialerRefusesATargetWithARefusedAddress(t *testing.T) {
	for _, bad := range []string{"10.0.0.1", "169.254.169.254", "::ffff:192.168.1.1", "fe80::1", "0.0.0.0"} {
		target := Target{Host: "h.example", Port: 443, Addrs: []netip.Addr{netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr(bad)}}
		_, err := dialTarget(Policy{AllowLoopback: true}, target, neverDial(t))(context.Background(), "tcp", "h.example:443")
		require.ErrorContains(t, err, "refusing to connect to h.example: "+netip.MustParseAddr(bad).String(), bad)
	}
}

func TestDialerTriesScreenedAddressesInOrder(t *testing.T) {
	target := Target{Host: "h.example", Port: 8443, Addrs: []netip.Addr{
		netip.MustParseAddr("2606:4700:4700::1111"), netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("1.1.1.1"),
	}}
	for _, c := range []struct {
		network string
		want    []string
	}{
		{"tcp", []string{"tcp6 [2606:4700:4700::1111]:8443", "tcp4 8.8.8.8:8443", "tcp4 1.1.1.1:8443"}},
		{"tcp4", []string{"tcp4 8.8.8.8:8443", "tcp4 1.1.1.1:8443"}},
		{"tcp6", []string{"tcp6 [2606:4700:4700::1111]:8443"}},
	} {
		var got []string
		fail := func(_ context.Context, network, address string) (net.Conn, error) {
			got = append(got, network+" "+address)
			return nil, errors.New("test: not dialling")
		}
		_, err := dialTarget(Policy{}, target, fail)(context.Background(), c.network, "other.example:443")
		require.ErrorContains(t, err, "connecting to h.example")
		require.Equal(t, c.want, got, c.network)
	}
	_, err := dialTarget(Policy{}, target, neverDial(t))(context.Background(), "udp", "h.example:443")
	require.ErrorContains(t, err, "TCP")
	_, err = dialTarget(Policy{}, Target{Host: "h.example", Port: 443}, neverDial(t))(context.Background(), "tcp", "h.example:443")
	require.ErrorContains(t, err, "no screened address")
	v6only := Target{Host: "h.example", Port: 443, Addrs: []netip.Addr{netip.MustParseAddr("2606:4700:4700::1111")}}
	_, err = dialTarget(Policy{}, v6only, neverDial(t))(context.Background(), "tcp4", "h.example:443")
	require.ErrorContains(t, err, "no screened address")
}

// The Dialer keeps its own copy of the addresses: changing the Target
// afterwards changes nothing.
func TestDialerCopiesTheTarget(t *testing.T) {
	target := Target{Host: "h.example", Port: 443, Addrs: []netip.Addr{netip.MustParseAddr("8.8.8.8")}}
	var got []string
	dial := dialTarget(Policy{}, target, func(_ context.Context, _, address string) (net.Conn, error) {
		got = append(got, address)
		return nil, errors.New("test: not dialling")
	})
	target.Addrs[0] = netip.MustParseAddr("1.1.1.1")
	_, _ = dial(context.Background(), "tcp", "x:1")
	require.Equal(t, []string{"8.8.8.8:443"}, got)
}

func TestAttemptContextSharesTheDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 9*time.Second)
	defer cancel()
	a, c1 := attemptContext(ctx, 3)
	defer c1()
	d, ok := a.Deadline()
	require.True(t, ok)
	require.WithinDuration(t, time.Now().Add(3*time.Second), d, 100*time.Millisecond)

	short, c2 := context.WithTimeout(context.Background(), time.Second)
	defer c2()
	b, c3 := attemptContext(short, 4)
	defer c3()
	d, _ = b.Deadline()
	sd, _ := short.Deadline()
	require.Equal(t, sd, d, "the minimum per attempt never extends the caller's deadline")
}

func listen(t *testing.T) (net.Listener, string) {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { ln.Close() })
	_, port, err := net.SplitHostPort(ln.Addr().String())
	require.NoError(t, err)
	return ln, port
}

func mustPort(t *testing.T, s string) uint16 {
	t.Helper()
	ap, err := netip.ParseAddrPort("127.0.0.1:" + s)
	require.NoError(t, err)
	return ap.Port()
}
