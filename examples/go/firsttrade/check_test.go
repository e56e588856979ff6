package main

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

var (
	usdcAddr = common.HexToAddress("0xBeF0DAEf2ef6727D0e70bFa1d4d6c6dB19D01440")
	eurcAddr = common.HexToAddress("0x4CF8166A4C158fB3369f040debB16f2c76d440A4")
)

// testExample is an example with the tokens and the wallet the checks
// compare against.
func testExample(t *testing.T) *example {
	t.Helper()
	w, err := wallet.New(nil, big.NewInt(1337))
	require.NoError(t, err)
	return &example{wallet: w, chainID: big.NewInt(1337), tokens: map[string]client.Currency{
		"USDC": {Symbol: "USDC", Decimals: 6, Address: usdcAddr.Hex(), ChainID: 1337},
		"EURC": {Symbol: "EURC", Decimals: 6, Address: eurcAddr.Hex(), ChainID: 1337},
	}}
}

// TestCheckGasless: the wallet signs a GaslessOrder only when it says what
// was asked for; every field that moves money is checked.
func TestCheckGasless(t *testing.T) {
	ex := testExample(t)
	payee := common.HexToAddress("0x00000000000000000000000000000000000000c3")
	stranger := common.HexToAddress("0x00000000000000000000000000000000000000d4")
	for _, tc := range []struct {
		name   string
		change func(td *client.TypedData, o map[string]any)
		want   string // "" accepted, else part of the refusal
	}{
		{"as asked", func(*client.TypedData, map[string]any) {}, ""},
		{"lower-case addresses", func(_ *client.TypedData, o map[string]any) { o["recipient"] = strings.ToLower(payee.Hex()) }, ""},
		{"another amount", func(_ *client.TypedData, o map[string]any) { o["amountIn"] = "40000001" }, "amount is"},
		{"another recipient", func(_ *client.TypedData, o map[string]any) { o["recipient"] = stranger.Hex() }, "recipient is"},
		{"another signer", func(_ *client.TypedData, o map[string]any) { o["signer"] = stranger.Hex() }, "signer is"},
		{"another token in", func(_ *client.TypedData, o map[string]any) { o["tokenIn"] = eurcAddr.Hex() }, "token is"},
		{"another token out", func(_ *client.TypedData, o map[string]any) { o["tokenOut"] = usdcAddr.Hex() }, "tokenOut is"},
		{"permit moves more", func(td *client.TypedData, _ map[string]any) { td.Message.Permitted.Amount = "50000000" }, "permitted.amount is"},
		{"another chain", func(td *client.TypedData, _ map[string]any) { td.Domain.ChainID = 1 }, "domain.chainId is"},
		{"not Permit2", func(td *client.TypedData, _ map[string]any) { td.Domain.VerifyingContract = stranger.Hex() }, "domain.verifyingContract is"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, td := gaslessFixture(t, ex.wallet, payee, 40_000_000)
			var o map[string]any
			require.NoError(t, json.Unmarshal(td.Message.Witness, &o))
			tc.change(td, o)
			var err error
			td.Message.Witness, err = json.Marshal(o)
			require.NoError(t, err)
			err = ex.checkGasless(&client.Signing{TypedData: td}, "40", payee)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, "refusing to sign: "+tc.want)
		})
	}
	require.Error(t, ex.checkGasless(&client.Signing{}, "40", payee), "no typed data")
}

// TestCheckTransferTx: signing.tx must be USDC's transfer(payee, 25) on
// this chain, with no value.
func TestCheckTransferTx(t *testing.T) {
	ex := testExample(t)
	payee := common.HexToAddress("0x00000000000000000000000000000000000000c3")
	data := func(method string, to common.Address, amount int64) string {
		b, err := wallet.ERC20.Pack(method, to, big.NewInt(amount))
		require.NoError(t, err)
		return hexutil.Encode(b)
	}
	good := client.ERC20Transfer{ChainID: 1337, To: usdcAddr.Hex(), Data: data("transfer", payee, 25_000_000), Value: "0"}
	require.NoError(t, ex.checkTransferTx(&good, payee))
	for name, tx := range map[string]client.ERC20Transfer{
		"another token":  {ChainID: 1337, To: eurcAddr.Hex(), Data: good.Data, Value: "0"},
		"another chain":  {ChainID: 1, To: good.To, Data: good.Data, Value: "0"},
		"with value":     {ChainID: 1337, To: good.To, Data: good.Data, Value: "1"},
		"another amount": {ChainID: 1337, To: good.To, Data: data("transfer", payee, 25_000_001), Value: "0"},
		"another payee":  {ChainID: 1337, To: good.To, Data: data("transfer", usdcAddr, 25_000_000), Value: "0"},
		"an approve":     {ChainID: 1337, To: good.To, Data: data("approve", payee, 25_000_000), Value: "0"},
		"no calldata":    {ChainID: 1337, To: good.To, Data: "0x", Value: "0"},
	} {
		require.Error(t, ex.checkTransferTx(&tx, payee), name)
	}
}

func TestUnits(t *testing.T) {
	ex := testExample(t)
	for in, want := range map[string]string{"25": "25000000", "25.5": "25500000", "0.000001": "1", "1000": "1000000000"} {
		got, err := ex.units("USDC", in)
		require.NoError(t, err, in)
		require.Equal(t, want, got.String(), in)
	}
	for _, in := range []string{"0.0000001", "-1", "abc", ""} {
		_, err := ex.units("USDC", in)
		require.Error(t, err, in)
	}
}
