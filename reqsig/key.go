package reqsig

import (
	"crypto/ed25519"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
)

// pemTypePKCS8 is the PEM block type of an unencrypted PKCS #8 private key.
const pemTypePKCS8 = "PRIVATE KEY"

// ParsePrivateKeyPEM parses the PKCS #8 PEM ("PRIVATE KEY") Ed25519 key
// printed by `fxd admin keys create`. It refuses other block types,
// encrypted (header-carrying) blocks, trailing PEM blocks and non-Ed25519
// keys, so a wrong file fails loudly instead of signing with the wrong key.
func ParsePrivateKeyPEM(data []byte) (ed25519.PrivateKey, error) {
	block, rest := pem.Decode(data)
	if block == nil {
		return nil, errors.New("reqsig: parse private key: no PEM block found")
	}
	if block.Type != pemTypePKCS8 {
		return nil, fmt.Errorf("reqsig: parse private key: PEM block type %q, want %q", block.Type, pemTypePKCS8)
	}
	if len(block.Headers) != 0 {
		return nil, errors.New("reqsig: parse private key: PEM headers present (encrypted keys are not supported)")
	}
	if next, _ := pem.Decode(rest); next != nil {
		return nil, errors.New("reqsig: parse private key: more than one PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("reqsig: parse private key: %w", err)
	}
	priv, ok := key.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("reqsig: parse private key: %T is not an Ed25519 key", key)
	}
	return priv, nil
}

// MarshalPrivateKeyPEM encodes priv as a PKCS #8 PEM block ("PRIVATE KEY"),
// the format ParsePrivateKeyPEM reads and other tools (openssl, node:crypto)
// accept.
func MarshalPrivateKeyPEM(priv ed25519.PrivateKey) ([]byte, error) {
	if len(priv) != ed25519.PrivateKeySize {
		return nil, fmt.Errorf("reqsig: marshal private key: length %d, want %d", len(priv), ed25519.PrivateKeySize)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("reqsig: marshal private key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: pemTypePKCS8, Bytes: der}), nil
}
