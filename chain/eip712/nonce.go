package eip712

import (
	"crypto/rand"
	"math/big"
)

// RandomNonce is a Permit2 unordered nonce: 128 random bits, so two
// signatures of one signer (orders, transfers, escrow fundings) never
// collide and none can be guessed to be cancelled ahead of time.
func RandomNonce() *big.Int {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("eip712: crypto/rand: " + err.Error())
	}
	return new(big.Int).SetBytes(b[:])
}
