package verify

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/chain/simtest"
)

func TestData(t *testing.T) {
	t.Parallel()
	payload := packError(t, fxbind.Permit2MetaData, "InvalidNonce")
	tests := []struct {
		name string
		err  error
		want []byte
		ok   bool
	}{
		{"nil", nil, nil, false},
		{"plain error", errors.New("connection refused"), nil, false},
		{"rpc error without data", rpcErr{"nonce too low"}, nil, false},
		{"revert data", dataErr{"execution reverted", hexutil.Encode(payload)}, payload, true},
		{"wrapped revert data", fmt.Errorf("relay: estimate gas: %w", dataErr{"execution reverted", hexutil.Encode(payload)}), payload, true},
		{"empty revert", dataErr{"execution reverted", "0x"}, []byte{}, true},
		{"data nested in an object", dataErr{"execution reverted", map[string]any{"data": hexutil.Encode(payload)}}, payload, true},
		{"data that is not hex", dataErr{"transaction indexing is in progress", "transaction indexing is in progress"}, nil, false},
		{"data of another type", dataErr{"odd", 42}, nil, false},
		{"simulated revert", fmt.Errorf("x: %w", &Revert{Data: payload, Reason: "InvalidNonce()"}), payload, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Data(tc.err)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestReason(t *testing.T) {
	t.Parallel()
	payload := packError(t, fxbind.Permit2MetaData, "SignatureExpired", big.NewInt(5))
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"revert", fmt.Errorf("relay: %w", dataErr{"execution reverted", hexutil.Encode(payload)}), "refused: SignatureExpired(5)"},
		{"empty revert", dataErr{"execution reverted", "0x"}, "refused: execution reverted"},
		{"no revert data", errors.New("dial tcp: connection refused"), "refused: dial tcp: connection refused"},
		{"no error", nil, "refused"},
		{"control and bidi characters", errors.New("bad\ngateway\t\u202eevil"), "refused: bad gateway  evil"},
		{"invalid UTF-8", errors.New("a\xffb"), "refused: a b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Reason("refused", tc.err))
		})
	}
}

func TestReasonBounded(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{strings.Repeat("x", 500), strings.Repeat("é", 500), strings.Repeat("x", 199)} {
		got := Reason("p", errors.New(msg))
		require.True(t, utf8.ValidString(got))
		require.LessOrEqual(t, utf8.RuneCountInString(got), maxReasonRunes)
	}
	require.True(t, strings.HasSuffix(Reason("p", errors.New(strings.Repeat("x", 500))), "…"))
	require.Equal(t, "p: "+strings.Repeat("x", 197), Reason("p", errors.New(strings.Repeat("x", 197))))
}

// The user-facing bug: a wallet that never approved Permit2 signs a gasless
// order; the relay's estimate reverts, and the reason must name the
// allowance, not print "execution reverted 0x192b9e4e…".
func TestReasonOfRealRevert(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	amount := fxbind.Units(100)
	_, _, data := e.order(t, amount, 7)
	relayer := simtest.Addr(e.relayer)
	want := fmt.Sprintf("InsufficientAllowance(%s, 0, %s)", e.addrs.Permit2.Hex(), amount)

	// As chain/relay sends: eth_estimateGas on the pending state.
	_, err := e.c.Client.EstimateGas(t.Context(), ethereum.CallMsg{From: relayer, To: &e.addrs.RelayRouter, Data: data})
	require.Error(t, err)
	err = fmt.Errorf("relay: estimate gas: %w", err)
	rd, ok := Data(err)
	require.True(t, ok)
	require.Equal(t, want, Decode(rd))
	require.True(t, Is(rd, "InsufficientAllowance"))
	name, args, ok := DecodeError(rd)
	require.True(t, ok)
	require.Equal(t, "InsufficientAllowance", name)
	require.Len(t, args, 3)
	require.Equal(t, e.addrs.Permit2, args[0])
	require.Zero(t, args[1].(*big.Int).Sign())
	require.Zero(t, args[2].(*big.Int).Cmp(amount))
	require.Equal(t, "relay refused by the chain: "+want, Reason("relay refused by the chain", err))

	// And eth_call at the latest block.
	_, err = e.c.Client.CallContract(t.Context(), ethereum.CallMsg{From: relayer, To: &e.addrs.RelayRouter, Data: data}, nil)
	require.Equal(t, "refused: "+want, Reason("refused", err))
}
