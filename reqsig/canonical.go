package reqsig

import (
	"crypto/sha256"
	"encoding/hex"
)

// bodyHashHexLen is the length of the hex SHA-256 that ends every
// canonical string.
const bodyHashHexLen = 2 * sha256.Size

// CanonicalLen returns the exact length of the canonical string for these
// parts, so callers can size a buffer before AppendCanonical.
func CanonicalLen(timestamp, method, target []byte) int {
	return len(timestamp) + len(method) + len(target) + bodyHashHexLen + 3
}

// AppendCanonical appends the canonical string of a request to dst and
// returns the extended slice. It does not allocate when dst has room for
// CanonicalLen bytes.
//
// timestamp and target are used byte for byte, exactly as sent: the
// signature covers what went over the wire, so neither side may normalise
// them. method is upper-cased (ASCII only) here, in the one place both the
// signer and the verifier go through, so they can never disagree on it.
func AppendCanonical(dst []byte, timestamp, method, target, body []byte) []byte {
	dst = append(dst, timestamp...)
	dst = append(dst, '\n')
	for _, c := range method {
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	dst = append(dst, '\n')
	dst = append(dst, target...)
	dst = append(dst, '\n')
	sum := sha256.Sum256(body)
	return hex.AppendEncode(dst, sum[:])
}
