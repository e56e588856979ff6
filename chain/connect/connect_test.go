package connect

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/fxd-labs/fxd/chain/bind"
	"github.com/stretchr/testify/require"
)

func testAddresses() *bind.Addresses {
	return &bind.Addresses{USDC: common.HexToAddress("0x01"), USDT: common.HexToAddress("0x02"), EURC: common.HexToAddress("0x03"),
		Permit2: bind.CanonicalPermit2Address, Pools: map[string]common.Address{"USDC/EURC": common.HexToAddress("0x04")},
		RelayRouter: common.HexToAddress("0x05"), RfqEscrow: common.HexToAddress("0x06"), PaymentLinkFactory: common.HexToAddress("0x07")}
}

func TestContractsFileRoundTrip(t *testing.T) {
	file := filepath.Join(t.TempDir(), "contracts.json")
	a := testAddresses()
	require.NoError(t, WriteContracts(file, a))
	got, err := readContracts(file)
	require.NoError(t, err)
	require.Equal(t, a, got)
	_, err = readContracts(filepath.Join(t.TempDir(), "missing.json"))
	require.ErrorIs(t, err, os.ErrNotExist)
}

// A contracts.json lacking a contract (e.g. written before the payment-link factory
// existed) is refused, naming the missing key.
func TestContractsFileMissingContract(t *testing.T) {
	raw, err := json.Marshal(testAddresses())
	require.NoError(t, err)
	for _, key := range []string{"usdc", "usdt", "eurc", "permit2", "relay_router", "rfq_escrow", "payment_link_factory"} {
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m))
		require.Contains(t, m, key)
		delete(m, key)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		file := filepath.Join(t.TempDir(), "contracts.json")
		require.NoError(t, os.WriteFile(file, b, 0o644))
		_, err = readContracts(file)
		require.ErrorContains(t, err, `no "`+key+`" address`, key)
	}
}

func TestReadKeyFile(t *testing.T) {
	dir := t.TempDir()
	hex := "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" // anvil's first dev key
	for name, body := range map[string]string{"plain": hex, "0x with newline": "0x" + hex + "\n"} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		k, err := ReadKeyFile(p)
		require.NoError(t, err, name)
		require.Equal(t, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", addressOf(k).Hex())
	}
	bad := filepath.Join(dir, "bad")
	require.NoError(t, os.WriteFile(bad, []byte("nothex"), 0o600))
	_, err := ReadKeyFile(bad)
	require.Error(t, err)
	_, err = ReadKeyFile("")
	require.Error(t, err)
}

func TestOpenRefusesUnknownModeAndMissingRPCConfig(t *testing.T) {
	_, err := Open(context.Background(), Config{Mode: "geth"})
	require.ErrorContains(t, err, "embedded or rpc")
	_, err = Open(context.Background(), Config{Mode: ModeRPC})
	require.ErrorContains(t, err, "--rpc-url and --contracts")
}

func addressOf(k *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(k.PublicKey) }

// TestReadKeysFile: one hex key a line, comments and blank lines skipped;
// an empty file, a bad line (named by number, never quoted), a repeated
// key and too many keys are refused.
func TestReadKeysFile(t *testing.T) {
	const k1 = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
	const k2 = "7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"
	for _, tc := range []struct {
		name, text string
		n          int
		err        string
	}{
		{"two keys", "# makers\n" + k1 + "\n\n  " + k2 + "  \n", 2, ""},
		{"empty", "# none\n\n", 0, "no key"},
		{"bad line", k1 + "\nnot-a-key-deadbeef\n", 0, "line 2: not a hex private key"},
		{"twice", k1 + "\n" + k1[2:] + "\n", 0, "given twice"},
		{"too many", "#\n" + manyKeys(17), 0, "at most 16"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "makers.keys")
			require.NoError(t, os.WriteFile(p, []byte(tc.text), 0o600))
			keys, err := ReadKeysFile(p)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				require.NotContains(t, err.Error(), "deadbeef", "a key's text is never echoed")
				return
			}
			require.NoError(t, err)
			require.Len(t, keys, tc.n)
		})
	}
}

// manyKeys is n distinct hex keys, one a line.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%064x\n", i+1000)
	}
	return b.String()
}
