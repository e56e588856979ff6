package eip712

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// SignatureLength is the length of an r ‖ s ‖ v signature.
const SignatureLength = 65

// CompactSignatureLength is an EIP-2098 compact signature's: r ‖ yParityAndS.
const CompactSignatureLength = 64

// ErrBadSignature is wrapped by every error that means "this signature does
// not authorise this message" (CONTRACT.md's invalid_signature). The more
// specific errors below wrap it, so errors.Is(err, ErrBadSignature) is the
// one test a handler needs.
var ErrBadSignature = errors.New("eip712: bad signature")

var (
	// ErrSignatureLength: the signature is not 65 bytes.
	ErrSignatureLength = fmt.Errorf("%w: length is not %d (or %d, EIP-2098) bytes", ErrBadSignature, SignatureLength, CompactSignatureLength)
	// ErrSignatureV: v is not 27, 28, 0 or 1.
	ErrSignatureV = fmt.Errorf("%w: v is not 27, 28, 0 or 1", ErrBadSignature)
	// ErrSignatureRange: r or s is zero or not below the curve order.
	ErrSignatureRange = fmt.Errorf("%w: r or s out of range", ErrBadSignature)
	// ErrSignatureHighS: s is in the upper half of the curve order, which
	// EIP-2 (and OpenZeppelin's ECDSA, used on chain) refuses as malleable.
	ErrSignatureHighS = fmt.Errorf("%w: s is in the upper half of the curve order (EIP-2)", ErrBadSignature)
	// ErrSignatureRecover: no public key recovers from the signature.
	ErrSignatureRecover = fmt.Errorf("%w: no public key recovers", ErrBadSignature)
	// ErrSignerMismatch: the signature is valid but from another address.
	ErrSignerMismatch = fmt.Errorf("%w: signed by another address", ErrBadSignature)
)

// secp256k1 curve order n and ⌊n/2⌋, big-endian.
var (
	curveN     = common.Hex2Bytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
	curveHalfN = common.Hex2Bytes("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0")
)

// Recover returns the address whose key signed digest. sig is r ‖ s ‖ v, 65
// bytes, v in {27, 28} (wallets, ethers) or {0, 1}, or the 64-byte EIP-2098
// compact r ‖ yParityAndS (ethers' compactSerialized), which Permit2 and
// OpenZeppelin's ECDSA accept on chain too. Signatures with s > n/2 are
// refused (EIP-2), as are r or s of zero or ≥ n. Every error wraps
// ErrBadSignature.
func Recover(digest [32]byte, sig []byte) (common.Address, error) {
	sig = Expand(sig)
	if len(sig) != SignatureLength {
		return common.Address{}, ErrSignatureLength
	}
	var rsv [SignatureLength]byte
	copy(rsv[:], sig)
	switch rsv[64] {
	case 27, 28:
		rsv[64] -= 27
	case 0, 1:
	default:
		return common.Address{}, ErrSignatureV
	}
	r, s := rsv[0:32], rsv[32:64]
	if isZero(r) || isZero(s) || bytes.Compare(r, curveN) >= 0 {
		return common.Address{}, ErrSignatureRange
	}
	if bytes.Compare(s, curveHalfN) > 0 {
		return common.Address{}, ErrSignatureHighS
	}
	pub, err := crypto.Ecrecover(digest[:], rsv[:])
	if err != nil || len(pub) != 65 {
		return common.Address{}, ErrSignatureRecover
	}
	var addr common.Address
	h := crypto.Keccak256Hash(pub[1:])
	copy(addr[:], h[12:])
	return addr, nil
}

// Expand returns a 64-byte EIP-2098 compact signature r ‖ yParityAndS as
// the 65 bytes r ‖ s ‖ v (v 27 or 28), in a new slice; any other sig is
// returned as it is.
func Expand(sig []byte) []byte {
	if len(sig) != CompactSignatureLength {
		return sig
	}
	full := make([]byte, SignatureLength)
	copy(full, sig)
	full[64] = 27 + full[32]>>7
	full[32] &= 0x7f
	return full
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// verify checks that sig over digest recovers to want.
func verify(digest [32]byte, want common.Address, sig []byte) error {
	got, err := Recover(digest, sig)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("%w: recovered %s, want %s", ErrSignerMismatch, got.Hex(), want.Hex())
	}
	return nil
}
