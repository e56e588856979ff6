package screen

import (
	"net/netip"
	"strings"
)

// Numeric hosts.
//
// Browsers, curl and the C library's inet_aton read many spellings of an
// IPv4 address: a single integer (2130706433), hex (0x7f000001), octal
// (017700000001), short forms (127.1, 0x7f.1) and octal octets
// (0177.0.0.1) all mean 127.0.0.1. A screen that took them for host names
// would hand them to a resolver that may well read them the same way, so
// they are recognised here exactly as inet_aton parses them.
//
// The decision: a numeric host is accepted only in canonical dotted
// decimal (the spelling netip.ParseAddr reads). Every other spelling is
// refused, whatever address it stands for, and the refusal names that
// address (and its class when it is refused anyway). Nobody needs
// 0x08080808 to reach a receiver, and refusing keeps what we store, what
// we screen and what we connect to the same text.
//
// Which hosts are numeric follows the WHATWG URL standard's "ends in a
// number" rule: the last label (after one trailing dot) is all decimal
// digits, or 0x followed by hex digits. No top-level domain looks like
// that, so such a host is an address or invalid, never a name; "1.2.3.4.5"
// and "foo.123" are refused rather than sent to a resolver.

// endsInNumber reports whether host must be read as an IPv4 address.
func endsInNumber(host string) bool {
	h := strings.TrimSuffix(host, ".")
	last := h[strings.LastIndexByte(h, '.')+1:]
	if last == "" {
		return false
	}
	if allDigits(last, 10) {
		return true
	}
	return len(last) >= 2 && last[0] == '0' && (last[1] == 'x' || last[1] == 'X') && allDigits(last[2:], 16)
}

// parseInetAton reads host as inet_aton does: one to four parts separated
// by dots, each decimal, octal (leading 0) or hex (leading 0x); all parts
// but the last are one byte, and the last fills the remaining bytes. One
// trailing dot is allowed, as browsers allow it.
func parseInetAton(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		n, ok := parseInetNumber(p)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(parts)-1 {
			if n > 0xff {
				return netip.Addr{}, false
			}
			v = v<<8 | n
			continue
		}
		// The last part fills the 8*(5-len(parts)) low bits.
		bits := uint(8 * (5 - len(parts)))
		if n >= 1<<bits {
			return netip.Addr{}, false
		}
		v = v<<bits | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// parseInetNumber reads one part of a numeric host. It stops as soon as
// the value passes 32 bits, so no input can overflow it.
func parseInetNumber(p string) (uint64, bool) {
	base := uint64(10)
	switch {
	case p == "":
		return 0, false
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		base, p = 16, p[2:] // "0x" alone is 0, as inet_aton and browsers read it
	case len(p) >= 2 && p[0] == '0':
		base, p = 8, p[1:]
	}
	var n uint64
	for i := 0; i < len(p); i++ {
		d, ok := digitValue(p[i])
		if !ok || d >= base {
			return 0, false
		}
		n = n*base + d
		if n > 0xffffffff {
			return 0, false
		}
	}
	return n, true
}

func digitValue(c byte) (uint64, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint64(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint64(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint64(c-'A') + 10, true
	}
	return 0, false
}

func allDigits(s string, base uint64) bool {
	for i := 0; i < len(s); i++ {
		if d, ok := digitValue(s[i]); !ok || d >= base {
			return false
		}
	}
	return true
}
