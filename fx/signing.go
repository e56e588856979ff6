package fx

import (
	"bytes"
	"encoding/json"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/fxd-labs/fxd/chain/contracts"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/gasless"
	"github.com/fxd-labs/fxd/chain/rfq"
	"github.com/fxd-labs/fxd/domain"
)

// SigningType is signing.type on both rails: an rfq funding is a Permit2
// witness transfer as the gasless leg is.
const SigningType = gasless.SigningType

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
// taken from solc's artifact (compacted) so it cannot drift from the
// contract; not from the bindings, whose abigen-minified copy lost the
// blank in internalType "struct RfqEscrow.Quote".
func escrowQuoteFragment() json.RawMessage {
	escrowFragmentOnce.Do(func() {
		var entries []json.RawMessage
		if err := json.Unmarshal(contracts.RfqEscrowABI, &entries); err != nil {
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

// rfqTerms are an rfq order's chain terms as the chain side compares logs
// with them.
type rfqTerms struct {
	Quote       rfq.Quote
	ExecutionID common.Hash
	QuoteHash   common.Hash
}

// rfqRow is what the order row keeps of an rfq funding: the maker's quote,
// the execution id and the quote hash (0x hex).
func rfqRow(q *rfq.Quote, executionID, quoteHash common.Hash) *domain.RFQTerms {
	return &domain.RFQTerms{
		Maker: q.Maker.Hex(), Taker: q.Taker.Hex(), TokenIn: q.TokenIn.Hex(), TokenOut: q.TokenOut.Hex(),
		AmountIn: new(big.Int).Set(q.AmountIn), AmountOut: new(big.Int).Set(q.AmountOut),
		Expiry: new(big.Int).Set(q.Expiry), Salt: new(big.Int).Set(q.Salt),
		ExecutionID: executionID.Hex(), QuoteHash: quoteHash.Hex(),
	}
}

// rfqTermsOf is the row's terms as the chain side reads them.
func rfqTermsOf(r *domain.RFQTerms) *rfqTerms {
	return &rfqTerms{
		Quote: rfq.Quote{Maker: common.HexToAddress(r.Maker), Taker: common.HexToAddress(r.Taker),
			TokenIn: common.HexToAddress(r.TokenIn), TokenOut: common.HexToAddress(r.TokenOut),
			AmountIn: new(big.Int).Set(r.AmountIn), AmountOut: new(big.Int).Set(r.AmountOut),
			Expiry: new(big.Int).Set(r.Expiry), Salt: new(big.Int).Set(r.Salt)},
		ExecutionID: common.HexToHash(r.ExecutionID),
		QuoteHash:   common.HexToHash(r.QuoteHash),
	}
}
