package eip712

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
)

// TypedData is the complete EIP-712 payload for eth_signTypedData_v4
// (signing.typed_data): {domain, types, primaryType, message}. It marshals
// with encoding/json as wallets expect: types includes EIP712Domain, the
// domain's chainId is a JSON number, message numbers are decimal strings,
// addresses are EIP-55 and bytes32 values 0x-prefixed lower-case hex.
//
// ethers v6 (TypedDataEncoder, Signer.signTypedData) derives EIP712Domain
// from the domain itself and refuses it in types: drop that key first.
type TypedData struct {
	Domain      TypedDataDomain             `json:"domain"`
	Types       map[string][]TypedDataField `json:"types"`
	PrimaryType string                      `json:"primaryType"`
	Message     PermitWitnessMessage        `json:"message"`
}

// TypedDataDomain is the Permit2 domain as JSON.
type TypedDataDomain struct {
	Name              string   `json:"name"`
	ChainID           *big.Int `json:"chainId"` // a JSON number (big.Int marshals exactly)
	VerifyingContract string   `json:"verifyingContract"`
}

// TypedDataField is one member of an EIP-712 struct type.
type TypedDataField struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// PermitWitnessMessage is a PermitWitnessTransferFrom message as JSON.
// Witness is a *GaslessOrderMessage or an *RfqEscrowFundingMessage.
type PermitWitnessMessage struct {
	Permitted TokenPermissionsMessage `json:"permitted"`
	Spender   string                  `json:"spender"`
	Nonce     string                  `json:"nonce"`
	Deadline  string                  `json:"deadline"`
	Witness   any                     `json:"witness"`
}

// TokenPermissionsMessage is Permit2's TokenPermissions as JSON.
type TokenPermissionsMessage struct {
	Token  string `json:"token"`
	Amount string `json:"amount"`
}

var (
	domainFields = []TypedDataField{
		{Name: "name", Type: "string"},
		{Name: "chainId", Type: "uint256"},
		{Name: "verifyingContract", Type: "address"},
	}
	tokenPermissionsFields = []TypedDataField{
		{Name: "token", Type: "address"},
		{Name: "amount", Type: "uint256"},
	}
)

// permitFields lists the PermitWitnessTransferFrom members, in
// PermitWitnessStub order, for a witness of type witnessType.
func permitFields(witnessType string) []TypedDataField {
	return []TypedDataField{
		{Name: "permitted", Type: "TokenPermissions"},
		{Name: "spender", Type: "address"},
		{Name: "nonce", Type: "uint256"},
		{Name: "deadline", Type: "uint256"},
		{Name: "witness", Type: witnessType},
	}
}

// newTypedData assembles the payload. Every slice and number is a fresh copy,
// so callers may modify the result without touching package state or inputs.
func newTypedData(d Domain, p permit, witnessType string, witnessFields []TypedDataField, witness any) TypedData {
	var chainID *big.Int
	if d.ChainID != nil {
		chainID = new(big.Int).Set(d.ChainID)
	}
	return TypedData{
		Domain: TypedDataDomain{
			Name:              Permit2Name,
			ChainID:           chainID,
			VerifyingContract: addressString(d.Permit2),
		},
		Types: map[string][]TypedDataField{
			"EIP712Domain":     append([]TypedDataField(nil), domainFields...),
			PermitPrimaryType:  permitFields(witnessType),
			"TokenPermissions": append([]TypedDataField(nil), tokenPermissionsFields...),
			witnessType:        append([]TypedDataField(nil), witnessFields...),
		},
		PrimaryType: PermitPrimaryType,
		Message: PermitWitnessMessage{
			Permitted: TokenPermissionsMessage{Token: addressString(p.token), Amount: uintString(p.amount)},
			Spender:   addressString(p.spender),
			Nonce:     uintString(p.nonce),
			Deadline:  uintString(p.deadline),
			Witness:   witness,
		},
	}
}

// addressString is the EIP-55 checksummed form of a.
func addressString(a common.Address) string { return a.Hex() }

// uintString is the decimal form of v; nil is "0", like its hash.
func uintString(v *big.Int) string {
	if v == nil {
		return "0"
	}
	return v.String()
}
