package screen

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseInetAton(t *testing.T) {
	ok := map[string]string{
		"127.0.0.1":              "127.0.0.1",
		"2130706433":             "127.0.0.1",
		"0x7f000001":             "127.0.0.1",
		"0X7F000001":             "127.0.0.1",
		"017700000001":           "127.0.0.1",
		"127.1":                  "127.0.0.1",
		"127.0.1":                "127.0.0.1",
		"0x7f.1":                 "127.0.0.1",
		"0177.0.0.1":             "127.0.0.1",
		"0177.0.0.01":            "127.0.0.1",
		"127.0.0.1.":             "127.0.0.1",
		"0":                      "0.0.0.0",
		"0x":                     "0.0.0.0",
		"00":                     "0.0.0.0",
		"4294967295":             "255.255.255.255",
		"0xffffffff":             "255.255.255.255",
		"037777777777":           "255.255.255.255",
		"1.16777215":             "1.255.255.255",
		"1.2.65535":              "1.2.255.255",
		"1.2.3.255":              "1.2.3.255",
		"0x00000000000008.8.8.8": "8.8.8.8",
		"0000000000000010.1.1.1": "8.1.1.1",
	}
	for in, want := range ok {
		a, parsed := parseInetAton(in)
		require.True(t, parsed, in)
		require.Equal(t, netip.MustParseAddr(want), a, in)
		require.True(t, endsInNumber(in), in)
	}
	for _, in := range []string{
		"", ".", "1..1", "1.2.3.4.5", "256.0.0.1", "1.256.0.1", "1.2.256.1", "1.2.3.256",
		"1.16777216", "1.2.65536", "4294967296", "0x100000000", "040000000000",
		"08", "09.1.1.1", "0xg", "1.2.3.4..", "-1", "+1", "1e3", "99999999999999999999999",
		"0x1.0x2.0x3.0x100",
	} {
		_, parsed := parseInetAton(in)
		require.False(t, parsed, in)
	}
}

func TestEndsInNumber(t *testing.T) {
	for _, h := range []string{"1", "0x", "0xAf", "foo.123", "foo.0x1", "a.b.1.", "1.2.3.4.5", "09", "1."} {
		require.True(t, endsInNumber(h), h)
	}
	for _, h := range []string{"", ".", "example.com", "1.2.3.com", "0xg", "1e100", "foo.1x", "x1", "a..", "1.2.3.4.."} {
		require.False(t, endsInNumber(h), h)
	}
}
