package screen

import (
	"context"
	"net"
	"net/netip"
)

// testResolver answers from a fixed table and never touches the network.
// A name not in the table does not exist; "slow.test" blocks until the
// lookup's deadline; "servfail.test" fails as a broken name server does.
type testResolver map[string][]string

func (r testResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	switch host {
	case "slow.test":
		<-ctx.Done()
		return nil, &net.DNSError{Err: "i/o timeout", Name: host, IsTimeout: true}
	case "servfail.test":
		return nil, &net.DNSError{Err: "server misbehaving", Name: host, Server: "10.9.9.9:53", IsTemporary: true}
	}
	texts, ok := r[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, Server: "10.9.9.9:53", IsNotFound: true}
	}
	out := make([]netip.Addr, len(texts))
	for i, s := range texts {
		out[i] = netip.MustParseAddr(s)
	}
	return out, nil
}

// names is the resolver the table tests use.
var names = testResolver{
	"hooks.example.com": {"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"},
	"v4mapped.example":  {"::ffff:93.184.216.34"}, // as Go's resolver may return an A record
	"private.test":      {"10.0.0.7"},
	"mixed.test":        {"93.184.216.34", "192.168.0.1"},
	"mixed6.test":       {"2606:4700:4700::1111", "fd12:3456::1"},
	"metadata.test":     {"169.254.169.254"},
	"gcp-metadata.test": {"93.184.216.34", "169.254.169.254"},
	"cgnat.test":        {"100.64.1.1"},
	"linklocal6.test":   {"fe80::1"},
	"mappedlo.test":     {"::ffff:127.0.0.1"},
	"zero.test":         {"0.0.0.0"},
	"localhost":         {"127.0.0.1", "::1"},
	"empty.test":        {},
	"many.test": {
		"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4", "1.1.1.5", "1.1.1.6",
		"1.1.1.7", "1.1.1.8", "1.1.1.9", "1.1.1.10", "1.1.1.1",
	},
	"many-then-private.test": {
		"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4", "1.1.1.5", "1.1.1.6",
		"1.1.1.7", "1.1.1.8", "1.1.1.9", "10.0.0.1",
	},
}
