package wallet

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/fxd-labs/fxd/client"
)

// SignTypedData is a wallet's eth_signTypedData_v4 over the service's
// signing.typed_data (complete: domain, types, primaryType, message):
// go-ethereum's generic EIP-712 encoder computes the digest, the key
// signs it. The wallet signs what the JSON says, so a caller checks the
// message first (it authorises exactly that transfer).
func (w *Wallet) SignTypedData(td *client.TypedData) (string, error) {
	if td == nil {
		return "", errors.New("wallet: the answer has no signing.typed_data")
	}
	raw, err := json.Marshal(td)
	if err != nil {
		return "", fmt.Errorf("wallet: typed data: %w", err)
	}
	var typed apitypes.TypedData
	if err := json.Unmarshal(raw, &typed); err != nil {
		return "", fmt.Errorf("wallet: typed data: %w", err)
	}
	digest, _, err := apitypes.TypedDataAndHash(typed)
	if err != nil {
		return "", fmt.Errorf("wallet: typed data: %w", err)
	}
	return w.sign(digest)
}
