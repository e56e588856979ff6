package screen

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// refusal is one URL the screen must refuse. why is a word the message
// must contain, so the caller learns the reason; addr, when set, is the
// address the URL leads to, which must also be refused at dial time.
type refusal struct {
	url  string
	why  string
	addr string
}

// refusedURLs covers every class CONTRACT.md names, in every spelling a
// parser might read differently.
var refusedURLs = []refusal{
	// Scheme and syntax.
	{"http://hooks.example.com/", "https", ""},
	{"ftp://hooks.example.com/", "https", ""},
	{"javascript:alert(1)", "https", ""},
	{"//hooks.example.com/", "https://", ""},
	{"https:hooks.example.com", "https://", ""},
	{"https:\\\\hooks.example.com", "backslash", ""},
	{"https:/hooks.example.com/", "https://", ""},
	{"hooks.example.com", "https://", ""},
	{"", "empty", ""},
	{"https://hooks.example.com/" + strings.Repeat("a", MaxURLLength), "longer", ""},
	{"https://hooks.example.com/a b", "space", ""},
	{"https://hooks.example.com/\x00", "control", ""},
	{"https://hooks.exämple.com/", "non-ASCII", ""},
	{"https://hooks.example.com/#frag", "fragment", ""},
	{"https://hooks.example.com/#", "fragment", ""},
	{"https:///path", "host", ""},
	{"https://", "host", ""},
	{"https://:443/", "host", ""},
	{`https://hooks.example.com\@127.0.0.1/`, "backslash", ""},
	{"https://%31%32%37.0.0.1/", "percent-encoded", ""},
	{"https://hooks%2eexample.com/", "percent-encoded", ""},
	{"https://hook_s.example.com/", "letters, digits", ""},
	{"https://hooks..example.com/", "empty label", ""},
	{"https://.example.com/", "empty label", ""},
	{"https://hooks.example.com./", "dot", ""},
	{"https://-hooks.example.com/", "hyphen", ""},
	{"https://" + strings.Repeat("a", 64) + ".example.com/", "63", ""},
	{"https://a!b.example.com/", "letters, digits", ""},
	// User information.
	{"https://user:pass@hooks.example.com/", "user name or password", ""},
	{"https://user@hooks.example.com/", "user name or password", ""},
	{"https://@hooks.example.com/", "user name or password", ""},
	{"https://93.184.216.34@127.0.0.1/", "user name or password", "127.0.0.1"},
	{"https://hooks.example.com@169.254.169.254/", "user name or password", "169.254.169.254"},
	// Ports.
	{"https://hooks.example.com:0/", "port", ""},
	{"https://hooks.example.com:65536/", "port", ""},
	{"https://hooks.example.com:99999999999999999999/", "port", ""},
	{"https://hooks.example.com:/", "empty port", ""},
	{"https://hooks.example.com:0443/", "leading zeros", ""},
	{"https://hooks.example.com:https/", "port", ""},
	{"https://hooks.example.com:-1/", "port", ""},
	// Loopback, in every spelling.
	{"https://127.0.0.1/", "loopback", "127.0.0.1"},
	{"https://127.0.0.1:8443/hook", "loopback", "127.0.0.1"},
	{"https://127.255.255.254/", "loopback", "127.255.255.254"},
	{"https://2130706433/", "loopback", "127.0.0.1"},
	{"https://0x7f000001/", "loopback", "127.0.0.1"},
	{"https://0X7F000001/", "loopback", "127.0.0.1"},
	{"https://017700000001/", "loopback", "127.0.0.1"},
	{"https://127.1/", "loopback", "127.0.0.1"},
	{"https://127.0.1/", "loopback", "127.0.0.1"},
	{"https://0x7f.1/", "loopback", "127.0.0.1"},
	{"https://0177.0.0.1/", "loopback", "127.0.0.1"},
	{"https://0x7f.0x0.0x0.0x1/", "loopback", "127.0.0.1"},
	{"https://127.000.000.001/", "loopback", "127.0.0.1"},
	{"https://127.0.0.1./", "loopback", "127.0.0.1"},
	{"https://[::1]/", "loopback", "::1"},
	{"https://[0:0:0:0:0:0:0:1]/", "loopback", "::1"},
	{"https://[::ffff:127.0.0.1]/", "loopback", "::ffff:127.0.0.1"},
	{"https://[::ffff:7f00:1]/", "loopback", "::ffff:127.0.0.1"},
	{"https://[0:0:0:0:0:ffff:7f00:0001]/", "loopback", "::ffff:127.0.0.1"},
	{"https://[::FFFF:127.0.0.1]/", "loopback", "::ffff:127.0.0.1"},
	{"https://[::127.0.0.1]/", "loopback", "::7f00:1"},
	{"https://localhost/", "loopback", ""},
	{"https://mappedlo.test/", "loopback", ""},
	// Private networks (RFC 1918).
	{"https://10.0.0.1/", "private", "10.0.0.1"},
	{"https://167772161/", "private", "10.0.0.1"},
	{"https://012.0.0.1/", "private", "10.0.0.1"},
	{"https://0xa.1/", "private", "10.0.0.1"},
	{"https://172.16.5.4/", "private", "172.16.5.4"},
	{"https://172.31.255.255/", "private", "172.31.255.255"},
	{"https://0xac100504/", "private", "172.16.5.4"},
	{"https://192.168.1.1/", "private", "192.168.1.1"},
	{"https://0xc0a80101/", "private", "192.168.1.1"},
	{"https://3232235777/", "private", "192.168.1.1"},
	{"https://0300.0250.1.1/", "private", "192.168.1.1"},
	{"https://192.168.257/", "private", "192.168.1.1"},
	{"https://[::ffff:10.0.0.1]/", "private", "::ffff:10.0.0.1"},
	{"https://[::ffff:c0a8:101]/", "private", "::ffff:192.168.1.1"},
	{"https://private.test/", "private", ""},
	{"https://mixed.test/", "private", ""},
	{"https://many-then-private.test/", "private", ""},
	// Carrier-grade NAT.
	{"https://100.64.0.1/", "carrier-grade NAT", "100.64.0.1"},
	{"https://100.127.255.254/", "carrier-grade NAT", "100.127.255.254"},
	{"https://0x64400001/", "carrier-grade NAT", "100.64.0.1"},
	{"https://[::ffff:100.64.0.1]/", "carrier-grade NAT", "::ffff:100.64.0.1"},
	{"https://cgnat.test/", "carrier-grade NAT", ""},
	// Link-local and cloud metadata.
	{"https://169.254.169.254/latest/meta-data/", "metadata", "169.254.169.254"},
	{"https://2852039166/", "metadata", "169.254.169.254"},
	{"https://0xa9fea9fe/", "metadata", "169.254.169.254"},
	{"https://0251.0376.0251.0376/", "metadata", "169.254.169.254"},
	{"https://169.254.43518/", "metadata", "169.254.169.254"},
	{"https://[::ffff:169.254.169.254]/", "metadata", "::ffff:169.254.169.254"},
	{"https://[::ffff:a9fe:a9fe]/", "metadata", "::ffff:169.254.169.254"},
	{"https://169.254.170.2/v2/credentials", "metadata", "169.254.170.2"},
	{"https://100.100.100.200/", "metadata", "100.100.100.200"},
	{"https://192.0.0.192/", "metadata", "192.0.0.192"},
	{"https://168.63.129.16/", "metadata", "168.63.129.16"},
	{"https://[fd00:ec2::254]/", "metadata", "fd00:ec2::254"},
	{"https://metadata.test/", "metadata", ""},
	{"https://gcp-metadata.test/", "metadata", ""},
	{"https://169.254.1.1/", "link-local", "169.254.1.1"},
	{"https://[fe80::1]/", "link-local", "fe80::1"},
	{"https://[febf::1]/", "link-local", "febf::1"},
	{"https://[fe80::1%25eth0]/", "zone", ""},
	{"https://[fe80::1%eth0]/", "zone", ""},
	{"https://linklocal6.test/", "link-local", ""},
	// Unspecified and broadcast.
	{"https://0.0.0.0/", "unspecified", "0.0.0.0"},
	{"https://0/", "unspecified", "0.0.0.0"},
	{"https://0x0/", "unspecified", "0.0.0.0"},
	{"https://0.1.2.3/", "unspecified", "0.1.2.3"},
	{"https://[::]/", "unspecified", "::"},
	{"https://[::ffff:0.0.0.0]/", "unspecified", "::ffff:0.0.0.0"},
	{"https://zero.test/", "unspecified", ""},
	{"https://255.255.255.255/", "broadcast", "255.255.255.255"},
	{"https://4294967295/", "broadcast", "255.255.255.255"},
	{"https://0xffffffff/", "broadcast", "255.255.255.255"},
	// Multicast.
	{"https://224.0.0.1/", "multicast", "224.0.0.1"},
	{"https://239.255.255.250/", "multicast", "239.255.255.250"},
	{"https://0xe0000001/", "multicast", "224.0.0.1"},
	{"https://[ff02::1]/", "multicast", "ff02::1"},
	{"https://[ff0e::1]/", "multicast", "ff0e::1"},
	// IPv6 unique local and site-local.
	{"https://[fc00::1]/", "unique local", "fc00::1"},
	{"https://[fd12:3456:789a::1]/", "unique local", "fd12:3456:789a::1"},
	{"https://mixed6.test/", "unique local", ""},
	{"https://[fec0::1]/", "site-local", "fec0::1"},
	// Other special-purpose IPv4 blocks.
	{"https://192.0.0.8/", "IETF protocol", "192.0.0.8"},
	{"https://192.0.2.1/", "documentation", "192.0.2.1"},
	{"https://198.51.100.7/", "documentation", "198.51.100.7"},
	{"https://203.0.113.9/", "documentation", "203.0.113.9"},
	{"https://198.18.0.1/", "benchmarking", "198.18.0.1"},
	{"https://198.19.255.1/", "benchmarking", "198.19.255.1"},
	{"https://192.88.99.1/", "6to4 relay", "192.88.99.1"},
	{"https://240.0.0.1/", "reserved", "240.0.0.1"},
	{"https://254.1.2.3/", "reserved", "254.1.2.3"},
	// Other special-purpose IPv6 blocks and IPv4-embedding forms.
	{"https://[64:ff9b::10.0.0.1]/", "NAT64", "64:ff9b::a00:1"},
	{"https://[64:ff9b::7f00:1]/", "loopback", "64:ff9b::7f00:1"},
	{"https://[64:ff9b::a9fe:a9fe]/", "metadata", "64:ff9b::a9fe:a9fe"},
	{"https://[64:ff9b:1::8.8.8.8]/", "local-use NAT64", "64:ff9b:1::808:808"},
	{"https://[::8.8.8.8]/", "IPv4-compatible", "::808:808"},
	{"https://[::10.0.0.1]/", "private", "::a00:1"},
	{"https://[::ffff:0:a00:1]/", "IPv4-translated", "::ffff:0:a00:1"},
	{"https://[2002:a00:1::1]/", "6to4", "2002:a00:1::1"},
	{"https://[2002:7f00:1::1]/", "loopback", "2002:7f00:1::1"},
	{"https://[2002:c0a8:101::]/", "private", "2002:c0a8:101::"},
	{"https://[2001::1]/", "Teredo", "2001::1"},
	{"https://[2001:2::1]/", "IETF protocol", "2001:2::1"},
	{"https://[2001:db8::1]/", "documentation", "2001:db8::1"},
	{"https://[3fff::1]/", "documentation", "3fff::1"},
	{"https://[100::1]/", "discard", "100::1"},
	{"https://[5f00::1]/", "reserved", "5f00::1"},
	{"https://[4000::1]/", "reserved", "4000::1"},
	{"https://[1.2.3.4]/", "only for IPv6", ""},
	{"https://[v1.fe]/", "not a valid IPv6", ""},
	{"https://[::1/", "closing", ""},
	{"https://::1/", "brackets", ""},
	{"https://::ffff:127.0.0.1/", "brackets", ""},
	{"https://hooks.example.com:443:443/", "brackets", ""},
	{"https://[::1]x/", "not a valid URL", ""},
	// Numeric hosts that are no address at all, and non-canonical public
	// ones (refused whatever they stand for: see numeric.go).
	{"https://1.2.3.4.5/", "not a valid one", ""},
	{"https://256.0.0.1/", "not a valid one", ""},
	{"https://4294967296/", "not a valid one", ""},
	{"https://08.0.0.1/", "not a valid one", ""},
	{"https://0x/", "unspecified", "0.0.0.0"},
	{"https://foo.123/", "not a valid one", ""},
	{"https://foo.0x1/", "not a valid one", ""},
	{"https://134744072/", "write it as 8.8.8.8", ""},
	{"https://0x08080808/", "write it as 8.8.8.8", ""},
	{"https://8.8.8.8./", "write it as 8.8.8.8", ""},
	{"https://8.8.2056/", "write it as 8.8.8.8", ""},
	{"https://010.010.010.010/", "write it as 8.8.8.8", ""},
	// Names that do not resolve.
	{"https://nowhere.test/", "does not resolve", ""},
	{"https://empty.test/", "does not resolve", ""},
	{"https://servfail.test/", "could not be resolved", ""},
}

// refusedWithLoopback stay refused when loopback receivers are admitted:
// only real loopback is, in canonical or IPv4-mapped form.
var refusedWithLoopback = []refusal{
	{"https://2130706433/", "non-standard", ""},
	{"https://0x7f000001/", "non-standard", ""},
	{"https://127.1/", "non-standard", ""},
	{"https://0177.0.0.1/", "non-standard", ""},
	{"https://[::127.0.0.1]/", "IPv4-compatible", "::7f00:1"},
	{"https://[64:ff9b::7f00:1]/", "NAT64", "64:ff9b::7f00:1"},
	{"https://[2002:7f00:1::1]/", "6to4", "2002:7f00:1::1"},
	{"https://10.0.0.1/", "private", "10.0.0.1"},
	{"https://[::ffff:10.0.0.1]/", "private", "::ffff:10.0.0.1"},
	{"https://169.254.169.254/", "metadata", "169.254.169.254"},
	{"https://0.0.0.0/", "unspecified", "0.0.0.0"},
	{"https://[::]/", "unspecified", "::"},
	{"https://[fe80::1]/", "link-local", "fe80::1"},
	{"https://mixed.test/", "private", ""},
	{"http://127.0.0.1/", "https", ""},
	{"https://user@localhost/", "user name or password", ""},
}

func TestScreenRefuses(t *testing.T) {
	require.GreaterOrEqual(t, len(refusedURLs), 40)
	checkRefusals(t, refusedURLs, Policy{})
}

func TestScreenRefusesEvenWithLoopback(t *testing.T) {
	checkRefusals(t, refusedWithLoopback, Policy{AllowLoopback: true})
}

// checkRefusals refuses each URL at registration (Screen) and, where the
// URL leads to an address, at dial time (DialControl, and Dialer before it
// dials anything).
func checkRefusals(t *testing.T, rows []refusal, p Policy) {
	for _, row := range rows {
		t.Run(row.url[:min(len(row.url), 60)], func(t *testing.T) {
			target, err := Screen(context.Background(), row.url, p, names)
			require.Error(t, err, "accepted: %+v", target)
			var serr *Error
			require.ErrorAs(t, err, &serr)
			require.Contains(t, err.Error(), row.why)
			require.True(t, strings.HasPrefix(err.Error(), "webhook URL"), err.Error())
			require.NotContains(t, err.Error(), "10.9.9.9", "the resolver's address is not the caller's business")
			require.Zero(t, target)
			if row.addr == "" {
				return
			}
			a := netip.MustParseAddr(row.addr)
			require.Error(t, Allowed(a, p))
			for _, network := range []string{"tcp", "tcp4", "tcp6"} {
				require.Error(t, DialControl(p)(network, netip.AddrPortFrom(a, 443).String(), nil))
			}
			dial := dialTarget(p, Target{Host: "h", Port: 443, Addrs: []netip.Addr{a}}, neverDial(t))
			_, err = dial(context.Background(), "tcp", "ignored:443")
			require.ErrorAs(t, err, &serr)
		})
		// The delivery path: the client screens again at its dial and
		// sends nothing.
		if strings.HasPrefix(row.url, "https://") {
			t.Run("deliver "+row.url[:min(len(row.url), 60)], func(t *testing.T) {
				c := &http.Client{Transport: transport(row.url, p, names, nil, time.Second, 1, neverDial(t))}
				req, err := http.NewRequest(http.MethodPost, row.url, strings.NewReader("{}"))
				if err != nil {
					return // a URL Go's client cannot even form is never sent either
				}
				_, err = c.Do(req)
				if req.URL.Host == "" {
					require.Error(t, err) // Go's client refuses it before any dial
					return
				}
				var serr *Error
				require.ErrorAs(t, err, &serr)
			})
		}
	}
}

// neverDial stands in for the network in refusal tests: reaching it means
// the refusal came too late, and no packet is ever sent.
func neverDial(t *testing.T) dialFunc {
	return func(_ context.Context, network, address string) (net.Conn, error) {
		t.Errorf("dialled %s %s, which should have been refused", network, address)
		return nil, errors.New("test: dialling is not allowed here")
	}
}

type acceptance struct {
	url   string
	host  string
	port  uint16
	addrs []string
}

var acceptedURLs = []acceptance{
	{"https://8.8.8.8/hook", "8.8.8.8", 443, []string{"8.8.8.8"}},
	{"https://1.1.1.1:8443/x?y=z&a=%2F", "1.1.1.1", 8443, []string{"1.1.1.1"}},
	{"https://93.184.216.34:65535/", "93.184.216.34", 65535, []string{"93.184.216.34"}},
	{"https://[2606:4700:4700::1111]/", "2606:4700:4700::1111", 443, []string{"2606:4700:4700::1111"}},
	{"https://[2606:4700:4700::1111]:8443/", "2606:4700:4700::1111", 8443, []string{"2606:4700:4700::1111"}},
	{"https://[::ffff:8.8.8.8]/", "::ffff:8.8.8.8", 443, []string{"8.8.8.8"}},
	{"https://[64:ff9b::808:808]/", "64:ff9b::808:808", 443, []string{"64:ff9b::808:808"}},
	{"https://[2002:808:808::1]/", "2002:808:808::1", 443, []string{"2002:808:808::1"}},
	{"https://hooks.example.com/webhooks/fxd", "hooks.example.com", 443, []string{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}},
	{"https://HOOKS.Example.COM:4443/", "hooks.example.com", 4443, []string{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}},
	{"HTTPS://hooks.example.com/", "hooks.example.com", 443, []string{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}},
	{"https://v4mapped.example/", "v4mapped.example", 443, []string{"93.184.216.34"}},
	{"https://many.test/", "many.test", 443, []string{"1.1.1.1", "1.1.1.2", "1.1.1.3", "1.1.1.4", "1.1.1.5", "1.1.1.6", "1.1.1.7", "1.1.1.8"}},
	{"https://hooks.example.com/a@b?c=d@e", "hooks.example.com", 443, []string{"93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"}},
}

var acceptedWithLoopback = []acceptance{
	{"https://127.0.0.1:8443/hook", "127.0.0.1", 8443, []string{"127.0.0.1"}},
	{"https://127.0.0.2/", "127.0.0.2", 443, []string{"127.0.0.2"}},
	{"https://[::1]:8443/", "::1", 8443, []string{"::1"}},
	{"https://[::ffff:127.0.0.1]:8443/", "::ffff:127.0.0.1", 8443, []string{"127.0.0.1"}},
	{"https://[::ffff:7f00:1]/", "::ffff:127.0.0.1", 443, []string{"127.0.0.1"}},
	{"https://localhost:8443/", "localhost", 8443, []string{"127.0.0.1", "::1"}},
	{"https://mappedlo.test/", "mappedlo.test", 443, []string{"127.0.0.1"}},
	{"https://8.8.8.8/", "8.8.8.8", 443, []string{"8.8.8.8"}},
}

func TestScreenAccepts(t *testing.T) {
	checkAcceptances(t, acceptedURLs, Policy{})
	checkAcceptances(t, acceptedURLs, Policy{AllowLoopback: true})
	checkAcceptances(t, acceptedWithLoopback, Policy{AllowLoopback: true})
}

func checkAcceptances(t *testing.T, rows []acceptance, p Policy) {
	for _, row := range rows {
		t.Run(row.url, func(t *testing.T) {
			got, err := Screen(context.Background(), row.url, p, names)
			require.NoError(t, err)
			want := Target{URL: row.url, Host: row.host, Port: row.port}
			for _, s := range row.addrs {
				want.Addrs = append(want.Addrs, netip.MustParseAddr(s))
			}
			require.Equal(t, want, got)
			for _, a := range got.Addrs {
				require.NoError(t, Allowed(a, p))
				require.NoError(t, DialControl(p)("tcp", netip.AddrPortFrom(a, got.Port).String(), nil))
			}
		})
	}
}

func TestScreenLoopbackOnlyWithPolicy(t *testing.T) {
	for _, row := range acceptedWithLoopback {
		if row.addrs[0] == "8.8.8.8" {
			continue
		}
		_, err := Screen(context.Background(), row.url, Policy{}, names)
		require.ErrorContains(t, err, "loopback", row.url)
	}
}

// A name that moves from a public to a private address between
// registration and delivery (DNS rebinding) is refused at delivery, and a
// Target screened earlier keeps its screened addresses.
func TestScreenAgainAtDelivery(t *testing.T) {
	r := testResolver{"rebind.test": {"93.184.216.34"}}
	registered, err := Screen(context.Background(), "https://rebind.test/", Policy{}, r)
	require.NoError(t, err)
	r["rebind.test"] = []string{"10.0.0.1"}
	_, err = Screen(context.Background(), "https://rebind.test/", Policy{}, r)
	require.ErrorContains(t, err, "resolves to 10.0.0.1, which is a private network address")
	require.Equal(t, []netip.Addr{netip.MustParseAddr("93.184.216.34")}, registered.Addrs)
}

func TestScreenResolutionIsBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Screen(ctx, "https://slow.test/", Policy{}, names)
	require.ErrorContains(t, err, "did not resolve in time")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.Less(t, time.Since(start), resolveTimeout)

	// Without a caller deadline the screen imposes its own.
	var seen time.Duration
	_, err = Screen(context.Background(), "https://x.test/", Policy{}, deadlineProbe(func(d time.Duration) { seen = d }))
	require.Error(t, err)
	require.Greater(t, seen, time.Duration(0))
	require.LessOrEqual(t, seen, resolveTimeout)
}

// deadlineProbe reports the deadline the screen gives its resolver.
type deadlineProbe func(time.Duration)

func (f deadlineProbe) LookupNetIP(ctx context.Context, _, host string) ([]netip.Addr, error) {
	if d, ok := ctx.Deadline(); ok {
		f(time.Until(d))
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func TestScreenNamesAreNotResolvedForLiterals(t *testing.T) {
	for _, u := range []string{"https://8.8.8.8/", "https://[2606:4700:4700::1111]/", "https://0x7f000001/", "https://10.0.0.1/"} {
		_, _ = Screen(context.Background(), u, Policy{}, panicResolver{})
	}
}

type panicResolver struct{}

func (panicResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	panic("an IP literal must not be resolved")
}

func TestScreenErrorUnwrapsTheCause(t *testing.T) {
	_, err := Screen(context.Background(), "https://nowhere.test/", Policy{}, names)
	var dnsErr *net.DNSError
	require.ErrorAs(t, err, &dnsErr)
	require.True(t, dnsErr.IsNotFound)
	require.Equal(t, `webhook URL host "nowhere.test" does not resolve (no such host)`, err.Error())
}
