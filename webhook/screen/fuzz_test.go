package screen

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// hashResolver answers every name from a hash of it, never touching the
// network: no address, or a few drawn from a pool of refused and public
// addresses and from the hash's own bits, so the fuzzer meets names that
// resolve to anything.
type hashResolver struct{}

var hashPool = []netip.Addr{
	netip.MustParseAddr("93.184.216.34"),
	netip.MustParseAddr("2606:4700:4700::1111"),
	netip.MustParseAddr("::ffff:8.8.8.8"),
	netip.MustParseAddr("127.0.0.1"),
	netip.MustParseAddr("::1"),
	netip.MustParseAddr("::ffff:127.0.0.1"),
	netip.MustParseAddr("10.1.2.3"),
	netip.MustParseAddr("169.254.169.254"),
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("64:ff9b::a00:1"),
	netip.MustParseAddr("2002:c0a8:101::1"),
	netip.MustParseAddr("fe80::1%eth0"),
}

func (hashResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	h := fnv.New128a()
	h.Write([]byte(host))
	sum := h.Sum(nil)
	n := int(sum[0] % 5)
	if n == 0 {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]netip.Addr, 0, n)
	for i := 0; i < n; i++ {
		b := sum[1+i*3:]
		switch b[0] % 4 {
		case 0:
			out = append(out, netip.AddrFrom4([4]byte(sum[4:8])))
		case 1:
			out = append(out, netip.AddrFrom16([16]byte(sum)))
		default:
			out = append(out, hashPool[int(binary.BigEndian.Uint16(b[1:3]))%len(hashPool)])
		}
	}
	return out, nil
}

// FuzzScreen: Screen never panics; a refusal is always an *Error in the
// caller's words; and whatever it accepts is an https URL whose every
// screened address Allowed accepts, and which Go's own predicates, asked
// independently, agree is no special-purpose address.
func FuzzScreen(f *testing.F) {
	for _, r := range refusedURLs {
		f.Add(r.url, false)
	}
	for _, a := range acceptedWithLoopback {
		f.Add(a.url, true)
	}
	f.Fuzz(func(t *testing.T, raw string, allowLoopback bool) {
		p := Policy{AllowLoopback: allowLoopback}
		target, err := Screen(context.Background(), raw, p, hashResolver{})
		if err != nil {
			var serr *Error
			require.ErrorAs(t, err, &serr)
			require.True(t, strings.HasPrefix(err.Error(), "webhook URL"), err.Error())
			require.Zero(t, target)
			return
		}
		require.Equal(t, raw, target.URL)
		require.LessOrEqual(t, len(raw), MaxURLLength)
		require.NotEmpty(t, target.Host)
		require.NotZero(t, target.Port)
		require.NotEmpty(t, target.Addrs)
		require.LessOrEqual(t, len(target.Addrs), maxAddrs)

		u, err := url.Parse(raw)
		require.NoError(t, err)
		require.Equal(t, "https", u.Scheme)
		require.Nil(t, u.User)
		require.Empty(t, u.Fragment)
		// Host names what Go's client will ask for: the same name, or the
		// same address in canonical form.
		if lit, err := netip.ParseAddr(u.Hostname()); err == nil {
			require.Equal(t, lit.String(), target.Host)
		} else {
			require.Equal(t, strings.ToLower(u.Hostname()), target.Host)
		}

		for _, a := range target.Addrs {
			require.NoError(t, Allowed(a, p), "accepted %q with %s", raw, a)
			require.NoError(t, DialControl(p)("tcp", netip.AddrPortFrom(a, target.Port).String(), nil))
			require.False(t, a.Is4In6(), "addresses are unmapped for dialling")
			v := a.Unmap()
			require.Empty(t, v.Zone())
			require.False(t, v.IsPrivate() || v.IsLinkLocalUnicast() || v.IsMulticast() ||
				v.IsUnspecified() || v.IsInterfaceLocalMulticast() || v.IsLinkLocalMulticast(), "%s", v)
			require.True(t, v.IsGlobalUnicast() || v.IsLoopback() && allowLoopback, "%s", v)
			require.True(t, !v.IsLoopback() || allowLoopback, "%s", v)
		}
	})
}
