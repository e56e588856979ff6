package verify

import (
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
)

var (
	addrA = common.HexToAddress("0xabcdef0123456789abcdef0123456789abcdef01")
	addrB = common.HexToAddress("0x000000000022d473030f116ddee9f6b43ac78ba3")
	id32  = common.HexToHash("0x00000000000000000000000000000000000000000000000000000000deadbeef")
)

// builtinData packs Solidity's Error(string) / Panic(uint256) from their
// signatures (they are in no contract ABI).
func builtinData(t *testing.T, sig, typ string, v any) []byte {
	t.Helper()
	ty, err := abi.NewType(typ, "", nil)
	require.NoError(t, err)
	enc, err := abi.Arguments{{Type: ty}}.Pack(v)
	require.NoError(t, err)
	return append(crypto.Keccak256([]byte(sig))[:4], enc...)
}

func TestDecodeOurErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		contract *bind.MetaData
		error    string
		args     []any
		want     string
	}{
		{fxbind.TestTokenMetaData, "InsufficientAllowance", []any{addrA, big.NewInt(0), big.NewInt(1_000_000)},
			"InsufficientAllowance(0xabCDeF0123456789AbcdEf0123456789aBCDEF01, 0, 1000000)"},
		{fxbind.TestTokenMetaData, "InsufficientBalance", []any{addrB, big.NewInt(5), big.NewInt(7)},
			"InsufficientBalance(0x000000000022D473030F116dDEE9F6B43aC78BA3, 5, 7)"},
		{fxbind.TestTokenMetaData, "InvalidReceiver", []any{common.Address{}},
			"InvalidReceiver(0x0000000000000000000000000000000000000000)"},
		{fxbind.Permit2MetaData, "InvalidNonce", nil, "InvalidNonce()"},
		{fxbind.Permit2MetaData, "SignatureExpired", []any{big.NewInt(1_700_000_000)}, "SignatureExpired(1700000000)"},
		{fxbind.Permit2MetaData, "InvalidSigner", nil, "InvalidSigner()"},
		{fxbind.Permit2MetaData, "InvalidAmount", []any{maxUint256}, "InvalidAmount(" + maxUint256.String() + ")"},
		{fxbind.Permit2MetaData, "InvalidSignatureS", nil, "InvalidSignatureS()"},           // ECDSA, via Permit2
		{fxbind.Permit2MetaData, "InvalidSignatureLength", nil, "InvalidSignatureLength()"}, // ECDSA
		{fxbind.Permit2MetaData, "TokenHasNoCode", []any{addrB}, "TokenHasNoCode(0x000000000022D473030F116dDEE9F6B43aC78BA3)"},
		{fxbind.PoolMetaData, "InsufficientOutput", []any{big.NewInt(1), big.NewInt(2)}, "InsufficientOutput(1, 2)"},
		{fxbind.PoolMetaData, "InvalidPair", []any{addrA, addrA}, "InvalidPair(0xabCDeF0123456789AbcdEf0123456789aBCDEF01, 0xabCDeF0123456789AbcdEf0123456789aBCDEF01)"},
		{fxbind.PoolMetaData, "InsufficientLiquidity", nil, "InsufficientLiquidity()"},
		{fxbind.PoolMetaData, "Reentrancy", nil, "Reentrancy()"}, // Owned's guard
		{fxbind.RelayRouterMetaData, "OrderExpired", []any{big.NewInt(42)}, "OrderExpired(42)"},
		{fxbind.RelayRouterMetaData, "PoolNotRegistered", []any{addrB}, "PoolNotRegistered(0x000000000022D473030F116dDEE9F6B43aC78BA3)"},
		{fxbind.RelayRouterMetaData, "ZeroAmount", nil, "ZeroAmount()"},
		{fxbind.RelayRouterMetaData, "NotOwner", []any{addrB}, "NotOwner(0x000000000022D473030F116dDEE9F6B43aC78BA3)"},
		{fxbind.RfqEscrowMetaData, "QuoteAlreadyUsed", []any{[32]byte(id32)},
			"QuoteAlreadyUsed(0x00000000000000000000000000000000000000000000000000000000deadbeef)"},
		{fxbind.RfqEscrowMetaData, "RefundTooEarly", []any{big.NewInt(99)}, "RefundTooEarly(99)"},
		{fxbind.RfqEscrowMetaData, "InvalidMakerSignature", nil, "InvalidMakerSignature()"},
		{fxbind.RfqEscrowMetaData, "InvalidSignature", nil, "InvalidSignature()"}, // ECDSA, via the escrow
	}
	for _, tc := range tests {
		t.Run(tc.error, func(t *testing.T) {
			data := packError(t, tc.contract, tc.error, tc.args...)
			require.Equal(t, tc.want, Decode(data))
			name, args, ok := DecodeError(data)
			require.True(t, ok)
			require.Equal(t, tc.error, name)
			require.Len(t, args, len(tc.args))
			require.True(t, Is(data, tc.error))
			require.False(t, Is(data, "SomethingElse"))
		})
	}
}

// Every error any of our contracts declares decodes to its own name: no
// error is left out of the registry and no two share a selector.
func TestDecodeEveryDeclaredError(t *testing.T) {
	t.Parallel()
	for _, m := range sources {
		for name, e := range mustABI(m).Errors {
			args := make([]any, len(e.Inputs))
			for i, in := range e.Inputs {
				args[i] = sample(t, in.Type)
			}
			data := packError(t, m, name, args...)
			got, _, ok := DecodeError(data)
			require.True(t, ok, e.Sig)
			require.Equal(t, name, got, e.Sig)
			require.True(t, strings.HasPrefix(Decode(data), name+"("), e.Sig)
		}
	}
}

func sample(t *testing.T, ty abi.Type) any {
	switch ty.T {
	case abi.AddressTy:
		return addrA
	case abi.UintTy:
		return big.NewInt(7)
	case abi.FixedBytesTy:
		return [32]byte(id32)
	}
	t.Fatalf("no sample for %s", ty)
	return nil
}

func TestDecodeBuiltinAndOther(t *testing.T) {
	t.Parallel()
	allowance := packError(t, fxbind.TestTokenMetaData, "InsufficientAllowance", addrA, big.NewInt(0), big.NewInt(1))
	tests := []struct {
		name string
		data []byte
		want string
		ok   bool // DecodeError
	}{
		{"error string", builtinData(t, "Error(string)", "string", "ERC20: insufficient allowance"), `Error("ERC20: insufficient allowance")`, true},
		{"error string with control characters", builtinData(t, "Error(string)", "string", "a\nb\u202e"), `Error("a\nb\u202e")`, true},
		{"panic overflow", builtinData(t, "Panic(uint256)", "uint256", big.NewInt(0x11)), "Panic(0x11)", true},
		{"panic division by zero", builtinData(t, "Panic(uint256)", "uint256", big.NewInt(0x12)), "Panic(0x12)", true},
		{"unknown selector, long payload", append([]byte{0xde, 0xad, 0xbe, 0xef}, make([]byte, 96)...), "unknown custom error", false},
		{"shorter than a selector", []byte{0xab, 0xcd}, "unknown custom error", false},
		{"ERC-6093 (OpenZeppelin v5 tokens)", erc6093Data(t, "ERC20InsufficientBalance", addrA, big.NewInt(5), big.NewInt(7)),
			"ERC20InsufficientBalance(" + addrA.Hex() + ", 5, 7)", true},
		{"empty", []byte{}, "execution reverted", false},
		{"nil", nil, "execution reverted", false},
		{"known selector, truncated arguments", allowance[:4+40], "InsufficientAllowance(malformed arguments)", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Decode(tc.data))
			_, _, ok := DecodeError(tc.data)
			require.Equal(t, tc.ok, ok)
		})
	}
}

func TestDecodeErrorArgs(t *testing.T) {
	t.Parallel()
	data := packError(t, fxbind.TestTokenMetaData, "InsufficientAllowance", addrB, big.NewInt(3), big.NewInt(1_000_000))
	name, args, ok := DecodeError(data)
	require.True(t, ok)
	require.Equal(t, "InsufficientAllowance", name)
	require.Equal(t, []any{addrB, big.NewInt(3), big.NewInt(1_000_000)}, args)

	name, args, ok = DecodeError(builtinData(t, "Error(string)", "string", "nope"))
	require.True(t, ok)
	require.Equal(t, "Error", name)
	require.Equal(t, []any{"nope"}, args)

	// Is looks at the selector only: a truncated payload is still that error.
	require.True(t, Is(data[:4], "InsufficientAllowance"))
	require.False(t, Is(nil, "InsufficientAllowance"))
	require.False(t, Is([]byte{1, 2, 3, 4}, "InsufficientAllowance"))
}

// A contract's long Error(string) does not make an unbounded reason.
func TestDecodeBoundsLongStrings(t *testing.T) {
	t.Parallel()
	got := Decode(builtinData(t, "Error(string)", "string", strings.Repeat("x", 10_000)))
	require.Less(t, len(got), 300)
}

func TestRegisterRefusesSelectorClash(t *testing.T) {
	t.Parallel()
	a := abi.NewError("A", nil)
	b := a
	b.Sig = "B()" // same selector, another error
	require.Panics(t, func() { register(nil, a, b) })
	require.NotPanics(t, func() { register(sources, a, a) })
}

func TestRevertError(t *testing.T) {
	t.Parallel()
	r := &Revert{Data: []byte{}, Reason: "execution reverted"}
	require.Equal(t, "verify: call reverted: execution reverted", r.Error())
}

// erc6093Data packs an ERC-6093 error as a token reverts with it.
func erc6093Data(t *testing.T, name string, args ...any) []byte {
	t.Helper()
	a, err := abi.JSON(strings.NewReader(erc6093ABI))
	require.NoError(t, err)
	e := a.Errors[name]
	data, err := e.Inputs.Pack(args...)
	require.NoError(t, err)
	return append(e.ID[:4:4], data...)
}
