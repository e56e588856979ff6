package verify

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

// emptyRevert names a revert without data: a bare revert() or a require
// without a message. It is also the node's own wording for it.
const (
	emptyRevert   = "execution reverted"
	unknownRevert = "unknown custom error"
)

// sources are the contracts whose custom errors Decode names. solc puts in
// each ABI the errors of the libraries and bases it can revert with (ECDSA,
// Tokens, Owned), so those need no list of their own. A new contract whose
// reverts users may see is added here.
var sources = []*bind.MetaData{
	fxbind.TestTokenMetaData,
	fxbind.Permit2MetaData,
	fxbind.PoolMetaData,
	fxbind.RelayRouterMetaData,
	fxbind.RfqEscrowMetaData,
	fxbind.PaymentForwarderMetaData,
	fxbind.PaymentLinkFactoryMetaData,
}

var (
	// Solidity's built-in errors: require(cond, "msg") / revert("msg"), and
	// the compiler's checks (0x11 overflow, 0x12 division by zero, ...).
	errorString = builtin("Error", "string")
	panicCode   = builtin("Panic", "uint256")

	// known is every error Decode names, by selector.
	known = register(sources, append(erc6093(), errorString, panicCode)...)
)

// erc6093ABI is ERC-6093's ERC-20 errors, which OpenZeppelin's tokens (v5)
// revert with, so a token on a public chain is named too (`--chain rpc`).
const erc6093ABI = `[
{"type":"error","name":"ERC20InsufficientBalance","inputs":[{"name":"sender","type":"address"},{"name":"balance","type":"uint256"},{"name":"needed","type":"uint256"}]},
{"type":"error","name":"ERC20InvalidSender","inputs":[{"name":"sender","type":"address"}]},
{"type":"error","name":"ERC20InvalidReceiver","inputs":[{"name":"receiver","type":"address"}]},
{"type":"error","name":"ERC20InsufficientAllowance","inputs":[{"name":"spender","type":"address"},{"name":"allowance","type":"uint256"},{"name":"needed","type":"uint256"}]},
{"type":"error","name":"ERC20InvalidApprover","inputs":[{"name":"approver","type":"address"}]},
{"type":"error","name":"ERC20InvalidSpender","inputs":[{"name":"spender","type":"address"}]}
]`

func erc6093() []abi.Error {
	a, err := abi.JSON(strings.NewReader(erc6093ABI))
	if err != nil {
		panic("verify: ERC-6093 ABI: " + err.Error())
	}
	out := make([]abi.Error, 0, len(a.Errors))
	for _, e := range a.Errors {
		out = append(out, e)
	}
	return out
}

func builtin(name, typ string) abi.Error {
	t, err := abi.NewType(typ, "", nil)
	if err != nil {
		panic("verify: abi type " + typ + ": " + err.Error())
	}
	return abi.NewError(name, abi.Arguments{{Type: t}})
}

// register indexes the errors of metas and extra by selector. The same error
// declared by several contracts (Owned's NotOwner, Tokens' errors) is one
// entry; two different errors sharing a selector would make either's decode
// a guess, so that fails at start-up instead of mislabelling a revert.
func register(metas []*bind.MetaData, extra ...abi.Error) map[[4]byte]abi.Error {
	reg := make(map[[4]byte]abi.Error)
	add := func(e abi.Error) {
		sel := [4]byte(e.ID[:4])
		if prev, dup := reg[sel]; dup && prev.Sig != e.Sig {
			panic(fmt.Sprintf("verify: errors %s and %s share selector %x", prev.Sig, e.Sig, sel))
		}
		reg[sel] = e
	}
	for _, e := range extra {
		add(e)
	}
	for _, m := range metas {
		for _, e := range mustABI(m).Errors {
			add(e)
		}
	}
	return reg
}

// lookup finds the error data starts with.
func lookup(data []byte) (abi.Error, bool) {
	if len(data) < 4 {
		return abi.Error{}, false
	}
	e, ok := known[[4]byte(data[:4])]
	return e, ok
}

// DecodeError splits revert data into its error's name and arguments, typed
// as go-ethereum's abi package decodes them (common.Address, *big.Int,
// [32]byte, string). Error(string) is named "Error" and Panic(uint256)
// "Panic". ok is false for empty data, an unknown selector, or arguments
// that do not decode.
func DecodeError(data []byte) (name string, args []any, ok bool) {
	e, found := lookup(data)
	if !found {
		return "", nil, false
	}
	args, err := e.Inputs.Unpack(data[4:])
	if err != nil {
		return "", nil, false
	}
	return e.Name, args, true
}

// Is reports whether data is a revert with the error called name (for
// example "InsufficientAllowance"), whatever its arguments. The selector is
// the error's identity on chain, so the arguments need not decode.
func Is(data []byte, name string) bool {
	e, ok := lookup(data)
	return ok && e.Name == name
}

// Decode names a revert for people: InsufficientAllowance(0xAbC…, 0,
// 1000000), Error("..."), Panic(0x11); "unknown custom error" for an error
// none of our contracts (nor ERC-6093) declares: CONTRACT.md wants the
// decoded error named, never raw hex, and a bare selector names nothing a
// user can act on; "execution reverted" for empty data.
func Decode(data []byte) string {
	if len(data) == 0 {
		return emptyRevert
	}
	e, found := lookup(data)
	if !found {
		return unknownRevert
	}
	args, err := e.Inputs.Unpack(data[4:])
	if err != nil {
		return e.Name + "(malformed arguments)"
	}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = formatArg(a)
	}
	if e.ID == panicCode.ID && len(args) == 1 {
		// Panic codes are documented in hex (0x11 overflow, 0x32 out of bounds).
		parts[0] = fmt.Sprintf("%#x", args[0])
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

// formatArg spells one decoded argument as Solidity people read it:
// checksummed addresses, decimal integers, hex bytes, quoted strings.
func formatArg(a any) string {
	switch v := a.(type) {
	case common.Address:
		return v.Hex()
	case *big.Int:
		return v.String()
	case [32]byte:
		return hexutil.Encode(v[:])
	case []byte:
		return "0x" + hex.EncodeToString(v)
	case string:
		// Quoting escapes control and bidi characters a contract may put in
		// its message; the cut keeps a hostile message from growing the text.
		return strconv.Quote(cut(v, maxReasonRunes))
	default:
		return fmt.Sprint(v)
	}
}

// Revert is an eth_call the chain refused: Data is the revert data (empty
// for a bare revert) and Reason its name, Decode(Data).
type Revert struct {
	Data   []byte
	Reason string
}

func (r *Revert) Error() string { return "verify: call reverted: " + r.Reason }

func mustABI(m *bind.MetaData) *abi.ABI {
	a, err := m.GetAbi()
	if err != nil {
		panic("verify: contract ABI: " + err.Error())
	}
	return a
}
