package screen

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// Resolver looks up a host name's addresses. *net.Resolver satisfies it;
// tests give a fake that never touches the network.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

const (
	// resolveTimeout bounds one lookup, so a slow or hostile name server
	// cannot hold a registration request or a delivery worker.
	resolveTimeout = 5 * time.Second
	// maxAddrs bounds the addresses a Target keeps and a delivery tries.
	maxAddrs = 8
)

// resolve returns the addresses of name, each unmapped, without
// duplicates, at most maxAddrs of them. It does not judge them.
//
// Every address the resolver returns is screened by the caller (any
// refused one refuses the URL), but only the first maxAddrs are kept: the
// rest are never dialled, so dropping them cannot admit anything.
func resolve(ctx context.Context, r Resolver, name string) ([]netip.Addr, []netip.Addr, error) {
	if r == nil {
		r = net.DefaultResolver
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	got, err := r.LookupNetIP(ctx, "ip", name)
	if err != nil {
		return nil, nil, lookupError(ctx, name, err)
	}
	all := make([]netip.Addr, 0, len(got))
	seen := make(map[netip.Addr]bool, len(got))
	for _, a := range got {
		// Go's resolver may return an A record as ::ffff:a.b.c.d; the
		// IPv4 form is what the kernel connects to and what we judge.
		a = a.Unmap()
		if !seen[a] {
			seen[a] = true
			all = append(all, a)
		}
	}
	if len(all) == 0 {
		return nil, nil, refuse(fmt.Sprintf("webhook URL host %q does not resolve to any address", name))
	}
	return all, all[:min(len(all), maxAddrs)], nil
}

// lookupError words a failed lookup for the caller, without the resolver's
// own text (which names our name server).
func lookupError(ctx context.Context, name string, err error) error {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return &Error{msg: fmt.Sprintf("webhook URL host %q does not resolve (no such host)", name), err: err}
	case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &dnsErr) && dnsErr.IsTimeout:
		// Keep the context's error in the chain: a resolver need not
		// wrap it, and the caller may want to know the deadline struck.
		return &Error{msg: fmt.Sprintf("webhook URL host %q did not resolve in time; try again later", name), err: errors.Join(err, ctx.Err())}
	default:
		return &Error{msg: fmt.Sprintf("webhook URL host %q could not be resolved; try again later", name), err: err}
	}
}
