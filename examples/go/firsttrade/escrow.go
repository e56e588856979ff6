package main

import (
	"context"
	"encoding/json"
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

// fundEscrow broadcasts escrowQuoteWithPermit2(quote, providerSignature,
// funding, permit2Signature) from the wallet to call.to, with the ABI the
// service sent (call.abi), and waits until it is mined. The escrow pulls
// the USDC through Permit2 and locks it until the maker delivers the EURC
// (or refunds it after the settlement window).
func (ex *example) fundEscrow(ctx context.Context, call *client.EscrowCall, permit2Sig string) (common.Hash, error) {
	if call == nil || len(call.Args) != 3 {
		return common.Hash{}, fmt.Errorf("signing.call: want escrowQuoteWithPermit2 and 3 arguments")
	}
	fragment, err := json.Marshal([]client.ABIFunction{call.ABI})
	if err != nil {
		return common.Hash{}, err
	}
	escrowABI, err := abi.JSON(strings.NewReader(string(fragment)))
	if err != nil {
		return common.Hash{}, fmt.Errorf("signing.call.abi: %w", err)
	}
	var q quoteArg
	var f fundingArg
	var makerSig, takerSig hexutil.Bytes
	for i, dst := range []any{&q, &makerSig, &f} {
		if err := json.Unmarshal(call.Args[i], dst); err != nil {
			return common.Hash{}, fmt.Errorf("signing.call.args[%d]: %w", i, err)
		}
	}
	for _, v := range []*math.HexOrDecimal256{q.AmountIn, q.AmountOut, q.Expiry, q.Salt, f.Amount, f.Deadline, f.Nonce} {
		if v == nil {
			return common.Hash{}, fmt.Errorf("signing.call.args: an integer field is missing")
		}
	}
	if err := takerSig.UnmarshalText([]byte(permit2Sig)); err != nil {
		return common.Hash{}, err
	}
	quote := escrowQuote{q.Maker, q.Taker, q.TokenIn, q.TokenOut, bigOf(q.AmountIn), bigOf(q.AmountOut), bigOf(q.Expiry), bigOf(q.Salt)}
	funding := escrowFunding{f.Signer, f.ExecutionID, f.Escrow, f.QuoteHash, f.Token, bigOf(f.Amount), bigOf(f.Deadline), bigOf(f.Nonce)}
	return ex.wallet.transact(ctx, common.HexToAddress(call.To), escrowABI, call.ABI.Name, quote, []byte(makerSig), funding, []byte(takerSig))
}

// bigOf is a decoded integer as the ABI encoder takes it.
func bigOf(v *math.HexOrDecimal256) *big.Int { return (*big.Int)(v) }
