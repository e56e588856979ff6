package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// admin is the operator's admin listener (loopback only, bearer token in
// the data dir). The example uses one thing from it: the test faucet. On a
// real network there is no faucet; the wallet is funded like any other.
type admin struct {
	url, token string
	hc         *http.Client
}

// faucet sends amount of currency, and ETH for gas, to addr; it answers
// once both are mined. Same as `fxd admin faucet --address … --currency …
// --amount …`.
func (a admin) faucet(ctx context.Context, addr common.Address, currency, amount string) (string, error) {
	body, err := json.Marshal(map[string]string{"address": addr.Hex(), "currency": currency, "amount": amount})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(a.url, "/")+"/admin/faucet", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.hc.Do(req)
	if err != nil {
		return "", fmt.Errorf("faucet: %w", err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", fmt.Errorf("faucet: %w", err)
	}
	var ans struct {
		TxHash string `json:"tx_hash"`
		Error  *struct {
			Code, Message string
		} `json:"error"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		return "", fmt.Errorf("faucet: status %d: %q", resp.StatusCode, out)
	}
	if resp.StatusCode != http.StatusOK || ans.Error != nil || ans.TxHash == "" {
		return "", fmt.Errorf("faucet: status %d: %s", resp.StatusCode, out)
	}
	return ans.TxHash, nil
}
