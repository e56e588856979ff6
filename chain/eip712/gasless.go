package eip712

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// GaslessOrderType is the encoded EIP-712 type of the GaslessOrder witness.
// Field order is part of the signature: the relay router hashes the same.
const GaslessOrderType = "GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)"

// GaslessWitnessTypeString is the Permit2 witnessTypeString for a
// GaslessOrder (signing.relay.witnessTypeString, route amm). Its text is
// fixed by CONTRACT.md:
//
//	GaslessOrder witness)GaslessOrder(address signer,address tokenIn,address tokenOut,uint256 amountIn,uint256 minAmountOut,address recipient,address pool,uint256 deadline,uint256 nonce)TokenPermissions(address token,uint256 amount)
const GaslessWitnessTypeString = "GaslessOrder witness)" + GaslessOrderType + TokenPermissionsType

// GaslessEncodeType is the full encoded type of the PermitWitnessTransferFrom
// message signed for route amm.
const GaslessEncodeType = PermitWitnessStub + GaslessWitnessTypeString

var (
	gaslessOrderTypeHash  = crypto.Keccak256Hash([]byte(GaslessOrderType))
	gaslessPermitTypeHash = crypto.Keccak256Hash([]byte(GaslessEncodeType))
)

// GaslessOrder is the Permit2 witness of a relayed AMM swap (route amm and
// cross-currency transfers). Permit2 moves AmountIn of TokenIn from Signer to
// the spender (the relay router) under Nonce and Deadline, and the router
// swaps it through Pool for at least MinAmountOut of TokenOut to Recipient.
type GaslessOrder struct {
	Signer       common.Address
	TokenIn      common.Address
	TokenOut     common.Address
	AmountIn     *big.Int
	MinAmountOut *big.Int
	Recipient    common.Address
	Pool         common.Address
	Deadline     *big.Int
	Nonce        *big.Int
}

// Validate reports whether every field of o holds a signable value.
func (o *GaslessOrder) Validate() error {
	if o == nil {
		return invalid("order", "is missing")
	}
	for _, a := range [...]struct {
		name string
		v    common.Address
	}{
		{"order.signer", o.Signer},
		{"order.tokenIn", o.TokenIn},
		{"order.tokenOut", o.TokenOut},
		{"order.recipient", o.Recipient},
		{"order.pool", o.Pool},
	} {
		if err := checkAddress(a.name, a.v); err != nil {
			return err
		}
	}
	for _, u := range [...]struct {
		name string
		v    *big.Int
	}{
		{"order.amountIn", o.AmountIn},
		{"order.minAmountOut", o.MinAmountOut},
		{"order.deadline", o.Deadline},
		{"order.nonce", o.Nonce},
	} {
		if err := checkUint(u.name, u.v); err != nil {
			return err
		}
	}
	return nil
}

// StructHash returns hashStruct(GaslessOrder), the witness hash Permit2
// receives.
func (o *GaslessOrder) StructHash() [32]byte {
	h := getHasher()
	defer h.release()
	return o.structHash(h)
}

func (o *GaslessOrder) structHash(h *hasher) [32]byte {
	buf := h.buf[:10*32]
	copy(buf[0:], gaslessOrderTypeHash[:])
	putAddress(buf[32:64], o.Signer)
	putAddress(buf[64:96], o.TokenIn)
	putAddress(buf[96:128], o.TokenOut)
	putUint(buf[128:160], o.AmountIn)
	putUint(buf[160:192], o.MinAmountOut)
	putAddress(buf[192:224], o.Recipient)
	putAddress(buf[224:256], o.Pool)
	putUint(buf[256:288], o.Deadline)
	putUint(buf[288:320], o.Nonce)
	return h.sum(len(buf))
}

func (o *GaslessOrder) permit(spender common.Address) permit {
	return permit{token: o.TokenIn, amount: o.AmountIn, spender: spender, nonce: o.Nonce, deadline: o.Deadline}
}

// GaslessDigest returns the EIP-712 digest a wallet signs for o: a Permit2
// PermitWitnessTransferFrom with permitted = {o.TokenIn, o.AmountIn},
// spender (the relay router), nonce and deadline = o's, witness = o.
func GaslessDigest(d Domain, spender common.Address, o *GaslessOrder) [32]byte {
	return permitDigest(d, o.permit(spender), gaslessPermitTypeHash, o.structHash)
}

// GaslessTypedData returns the eth_signTypedData_v4 payload whose digest is
// GaslessDigest(d, spender, o).
func GaslessTypedData(d Domain, spender common.Address, o *GaslessOrder) TypedData {
	return newTypedData(d, o.permit(spender), "GaslessOrder", gaslessOrderFields, &GaslessOrderMessage{
		Signer:       addressString(o.Signer),
		TokenIn:      addressString(o.TokenIn),
		TokenOut:     addressString(o.TokenOut),
		AmountIn:     uintString(o.AmountIn),
		MinAmountOut: uintString(o.MinAmountOut),
		Recipient:    addressString(o.Recipient),
		Pool:         addressString(o.Pool),
		Deadline:     uintString(o.Deadline),
		Nonce:        uintString(o.Nonce),
	})
}

// VerifyGasless checks that sig is o.Signer's signature of
// GaslessDigest(d, spender, o). It returns nil, an error wrapping
// ErrInvalidMessage (d, spender or o unsignable) or one wrapping
// ErrBadSignature (malformed signature, or another signer).
func VerifyGasless(d Domain, spender common.Address, o *GaslessOrder, sig []byte) error {
	if err := validate(d, spender, o); err != nil {
		return err
	}
	return verify(GaslessDigest(d, spender, o), o.Signer, sig)
}

// GaslessOrderMessage is the JSON form of a GaslessOrder in typed data:
// EIP-55 addresses and decimal-string numbers.
type GaslessOrderMessage struct {
	Signer       string `json:"signer"`
	TokenIn      string `json:"tokenIn"`
	TokenOut     string `json:"tokenOut"`
	AmountIn     string `json:"amountIn"`
	MinAmountOut string `json:"minAmountOut"`
	Recipient    string `json:"recipient"`
	Pool         string `json:"pool"`
	Deadline     string `json:"deadline"`
	Nonce        string `json:"nonce"`
}

// gaslessOrderFields lists the GaslessOrder members in GaslessOrderType order.
var gaslessOrderFields = []TypedDataField{
	{Name: "signer", Type: "address"},
	{Name: "tokenIn", Type: "address"},
	{Name: "tokenOut", Type: "address"},
	{Name: "amountIn", Type: "uint256"},
	{Name: "minAmountOut", Type: "uint256"},
	{Name: "recipient", Type: "address"},
	{Name: "pool", Type: "address"},
	{Name: "deadline", Type: "uint256"},
	{Name: "nonce", Type: "uint256"},
}
