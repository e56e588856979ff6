package screen

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAllowed(t *testing.T) {
	cases := []struct {
		addr string
		why  string // "" = allowed without AllowLoopback
		lo   bool   // allowed with AllowLoopback
	}{
		// Public, including the neighbours of every refused IPv4 block.
		{"1.0.0.0", "", true},
		{"8.8.8.8", "", true},
		{"9.255.255.255", "", true},
		{"11.0.0.0", "", true},
		{"100.63.255.255", "", true},
		{"100.128.0.0", "", true},
		{"126.255.255.255", "", true},
		{"128.0.0.0", "", true},
		{"169.253.255.255", "", true},
		{"169.255.0.0", "", true},
		{"172.15.255.255", "", true},
		{"172.32.0.0", "", true},
		{"192.0.1.0", "", true},
		{"192.0.3.0", "", true},
		{"192.167.255.255", "", true},
		{"192.169.0.0", "", true},
		{"198.17.255.255", "", true},
		{"198.20.0.0", "", true},
		{"223.255.255.255", "", true},
		{"168.63.129.15", "", true},
		{"2606:4700:4700::1111", "", true},
		{"2000::1", "", true},
		{"2001:200::1", "", true},
		{"2002:808:808::1", "", true},
		{"64:ff9b::808:808", "", true},
		{"::ffff:8.8.8.8", "", true},
		{"3ffe:ffff::1", "", true},
		// Loopback: only with AllowLoopback, mapped form included.
		{"127.0.0.1", "loopback", true},
		{"127.255.255.255", "loopback", true},
		{"::1", "loopback", true},
		{"::ffff:127.0.0.1", "IPv4-mapped form of 127.0.0.1, which is a loopback", true},
		{"::127.0.0.1", "IPv4-compatible", false},
		{"64:ff9b::127.0.0.1", "NAT64", false},
		{"2002:7f00:1::", "6to4", false},
		// Everything else refused under either policy.
		{"0.0.0.0", "unspecified", false},
		{"0.255.255.255", "unspecified", false},
		{"10.0.0.0", "private", false},
		{"10.255.255.255", "private", false},
		{"172.16.0.0", "private", false},
		{"192.168.255.255", "private", false},
		{"100.64.0.0", "carrier-grade NAT", false},
		{"169.254.0.1", "link-local", false},
		{"169.254.169.254", "metadata", false},
		{"fd00:ec2::254", "metadata", false},
		{"168.63.129.16", "metadata", false},
		{"192.0.0.1", "IETF", false},
		{"192.0.2.255", "TEST-NET-1", false},
		{"198.51.100.0", "TEST-NET-2", false},
		{"203.0.113.255", "TEST-NET-3", false},
		{"198.18.0.0", "benchmarking", false},
		{"192.88.99.0", "6to4 relay", false},
		{"224.0.0.0", "multicast", false},
		{"239.255.255.255", "multicast", false},
		{"240.0.0.0", "reserved", false},
		{"255.255.255.254", "reserved", false},
		{"255.255.255.255", "broadcast", false},
		{"::", "unspecified", false},
		{"::ffff:0.0.0.0", "unspecified", false},
		{"::ffff:192.168.0.1", "IPv4-mapped form of 192.168.0.1, which is a private", false},
		{"::8.8.8.8", "IPv4-compatible address, not a public", false},
		{"::ffff:0:808:808", "IPv4-translated", false},
		{"64:ff9b::a00:1", "NAT64 address embedding 10.0.0.1, which is a private", false},
		{"64:ff9b:1::1", "local-use NAT64", false},
		{"100::", "discard", false},
		{"2001::", "Teredo", false},
		{"2001:1ff::1", "IETF", false},
		{"2001:db8::", "documentation", false},
		{"2002:a9fe:a9fe::", "6to4 address embedding 169.254.169.254, which is a cloud metadata", false},
		{"3fff:fff::1", "documentation", false},
		{"fc00::", "unique local", false},
		{"fdff:ffff::1", "unique local", false},
		{"fe80::", "link-local", false},
		{"fec0::", "site-local", false},
		{"ff00::", "multicast", false},
		{"ff02::1:ff00:1", "multicast", false},
		{"fe00::1", "outside the global unicast range", false},
		{"4000::", "outside the global unicast range", false},
		{"5f00::1", "outside the global unicast range", false},
		{"1::", "outside the global unicast range", false},
		{"2606:4700::1%eth0", "zone", false},
		{"fe80::1%eth0", "zone", false},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			a := netip.MustParseAddr(c.addr)
			err := Allowed(a, Policy{})
			if c.why == "" {
				require.NoError(t, err)
			} else {
				require.ErrorContains(t, err, c.why)
				require.ErrorContains(t, err, a.String()+" is ")
				require.ErrorContains(t, err, onlyPublic)
			}
			err = Allowed(a, Policy{AllowLoopback: true})
			if c.lo {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
			}
		})
	}
}

func TestAllowedRefusesTheZeroAddr(t *testing.T) {
	require.ErrorContains(t, Allowed(netip.Addr{}, Policy{AllowLoopback: true}), "not an IP address")
}

// Every named block must refuse its whole range under either policy: the
// first and last address of each, in IPv4 and mapped form.
func TestAllowedRefusesEveryBlockEdge(t *testing.T) {
	for _, b := range append(append([]block{}, v4Blocks...), v6Blocks...) {
		first := b.prefix.Masked().Addr()
		for _, a := range []netip.Addr{first, lastOf(b.prefix)} {
			for _, p := range []Policy{{}, {AllowLoopback: true}} {
				require.Error(t, Allowed(a, p), "%s in %s", a, b.prefix)
				if a.Is4() {
					require.Error(t, Allowed(netip.AddrFrom16(a.As16()), p), "mapped %s", a)
				}
			}
		}
	}
}

func lastOf(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
