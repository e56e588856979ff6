package wallet

import (
	"crypto/ecdsa"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// Wallet holds one key and the chain it signs transactions for. Signing
// messages needs no chain; transactions need the Backend.
type Wallet struct {
	key     *ecdsa.PrivateKey
	addr    common.Address
	eth     Backend
	chainID *big.Int
}

// New makes a wallet with a fresh key. A real integration loads its own
// (FromKey). eth may be nil for a wallet that only signs messages.
func New(eth Backend, chainID *big.Int) (*Wallet, error) {
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, fmt.Errorf("wallet: generate key: %w", err)
	}
	return FromKey(key, eth, chainID), nil
}

// FromKey is a wallet over an existing key.
func FromKey(key *ecdsa.PrivateKey, eth Backend, chainID *big.Int) *Wallet {
	return &Wallet{key: key, addr: crypto.PubkeyToAddress(key.PublicKey), eth: eth, chainID: chainID}
}

// Address is the wallet's address.
func (w *Wallet) Address() common.Address { return w.addr }

// ChainID is the chain the wallet signs transactions for.
func (w *Wallet) ChainID() *big.Int { return w.chainID }

// PersonalSign is a wallet's personal_sign (EIP-191): how a SIWE
// challenge is signed.
func (w *Wallet) PersonalSign(message string) (string, error) {
	return w.sign(accounts.TextHash([]byte(message)))
}

// sign signs a 32-byte digest as wallets do: r ‖ s ‖ v with v = 27 or 28.
func (w *Wallet) sign(digest []byte) (string, error) {
	sig, err := crypto.Sign(digest, w.key)
	if err != nil {
		return "", fmt.Errorf("wallet: sign: %w", err)
	}
	sig[64] += 27
	return hexutil.Encode(sig), nil
}
