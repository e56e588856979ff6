package domain

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/crypto"
)

// checkText accepts 1..max runes (0..max when optional) of valid UTF-8
// without control characters.
func checkText(field, s string, max int, optional bool) *Error {
	if !utf8.ValidString(s) {
		return ErrInvalid("%s is not valid UTF-8", field)
	}
	n := utf8.RuneCountInString(s)
	if strings.TrimSpace(s) == "" && !optional {
		return ErrInvalid("%s is required", field)
	}
	if n > max {
		return ErrInvalid("%s is longer than %d characters", field, max)
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return ErrInvalid("%s contains a control character", field)
		}
		if isBidiControl(r) {
			return ErrInvalid("%s contains a bidirectional override character", field)
		}
	}
	return nil
}

// NormalizeAddress accepts a 0x-prefixed 20-byte hex address and returns it
// EIP-55 checksummed. All-lower or all-upper hex carries no checksum; mixed
// case must be a correct checksum, so a typo in a checksummed address is
// caught instead of paying a stranger.
func NormalizeAddress(field, s string) (string, *Error) {
	if len(s) != 42 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return "", ErrInvalid("%s must be a 0x-prefixed 20-byte hex address", field)
	}
	var out [42]byte // "0x" and the lower-case hex, then checksummed in place
	out[0], out[1] = '0', 'x'
	hasLower, hasUpper := false, false
	for i := 2; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'a' && c <= 'f':
			hasLower = true
		case c >= 'A' && c <= 'F':
			hasUpper = true
			c += 'a' - 'A'
		default:
			return "", ErrInvalid("%s must be a 0x-prefixed 20-byte hex address", field)
		}
		out[i] = c
	}
	eip55(&out)
	sum := string(out[:])
	if hasLower && hasUpper && s[2:] != sum[2:] {
		return "", ErrInvalid("%s has a bad EIP-55 checksum", field)
	}
	return sum, nil
}

// eip55 upper-cases the hex letters of a lower-case "0x" address where
// the Keccak-256 of the lower-case hex has a nibble of 8 or more (EIP-55).
func eip55(a *[42]byte) {
	var h [32]byte
	d := keccakPool.Get().(crypto.KeccakState)
	d.Reset()
	d.Write(a[2:])
	d.Read(h[:])
	keccakPool.Put(d)
	for i := 2; i < len(a); i++ {
		nibble := h[(i-2)/2]
		if i%2 == 0 {
			nibble >>= 4
		}
		if a[i] > '9' && nibble&0xf > 7 {
			a[i] -= 'a' - 'A'
		}
	}
}

// keccakPool reuses Keccak-256 states (one per checksum otherwise).
var keccakPool = sync.Pool{New: func() any { return crypto.NewKeccakState() }}

// isBidiControl matches the embedding, override and isolate characters
// that can make a name display as something else (Trojan Source).
func isBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}
