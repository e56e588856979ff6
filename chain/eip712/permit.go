package eip712

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// TokenPermissionsType is the encoded EIP-712 type of Permit2's
// TokenPermissions. Every witness type string ends with it.
const TokenPermissionsType = "TokenPermissions(address token,uint256 amount)"

// PermitWitnessStub is the fixed head of Permit2's PermitWitnessTransferFrom
// type; Permit2 appends the caller's witness type string to it, so the full
// encoded type is PermitWitnessStub + witnessTypeString.
const PermitWitnessStub = "PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,"

// PermitPrimaryType is the EIP-712 primary type of every message signed here.
const PermitPrimaryType = "PermitWitnessTransferFrom"

var tokenPermissionsTypeHash = crypto.Keccak256Hash([]byte(TokenPermissionsType))

// permit is the PermitWitnessTransferFrom envelope around a witness hash.
type permit struct {
	token    common.Address
	amount   *big.Int
	spender  common.Address
	nonce    *big.Int
	deadline *big.Int
}

// permitHash returns hashStruct(PermitWitnessTransferFrom) for the envelope,
// with typeHash = keccak256(PermitWitnessStub + witnessTypeString) and the
// witness already hashed.
func (h *hasher) permitHash(p *permit, typeHash, witness [32]byte) [32]byte {
	tp := h.buf[:3*32]
	copy(tp[0:], tokenPermissionsTypeHash[:])
	putAddress(tp[32:64], p.token)
	putUint(tp[64:96], p.amount)
	permitted := h.sum(len(tp))

	buf := h.buf[:6*32]
	copy(buf[0:], typeHash[:])
	copy(buf[32:], permitted[:])
	putAddress(buf[64:96], p.spender)
	putUint(buf[96:128], p.nonce)
	putUint(buf[128:160], p.deadline)
	copy(buf[160:], witness[:])
	return h.sum(len(buf))
}

// digest returns keccak256("\x19\x01" ‖ domainSeparator ‖ structHash).
func (h *hasher) digest(separator, structHash [32]byte) [32]byte {
	buf := h.buf[:2+2*32]
	buf[0], buf[1] = 0x19, 0x01
	copy(buf[2:], separator[:])
	copy(buf[34:], structHash[:])
	return h.sum(len(buf))
}

// permitDigest returns the EIP-712 digest of the PermitWitnessTransferFrom p
// with the witness hashed by witness, under d.
func permitDigest(d Domain, p permit, typeHash [32]byte, witness func(*hasher) [32]byte) [32]byte {
	h := getHasher()
	defer h.release()
	w := witness(h)
	return h.digest(h.separator(d), h.permitHash(&p, typeHash, w))
}
