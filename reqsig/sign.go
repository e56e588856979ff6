package reqsig

import (
	"crypto/ed25519"
	"encoding/base64"
)

// Sign returns the SVC-SIGNATURE value (padded standard base64) of the
// request's canonical string. timestamp must be the exact SVC-TIMESTAMP
// value that will be sent and target the exact request target.
//
// priv must be a valid Ed25519 private key (as returned by
// ParsePrivateKeyPEM); like ed25519.Sign, Sign panics on a key of the wrong
// length, because that is a programming error, not a request error.
func Sign(priv ed25519.PrivateKey, timestamp, method, target string, body []byte) string {
	var stack [canonicalStackSize]byte
	msg := AppendCanonical(stack[:0], []byte(timestamp), []byte(method), []byte(target), body)
	return base64.StdEncoding.EncodeToString(ed25519.Sign(priv, msg))
}
