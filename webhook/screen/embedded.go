package screen

import "net/netip"

// embedding is an IPv6 form that carries an IPv4 address. A connection to
// it may end up at that IPv4 address (through the kernel, a NAT64 gateway
// or a 6to4 relay), so the embedded address is classified first: an IPv6
// spelling of a private address is refused like the address itself.
type embedding struct {
	prefix netip.Prefix
	name   string // completes "a <name> embedding <v4>"
	// public says whether the form itself is routable on the internet
	// once its embedded address is public. NAT64 and 6to4 are; the
	// deprecated IPv4-compatible form is not.
	public bool
	v4     func(a [16]byte) netip.Addr
}

var embeddings = []embedding{
	// IPv4-compatible ::a.b.c.d (deprecated by RFC 4291). :: and ::1 lie
	// in this prefix and are classified before it.
	{pfx("::/96"), "deprecated IPv4-compatible address", false, last4},
	// The NAT64 well-known prefix (RFC 6052): the gateway forwards to the
	// embedded IPv4 address, which must therefore be public.
	{pfx("64:ff9b::/96"), "NAT64 address", true, last4},
	// 6to4 (RFC 3056): 2002:AABB:CCDD::/48 is the site behind the IPv4
	// address AA.BB.CC.DD.
	{pfx("2002::/16"), "6to4 address", true, func(b [16]byte) netip.Addr {
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}},
}

func last4(b [16]byte) netip.Addr {
	return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
}
