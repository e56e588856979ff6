package reqsig

import (
	"crypto/ed25519"
	"encoding/base64"
)

// SignatureB64Len is the length of a canonical SVC-SIGNATURE value: the
// padded standard base64 of 64 bytes.
const SignatureB64Len = 88

// sigEncoding is the only accepted alphabet and padding. Strict rejects
// non-zero trailing bits; DecodeSignature adds the checks Strict lacks.
var sigEncoding = base64.StdEncoding.Strict()

// DecodeSignature decodes an SVC-SIGNATURE value into dst and reports
// whether it is the canonical encoding of a 64-byte signature.
//
// It is strict so that one signature has exactly one spelling: the replay
// cache keys on the decoded bytes, and a lenient decoder (one ignoring CR/LF,
// as encoding/base64 does, or accepting non-zero padding bits) would also
// let a caller send the same signature in many header forms. Anything but
// exactly 88 characters of the padded standard alphabet whose re-encoding is
// identical is refused.
func DecodeSignature(dst *[ed25519.SignatureSize]byte, sigB64 []byte) bool {
	if len(sigB64) != SignatureB64Len {
		return false
	}
	for _, c := range sigB64 {
		// encoding/base64 silently skips CR and LF even in Strict mode.
		if c == '\r' || c == '\n' {
			return false
		}
	}
	// Decode needs room for DecodedLen(88) = 66 bytes and panics with less:
	// 88 characters ending in a single '=' decode to 65 bytes.
	var buf [SignatureB64Len / 4 * 3]byte
	n, err := sigEncoding.Decode(buf[:], sigB64)
	if err != nil || n != ed25519.SignatureSize {
		return false
	}
	// Belt and braces: the re-encoding must be the input itself.
	var again [SignatureB64Len]byte
	sigEncoding.Encode(again[:], buf[:n])
	if string(again[:]) != string(sigB64) {
		return false
	}
	copy(dst[:], buf[:n])
	return true
}
