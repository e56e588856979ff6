package screen

import (
	"fmt"
	"net/netip"
	"strings"
)

// host is a checked URL host: either an IP literal (addr valid) or a name
// to resolve.
type host struct {
	text string     // lower-case name, or the literal's canonical text
	addr netip.Addr // the literal, or the zero Addr for a name
}

// parseHost sorts the URL's host into IP literal or name and checks its
// syntax; p only shapes the message for a non-canonical numeric host.
func parseHost(u parsedURL, p Policy) (host, error) {
	h := u.host
	if u.bracketed {
		a, err := bracketedAddr(h)
		if err != nil {
			return host{}, err
		}
		return host{text: a.String(), addr: a}, nil
	}
	if endsInNumber(h) {
		return parseNumericHost(h, p)
	}
	name := strings.ToLower(h)
	if err := checkName(name); err != nil {
		return host{}, err
	}
	return host{text: name}, nil
}

// bracketedAddr reads the text between a URL's brackets: an IPv6 address
// (IPv4-mapped and other embedding forms included), without a zone.
func bracketedAddr(h string) (netip.Addr, error) {
	a, err := netip.ParseAddr(h)
	switch {
	case err != nil:
		return netip.Addr{}, refuse(fmt.Sprintf("webhook URL host [%s] is not a valid IPv6 address", h))
	case a.Zone() != "":
		return netip.Addr{}, refuse("webhook URL host must not carry an IPv6 zone (%…); zones name local network interfaces")
	case a.Is4():
		return netip.Addr{}, refuse(fmt.Sprintf("webhook URL host [%s]: brackets are only for IPv6 addresses; write an IPv4 address without them", h))
	}
	return a, nil
}

// parseNumericHost applies the rule in numeric.go: canonical dotted
// decimal is an IP literal, every other numeric spelling is refused.
func parseNumericHost(h string, p Policy) (host, error) {
	a, ok := parseInetAton(h)
	if !ok {
		return host{}, refuse(fmt.Sprintf("webhook URL host %q looks like an IPv4 address but is not a valid one", h))
	}
	if canon, err := netip.ParseAddr(h); err == nil && canon.Is4() {
		return host{text: canon.String(), addr: canon}, nil
	}
	msg := fmt.Sprintf("webhook URL host %q is the IPv4 address %s written in a non-standard form "+
		"(a single number, hex, octal or shortened)", h, a)
	if what := classify(a, p.AllowLoopback); what != "" {
		return host{}, refuse(fmt.Sprintf("%s, and %s is %s; %s", msg, a, what, onlyPublic))
	}
	return host{}, refuse(fmt.Sprintf("%s; write it as %s", msg, a))
}
