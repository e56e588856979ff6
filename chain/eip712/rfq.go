package eip712

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// RfqEscrowFundingType is the encoded EIP-712 type of the RfqEscrowFunding
// witness. Field order is part of the signature: the escrow hashes the same.
const RfqEscrowFundingType = "RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)"

// RfqWitnessTypeString is the Permit2 witnessTypeString for an
// RfqEscrowFunding (signing.relay.witnessTypeString, route rfq). Its text is
// fixed by CONTRACT.md:
//
//	RfqEscrowFunding witness)RfqEscrowFunding(address signer,bytes32 executionId,address escrow,bytes32 quoteHash,address token,uint256 amount,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)
const RfqWitnessTypeString = "RfqEscrowFunding witness)" + RfqEscrowFundingType + TokenPermissionsType

// RfqEncodeType is the full encoded type of the PermitWitnessTransferFrom
// message signed for route rfq.
const RfqEncodeType = PermitWitnessStub + RfqWitnessTypeString

var (
	rfqFundingTypeHash = crypto.Keccak256Hash([]byte(RfqEscrowFundingType))
	rfqPermitTypeHash  = crypto.Keccak256Hash([]byte(RfqEncodeType))
)

// RfqEscrowFunding is the Permit2 witness with which the taker funds an RFQ
// escrow: Permit2 moves Amount of Token from Signer to the spender (the
// escrow, equal to Escrow) under Nonce and Deadline, bound to the execution
// and the maker's quote.
type RfqEscrowFunding struct {
	Signer      common.Address
	ExecutionID [32]byte
	Escrow      common.Address
	QuoteHash   [32]byte
	Token       common.Address
	Amount      *big.Int
	Deadline    *big.Int
	Nonce       *big.Int
}

// Validate reports whether every field of f holds a signable value.
func (f *RfqEscrowFunding) Validate() error {
	if f == nil {
		return invalid("funding", "is missing")
	}
	for _, a := range [...]struct {
		name string
		v    common.Address
	}{
		{"funding.signer", f.Signer},
		{"funding.escrow", f.Escrow},
		{"funding.token", f.Token},
	} {
		if err := checkAddress(a.name, a.v); err != nil {
			return err
		}
	}
	for _, u := range [...]struct {
		name string
		v    *big.Int
	}{
		{"funding.amount", f.Amount},
		{"funding.deadline", f.Deadline},
		{"funding.nonce", f.Nonce},
	} {
		if err := checkUint(u.name, u.v); err != nil {
			return err
		}
	}
	return nil
}

// StructHash returns hashStruct(RfqEscrowFunding), the witness hash Permit2
// receives.
func (f *RfqEscrowFunding) StructHash() [32]byte {
	h := getHasher()
	defer h.release()
	return f.structHash(h)
}

func (f *RfqEscrowFunding) structHash(h *hasher) [32]byte {
	buf := h.buf[:9*32]
	copy(buf[0:], rfqFundingTypeHash[:])
	putAddress(buf[32:64], f.Signer)
	copy(buf[64:96], f.ExecutionID[:])
	putAddress(buf[96:128], f.Escrow)
	copy(buf[128:160], f.QuoteHash[:])
	putAddress(buf[160:192], f.Token)
	putUint(buf[192:224], f.Amount)
	putUint(buf[224:256], f.Deadline)
	putUint(buf[256:288], f.Nonce)
	return h.sum(len(buf))
}

func (f *RfqEscrowFunding) permit(spender common.Address) permit {
	return permit{token: f.Token, amount: f.Amount, spender: spender, nonce: f.Nonce, deadline: f.Deadline}
}

// RfqDigest returns the EIP-712 digest a wallet signs for f: a Permit2
// PermitWitnessTransferFrom with permitted = {f.Token, f.Amount}, spender
// (the escrow), nonce and deadline = f's, witness = f.
func RfqDigest(d Domain, spender common.Address, f *RfqEscrowFunding) [32]byte {
	return permitDigest(d, f.permit(spender), rfqPermitTypeHash, f.structHash)
}

// RfqTypedData returns the eth_signTypedData_v4 payload whose digest is
// RfqDigest(d, spender, f).
func RfqTypedData(d Domain, spender common.Address, f *RfqEscrowFunding) TypedData {
	return newTypedData(d, f.permit(spender), "RfqEscrowFunding", rfqFundingFields, &RfqEscrowFundingMessage{
		Signer:      addressString(f.Signer),
		ExecutionID: hexutil.Encode(f.ExecutionID[:]),
		Escrow:      addressString(f.Escrow),
		QuoteHash:   hexutil.Encode(f.QuoteHash[:]),
		Token:       addressString(f.Token),
		Amount:      uintString(f.Amount),
		Deadline:    uintString(f.Deadline),
		Nonce:       uintString(f.Nonce),
	})
}

// VerifyRfq checks that sig is f.Signer's signature of
// RfqDigest(d, spender, f). It returns nil, an error wrapping
// ErrInvalidMessage (d, spender or f unsignable) or one wrapping
// ErrBadSignature (malformed signature, or another signer).
func VerifyRfq(d Domain, spender common.Address, f *RfqEscrowFunding, sig []byte) error {
	if err := validate(d, spender, f); err != nil {
		return err
	}
	return verify(RfqDigest(d, spender, f), f.Signer, sig)
}

// RfqEscrowFundingMessage is the JSON form of an RfqEscrowFunding in typed
// data: EIP-55 addresses, 0x-hex bytes32 and decimal-string numbers.
type RfqEscrowFundingMessage struct {
	Signer      string `json:"signer"`
	ExecutionID string `json:"executionId"`
	Escrow      string `json:"escrow"`
	QuoteHash   string `json:"quoteHash"`
	Token       string `json:"token"`
	Amount      string `json:"amount"`
	Deadline    string `json:"deadline"`
	Nonce       string `json:"nonce"`
}

// rfqFundingFields lists the RfqEscrowFunding members in
// RfqEscrowFundingType order.
var rfqFundingFields = []TypedDataField{
	{Name: "signer", Type: "address"},
	{Name: "executionId", Type: "bytes32"},
	{Name: "escrow", Type: "address"},
	{Name: "quoteHash", Type: "bytes32"},
	{Name: "token", Type: "address"},
	{Name: "amount", Type: "uint256"},
	{Name: "deadline", Type: "uint256"},
	{Name: "nonce", Type: "uint256"},
}
