package wallet

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	fxbind "github.com/fxd-labs/fxd/chain/bind"
	"github.com/fxd-labs/fxd/client"
)

// escrowCall is signing.call as the service sends it: the compiled
// contract's escrowQuoteWithPermit2 fragment and the first three
// arguments, integers as decimal strings.
func escrowCall(t *testing.T, escrow common.Address) *client.EscrowCall {
	t.Helper()
	full, err := abi.JSON(strings.NewReader(fxbind.RfqEscrowMetaData.ABI))
	require.NoError(t, err)
	var entries []client.ABIFunction
	require.NoError(t, json.Unmarshal([]byte(fxbind.RfqEscrowMetaData.ABI), &entries))
	call := &client.EscrowCall{To: escrow.Hex()}
	for _, e := range entries {
		if e.Type == "function" && e.Name == "escrowQuoteWithPermit2" {
			call.ABI = e
		}
	}
	require.NotEmpty(t, call.ABI.Name, "the escrow ABI has escrowQuoteWithPermit2 (%d methods)", len(full.Methods))
	args := []string{
		`{"maker":"0x00000000000000000000000000000000000000a1","taker":"0x00000000000000000000000000000000000000b2",` +
			`"tokenIn":"` + usdcAddr.Hex() + `","tokenOut":"` + eurcAddr.Hex() + `","amountIn":"100000000","amountOut":"92000000","expiry":"1900000000","salt":"77"}`,
		`"0x` + strings.Repeat("ab", 65) + `"`,
		`{"signer":"0x00000000000000000000000000000000000000b2","executionId":"0x` + strings.Repeat("01", 32) + `","escrow":"` + escrow.Hex() +
			`","quoteHash":"0x` + strings.Repeat("02", 32) + `","token":"` + usdcAddr.Hex() + `","amount":"100000000","deadline":"1900000000","nonce":"9"}`,
	}
	for _, a := range args {
		call.Args = append(call.Args, json.RawMessage(a))
	}
	return call
}

// TestEscrowCallData: the calldata decodes, with the contract's own ABI,
// to the quote, the maker's signature, the funding and the wallet's
// signature, field for field.
func TestEscrowCallData(t *testing.T) {
	escrow := common.HexToAddress("0x00000000000000000000000000000000000000e5")
	call := escrowCall(t, escrow)
	sig := "0x" + strings.Repeat("cd", 65)
	to, data, err := EscrowCallData(call, sig)
	require.NoError(t, err)
	require.Equal(t, escrow, to)

	full, err := abi.JSON(strings.NewReader(fxbind.RfqEscrowMetaData.ABI))
	require.NoError(t, err)
	m, err := full.MethodById(data[:4])
	require.NoError(t, err)
	require.Equal(t, "escrowQuoteWithPermit2", m.Name)
	vals, err := m.Inputs.Unpack(data[4:])
	require.NoError(t, err)
	require.Len(t, vals, 4)
	raw, err := json.Marshal(vals)
	require.NoError(t, err)
	for _, want := range []string{`"amountIn":100000000`, `"amountOut":92000000`, `"salt":77`, `"nonce":9`, `"amount":100000000`, `"maker":"0x00000000000000000000000000000000000000a1"`} {
		require.Contains(t, string(raw), want)
	}
	require.Equal(t, hexutil.MustDecode("0x"+strings.Repeat("ab", 65)), vals[1])
	require.Equal(t, hexutil.MustDecode(sig), vals[3])
}

func TestEscrowCallDataRefusesWhatItCannotEncode(t *testing.T) {
	escrow := common.HexToAddress("0x00000000000000000000000000000000000000e5")
	good := "0x" + strings.Repeat("cd", 65)
	for name, change := range map[string]func(c *client.EscrowCall) string{
		"no call":  func(c *client.EscrowCall) string { *c = client.EscrowCall{}; return good },
		"two args": func(c *client.EscrowCall) string { c.Args = c.Args[:2]; return good },
		"missing integer": func(c *client.EscrowCall) string {
			c.Args[0] = json.RawMessage(`{"maker":"0x00000000000000000000000000000000000000a1"}`)
			return good
		},
		"bad signature": func(*client.EscrowCall) string { return "0xzz" },
		"bad abi":       func(c *client.EscrowCall) string { c.ABI.Inputs[0].Type = "tuple[banana]"; return good },
	} {
		c := escrowCall(t, escrow)
		sig := change(c)
		_, _, err := EscrowCallData(c, sig)
		require.Error(t, err, name)
	}
	_, _, err := EscrowCallData(nil, good)
	require.Error(t, err)
}
