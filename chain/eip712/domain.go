package eip712

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Permit2Name is the EIP-712 domain name of the Permit2 contract. Permit2's
// domain has no version and no salt.
const Permit2Name = "Permit2"

// DomainType is the encoded EIP-712 type of Permit2's domain.
const DomainType = "EIP712Domain(string name,uint256 chainId,address verifyingContract)"

// CanonicalPermit2 is the address Permit2 is deployed at on every chain that
// has it (CREATE2, same deployer and salt).
var CanonicalPermit2 = common.HexToAddress("0x000000000022D473030F116dDEE9F6B43aC78BA3")

var (
	domainTypeHash  = crypto.Keccak256Hash([]byte(DomainType))
	permit2NameHash = crypto.Keccak256Hash([]byte(Permit2Name))
)

// Domain is the Permit2 EIP-712 domain {name:"Permit2", chainId,
// verifyingContract}.
type Domain struct {
	ChainID *big.Int
	Permit2 common.Address // the verifying contract
}

// Validate reports whether d can be signed: a positive chain id that fits in
// 256 bits and a non-zero Permit2 address.
func (d Domain) Validate() error {
	if err := checkUint("domain.chainId", d.ChainID); err != nil {
		return err
	}
	if d.ChainID.Sign() == 0 {
		return invalid("domain.chainId", "is zero")
	}
	return checkAddress("domain.verifyingContract", d.Permit2)
}

// Separator returns the EIP-712 domain separator
// keccak256(typeHash ‖ keccak256("Permit2") ‖ chainId ‖ verifyingContract).
func (d Domain) Separator() [32]byte {
	h := getHasher()
	defer h.release()
	return h.separator(d)
}

func (h *hasher) separator(d Domain) [32]byte {
	buf := h.buf[:4*32]
	copy(buf[0:], domainTypeHash[:])
	copy(buf[32:], permit2NameHash[:])
	putUint(buf[64:96], d.ChainID)
	putAddress(buf[96:128], d.Permit2)
	return h.sum(len(buf))
}
