package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// KeyLen is the master key length: AES-256.
const KeyLen = 32

// version1 is the format byte of values sealed under the one master key
// there is today; a rotation would add version2 for the next key.
const version1 byte = 1

// nonceLen is GCM's standard 96-bit nonce, drawn at random for each seal.
// NIST SP 800-38D allows 2^32 random-nonce seals under one key; the service
// seals one value per endpoint secret (and rotation), far fewer, so no nonce
// counter has to be kept and persisted.
const nonceLen = 12

// overhead is the version byte, the nonce and the GCM tag.
const overhead = 1 + nonceLen + 16

// ErrOpen is wrapped by every refusal of Open: wrong master key, another
// endpoint's value, or a truncated or altered one. GCM cannot tell these
// apart, and the caller has nothing to do but report the record as
// unreadable.
var ErrOpen = errors.New("secret: sealed value does not open")

// Sealer seals and opens endpoint secrets under the master key. It is safe
// for concurrent use. It holds the key only inside its cipher and never
// prints it: every fmt verb shows "secret.Sealer{…}".
type Sealer struct {
	// held behind a pointer: where fmt bypasses Format (a Sealer value in
	// an unexported field of something printed whole) it prints a nested
	// pointer as an address, whatever type NewGCM returns.
	held *held
}

// held is the cipher, the only thing derived from the key.
type held struct {
	aead cipher.AEAD
}

// NewSealer returns a Sealer for a 32-byte master key. It does not keep
// key: the caller may clear it.
func NewSealer(key []byte) (*Sealer, error) {
	if len(key) != KeyLen {
		return nil, fmt.Errorf("secret: master key is %d bytes, want %d", len(key), KeyLen)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret: master key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret: master key: %w", err)
	}
	return &Sealer{held: &held{aead: aead}}, nil
}

// Seal encrypts plaintext bound to additionalData (the endpoint id) under a
// fresh random nonce.
func (s *Sealer) Seal(plaintext, additionalData []byte) ([]byte, error) {
	out := make([]byte, 1+nonceLen, overhead+len(plaintext))
	out[0] = version1
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("secret: seal: nonce: %w", err)
	}
	return s.held.aead.Seal(out, out[1:], plaintext, aad(out[0], additionalData)), nil
}

// Open decrypts a value made by Seal with the same additionalData. Every
// refusal wraps ErrOpen.
func (s *Sealer) Open(sealed, additionalData []byte) ([]byte, error) {
	if len(sealed) < overhead {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the %d of an empty value", ErrOpen, len(sealed), overhead)
	}
	if sealed[0] != version1 {
		return nil, fmt.Errorf("%w: unknown format version %d", ErrOpen, sealed[0])
	}
	plain, err := s.held.aead.Open(nil, sealed[1:1+nonceLen], sealed[1+nonceLen:], aad(sealed[0], additionalData))
	if err != nil {
		return nil, fmt.Errorf("%w: wrong master key, another endpoint's value, or altered", ErrOpen)
	}
	return plain, nil
}

// aad is what GCM authenticates beside the ciphertext: the version byte, so
// a value cannot be relabelled for another key, then the caller's data. The
// version has a fixed length, so the two parts cannot be confused.
func aad(version byte, additionalData []byte) []byte {
	b := make([]byte, 0, 1+len(additionalData))
	return append(append(b, version), additionalData...)
}
