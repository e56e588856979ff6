package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"

	"github.com/fxd-labs/fxd/client"
)

// The tuples of escrowQuoteWithPermit2 as go-ethereum's ABI encoder takes
// them: a struct packs into a tuple field by field, by name.
type escrowQuote struct {
	Maker, Taker, TokenIn, TokenOut   common.Address
	AmountIn, AmountOut, Expiry, Salt *big.Int
}

type escrowFunding struct {
	Signer      common.Address
	ExecutionId common.Hash // named as the ABI packs "executionId"
	Escrow      common.Address
	QuoteHash   common.Hash
	Token       common.Address
	Amount      *big.Int
	Deadline    *big.Int
	Nonce       *big.Int
}

// The same tuples as signing.call.args sends them: addresses and bytes32
// as hex strings, integers as decimal strings.
type quoteArg struct {
	Maker, Taker, TokenIn, TokenOut   common.Address
	AmountIn, AmountOut, Expiry, Salt *math.HexOrDecimal256
}

type fundingArg struct {
	Signer, Escrow, Token   common.Address
	ExecutionID, QuoteHash  common.Hash
	Amount, Deadline, Nonce *math.HexOrDecimal256
}

// EscrowCallData encodes an RFQ order's signing.call with the wallet's
// Permit2 signature appended: escrowQuoteWithPermit2(quote,
// providerSignature, funding, permit2Signature), with the ABI fragment
// the service sent (call.abi). It returns the escrow's address and the
// calldata; the wallet broadcasts it (RFQ funding is not relayed).
func EscrowCallData(call *client.EscrowCall, permit2Sig string) (common.Address, []byte, error) {
	if call == nil || len(call.Args) != 3 {
		return common.Address{}, nil, errors.New("wallet: signing.call: want escrowQuoteWithPermit2 and 3 arguments")
	}
	fragment, err := json.Marshal([]client.ABIFunction{call.ABI})
	if err != nil {
		return common.Address{}, nil, err
	}
	escrowABI, err := abi.JSON(strings.NewReader(string(fragment)))
	if err != nil {
		return common.Address{}, nil, fmt.Errorf("wallet: signing.call.abi: %w", err)
	}
	var q quoteArg
	var f fundingArg
	var makerSig, takerSig hexutil.Bytes
	for i, dst := range []any{&q, &makerSig, &f} {
		if err := json.Unmarshal(call.Args[i], dst); err != nil {
			return common.Address{}, nil, fmt.Errorf("wallet: signing.call.args[%d]: %w", i, err)
		}
	}
	for _, v := range []*math.HexOrDecimal256{q.AmountIn, q.AmountOut, q.Expiry, q.Salt, f.Amount, f.Deadline, f.Nonce} {
		if v == nil {
			return common.Address{}, nil, errors.New("wallet: signing.call.args: an integer field is missing")
		}
	}
	if err := takerSig.UnmarshalText([]byte(permit2Sig)); err != nil {
		return common.Address{}, nil, fmt.Errorf("wallet: permit2 signature: %w", err)
	}
	quote := escrowQuote{q.Maker, q.Taker, q.TokenIn, q.TokenOut, bigOf(q.AmountIn), bigOf(q.AmountOut), bigOf(q.Expiry), bigOf(q.Salt)}
	funding := escrowFunding{f.Signer, f.ExecutionID, f.Escrow, f.QuoteHash, f.Token, bigOf(f.Amount), bigOf(f.Deadline), bigOf(f.Nonce)}
	data, err := escrowABI.Pack(call.ABI.Name, quote, []byte(makerSig), funding, []byte(takerSig))
	if err != nil {
		return common.Address{}, nil, fmt.Errorf("wallet: pack %s: %w", call.ABI.Name, err)
	}
	return common.HexToAddress(call.To), data, nil
}

// FundEscrow broadcasts the RFQ escrow funding from the wallet and waits
// until it is mined. The escrow pulls the input through Permit2 and locks
// it until the maker delivers (or refunds it after the settlement window).
func (w *Wallet) FundEscrow(ctx context.Context, call *client.EscrowCall, permit2Sig string) (common.Hash, error) {
	to, data, err := EscrowCallData(call, permit2Sig)
	if err != nil {
		return common.Hash{}, err
	}
	return w.SendData(ctx, to, data)
}

// bigOf is a decoded integer as the ABI encoder takes it.
func bigOf(v *math.HexOrDecimal256) *big.Int { return (*big.Int)(v) }
