package fx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/rfq"
)

// SigningType is signing.type on both rails.
const SigningType = "permit2_witness"

// AMMSigning is signing for route amm: SPEC.md's fields plus typed_data
// (CONTRACT.md). Field order is the wire order.
type AMMSigning struct {
	Type      string                     `json:"type"`
	Order     eip712.GaslessOrderMessage `json:"order"`
	Relay     AMMRelay                   `json:"relay"`
	TypedData eip712.TypedData           `json:"typed_data"`
}

// AMMRelay is signing.relay for route amm.
type AMMRelay struct {
	ChainID           *big.Int `json:"chainId"`
	Permit2           string   `json:"permit2"`
	RelayRouter       string   `json:"relayRouter"`
	WitnessTypeString string   `json:"witnessTypeString"`
}

// RFQSigning is signing for route rfq (CONTRACT.md).
type RFQSigning struct {
	Type      string           `json:"type"`
	Funding   RFQFunding       `json:"funding"`
	Relay     RFQRelay         `json:"relay"`
	TypedData eip712.TypedData `json:"typed_data"`
	Call      RFQCall          `json:"call"`
}

// RFQFunding is signing.funding: what funds the escrow.
type RFQFunding struct {
	Escrow      string `json:"escrow"`
	Token       string `json:"token"`
	Amount      string `json:"amount"`
	ExecutionID string `json:"executionId"`
	QuoteHash   string `json:"quoteHash"`
	Deadline    string `json:"deadline"`
	Nonce       string `json:"nonce"`
	Signer      string `json:"signer"`
}

// RFQRelay is signing.relay for route rfq (no router: the caller sends).
type RFQRelay struct {
	ChainID           *big.Int `json:"chainId"`
	Permit2           string   `json:"permit2"`
	WitnessTypeString string   `json:"witnessTypeString"`
}

// RFQCall is signing.call: the JSON ABI fragment (one object) of
// escrowQuoteWithPermit2 and its first three arguments; the caller appends
// its Permit2 signature (ethers: new Interface([call.abi])).
type RFQCall struct {
	To   string          `json:"to"`
	ABI  json.RawMessage `json:"abi"`
	Args []any           `json:"args"`
}

// QuoteArg is RfqEscrow.Quote as a call argument (named tuple members).
type QuoteArg struct {
	Maker     string `json:"maker"`
	Taker     string `json:"taker"`
	TokenIn   string `json:"tokenIn"`
	TokenOut  string `json:"tokenOut"`
	AmountIn  string `json:"amountIn"`
	AmountOut string `json:"amountOut"`
	Expiry    string `json:"expiry"`
	Salt      string `json:"salt"`
}

var (
	escrowFragmentOnce sync.Once
	escrowFragment     json.RawMessage
)

// escrowQuoteFragment is the JSON ABI entry of escrowQuoteWithPermit2,
// taken from the compiled artifact so it cannot drift from the contract.
func escrowQuoteFragment() json.RawMessage {
	escrowFragmentOnce.Do(func() {
		var entries []json.RawMessage
		if err := json.Unmarshal([]byte(fxbind.RfqEscrowMetaData.ABI), &entries); err != nil {
			panic("fx: RfqEscrow ABI: " + err.Error())
		}
		for _, e := range entries {
			var head struct{ Type, Name string }
			if json.Unmarshal(e, &head) == nil && head.Type == "function" && head.Name == "escrowQuoteWithPermit2" {
				var buf bytes.Buffer
				if err := json.Compact(&buf, e); err != nil {
					panic("fx: RfqEscrow ABI: " + err.Error())
				}
				escrowFragment = buf.Bytes()
				return
			}
		}
		panic("fx: RfqEscrow ABI has no escrowQuoteWithPermit2")
	})
	return escrowFragment
}

// gaslessSigning builds the amm signing object of o.
func gaslessSigning(d eip712.Domain, router common.Address, o *eip712.GaslessOrder) AMMSigning {
	td := eip712.GaslessTypedData(d, router, o)
	return AMMSigning{
		Type:  SigningType,
		Order: *td.Message.Witness.(*eip712.GaslessOrderMessage),
		Relay: AMMRelay{ChainID: d.ChainID, Permit2: d.Permit2.Hex(), RelayRouter: router.Hex(),
			WitnessTypeString: eip712.GaslessWitnessTypeString},
		TypedData: td,
	}
}

// rfqSigning builds the rfq signing object of funding f for maker quote q.
func rfqSigning(d eip712.Domain, q *rfq.Quote, makerSig []byte, f *eip712.RfqEscrowFunding) RFQSigning {
	td := eip712.RfqTypedData(d, f.Escrow, f)
	msg := *td.Message.Witness.(*eip712.RfqEscrowFundingMessage)
	return RFQSigning{
		Type: SigningType,
		Funding: RFQFunding{Escrow: msg.Escrow, Token: msg.Token, Amount: msg.Amount, ExecutionID: msg.ExecutionID,
			QuoteHash: msg.QuoteHash, Deadline: msg.Deadline, Nonce: msg.Nonce, Signer: msg.Signer},
		Relay:     RFQRelay{ChainID: d.ChainID, Permit2: d.Permit2.Hex(), WitnessTypeString: eip712.RfqWitnessTypeString},
		TypedData: td,
		Call: RFQCall{To: f.Escrow.Hex(), ABI: escrowQuoteFragment(), Args: []any{
			QuoteArg{Maker: q.Maker.Hex(), Taker: q.Taker.Hex(), TokenIn: q.TokenIn.Hex(), TokenOut: q.TokenOut.Hex(),
				AmountIn: q.AmountIn.String(), AmountOut: q.AmountOut.String(), Expiry: q.Expiry.String(), Salt: q.Salt.String()},
			hexutil.Encode(makerSig),
			msg,
		}},
	}
}

// parseGasless reads the GaslessOrder back out of a stored amm signing
// object (the service wrote it; an error is a broken invariant upstream).
func parseGasless(raw []byte) (*eip712.GaslessOrder, error) {
	var s struct {
		Order eip712.GaslessOrderMessage `json:"order"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("fx: stored amm signing: %w", err)
	}
	m := s.Order
	o := &eip712.GaslessOrder{
		Signer: common.HexToAddress(m.Signer), TokenIn: common.HexToAddress(m.TokenIn), TokenOut: common.HexToAddress(m.TokenOut),
		Recipient: common.HexToAddress(m.Recipient), Pool: common.HexToAddress(m.Pool),
	}
	if !parseUints([]*string{&m.AmountIn, &m.MinAmountOut, &m.Deadline, &m.Nonce}, []**big.Int{&o.AmountIn, &o.MinAmountOut, &o.Deadline, &o.Nonce}) {
		return nil, fmt.Errorf("fx: stored amm signing has a bad number: %+v", m)
	}
	return o, nil
}

// rfqTerms are the fields of a stored rfq signing object the chain side
// checks logs against.
type rfqTerms struct {
	Quote       rfq.Quote
	ExecutionID common.Hash
	QuoteHash   common.Hash
}

// parseRFQ reads the maker quote and execution id back out of a stored
// rfq signing object.
func parseRFQ(raw []byte) (*rfqTerms, error) {
	var s struct {
		Funding RFQFunding `json:"funding"`
		Call    struct {
			Args []json.RawMessage `json:"args"`
		} `json:"call"`
	}
	if err := json.Unmarshal(raw, &s); err != nil || len(s.Call.Args) != 3 {
		return nil, fmt.Errorf("fx: stored rfq signing: %v", err)
	}
	var qa QuoteArg
	if err := json.Unmarshal(s.Call.Args[0], &qa); err != nil {
		return nil, fmt.Errorf("fx: stored rfq quote: %w", err)
	}
	q := rfq.Quote{Maker: common.HexToAddress(qa.Maker), Taker: common.HexToAddress(qa.Taker),
		TokenIn: common.HexToAddress(qa.TokenIn), TokenOut: common.HexToAddress(qa.TokenOut)}
	if !parseUints([]*string{&qa.AmountIn, &qa.AmountOut, &qa.Expiry, &qa.Salt}, []**big.Int{&q.AmountIn, &q.AmountOut, &q.Expiry, &q.Salt}) {
		return nil, fmt.Errorf("fx: stored rfq quote has a bad number: %+v", qa)
	}
	return &rfqTerms{Quote: q, ExecutionID: common.HexToHash(s.Funding.ExecutionID), QuoteHash: common.HexToHash(s.Funding.QuoteHash)}, nil
}

// parseUints parses each decimal string into its destination; false if
// any is not a base-10 integer.
func parseUints(in []*string, out []**big.Int) bool {
	for i, s := range in {
		v, ok := new(big.Int).SetString(*s, 10)
		if !ok {
			return false
		}
		*out[i] = v
	}
	return true
}
