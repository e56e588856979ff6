package screen

import (
	"context"
	"fmt"
	"net/netip"
	"slices"
)

// Target is a screened webhook URL: who the receiver claims to be and the
// only addresses a delivery may connect to.
type Target struct {
	// URL is the URL as given, for the request line.
	URL string
	// Host is the URL's host: a lower-case name, or an IP literal in
	// canonical form without brackets. It is the TLS server name and
	// the Host header; it is never resolved again.
	Host string
	// Port is the URL's port, 443 when absent.
	Port uint16
	// Addrs are the screened addresses, in the resolver's order (one for
	// an IP literal), IPv4-mapped forms unmapped, at most maxAddrs (8).
	Addrs []netip.Addr
}

// Screen checks rawURL as a webhook receiver under p and returns where a
// delivery may connect, or an *Error saying why not.
//
// The URL must be https://host[:port][/path][?query], with no user
// information and no fragment, at most MaxURLLength bytes. An IP literal
// is judged by Allowed; a numeric host in any spelling other than
// canonical dotted decimal is refused (see numeric.go). A name is
// resolved once through r (net.DefaultResolver if nil), within a bounded
// time; it must resolve, and every address returned must pass Allowed:
// one refused address refuses the URL, since we cannot know which one a
// later lookup would favour.
//
// Call it at registration and again before each delivery; then connect
// with Dialer, so the addresses screened are the addresses reached.
func Screen(ctx context.Context, rawURL string, p Policy, r Resolver) (Target, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return Target{}, err
	}
	h, err := parseHost(u, p)
	if err != nil {
		return Target{}, err
	}
	t := Target{URL: rawURL, Host: h.text, Port: u.port}
	if h.addr.IsValid() {
		if what := classify(h.addr, p.AllowLoopback); what != "" {
			return Target{}, refuse(fmt.Sprintf("webhook URL host %s is %s; %s", h.text, what, onlyPublic))
		}
		// Connect to ::ffff:a.b.c.d as a.b.c.d: the same destination,
		// without depending on a dual-stack socket.
		t.Addrs = []netip.Addr{h.addr.Unmap()}
		return t, nil
	}
	all, kept, err := resolve(ctx, r, h.text)
	if err != nil {
		return Target{}, err
	}
	for _, a := range all {
		if what := classify(a, p.AllowLoopback); what != "" {
			return Target{}, refuse(fmt.Sprintf("webhook URL host %s resolves to %s, which is %s; %s", h.text, a, what, onlyPublic))
		}
	}
	t.Addrs = slices.Clone(kept)
	return t, nil
}
