package secret

import (
	"crypto/rand"
	"errors"
	"fmt"
)

// KeyLen is the master key length: AES-256.
const KeyLen = 32

// Format versions, the first byte of a sealed value (authenticated too).
const (
	// version1 is the format before key rotation: no key id. Only one
	// master key existed then, so Open tries the current key and then each
	// previous one.
	version1 byte = 1
	// version2 names its master key: the byte is followed by the key id.
	// Seal writes only this format.
	version2 byte = 2
)

// nonceLen is GCM's standard 96-bit nonce, drawn at random for each seal.
// NIST SP 800-38D allows 2^32 random-nonce seals under one key; the service
// seals one value per endpoint secret (and rotation, and reseal), far
// fewer, so no nonce counter has to be kept and persisted.
const nonceLen = 12

// tagLen is GCM's tag.
const tagLen = 16

// Overheads: the version byte, the key id (format 2), the nonce and the
// tag.
const (
	overhead1 = 1 + nonceLen + tagLen
	overhead2 = 1 + KeyIDLen + nonceLen + tagLen
)

// ErrOpen is wrapped by every refusal of Open: wrong master key, another
// endpoint's value, a key id no configured key has, or a truncated or
// altered value. GCM cannot tell most of these apart, and the caller has
// nothing to do but report the record as unreadable.
var ErrOpen = errors.New("secret: sealed value does not open")

// Seal encrypts plaintext bound to additionalData (the endpoint id) under
// the current master key and a fresh random nonce, in format 2:
//
//	2 | key id (8) | nonce (12) | ciphertext and tag
func (s *Sealer) Seal(plaintext, additionalData []byte) ([]byte, error) {
	k := &s.held.current
	out := make([]byte, 1+KeyIDLen+nonceLen, overhead2+len(plaintext))
	out[0] = version2
	copy(out[1:], k.id[:])
	nonce := out[1+KeyIDLen:]
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("secret: seal: nonce: %w", err)
	}
	return k.aead.Seal(out, nonce, plaintext, aad(out[:1+KeyIDLen], additionalData)), nil
}

// Open decrypts a value made by Seal (or by the single-key sealer before
// rotation, format 1) with the same additionalData, under whichever
// configured key sealed it. Every refusal wraps ErrOpen.
func (s *Sealer) Open(sealed, additionalData []byte) ([]byte, error) {
	if len(sealed) == 0 {
		return nil, fmt.Errorf("%w: empty", ErrOpen)
	}
	switch sealed[0] {
	case version1:
		return s.open1(sealed, additionalData)
	case version2:
		return s.open2(sealed, additionalData)
	default:
		return nil, fmt.Errorf("%w: unknown format version %d", ErrOpen, sealed[0])
	}
}

// open1 opens a value of format 1: version | nonce | ciphertext, whose key
// is not named. The current key is tried first (it sealed every such value
// until the first rotation), then each previous key in the order given.
func (s *Sealer) open1(sealed, additionalData []byte) ([]byte, error) {
	if len(sealed) < overhead1 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d of an empty value", ErrOpen, len(sealed), overhead1)
	}
	nonce, ct, ad := sealed[1:1+nonceLen], sealed[1+nonceLen:], aad(sealed[:1], additionalData)
	for k := range s.held.keys() {
		if plain, err := k.aead.Open(nil, nonce, ct, ad); err == nil {
			return plain, nil
		}
	}
	return nil, fmt.Errorf("%w: format 1 value opens under no configured master key (%d tried), or it is another endpoint's, or altered",
		ErrOpen, 1+len(s.held.previous))
}

// open2 opens a value of format 2 under the key its id names.
func (s *Sealer) open2(sealed, additionalData []byte) ([]byte, error) {
	if len(sealed) < overhead2 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d of an empty value", ErrOpen, len(sealed), overhead2)
	}
	var id KeyID
	copy(id[:], sealed[1:1+KeyIDLen])
	k := s.held.byID(id)
	if k == nil {
		return nil, fmt.Errorf("%w: sealed under master key id %s, which is neither the current key nor a previous one configured", ErrOpen, id)
	}
	nonce, ct := sealed[1+KeyIDLen:1+KeyIDLen+nonceLen], sealed[1+KeyIDLen+nonceLen:]
	plain, err := k.aead.Open(nil, nonce, ct, aad(sealed[:1+KeyIDLen], additionalData))
	if err != nil {
		return nil, fmt.Errorf("%w: another endpoint's value, or altered (master key id %s)", ErrOpen, id)
	}
	return plain, nil
}

// IsCurrent reports whether sealed is in format 2 under the current key:
// a reseal leaves it as it is. It looks at the header only; whether the
// value opens is Open's business.
func (s *Sealer) IsCurrent(sealed []byte) bool {
	if len(sealed) < overhead2 || sealed[0] != version2 {
		return false
	}
	return KeyID(sealed[1:1+KeyIDLen]) == s.held.current.id
}

// Reseal opens sealed (under any configured key) and seals the plaintext
// again under the current key, for the same additionalData. The plaintext
// is cleared before it returns.
func (s *Sealer) Reseal(sealed, additionalData []byte) ([]byte, error) {
	plain, err := s.Open(sealed, additionalData)
	if err != nil {
		return nil, err
	}
	defer clear(plain)
	return s.Seal(plain, additionalData)
}

// aad is what GCM authenticates beside the ciphertext: the header (the
// version byte, and in format 2 the key id), so a value cannot be
// relabelled for another format or key, then the caller's data. The header
// has a fixed length per version, so the parts cannot be confused.
func aad(header, additionalData []byte) []byte {
	b := make([]byte, 0, len(header)+len(additionalData))
	return append(append(b, header...), additionalData...)
}
