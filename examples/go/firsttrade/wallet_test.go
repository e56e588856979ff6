package main

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/eip712"
	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/fxd-labs/fxd/client"
)

// gaslessFixture is a GaslessOrder signed by w, with the typed data the
// service would send for it (built by the service's own eip712 package).
func gaslessFixture(t *testing.T, w *wallet, recipient common.Address, amountIn int64) (eip712.Domain, common.Address, *eip712.GaslessOrder, *client.TypedData) {
	t.Helper()
	d := eip712.Domain{ChainID: big.NewInt(1337), Permit2: permit2}
	router := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	o := &eip712.GaslessOrder{
		Signer: w.addr, TokenIn: usdcAddr, TokenOut: eurcAddr, AmountIn: big.NewInt(amountIn), MinAmountOut: big.NewInt(1),
		Recipient: recipient, Pool: common.HexToAddress("0x00000000000000000000000000000000000000b2"),
		Deadline: big.NewInt(1_900_000_000), Nonce: big.NewInt(42),
	}
	raw, err := json.Marshal(eip712.GaslessTypedData(d, router, o))
	require.NoError(t, err)
	var td client.TypedData
	require.NoError(t, json.Unmarshal(raw, &td))
	return d, router, o, &td
}

// TestSignTypedDataIsWhatTheServiceVerifies: the wallet's
// eth_signTypedData_v4 (go-ethereum's generic EIP-712 encoder over the JSON
// typed data) yields a signature the service's verifier accepts for the
// order, and refuses for another order.
func TestSignTypedDataIsWhatTheServiceVerifies(t *testing.T) {
	w, err := newWallet(nil, big.NewInt(1337))
	require.NoError(t, err)
	d, router, o, td := gaslessFixture(t, w, w.addr, 100_000_000)
	sig, err := w.signTypedData(td)
	require.NoError(t, err)
	raw, err := hexutil.Decode(sig)
	require.NoError(t, err)
	require.Len(t, raw, 65)
	require.Contains(t, []byte{27, 28}, raw[64], "v as wallets spell it")
	require.NoError(t, eip712.VerifyGasless(d, router, o, raw))

	other := *o
	other.AmountIn = big.NewInt(100_000_001)
	require.ErrorIs(t, eip712.VerifyGasless(d, router, &other, raw), eip712.ErrBadSignature)

	_, err = w.signTypedData(nil)
	require.Error(t, err)
}

// TestPersonalSignRecoversToTheWallet: a SIWE signature recovers to the
// wallet's address with the service's SIWE code, and only for its text.
func TestPersonalSignRecoversToTheWallet(t *testing.T) {
	w, err := newWallet(nil, big.NewInt(1337))
	require.NoError(t, err)
	msg := "127.0.0.1:8080 wants you to sign in with your Ethereum account:\n" + w.addr.Hex()
	sig, err := w.personalSign(msg)
	require.NoError(t, err)
	raw, err := hexutil.Decode(sig)
	require.NoError(t, err)
	got, err := siwe.Recover(msg, raw)
	require.NoError(t, err)
	require.Equal(t, w.addr, got)
	got, err = siwe.Recover(msg+" ", raw)
	require.NoError(t, err)
	require.NotEqual(t, w.addr, got)
}
