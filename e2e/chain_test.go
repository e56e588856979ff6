package e2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"github.com/fxd-labs/fxd/internal/repo"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// The chain tests drive the service the way an integrator does: wallets
// prove control by signing the SIWE challenge with ethers v6
// (Wallet.signMessage, EIP-191), and they self-broadcast token transfers
// with ethers over the chain's JSON-RPC. The scripts live in e2e/js; its
// node_modules is installed with `npm ci` when missing. Without node or npm
// these tests fail rather than skip: an interop test that never runs proves
// nothing.

// nodeDeadline bounds one node script (it may wait for a receipt).
const nodeDeadline = 90 * time.Second

var (
	jsOnce sync.Once
	jsErr  error
	jsPath string
)

// jsDir returns e2e/js with its node_modules installed (npm ci, once per
// test binary; concurrent callers wait for it).
func jsDir(t testing.TB) string {
	t.Helper()
	jsOnce.Do(func() { jsPath, jsErr = installJS() })
	if jsErr != nil {
		t.Fatalf("e2e/js: %v", jsErr)
	}
	return jsPath
}

func installJS() (string, error) {
	root, err := repo.Root()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "e2e", "js")
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node is required for the chain tests: %w", err)
	}
	if jsInstalled(dir) {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", fmt.Errorf("npm is required to install e2e/js: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
	}
	if !jsInstalled(dir) {
		return "", fmt.Errorf("npm ci in %s did not install ethers, anvil and standardwebhooks", dir)
	}
	return dir, nil
}

// jsInstalled reports whether node_modules holds the pinned packages.
func jsInstalled(dir string) bool {
	for _, p := range []string{"ethers/package.json", "@foundry-rs/anvil-linux-amd64/package.json", "standardwebhooks/package.json"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", p)); err != nil {
			return false
		}
	}
	return true
}

// runNode runs `node script` in e2e/js with input as JSON on stdin and
// decodes the one JSON line it prints into out.
func runNode(t testing.TB, script string, input, out any) {
	t.Helper()
	dir := jsDir(t)
	in, err := json.Marshal(input)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), nodeDeadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\ninput: %s\nstdout:\n%s\nstderr:\n%s", script, err, in, stdout.String(), stderr.String())
	}
	line := strings.TrimSpace(stdout.String())
	require.NotContains(t, line, "\n", "node %s: want one line, got %q", script, stdout.String())
	require.NoError(t, json.Unmarshal([]byte(line), out), "node %s printed %q", script, stdout.String())
}

// ethKey is a secp256k1 key of a test wallet.
type ethKey struct {
	Priv    *ecdsa.PrivateKey
	Hex     string         // 0x + 64 hex digits
	Address common.Address // Address.Hex() is EIP-55
}

func newEthKey(t testing.TB) ethKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	require.NoError(t, err)
	return ethKeyOf(k)
}

func ethKeyOf(k *ecdsa.PrivateKey) ethKey {
	return ethKey{Priv: k, Hex: hexutil.Encode(crypto.FromECDSA(k)), Address: crypto.PubkeyToAddress(k.PublicKey)}
}

// signSIWE signs message with ethers' Wallet.signMessage (EIP-191) and
// returns the signature; it requires ethers to derive the same address.
func signSIWE(t testing.TB, k ethKey, message string) string {
	t.Helper()
	var out struct{ Address, Signature string }
	runNode(t, "siwe-sign.mjs", map[string]string{"key": k.Hex, "message": message}, &out)
	require.Equal(t, k.Address.Hex(), out.Address, "ethers derives another address from the key")
	sig, err := hexutil.Decode(out.Signature)
	require.NoError(t, err, "signature %q", out.Signature)
	require.Len(t, sig, 65, "signature %q", out.Signature)
	return out.Signature
}

// challenge is the answer of POST /wallets/challenge.
type challenge struct {
	Message   string `json:"message"`
	Nonce     string `json:"nonce"`
	ExpiresAt string `json:"expires_at"`
}

// walletView is one wallet of the API.
type walletView struct {
	Address   string  `json:"address"`
	Primary   bool    `json:"primary"`
	Label     *string `json:"label"`
	CreatedAt string  `json:"created_at"`
}

// requestChallenge asks for a SIWE challenge for addr and checks it names
// the address, the nonce, the chain and this service.
func requestChallenge(t testing.TB, s *server, c *client.Client, addr common.Address, chainID uint64) challenge {
	t.Helper()
	resp := call(t, c, "POST", basePath+"/wallets/challenge", fmt.Sprintf(`{"address":%q}`, addr.Hex()), nil)
	requireStatus(t, resp, 200)
	var ch challenge
	require.NoError(t, json.Unmarshal(resp.Body, &ch))
	require.NotEmpty(t, ch.Nonce)
	exp, err := time.Parse(time.RFC3339, ch.ExpiresAt)
	require.NoError(t, err, "expires_at %q", ch.ExpiresAt)
	require.True(t, exp.After(time.Now()), "challenge already expired at %s", ch.ExpiresAt)
	lines := strings.Split(ch.Message, "\n")
	require.GreaterOrEqual(t, len(lines), 2, "message %q", ch.Message)
	require.Equal(t, s.Addr+" wants you to sign in with your Ethereum account:", lines[0], "SIWE domain is the Host the caller used")
	require.Equal(t, addr.Hex(), lines[1], "SIWE address, EIP-55")
	require.Contains(t, lines, "Nonce: "+ch.Nonce)
	require.Contains(t, lines, fmt.Sprintf("Chain ID: %d", chainID))
	require.Contains(t, lines, "URI: http://"+s.Addr+basePath)
	return ch
}

// postWallet sends POST /wallets {message, signature}.
func postWallet(t testing.TB, c *client.Client, message, signature string) *client.Response {
	t.Helper()
	body, err := json.Marshal(map[string]string{"message": message, "signature": signature})
	require.NoError(t, err)
	return call(t, c, "POST", basePath+"/wallets", string(body), nil)
}

// registerWallet links the key's address to the account by SIWE (ethers
// signs) and returns the created wallet, after checking its shape.
func registerWallet(t testing.TB, s *server, c *client.Client, k ethKey, chainID uint64) walletView {
	t.Helper()
	ch := requestChallenge(t, s, c, k.Address, chainID)
	resp := postWallet(t, c, ch.Message, signSIWE(t, k, ch.Message))
	requireStatus(t, resp, 201)
	return requireWalletShape(t, resp.Body, k.Address)
}

// requireWalletShape decodes a wallet and requires exactly the contract's
// fields, the EIP-55 address and an RFC 3339 UTC created_at.
func requireWalletShape(t testing.TB, body []byte, addr common.Address) walletView {
	t.Helper()
	raw := object(t, body)
	require.ElementsMatch(t, []string{"address", "primary", "label", "created_at"}, sortedKeys(raw), "wallet %s", body)
	var w walletView
	require.NoError(t, json.Unmarshal(body, &w))
	require.Equal(t, addr.Hex(), w.Address, "wallet address is EIP-55")
	ts, err := time.Parse(time.RFC3339, w.CreatedAt)
	require.NoError(t, err, "created_at %q", w.CreatedAt)
	require.True(t, strings.HasSuffix(w.CreatedAt, "Z"), "created_at %q is not UTC", w.CreatedAt)
	require.WithinDuration(t, time.Now(), ts, 10*time.Minute, "created_at %q", w.CreatedAt)
	return w
}

// getOK sends a signed GET and requires 200.
func getOK(t testing.TB, c *client.Client, target string) []byte {
	t.Helper()
	resp := call(t, c, "GET", target, "", nil)
	requireStatus(t, resp, 200)
	return resp.Body
}

// listWallets reads GET /wallets (one page; tests stay far below it).
func listWallets(t testing.TB, c *client.Client) []walletView {
	t.Helper()
	var page struct {
		Data    []walletView `json:"data"`
		HasMore bool         `json:"has_more"`
	}
	require.NoError(t, json.Unmarshal(getOK(t, c, basePath+"/wallets?limit=200"), &page))
	require.False(t, page.HasMore)
	return page.Data
}

// walletMap indexes wallets by address.
func walletMap(ws []walletView) map[string]walletView {
	m := map[string]walletView{}
	for _, w := range ws {
		m[w.Address] = w
	}
	return m
}

// currencyInfo is one entry of GET /currencies.
type currencyInfo struct {
	Symbol   string `json:"symbol"`
	Decimals int    `json:"decimals"`
	Address  string `json:"address"`
	ChainID  uint64 `json:"chain_id"`
}

// getCurrencies reads GET /currencies by symbol and requires one chain id.
func getCurrencies(t testing.TB, c *client.Client) (map[string]currencyInfo, uint64) {
	t.Helper()
	var out struct {
		Data []currencyInfo `json:"data"`
	}
	require.NoError(t, json.Unmarshal(getOK(t, c, basePath+"/currencies"), &out))
	m := map[string]currencyInfo{}
	var chainID uint64
	for _, cur := range out.Data {
		require.True(t, common.IsHexAddress(cur.Address), "currency %+v", cur)
		require.Equal(t, common.HexToAddress(cur.Address).Hex(), cur.Address, "token address is EIP-55")
		require.Equal(t, 6, cur.Decimals, "currency %+v", cur)
		require.NotZero(t, cur.ChainID)
		if chainID == 0 {
			chainID = cur.ChainID
		}
		require.Equal(t, chainID, cur.ChainID, "one chain for all currencies")
		m[cur.Symbol] = cur
	}
	require.ElementsMatch(t, []string{"USDC", "USDT", "EURC"}, sortedKeys(anyMap(m)))
	return m, chainID
}

func anyMap[V any](m map[string]V) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// balances is GET /balances.
type balances struct {
	BlockNumber uint64 `json:"block_number"`
	Data        []struct {
		Currency string `json:"currency"`
		Total    string `json:"total"`
		Wallets  []struct {
			Address string `json:"address"`
			Amount  string `json:"amount"`
		} `json:"wallets"`
	} `json:"data"`
}

func getBalances(t testing.TB, c *client.Client) balances {
	t.Helper()
	var b balances
	body := getOK(t, c, basePath+"/balances")
	require.NoError(t, json.Unmarshal(body, &b), "balances %s", body)
	return b
}

// requireBalances requires, for every currency, the total and each
// wallet's amount (wallets by EIP-55 address; all wallets listed).
func requireBalances(t testing.TB, b balances, want map[string]map[string]string) {
	t.Helper()
	got := map[string]map[string]string{}
	for _, cb := range b.Data {
		require.NotContains(t, got, cb.Currency, "currency listed twice")
		m := map[string]string{"total": cb.Total}
		for _, w := range cb.Wallets {
			m[w.Address] = w.Amount
		}
		got[cb.Currency] = m
	}
	require.Equal(t, want, got, "balances at block %d", b.BlockNumber)
}

// healthView is GET /health.
type healthView struct {
	Status   string `json:"status"`
	Version  string `json:"version"`
	WALIndex uint64 `json:"wal_index"`
	Chain    *struct {
		ChainID uint64 `json:"chain_id"`
		Head    uint64 `json:"head"`
	} `json:"chain"`
}

func getHealth(t testing.TB, s *server) healthView {
	t.Helper()
	resp := callPublic(t, s.unsigned(t), "GET", basePath+"/health")
	requireStatus(t, resp, 200)
	var h healthView
	require.NoError(t, json.Unmarshal(resp.Body, &h))
	require.Equal(t, "ok", h.Status)
	require.NotNil(t, h.Chain, "health %s has no chain", resp.Body)
	return h
}

// logField waits for the server's JSON log line with the msg and returns
// its field (stderr is copied asynchronously, so it may trail stdout).
func (s *server) logField(t testing.TB, msg, field string) string {
	t.Helper()
	deadline := time.Now().Add(startDeadline)
	for {
		sc := bufio.NewScanner(strings.NewReader(s.Stderr()))
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var rec map[string]any
			if json.Unmarshal(sc.Bytes(), &rec) != nil || rec["msg"] != msg {
				continue
			}
			v, ok := rec[field].(string)
			require.True(t, ok, "log line %s has no string field %q", sc.Text(), field)
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q log line with %q within %v; stderr:\n%s", msg, field, startDeadline, tail(s.Stderr(), 8<<10))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// chainRPC is the JSON-RPC URL the service serves its chain on.
func (s *server) chainRPC(t testing.TB) string {
	t.Helper()
	u := s.logField(t, "serving", "chain_rpc")
	require.True(t, strings.HasPrefix(u, "http://"), "chain_rpc %q", u)
	return u
}

// faucet runs `fxd admin faucet` and returns the mint's tx hash.
func (s *server) faucet(t testing.TB, addr common.Address, currency, amount string) common.Hash {
	t.Helper()
	out := s.admin(t, "faucet", "--address", addr.Hex(), "--currency", currency, "--amount", amount)
	require.ElementsMatch(t, []string{"tx_hash"}, sortedKeys(out), "faucet printed %v", out)
	h, _ := out["tx_hash"].(string)
	b, err := hexutil.Decode(h)
	require.NoError(t, err, "tx_hash %q", h)
	require.Len(t, b, 32, "tx_hash %q", h)
	return common.HexToHash(h)
}

// rpcCall is one raw JSON-RPC call to a node.
func rpcCall(t testing.TB, url, method string, params []any, out any) {
	t.Helper()
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
	defer cancel()
	res, err := rpcPost(ctx, url, body)
	require.NoError(t, err, "%s %s", method, url)
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(res, &r), "%s: %s", method, res)
	require.Nil(t, r.Error, "%s: %s", method, res)
	require.NoError(t, json.Unmarshal(r.Result, out), "%s: %s", method, res)
}

// rpcPost posts one JSON-RPC body and returns the response body.
func rpcPost(ctx context.Context, url string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != 200 {
		return nil, fmt.Errorf("HTTP %d: %s", res.StatusCode, b)
	}
	return b, nil
}

// receiptBlock returns the block a mined transaction is in and requires
// it succeeded.
func receiptBlock(t testing.TB, url string, tx common.Hash) uint64 {
	t.Helper()
	var r *struct {
		BlockNumber hexutil.Uint64 `json:"blockNumber"`
		Status      hexutil.Uint64 `json:"status"`
	}
	rpcCall(t, url, "eth_getTransactionReceipt", []any{tx.Hex()}, &r)
	require.NotNil(t, r, "no receipt for %s: the faucet answered before it was mined", tx)
	require.Equal(t, hexutil.Uint64(1), r.Status, "tx %s reverted", tx)
	return uint64(r.BlockNumber)
}

// tokenBalance reads balanceOf(owner) with eth_call at the latest block.
func tokenBalance(t testing.TB, url string, token, owner common.Address) *big.Int {
	t.Helper()
	data := append(hexutil.MustDecode("0x70a08231"), common.LeftPadBytes(owner.Bytes(), 32)...)
	var out hexutil.Bytes
	rpcCall(t, url, "eth_call", []any{map[string]string{"to": token.Hex(), "data": hexutil.Encode(data)}, "latest"}, &out)
	require.Len(t, out, 32, "balanceOf(%s) on %s", owner, token)
	return new(big.Int).SetBytes(out)
}

// erc20Transfer self-broadcasts transfer(to, amount) from k with ethers
// and waits for its receipt; it returns the block it was mined in.
func erc20Transfer(t testing.TB, rpcURL string, chainID uint64, k ethKey, token, to common.Address, amount *big.Int) (common.Hash, uint64) {
	t.Helper()
	var out struct {
		TxHash      string `json:"tx_hash"`
		BlockNumber uint64 `json:"block_number"`
		Status      int    `json:"status"`
		From        string `json:"from"`
	}
	runNode(t, "erc20.mjs", map[string]any{"op": "transfer", "rpc": rpcURL, "chain_id": chainID, "key": k.Hex,
		"token": token.Hex(), "to": to.Hex(), "amount": amount.String()}, &out)
	require.Equal(t, 1, out.Status, "transfer %s reverted", out.TxHash)
	require.Equal(t, k.Address.Hex(), out.From)
	return common.HexToHash(out.TxHash), out.BlockNumber
}

// ethersBalance reads balanceOf(owner) through ethers.
func ethersBalance(t testing.TB, rpcURL string, chainID uint64, token, owner common.Address) *big.Int {
	t.Helper()
	var out struct {
		Balance string `json:"balance"`
	}
	runNode(t, "erc20.mjs", map[string]any{"op": "balance", "rpc": rpcURL, "chain_id": chainID,
		"token": token.Hex(), "address": owner.Hex()}, &out)
	b, ok := new(big.Int).SetString(out.Balance, 10)
	require.True(t, ok, "balance %q", out.Balance)
	return b
}

// units is n whole tokens of 6 decimals in base units.
func units(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1_000_000)) }

// TestWalletsSIWEWithEthers links wallets by SIWE with signatures made by
// ethers v6 (EIP-191 personal_sign), and walks the primary rules.
func TestWalletsSIWEWithEthers(t *testing.T) {
	t.Parallel()
	jsDir(t)
	srv := startServer(t, t.TempDir())
	acct := srv.createAccount(t, "siwe with ethers")
	key := srv.createKey(t, acct, "read,wallets")
	c := srv.client(t, key)
	_, chainID := getCurrencies(t, c)
	h := getHealth(t, srv)
	require.Equal(t, h.Chain.ChainID, chainID, "/health and /currencies name the same chain")

	require.Empty(t, listWallets(t, c))

	// The first wallet is primary, with no label.
	a := newEthKey(t)
	chA := requestChallenge(t, srv, c, a.Address, chainID)
	sigA := signSIWE(t, a, chA.Message)
	resp := postWallet(t, c, chA.Message, sigA)
	requireStatus(t, resp, 201)
	wa := requireWalletShape(t, resp.Body, a.Address)
	require.True(t, wa.Primary, "the first wallet is primary")
	require.Nil(t, wa.Label)

	ws := listWallets(t, c)
	require.Len(t, ws, 1)
	require.Equal(t, wa, ws[0], "GET /wallets shows the wallet as created")

	var acctView struct {
		ID      string       `json:"id"`
		Wallets []walletView `json:"wallets"`
	}
	require.NoError(t, json.Unmarshal(getOK(t, c, basePath+"/account"), &acctView))
	require.Equal(t, acct, acctView.ID)
	require.Len(t, acctView.Wallets, 1)
	require.Equal(t, a.Address.Hex(), acctView.Wallets[0].Address)
	require.True(t, acctView.Wallets[0].Primary)

	// The nonce is single-use: the same message and signature again.
	requireError(t, postWallet(t, c, chA.Message, sigA), 400, "invalid_request")

	// A challenge for one address signed by another wallet.
	b := newEthKey(t)
	chB := requestChallenge(t, srv, c, b.Address, chainID)
	other := newEthKey(t)
	requireError(t, postWallet(t, c, chB.Message, signSIWE(t, other, chB.Message)), 400, "invalid_signature")
	require.Len(t, listWallets(t, c), 1, "refused registrations link nothing")

	// A second wallet is not primary.
	wb := registerWallet(t, srv, c, b, chainID)
	require.False(t, wb.Primary, "a second wallet is not primary")
	require.Nil(t, wb.Label)
	m := walletMap(listWallets(t, c))
	require.Len(t, m, 2)
	require.True(t, m[a.Address.Hex()].Primary)
	require.False(t, m[b.Address.Hex()].Primary)

	// Moving the primary mark demotes the old primary.
	resp = call(t, c, "PATCH", basePath+"/wallets/"+b.Address.Hex(), `{"primary":true}`, nil)
	requireStatus(t, resp, 200)
	wb = requireWalletShape(t, resp.Body, b.Address)
	require.True(t, wb.Primary)
	m = walletMap(listWallets(t, c))
	require.True(t, m[b.Address.Hex()].Primary, "PATCH primary moved the mark")
	require.False(t, m[a.Address.Hex()].Primary, "the old primary was demoted")

	// The primary cannot go while another wallet remains.
	requireError(t, call(t, c, "DELETE", basePath+"/wallets/"+b.Address.Hex(), "", nil), 409, "invalid_state")

	// The non-primary can.
	resp = call(t, c, "DELETE", basePath+"/wallets/"+a.Address.Hex(), "", nil)
	requireStatus(t, resp, 200)
	require.JSONEq(t, fmt.Sprintf(`{"id":%q,"deleted":true}`, a.Address.Hex()), string(resp.Body))
	ws = listWallets(t, c)
	require.Len(t, ws, 1)
	require.Equal(t, b.Address.Hex(), ws[0].Address)
	require.True(t, ws[0].Primary)
}

// TestFaucetBalancesAndKill9 funds a linked wallet from the faucet, has
// it self-broadcast an ERC-20 transfer with ethers over the embedded
// chain's JSON-RPC, reads the balances through the API, then kills the
// service with SIGKILL and requires the chain, the balances and the
// wallets to be there after the restart.
func TestFaucetBalancesAndKill9(t *testing.T) {
	t.Parallel()
	jsDir(t)
	dataDir := t.TempDir()
	srv := startServer(t, dataDir)
	rpcURL := srv.chainRPC(t)
	acct := srv.createAccount(t, "faucet and kill -9")
	key := srv.createKey(t, acct, "read,wallets")
	c := srv.client(t, key)
	curs, chainID := getCurrencies(t, c)
	usdc := common.HexToAddress(curs["USDC"].Address)
	h0 := getHealth(t, srv)
	require.Equal(t, chainID, h0.Chain.ChainID)
	var rpcChainID hexutil.Uint64
	rpcCall(t, rpcURL, "eth_chainId", nil, &rpcChainID)
	require.Equal(t, chainID, uint64(rpcChainID), "the chain RPC serves the API's chain")

	a := newEthKey(t)
	registerWallet(t, srv, c, a, chainID)
	A := a.Address.Hex()

	// Faucet: gas and 1000 USDC, answered once mined.
	mint := srv.faucet(t, a.Address, "USDC", "1000")
	mintBlock := receiptBlock(t, rpcURL, mint)
	var gas hexutil.Big
	rpcCall(t, rpcURL, "eth_getBalance", []any{A, "latest"}, &gas)
	require.Positive(t, gas.ToInt().Sign(), "the faucet sent gas")

	bal := getBalances(t, c)
	require.GreaterOrEqual(t, bal.BlockNumber, mintBlock, "balances read at or after the faucet's block")
	requireBalances(t, bal, map[string]map[string]string{
		"USDC": {"total": "1000", A: "1000"},
		"USDT": {"total": "0", A: "0"},
		"EURC": {"total": "0", A: "0"},
	})

	// The wallet self-broadcasts 250 USDC with ethers.
	to := newEthKey(t).Address
	_, sentBlock := erc20Transfer(t, rpcURL, chainID, a, usdc, to, units(250))
	require.GreaterOrEqual(t, sentBlock, mintBlock)
	bal = getBalances(t, c)
	require.GreaterOrEqual(t, bal.BlockNumber, sentBlock)
	requireBalances(t, bal, map[string]map[string]string{
		"USDC": {"total": "750", A: "750"},
		"USDT": {"total": "0", A: "0"},
		"EURC": {"total": "0", A: "0"},
	})
	require.Equal(t, 0, ethersBalance(t, rpcURL, chainID, usdc, to).Cmp(units(250)))
	h1 := getHealth(t, srv)
	require.GreaterOrEqual(t, h1.Chain.Head, sentBlock, "/health chain.head")

	// kill -9, restart on the same data dir.
	headBefore := getHealth(t, srv).Chain.Head
	srv.Kill()
	srv2 := startServer(t, dataDir)
	rpc2 := srv2.chainRPC(t)
	c2 := srv2.client(t, key)

	h2 := getHealth(t, srv2)
	require.Equal(t, chainID, h2.Chain.ChainID, "the same chain id after kill -9")
	require.GreaterOrEqual(t, h2.Chain.Head, headBefore, "the chain continues after kill -9")
	curs2, chainID2 := getCurrencies(t, c2)
	require.Equal(t, chainID, chainID2)
	require.Equal(t, curs, curs2, "the same token addresses after kill -9")

	requireBalances(t, getBalances(t, c2), map[string]map[string]string{
		"USDC": {"total": "750", A: "750"},
		"USDT": {"total": "0", A: "0"},
		"EURC": {"total": "0", A: "0"},
	})
	require.Equal(t, 0, tokenBalance(t, rpc2, usdc, to).Cmp(units(250)), "the recipient keeps 250 USDC (eth_call)")
	require.Equal(t, 0, ethersBalance(t, rpc2, chainID, usdc, to).Cmp(units(250)), "the recipient keeps 250 USDC (ethers)")
	require.Equal(t, mintBlock, receiptBlock(t, rpc2, mint), "the faucet's tx is still in its block")

	ws := listWallets(t, c2)
	require.Len(t, ws, 1)
	require.Equal(t, A, ws[0].Address)
	require.True(t, ws[0].Primary)
}

// TestWalletsSIWEUsesPublicURL: with --public-url the challenge names the
// service as the operator declared it, not the Host header the caller sent
// (which no signature covers), and ethers' signature of it registers.
func TestWalletsSIWEUsesPublicURL(t *testing.T) {
	t.Parallel()
	jsDir(t)
	const public = "https://pay.example.test/public/v1"
	srv := startServer(t, t.TempDir(), "--public-url", public)
	c := srv.client(t, srv.createKey(t, srv.createAccount(t, "siwe public url"), "read,wallets"))
	_, chainID := getCurrencies(t, c)
	k := newEthKey(t)
	resp := call(t, c, "POST", basePath+"/wallets/challenge", fmt.Sprintf(`{"address":%q}`, k.Address.Hex()), nil)
	requireStatus(t, resp, 200)
	var ch challenge
	require.NoError(t, json.Unmarshal(resp.Body, &ch))
	lines := strings.Split(ch.Message, "\n")
	require.Equal(t, "pay.example.test wants you to sign in with your Ethereum account:", lines[0], "the request's Host was %s", srv.Addr)
	require.Contains(t, lines, "URI: "+public)
	require.Contains(t, lines, fmt.Sprintf("Chain ID: %d", chainID))
	requireStatus(t, postWallet(t, c, ch.Message, signSIWE(t, k, ch.Message)), 201)
	require.Len(t, listWallets(t, c), 1)
}
