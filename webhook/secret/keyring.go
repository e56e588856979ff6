package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"iter"
)

// KeyIDLen is the length of a master key's id in a format 2 value.
const KeyIDLen = 8

// MaxPreviousKeys bounds the previous master keys a Sealer holds: each one
// is a key an operator still trusts, and a format 1 value may be tried
// against every one of them.
const MaxPreviousKeys = 8

// keyIDLabel separates the key id's hash from any other use of the key.
const keyIDLabel = "fxd webhook master key id v1"

// KeyID names a master key inside the values sealed under it: the first 8
// bytes of SHA-256(keyIDLabel || key). It tells the keys apart without
// helping anyone find one (a 64-bit digest of a 256-bit random key), so it
// may be logged and shown in errors; it prints as 16 hex digits.
type KeyID [KeyIDLen]byte

// String is the id as 16 lowercase hex digits.
func (id KeyID) String() string { return hex.EncodeToString(id[:]) }

// MarshalText is String, so JSON and slog show the hex digits too (not
// an array of numbers).
func (id KeyID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

func keyIDOf(key []byte) KeyID {
	h := sha256.New()
	h.Write([]byte(keyIDLabel))
	h.Write(key)
	var id KeyID
	copy(id[:], h.Sum(nil))
	return id
}

// Sealer seals endpoint secrets under the current master key and opens
// them under the current key or any previous one (a key rotation: values
// sealed under a previous key stay readable until they are resealed). It
// is safe for concurrent use. It holds the keys only inside their ciphers
// and never prints them: every fmt verb shows "secret.Sealer{…}".
type Sealer struct {
	// held behind a pointer: where fmt bypasses Format (a Sealer value in
	// an unexported field of something printed whole) it prints a nested
	// pointer as an address, whatever type NewGCM returns.
	held *held
}

// held is the keyring: the ciphers, the only things derived from the keys.
type held struct {
	current  masterKey
	previous []masterKey // at most MaxPreviousKeys, none equal to current
}

// masterKey is one key's cipher and id.
type masterKey struct {
	id   KeyID
	aead cipher.AEAD
}

// keys yields the current key, then the previous ones in the order given.
func (h *held) keys() iter.Seq[*masterKey] {
	return func(yield func(*masterKey) bool) {
		if !yield(&h.current) {
			return
		}
		for i := range h.previous {
			if !yield(&h.previous[i]) {
				return
			}
		}
	}
}

// byID is the key named id; nil when none is configured.
func (h *held) byID(id KeyID) *masterKey {
	for k := range h.keys() {
		if k.id == id {
			return k
		}
	}
	return nil
}

// NewSealer returns a Sealer of one 32-byte master key, with no previous
// keys. It does not keep key: the caller may clear it.
func NewSealer(key []byte) (*Sealer, error) { return NewKeyring(key) }

// NewKeyring returns a Sealer whose current key seals and whose previous
// keys (at most MaxPreviousKeys) only open. A previous key equal to the
// current one, or to another previous one, is refused: it would be a
// configuration mistake that hides which key is which. It does not keep
// the keys: the caller may clear them.
func NewKeyring(current []byte, previous ...[]byte) (*Sealer, error) {
	if len(previous) > MaxPreviousKeys {
		return nil, fmt.Errorf("secret: %d previous master keys, at most %d", len(previous), MaxPreviousKeys)
	}
	cur, err := newMasterKey(current)
	if err != nil {
		return nil, fmt.Errorf("secret: master key: %w", err)
	}
	h := &held{current: cur, previous: make([]masterKey, 0, len(previous))}
	for i, p := range previous {
		if subtle.ConstantTimeCompare(p, current) == 1 {
			return nil, fmt.Errorf("secret: previous master key %d (in the order listed) is the current master key (id %s); list only keys that were replaced", i+1, cur.id)
		}
		for j := range i {
			if subtle.ConstantTimeCompare(p, previous[j]) == 1 {
				return nil, fmt.Errorf("secret: previous master key %d (in the order listed) repeats previous master key %d; list each key once", i+1, j+1)
			}
		}
		k, err := newMasterKey(p)
		if err != nil {
			return nil, fmt.Errorf("secret: previous master key %d: %w", i+1, err)
		}
		h.previous = append(h.previous, k)
	}
	return &Sealer{held: h}, nil
}

func newMasterKey(key []byte) (masterKey, error) {
	if len(key) != KeyLen {
		return masterKey{}, fmt.Errorf("%d bytes, want %d", len(key), KeyLen)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return masterKey{}, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return masterKey{}, err
	}
	return masterKey{id: keyIDOf(key), aead: aead}, nil
}

// CurrentKeyID is the id of the key that seals (for logs and runbooks).
func (s *Sealer) CurrentKeyID() KeyID { return s.held.current.id }

// PreviousKeyIDs are the ids of the keys that only open, in the order
// given.
func (s *Sealer) PreviousKeyIDs() []KeyID {
	ids := make([]KeyID, len(s.held.previous))
	for i := range s.held.previous {
		ids[i] = s.held.previous[i].id
	}
	return ids
}
