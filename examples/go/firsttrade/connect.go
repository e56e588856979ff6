package main

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/client/wallet"
	"github.com/fxd-labs/fxd/reqsig"
)

// example is the state of one walk.
type example struct {
	api     *client.Client // signed with the account's API key
	public  *client.Client // no key: what a customer's browser would use
	admin   admin          // the operator's faucet (test environment only)
	eth     *ethclient.Client
	chainID *big.Int
	tokens  map[string]client.Currency // by symbol
	wallet  *wallet.Wallet             // the account's signer wallet, made here (its key never leaves it)
	account string                     // the account id
	started time.Time
	mine    map[string]bool // ids of the records this run made (for the ledger)
}

// connect opens the API client (checking the service and the key), the
// chain client (checking it is the service's chain) and reads the tokens.
func connect(ctx context.Context, cfg config) (*example, error) {
	pem, err := os.ReadFile(cfg.keyFile)
	if err != nil {
		return nil, fmt.Errorf("read the API key: %w", err)
	}
	key, err := reqsig.ParsePrivateKeyPEM(pem)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.keyFile, err)
	}
	ex := &example{started: time.Now().Truncate(time.Second), mine: map[string]bool{}, tokens: map[string]client.Currency{}}
	// The SDK signs every request (SPEC.md "Authentication"), retries what
	// is safe to retry and keeps one Idempotency-Key across the retries.
	if ex.api, err = client.New(cfg.baseURL, cfg.keyID, key); err != nil {
		return nil, err
	}
	if ex.public, err = client.New(cfg.baseURL, "", nil); err != nil {
		return nil, err
	}
	// Signatures carry a timestamp the server accepts within ±30 s: take
	// the server's clock, so a skewed laptop clock does not matter.
	if err := ex.api.SyncClock(ctx); err != nil {
		return nil, fmt.Errorf("reach %s: %w", cfg.baseURL, err)
	}
	acct, err := ex.api.GetAccount(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the account with key %s: %w", cfg.keyID, err)
	}
	ex.account = acct.ID
	if ex.admin, err = newAdmin(cfg.adminURL, cfg.adminTokenFile); err != nil {
		return nil, err
	}
	if err := ex.openChain(ctx, cfg.rpcURL); err != nil {
		return nil, err
	}
	say("service", "%s: account %s (%s), key %s, chain %s at %s", cfg.baseURL, acct.ID, acct.Name, cfg.keyID, ex.chainID, cfg.rpcURL)
	return ex, nil
}

// openChain dials the JSON-RPC the wallet broadcasts through and checks
// it serves the chain GET /currencies names.
func (ex *example) openChain(ctx context.Context, rpcURL string) error {
	curs, err := ex.api.ListCurrencies(ctx)
	if err != nil {
		return err
	}
	for _, c := range curs.Data {
		ex.tokens[c.Symbol] = c
	}
	for _, sym := range []string{"USDC", "EURC"} {
		if _, ok := ex.tokens[sym]; !ok {
			return fmt.Errorf("GET /currencies has no %s", sym)
		}
	}
	ex.eth, err = ethclient.DialContext(ctx, rpcURL)
	if err != nil {
		return fmt.Errorf("dial the chain at %s: %w", rpcURL, err)
	}
	if ex.chainID, err = ex.eth.ChainID(ctx); err != nil {
		return fmt.Errorf("chain id from %s: %w", rpcURL, err)
	}
	if want := ex.tokens["USDC"].ChainID; ex.chainID.Uint64() != want {
		return fmt.Errorf("%s serves chain %s, the service's tokens are on chain %d", rpcURL, ex.chainID, want)
	}
	return nil
}

func (ex *example) close() {
	ex.api.CloseIdleConnections()
	ex.public.CloseIdleConnections()
	ex.eth.Close()
}

// token is a currency's token contract.
func (ex *example) token(symbol string) common.Address {
	return common.HexToAddress(ex.tokens[symbol].Address)
}

// units is a decimal amount of the currency in base units ("25.5" USDC
// is 25500000): what the typed data and the chain speak.
func (ex *example) units(symbol, amount string) (*big.Int, error) {
	return wallet.Units(amount, ex.tokens[symbol].Decimals)
}

// newAdmin reads the admin listener's token.
func newAdmin(url, tokenFile string) (admin, error) {
	tok, err := os.ReadFile(tokenFile)
	if err != nil {
		return admin{}, fmt.Errorf("read the admin token (the faucet needs it): %w", err)
	}
	return admin{url: url, token: strings.TrimSpace(string(tok)), hc: &http.Client{Timeout: time.Minute}}, nil
}
