package eip712

import (
	"bytes"
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// apitypesTypes are the EIP-712 types as ethers wrote them into the vectors,
// plus EIP712Domain, for go-ethereum's generic encoder. They come from the
// vectors file, not from this package, so the cross-check is independent of
// our field lists.
func apitypesTypes(t testing.TB, c *vectorCase) apitypes.Types {
	t.Helper()
	types := apitypes.Types{"EIP712Domain": {
		{Name: "name", Type: "string"},
		{Name: "chainId", Type: "uint256"},
		{Name: "verifyingContract", Type: "address"},
	}}
	for name, fields := range c.Types {
		for _, f := range fields {
			types[name] = append(types[name], apitypes.Type{Name: f.Name, Type: f.Type})
		}
	}
	return types
}

func apitypesDomain(d Domain) apitypes.TypedDataDomain {
	return apitypes.TypedDataDomain{
		Name:              Permit2Name,
		ChainId:           (*math.HexOrDecimal256)(new(big.Int).Set(d.ChainID)),
		VerifyingContract: d.Permit2.Hex(),
	}
}

// apitypesGasless builds o's message the generic way: maps of strings.
func apitypesGasless(types apitypes.Types, d Domain, spender common.Address, o *GaslessOrder) apitypes.TypedData {
	return apitypes.TypedData{
		Types:       types,
		PrimaryType: "PermitWitnessTransferFrom",
		Domain:      apitypesDomain(d),
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]any{"token": o.TokenIn.Hex(), "amount": o.AmountIn.String()},
			"spender":   spender.Hex(),
			"nonce":     o.Nonce.String(),
			"deadline":  o.Deadline.String(),
			"witness": map[string]any{
				"signer":       o.Signer.Hex(),
				"tokenIn":      o.TokenIn.Hex(),
				"tokenOut":     o.TokenOut.Hex(),
				"amountIn":     o.AmountIn.String(),
				"minAmountOut": o.MinAmountOut.String(),
				"recipient":    o.Recipient.Hex(),
				"pool":         o.Pool.Hex(),
				"deadline":     o.Deadline.String(),
				"nonce":        o.Nonce.String(),
			},
		},
	}
}

func apitypesRfq(types apitypes.Types, d Domain, spender common.Address, f *RfqEscrowFunding) apitypes.TypedData {
	return apitypes.TypedData{
		Types:       types,
		PrimaryType: "PermitWitnessTransferFrom",
		Domain:      apitypesDomain(d),
		Message: apitypes.TypedDataMessage{
			"permitted": map[string]any{"token": f.Token.Hex(), "amount": f.Amount.String()},
			"spender":   spender.Hex(),
			"nonce":     f.Nonce.String(),
			"deadline":  f.Deadline.String(),
			"witness": map[string]any{
				"signer":      f.Signer.Hex(),
				"executionId": hexutil.Encode(f.ExecutionID[:]),
				"escrow":      f.Escrow.Hex(),
				"quoteHash":   hexutil.Encode(f.QuoteHash[:]),
				"token":       f.Token.Hex(),
				"amount":      f.Amount.String(),
				"deadline":    f.Deadline.String(),
				"nonce":       f.Nonce.String(),
			},
		},
	}
}

func apitypesHash(t testing.TB, td apitypes.TypedData) [32]byte {
	t.Helper()
	h, _, err := apitypes.TypedDataAndHash(td)
	if err != nil {
		t.Fatalf("apitypes: %v", err)
	}
	return [32]byte(h)
}

// viaJSON marshals our typed data and decodes it as apitypes would from an
// eth_signTypedData_v4 request.
func viaJSON(t testing.TB, td TypedData) apitypes.TypedData {
	t.Helper()
	data, err := json.Marshal(td)
	if err != nil {
		t.Fatal(err)
	}
	var out apitypes.TypedData
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("apitypes cannot decode our typed data: %v\n%s", err, data)
	}
	return out
}

func TestApitypesEncodeType(t *testing.T) {
	v := loadVectors(t)
	d := v.Gasless.domain(t)
	for _, c := range []struct {
		name, want string
		td         TypedData
	}{
		{"gasless", GaslessEncodeType, GaslessTypedData(d, common.Address{1}, v.Gasless.gaslessOrder(t))},
		{"rfq", RfqEncodeType, RfqTypedData(d, common.Address{1}, v.Rfq.rfqFunding(t))},
	} {
		t.Run(c.name, func(t *testing.T) {
			td := viaJSON(t, c.td)
			if got := string(td.EncodeType(td.PrimaryType)); got != c.want {
				t.Errorf("apitypes encodes our types as\n%s\nwant\n%s", got, c.want)
			}
			if got := string(td.EncodeType("EIP712Domain")); got != DomainType {
				t.Errorf("apitypes encodes our domain type as %s, want %s", got, DomainType)
			}
			sep, err := td.HashStruct("EIP712Domain", td.Domain.Map())
			if err != nil {
				t.Fatal(err)
			}
			if want := d.Separator(); !bytes.Equal(sep, want[:]) {
				t.Errorf("apitypes domain separator %x, ours %x", sep, want)
			}
		})
	}
}

// TestApitypesProperty checks, for many seeded random orders and fundings,
// that our digest equals go-ethereum's generic EIP-712 digest, both for a
// message built the generic way and for our TypedData sent through JSON.
func TestApitypesProperty(t *testing.T) {
	v := loadVectors(t)
	gTypes, rTypes := apitypesTypes(t, &v.Gasless), apitypesTypes(t, &v.Rfq)
	r := rng(712)
	n := 500
	if testing.Short() {
		n = 50
	}
	for i := range n {
		d, spender := randDomain(r), randAddr(r)

		o := randGasless(r, randAddr(r))
		ours := GaslessDigest(d, spender, o)
		if ref := apitypesHash(t, apitypesGasless(gTypes, d, spender, o)); ref != ours {
			t.Fatalf("gasless #%d: digest %x, apitypes %x\norder %+v", i, ours, ref, o)
		}
		if ref := apitypesHash(t, viaJSON(t, GaslessTypedData(d, spender, o))); ref != ours {
			t.Fatalf("gasless #%d: digest %x, apitypes on our JSON %x", i, ours, ref)
		}

		f := randRfq(r, randAddr(r))
		ours = RfqDigest(d, spender, f)
		if ref := apitypesHash(t, apitypesRfq(rTypes, d, spender, f)); ref != ours {
			t.Fatalf("rfq #%d: digest %x, apitypes %x\nfunding %+v", i, ours, ref, f)
		}
		if ref := apitypesHash(t, viaJSON(t, RfqTypedData(d, spender, f))); ref != ours {
			t.Fatalf("rfq #%d: digest %x, apitypes on our JSON %x", i, ours, ref)
		}
	}
}
