package screen

import (
	"fmt"
	"net/netip"
)

// onlyPublic ends every address refusal, so the caller learns the rule and
// not just the verdict.
const onlyPublic = "webhooks are delivered only to public internet addresses"

// Allowed reports whether a webhook delivery may connect to addr under p:
// nil for a globally routable unicast address (or a loopback address when
// p.AllowLoopback), otherwise an *Error naming the address's class.
//
// IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) are judged as the IPv4
// address they are, so ::ffff:127.0.0.1 is loopback and ::ffff:10.0.0.1 is
// private. Addresses with a zone are refused: a zone only means something
// for link-local addresses, which are refused anyway.
func Allowed(addr netip.Addr, p Policy) error {
	if what := classify(addr, p.AllowLoopback); what != "" {
		return refuse(fmt.Sprintf("%s is %s; %s", addrText(addr), what, onlyPublic))
	}
	return nil
}

// classify returns "" for an address a delivery may reach, otherwise the
// class that refuses it, phrased to follow "<address> is".
func classify(a netip.Addr, allowLoopback bool) string {
	switch {
	case !a.IsValid():
		return "not an IP address"
	case a.Zone() != "":
		return "an IPv6 address with a zone (interface) id"
	case a.Is4():
		return classify4(a, allowLoopback)
	default:
		return classify6(a, allowLoopback)
	}
}

func classify4(a netip.Addr, allowLoopback bool) string {
	if a.IsLoopback() {
		if allowLoopback {
			return ""
		}
		return whatLoopback
	}
	if what, ok := lookup(v4Blocks, a); ok {
		return what
	}
	// The tables name every special block IANA lists; this backstop keeps
	// the allow-list promise should one be missed.
	if !a.IsGlobalUnicast() {
		return "not a public unicast address"
	}
	return ""
}

func classify6(a netip.Addr, allowLoopback bool) string {
	if a.Is4In6() {
		// The kernel sends ::ffff:a.b.c.d to a.b.c.d itself, so it is
		// judged as that address, loopback allowance included
		// (CONTRACT.md: IPv4-mapped loopback counts as loopback).
		v4 := a.Unmap()
		if what := classify4(v4, allowLoopback); what != "" {
			return fmt.Sprintf("an IPv4-mapped form of %s, which is %s", v4, what)
		}
		return ""
	}
	switch {
	case a.IsUnspecified():
		return "the unspecified address"
	case a.IsLoopback():
		if allowLoopback {
			return ""
		}
		return whatLoopback
	}
	for _, e := range embeddings {
		if !e.prefix.Contains(a) {
			continue
		}
		v4 := e.v4(a.As16())
		// No loopback allowance here: loopback inside these forms
		// reaches a gateway or nothing, never this machine.
		if what := classify4(v4, false); what != "" {
			return fmt.Sprintf("a %s embedding %s, which is %s", e.name, v4, what)
		}
		if !e.public {
			return fmt.Sprintf("a %s, not a public address", e.name)
		}
		return ""
	}
	if what, ok := lookup(v6Blocks, a); ok {
		return what
	}
	if !globalUnicast6.Contains(a) {
		return "a reserved IPv6 address outside the global unicast range 2000::/3"
	}
	return ""
}

// addrText writes an address for a message; the zero Addr would print as
// "invalid IP".
func addrText(a netip.Addr) string {
	if !a.IsValid() {
		return "the address"
	}
	return a.String()
}
