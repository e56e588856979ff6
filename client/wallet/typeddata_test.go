package wallet

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

var (
	usdcAddr = common.HexToAddress("0xBeF0DAEf2ef6727D0e70bFa1d4d6c6dB19D01440")
	eurcAddr = common.HexToAddress("0x4CF8166A4C158fB3369f040debB16f2c76d440A4")
)

// gaslessFixture is a GaslessOrder for w, with the typed data the service
// would send for it (built by the service's own eip712 package).
func gaslessFixture(t *testing.T, w *Wallet, amountIn int64) (eip712.Domain, common.Address, *eip712.GaslessOrder, *client.TypedData) {
	t.Helper()
	d := eip712.Domain{ChainID: big.NewInt(1337), Permit2: Permit2}
	router := common.HexToAddress("0x00000000000000000000000000000000000000a1")
	o := &eip712.GaslessOrder{
		Signer: w.Address(), TokenIn: usdcAddr, TokenOut: eurcAddr, AmountIn: big.NewInt(amountIn), MinAmountOut: big.NewInt(1),
		Recipient: w.Address(), Pool: common.HexToAddress("0x00000000000000000000000000000000000000b2"),
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
	w, err := New(nil, big.NewInt(1337))
	require.NoError(t, err)
	d, router, o, td := gaslessFixture(t, w, 100_000_000)
	sig, err := w.SignTypedData(td)
	require.NoError(t, err)
	raw, err := hexutil.Decode(sig)
	require.NoError(t, err)
	require.Len(t, raw, 65)
	require.Contains(t, []byte{27, 28}, raw[64], "v as wallets spell it")
	require.NoError(t, eip712.VerifyGasless(d, router, o, raw))

	other := *o
	other.AmountIn = big.NewInt(100_000_001)
	require.ErrorIs(t, eip712.VerifyGasless(d, router, &other, raw), eip712.ErrBadSignature)

	_, err = w.SignTypedData(nil)
	require.Error(t, err)
}

// TestPersonalSignRecoversToTheWallet: a SIWE signature recovers to the
// wallet's address with the service's SIWE code, and only for its text.
func TestPersonalSignRecoversToTheWallet(t *testing.T) {
	w, err := New(nil, big.NewInt(1337))
	require.NoError(t, err)
	msg := "127.0.0.1:8080 wants you to sign in with your Ethereum account:\n" + w.Address().Hex()
	sig, err := w.PersonalSign(msg)
	require.NoError(t, err)
	raw, err := hexutil.Decode(sig)
	require.NoError(t, err)
	got, err := siwe.Recover(msg, raw)
	require.NoError(t, err)
	require.Equal(t, w.Address(), got)
	got, err = siwe.Recover(msg+" ", raw)
	require.NoError(t, err)
	require.NotEqual(t, w.Address(), got)
}
