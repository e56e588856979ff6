package sign

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
)

// SecretPrefix starts every endpoint secret; it tells a reader (and secret
// scanners) what the string is.
const SecretPrefix = "whsec_"

// Key length bounds, in bytes, from the Standard Webhooks specification: a
// key shorter than 24 bytes is too weak, and the libraries of other
// languages are not required to accept one longer than 64.
const (
	MinKeyLen = 24
	MaxKeyLen = 64
)

// newKeyLen is the size of the keys NewSecret makes: SHA-256's output size,
// the strength HMAC-SHA256 can give, and what Standard Webhooks libraries
// generate.
const newKeyLen = 32

// NewSecret returns a fresh endpoint secret, "whsec_" and the base64 of 32
// random bytes.
func NewSecret() (string, error) {
	key := make([]byte, newKeyLen)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("sign: new secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ParseSecret returns the HMAC key of a "whsec_…" secret. It is strict (the
// prefix, standard padded base64 with no stray bytes, MinKeyLen..MaxKeyLen
// bytes), so the one secret the service shows once is the one spelling it
// will accept. Errors never quote the secret.
func ParseSecret(secret string) ([]byte, error) {
	b64, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, fmt.Errorf("sign: secret does not start with %q", SecretPrefix)
	}
	// Strict also refuses non-zero padding bits, so each key has exactly one
	// encoding; the length check below refuses the CR/LF the decoder skips.
	key, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil {
		return nil, fmt.Errorf("sign: secret is not standard base64: %w", err)
	}
	if len(b64) != base64.StdEncoding.EncodedLen(len(key)) {
		return nil, fmt.Errorf("sign: secret holds line breaks")
	}
	if len(key) < MinKeyLen || len(key) > MaxKeyLen {
		return nil, fmt.Errorf("sign: secret key is %d bytes, want %d to %d", len(key), MinKeyLen, MaxKeyLen)
	}
	return key, nil
}
