package screen

import "net/netip"

// block names one special-purpose address range. what completes the
// sentence "<address> is …", so a refusal tells the caller which class the
// address is in.
type block struct {
	prefix netip.Prefix
	what   string
}

func pfx(s string) netip.Prefix { return netip.MustParsePrefix(s) }

const (
	whatLoopback = "a loopback address (this machine)"
	whatPrivate  = "a private network address (RFC 1918)"
	whatMetadata = "a cloud metadata service address"
)

// v4Blocks are the IPv4 ranges that are not public unicast (IANA IPv4
// Special-Purpose Address Registry, plus the well-known cloud metadata
// endpoints). They are searched in order and the first match names the
// class, so single addresses come before the ranges that contain them.
// Loopback is not here: Policy decides it (see classify4).
var v4Blocks = []block{
	{pfx("255.255.255.255/32"), "the broadcast address"},
	{pfx("0.0.0.0/32"), "the unspecified address"},
	// Metadata services answer with instance credentials: the prize of an
	// SSRF. Most sit inside ranges refused anyway; they are named so the
	// refusal says what was reached for.
	{pfx("169.254.169.254/32"), whatMetadata + " (AWS, GCP, Azure and others)"},
	{pfx("169.254.170.2/32"), whatMetadata + " (AWS container credentials)"},
	{pfx("100.100.100.200/32"), whatMetadata + " (Alibaba Cloud)"},
	{pfx("192.0.0.192/32"), whatMetadata + " (Oracle Cloud)"},
	// Azure's wire server is a public address reachable only from inside
	// Azure, where it serves platform configuration: refused by name.
	{pfx("168.63.129.16/32"), whatMetadata + " (Azure wire server)"},
	{pfx("0.0.0.0/8"), "an unspecified (\"this network\") address"},
	{pfx("10.0.0.0/8"), whatPrivate},
	{pfx("100.64.0.0/10"), "a carrier-grade NAT shared address (RFC 6598)"},
	{pfx("169.254.0.0/16"), "a link-local address"},
	{pfx("172.16.0.0/12"), whatPrivate},
	{pfx("192.0.0.0/24"), "an IETF protocol assignment address (192.0.0.0/24)"},
	{pfx("192.0.2.0/24"), "a documentation address (TEST-NET-1)"},
	{pfx("192.88.99.0/24"), "a deprecated 6to4 relay anycast address"},
	{pfx("192.168.0.0/16"), whatPrivate},
	{pfx("198.18.0.0/15"), "a benchmarking address (RFC 2544)"},
	{pfx("198.51.100.0/24"), "a documentation address (TEST-NET-2)"},
	{pfx("203.0.113.0/24"), "a documentation address (TEST-NET-3)"},
	{pfx("224.0.0.0/4"), "a multicast address"},
	{pfx("240.0.0.0/4"), "a reserved address (240.0.0.0/4)"},
}

// v6Blocks are the IPv6 ranges refused outright (IANA IPv6 Special-Purpose
// Address Registry and the metadata endpoints), in the same first-match
// order. ::, ::1 and the forms that embed an IPv4 address are handled
// before this table (see classify6 and embeddings).
var v6Blocks = []block{
	{pfx("fd00:ec2::254/128"), whatMetadata + " (AWS, IPv6)"},
	{pfx("::ffff:0:0:0/96"), "an IPv4-translated address (RFC 2765), not a public address"},
	{pfx("64:ff9b:1::/48"), "a local-use NAT64 address (RFC 8215)"},
	{pfx("100::/64"), "a discard-only address (RFC 6666)"},
	{pfx("2001::/32"), "a Teredo tunnel address"},
	{pfx("2001::/23"), "an IETF protocol assignment address (2001::/23)"},
	{pfx("2001:db8::/32"), "a documentation address (2001:db8::/32)"},
	{pfx("3fff::/20"), "a documentation address (3fff::/20)"},
	{pfx("fc00::/7"), "a unique local (private) IPv6 address"},
	{pfx("fe80::/10"), "a link-local IPv6 address"},
	{pfx("fec0::/10"), "a site-local IPv6 address (deprecated)"},
	{pfx("ff00::/8"), "a multicast address"},
}

// globalUnicast6 is the only IPv6 space handed out for the public
// internet; anything outside it that the tables above do not name is
// still refused.
var globalUnicast6 = pfx("2000::/3")

func lookup(blocks []block, a netip.Addr) (string, bool) {
	for _, b := range blocks {
		if b.prefix.Contains(a) {
			return b.what, true
		}
	}
	return "", false
}
