package httpd

import (
	"fmt"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/chain/siwe"
	"github.com/fxd-labs/fxd/domain"
)

// TestRecoverWalletSigner: POST /wallets' signature. Not one by its form
// (not hex, not 65 bytes) is 400 invalid_request, as a submitted order
// signature is; 65 bytes that do not recover are 400 invalid_signature;
// a good one yields its signer, v as 27/28 or 0/1.
func TestRecoverWalletSigner(t *testing.T) {
	key, err := crypto.GenerateKey()
	require.NoError(t, err)
	addr := crypto.PubkeyToAddress(key.PublicKey).Hex()
	msg := siwe.Message{Domain: "api.example.com", Address: addr, URI: "https://api.example.com/v1", Version: "1",
		ChainID: 1337, Nonce: "abcdefgh1234", IssuedAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}.String()
	sig, err := crypto.Sign(accounts.TextHash([]byte(msg)), key)
	require.NoError(t, err)
	v27 := append([]byte(nil), sig...)
	v27[64] += 27
	badV := append([]byte(nil), v27...)
	badV[64] = 29
	for _, c := range []struct {
		name, sig, code string
	}{
		{"v 27/28", hexutil.Encode(v27), ""},
		{"v 0/1", hexutil.Encode(sig), ""},
		{"no 0x", fmt.Sprintf("%x", v27), domain.CodeInvalidRequest},
		{"empty", "", domain.CodeInvalidRequest},
		{"49 bytes", hexutil.Encode(v27[:49]), domain.CodeInvalidRequest},
		{"66 bytes", hexutil.Encode(append(v27, 0)), domain.CodeInvalidRequest},
		{"64 bytes (compact)", hexutil.Encode(v27[:64]), domain.CodeInvalidRequest},
		{"v 29", hexutil.Encode(badV), domain.CodeInvalidSignature},
	} {
		t.Run(c.name, func(t *testing.T) {
			rw := domain.RegisterWallet{Message: msg, Signature: c.sig}
			derr := recoverWalletSigner(&rw)
			if c.code == "" {
				require.Nil(t, derr)
				require.Equal(t, addr, rw.Signer)
				return
			}
			require.NotNil(t, derr)
			require.Equal(t, 400, derr.Status)
			require.Equal(t, c.code, derr.Code, derr.Message)
		})
	}
}
