package main

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
)

// gaslessFixture is a GaslessOrder for w, with the typed data the service
// would send for it (built by the service's own eip712 package). The
// wallet's signing itself is tested in client/wallet.
func gaslessFixture(t *testing.T, w *wallet.Wallet, recipient common.Address, amountIn int64) (eip712.Domain, common.Address, *eip712.GaslessOrder, *client.TypedData) {
	t.Helper()
	d := eip712.Domain{ChainID: big.NewInt(1337), Permit2: wallet.Permit2}
	router := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	o := &eip712.GaslessOrder{
		Signer: w.Address(), TokenIn: usdcAddr, TokenOut: eurcAddr, AmountIn: big.NewInt(amountIn), MinAmountOut: big.NewInt(1),
		Recipient: recipient, Pool: common.HexToAddress("0x00000000000000000000000000000000000000b2"),
		Deadline: big.NewInt(1_900_000_000), Nonce: big.NewInt(42),
	}
	raw, err := json.Marshal(eip712.GaslessTypedData(d, router, o))
	require.NoError(t, err)
	var td client.TypedData
	require.NoError(t, json.Unmarshal(raw, &td))
	return d, router, o, &td
}

// TestSignedGaslessPassesTheCheck: what the walk checks before signing
// and what the wallet then signs agree: the checked typed data yields a
// signature the service's verifier accepts.
func TestSignedGaslessPassesTheCheck(t *testing.T) {
	ex := testExample(t)
	d, router, o, td := gaslessFixture(t, ex.wallet, ex.wallet.Address(), 100_000_000)
	require.NoError(t, ex.checkGasless(&client.Signing{TypedData: td}, "100", ex.wallet.Address()))
	sig, err := ex.wallet.SignTypedData(td)
	require.NoError(t, err)
	raw := common.FromHex(sig)
	require.NoError(t, eip712.VerifyGasless(d, router, o, raw))
}
