// Package loopback hands out loopback addresses for processes a test or a
// bench starts (cluster routes, listeners given on the command line).
package loopback

import (
	"fmt"
	"net"
	"strings"
)

// MaxPorts bounds one FreeAddrs call (it holds that many listeners).
const MaxPorts = 64

// FreeAddrs returns n distinct 127.0.0.1:port addresses that were free a
// moment ago. It holds all n listeners at once and only then closes them:
// taking one port at a time can give the same port twice (the kernel may
// hand a just-closed port out again), and two cluster nodes given the same
// route port left a new cluster without a quorum (CI, 2026-11-29).
//
// The ports come from the kernel's bind(0) range, so another process may
// still take one before its user binds it: callers that can, retry on
// "address already in use".
func FreeAddrs(n int) ([]string, error) {
	if n < 0 || n > MaxPorts {
		return nil, fmt.Errorf("loopback: %d ports asked, at most %d", n, MaxPorts)
	}
	lns := make([]net.Listener, 0, n)
	defer func() {
		for _, ln := range lns {
			_ = ln.Close()
		}
	}()
	addrs := make([]string, 0, n)
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("loopback: find a free port: %w", err)
		}
		lns = append(lns, ln)
		addrs = append(addrs, ln.Addr().String())
	}
	return addrs, nil
}

// Taken reports whether err is a server failing to bind a port picked
// free a moment before (nats-server and the Go runtime report it as text,
// the former as a log line a process exits with).
func Taken(err error) bool {
	return err != nil && strings.Contains(err.Error(), "address already in use")
}
