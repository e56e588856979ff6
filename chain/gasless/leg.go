// Package gasless is the one gasless leg of the service: a RelayRouter
// GaslessOrder (Permit2 witness) with any recipient, built for the caller to
// sign, its signature checked off-chain, the relay's pre-flight (allowance,
// balance, simulation), the relay with the gas-only key, and its outcome
// read from the verified GaslessOrderExecuted log. AMM orders (recipient =
// the signer) and cross-currency transfers (recipient = the payee) both use
// it; neither has a copy.
package gasless

import (
	"errors"
	"fmt"
	"log/slog"
	"math/big"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/fxd-labs/fxd/chain"
	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/relay"
	"github.com/fxd-labs/fxd/chain/verify"
	"github.com/fxd-labs/fxd/domain"
)

// logLookback bounds how far back an earlier execution is searched
// (a leg lives minutes; blocks come at most every 2 s on the embedded chain).
const logLookback = 100_000

var (
	routerABI = mustABI(fxbind.RelayRouterMetaData)
	// TopicExecuted is GaslessOrderExecuted's topic 0 (the watcher's filter).
	TopicExecuted = routerABI.Events["GaslessOrderExecuted"].ID
)

func mustABI(m *bind.MetaData) *abi.ABI {
	a, err := m.GetAbi()
	if err != nil {
		panic("gasless: contract ABI: " + err.Error())
	}
	return a
}

// Leg holds what every gasless leg shares: the Permit2 domain, the router
// (the spender), the chain and the relayer.
type Leg struct {
	Domain  eip712.Domain
	Router  common.Address
	Chain   chain.Backend
	Relayer relay.Sender
	Logger  *slog.Logger
}

// Order is the terms as the router's GaslessOrder.
func Order(t *domain.GaslessTerms) *eip712.GaslessOrder {
	return &eip712.GaslessOrder{
		Signer: common.HexToAddress(t.Signer), TokenIn: common.HexToAddress(t.TokenIn), TokenOut: common.HexToAddress(t.TokenOut),
		AmountIn: t.AmountIn, MinAmountOut: t.MinAmountOut, Recipient: common.HexToAddress(t.Recipient),
		Pool: common.HexToAddress(t.Pool), Deadline: t.Deadline, Nonce: t.Nonce,
	}
}

// Terms is a GaslessOrder as the domain keeps it on a row.
func Terms(o *eip712.GaslessOrder) *domain.GaslessTerms {
	return &domain.GaslessTerms{
		Signer: o.Signer.Hex(), TokenIn: o.TokenIn.Hex(), TokenOut: o.TokenOut.Hex(),
		AmountIn: new(big.Int).Set(o.AmountIn), MinAmountOut: new(big.Int).Set(o.MinAmountOut), Recipient: o.Recipient.Hex(),
		Pool: o.Pool.Hex(), Deadline: new(big.Int).Set(o.Deadline), Nonce: new(big.Int).Set(o.Nonce),
	}
}

// OrderHash is the router's event key of the terms (the witness struct hash).
func OrderHash(t *domain.GaslessTerms) common.Hash { return Order(t).StructHash() }

// Verify reports whether sig (0x hex) is the signer's Permit2 signature of
// exactly these terms, spender the router.
func (l *Leg) Verify(t *domain.GaslessTerms, sig string) bool {
	raw, err := hexutil.Decode(sig)
	if err != nil {
		return false
	}
	return eip712.VerifyGasless(l.Domain, l.Router, Order(t), raw) == nil
}

// relaySig is the signature as Permit2's ecrecover wants it: the off-chain
// check accepts v in {0, 1} too (some signers emit it), the chain only 27/28;
// a compact EIP-2098 one is relayed as its 65 bytes.
func relaySig(sig string) ([]byte, error) {
	raw, err := hexutil.Decode(sig)
	if err != nil {
		return nil, fmt.Errorf("gasless: stored signature unreadable: %w", err)
	}
	raw = eip712.Expand(raw)
	if len(raw) == 65 && raw[64] < 27 {
		raw[64] += 27
	}
	return raw, nil
}

// calldata is executeGaslessOrder(order, signature).
func calldata(t *domain.GaslessTerms, sig []byte) []byte {
	o := Order(t)
	data, err := routerABI.Pack("executeGaslessOrder", fxbind.RelayRouterGaslessOrder{
		Signer: o.Signer, TokenIn: o.TokenIn, TokenOut: o.TokenOut, AmountIn: o.AmountIn, MinAmountOut: o.MinAmountOut,
		Recipient: o.Recipient, Pool: o.Pool, Deadline: o.Deadline, Nonce: o.Nonce,
	}, sig)
	if err != nil {
		panic("gasless: pack executeGaslessOrder: " + err.Error())
	}
	return data
}

// Executed reads a GaslessOrderExecuted log and checks it field by field
// against the terms (amount out at least the minimum); it returns the
// amount delivered.
func Executed(t *domain.GaslessTerms, l types.Log, router common.Address) (*big.Int, error) {
	if l.Address != router || len(l.Topics) < 2 || l.Topics[0] != TopicExecuted || l.Topics[1] != OrderHash(t) {
		return nil, errors.New("gasless: not this leg's GaslessOrderExecuted log")
	}
	ev := new(fxbind.RelayRouterGaslessOrderExecuted)
	if err := verify.Unpack(routerABI, "GaslessOrderExecuted", ev, l); err != nil {
		return nil, err
	}
	o := Order(t)
	if ev.Signer != o.Signer || ev.TokenIn != o.TokenIn || ev.TokenOut != o.TokenOut || ev.AmountIn.Cmp(o.AmountIn) != 0 ||
		ev.Recipient != o.Recipient || ev.Nonce.Cmp(o.Nonce) != 0 || ev.AmountOut.Cmp(o.MinAmountOut) < 0 {
		return nil, fmt.Errorf("gasless: GaslessOrderExecuted in %s does not match the signed terms", l.TxHash.Hex())
	}
	return ev.AmountOut, nil
}
