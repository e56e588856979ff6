package embedded

import (
	"crypto/ecdsa"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
)

// DevKey returns the well-known key named name: keccak256("fxd/"+name)
// (re-hashed in the negligible case that is not a valid secp256k1 key).
//
// TEST ENVIRONMENT ONLY. Anyone can derive these keys from their names; they
// exist so the embedded chain's deployer, relayer and makers have the same
// addresses on every fresh start. Never fund them on a real network and
// never use them with --env live.
func DevKey(name string) *ecdsa.PrivateKey {
	seed := crypto.Keccak256([]byte("fxd/" + name))
	for {
		if key, err := crypto.ToECDSA(seed); err == nil {
			return key
		}
		seed = crypto.Keccak256(seed)
	}
}

// DevAddress is the address of DevKey(name).
func DevAddress(name string) common.Address {
	return crypto.PubkeyToAddress(DevKey(name).PublicKey)
}

// DevFunding is the balance DefaultAlloc gives each dev key: 1e9 ETH.
var DevFunding = new(big.Int).Mul(big.NewInt(1_000_000_000), big.NewInt(params.Ether))

// DefaultAlloc funds DevKey(name) for each name with DevFunding (test
// environment only, see DevKey). Merge further accounts (e.g. Permit2's
// runtime code at its canonical address) into the result.
func DefaultAlloc(names ...string) types.GenesisAlloc {
	alloc := make(types.GenesisAlloc, len(names))
	for _, name := range names {
		alloc[DevAddress(name)] = types.Account{Balance: new(big.Int).Set(DevFunding)}
	}
	return alloc
}
