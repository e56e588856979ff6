//go:build linux

package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/internal/logsink"
)

// The well-known anvil dev keys (mnemonic "test test … junk"): #0 deploys
// and owns the tokens (the faucet), #1 is the relayer. Test keys only.
const (
	anvilKey0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
	anvilKey1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
	anvilKey2 = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
	anvilKey3 = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6"
)

// ethKeyAddress is the address of a hex private key.
func ethKeyAddress(t testing.TB, hexKey string) common.Address {
	t.Helper()
	k, err := crypto.HexToECDSA(strings.TrimPrefix(hexKey, "0x"))
	require.NoError(t, err)
	return crypto.PubkeyToAddress(k.PublicKey)
}

// anvilNode is one running anvil.
type anvilNode struct {
	URL     string
	ChainID uint64
	cmd     *exec.Cmd
	out     *logsink.Buffer
	exited  chan struct{}
}

// anvilBin finds the anvil binary that the npm package
// @foundry-rs/anvil-linux-amd64 ships in e2e/js/node_modules.
func anvilBin(t testing.TB) string {
	t.Helper()
	pkg := filepath.Join(jsDir(t), "node_modules", "@foundry-rs", "anvil-linux-amd64")
	if p := filepath.Join(pkg, "bin", "anvil"); isExecutable(p) {
		return p
	}
	// Not where 1.7.1 keeps it: look anywhere in the package.
	var found string
	_ = filepath.WalkDir(pkg, func(p string, d fs.DirEntry, err error) error {
		if err == nil && found == "" && !d.IsDir() && d.Name() == "anvil" && isExecutable(p) {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("no anvil executable in %s", pkg)
	}
	return found
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// startAnvil runs anvil on a free loopback port with the chain id, sealing
// a block every second. It is killed (its whole process group) when the
// test ends, and dies with the test binary if that is killed first.
func startAnvil(t testing.TB, chainID uint64) *anvilNode {
	t.Helper()
	bin := anvilBin(t)
	n := &anvilNode{ChainID: chainID, out: &logsink.Buffer{}, exited: make(chan struct{})}
	lines := make(chan string, 1024)
	n.cmd = exec.Command(bin, "--host", "127.0.0.1", "--port", "0", "--chain-id", strconv.FormatUint(chainID, 10),
		"--block-time", "1", "--accounts", "4")
	n.cmd.Env = cleanEnv()
	n.cmd.Dir = t.TempDir()
	w := &lineWriter{lines: lines, copy: n.out}
	n.cmd.Stdout, n.cmd.Stderr = w, w
	n.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	require.NoError(t, n.cmd.Start(), "start anvil")
	go func() {
		_ = n.cmd.Wait()
		close(n.exited)
	}()
	t.Cleanup(func() {
		n.kill()
		if t.Failed() {
			t.Logf("anvil (pid %d) output, last 8 KiB:\n%s", n.cmd.Process.Pid, tail(n.out.String(), 8<<10))
		}
	})
	timer := time.NewTimer(startDeadline)
	defer timer.Stop()
	for n.URL == "" {
		select {
		case line := <-lines:
			if addr, ok := strings.CutPrefix(strings.TrimSpace(line), "Listening on "); ok {
				n.URL = "http://" + addr
			}
		case <-n.exited:
			t.Fatalf("anvil exited before it listened:\n%s", n.out.String())
		case <-timer.C:
			t.Fatalf("anvil did not listen within %v:\n%s", startDeadline, n.out.String())
		}
	}
	var id hexutil.Uint64
	rpcCall(t, n.URL, "eth_chainId", nil, &id)
	require.Equal(t, chainID, uint64(id), "anvil's chain id")
	return n
}

// kill ends anvil's process group with SIGKILL and waits for anvil.
func (n *anvilNode) kill() { killGroup(n.cmd, n.exited) }

// killGroup ends cmd's process group with SIGKILL (a stopped process
// too) and waits until exited is closed.
func killGroup(cmd *exec.Cmd, exited <-chan struct{}) {
	select {
	case <-exited:
		return
	default:
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		_ = cmd.Process.Kill()
	}
	select {
	case <-exited:
	case <-time.After(stopDeadline):
		panic("anvil did not die within " + stopDeadline.String() + " of SIGKILL")
	}
}

// writeKeyFile writes a hex private key to a 0600 file.
func writeKeyFile(t testing.TB, dir, name, hexKey string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(hexKey+"\n"), 0o600))
	return p
}

// TestChainRPCModeWithAnvil deploys the contract set to anvil with
// `fxd chain deploy`, runs the service on it with --chain rpc, links a
// wallet by SIWE (ethers), funds it from the faucet (the deployer key),
// moves tokens with ethers on anvil and reads the balances through the API.
func TestChainRPCModeWithAnvil(t *testing.T) {
	t.Parallel()
	const chainID = 31337
	an := startAnvil(t, chainID)
	keys := t.TempDir()
	deployerFile := writeKeyFile(t, keys, "deployer.key", anvilKey0)
	relayerFile := writeKeyFile(t, keys, "relayer.key", anvilKey1)
	contractsFile := filepath.Join(keys, "contracts.json")

	// fxd chain deploy prints the addresses and writes the same to --out.
	printed := cliJSON(t, "chain", "deploy", "--rpc-url", an.URL, "--deployer-key-file", deployerFile, "--out", contractsFile)
	require.ElementsMatch(t, []string{"usdc", "usdt", "eurc", "permit2", "pools", "relay_router", "rfq_escrow", "payment_link_factory"}, sortedKeys(printed),
		"chain deploy printed %v", printed)
	fileBytes, err := os.ReadFile(contractsFile)
	require.NoError(t, err)
	var written map[string]any
	require.NoError(t, json.Unmarshal(fileBytes, &written))
	printedBytes, err := json.Marshal(printed)
	require.NoError(t, err)
	require.JSONEq(t, string(printedBytes), string(fileBytes), "contracts.json is what chain deploy printed")

	var contracts struct {
		USDC, USDT, EURC, Permit2 common.Address
		Pools                     map[string]common.Address
		RelayRouter               common.Address `json:"relay_router"`
		RfqEscrow                 common.Address `json:"rfq_escrow"`
		PaymentLinkFactory        common.Address `json:"payment_link_factory"`
	}
	require.NoError(t, json.Unmarshal(fileBytes, &contracts))
	require.NotEmpty(t, contracts.Pools)
	all := map[string]common.Address{"usdc": contracts.USDC, "usdt": contracts.USDT, "eurc": contracts.EURC,
		"permit2": contracts.Permit2, "relay_router": contracts.RelayRouter, "rfq_escrow": contracts.RfqEscrow,
		"payment_link_factory": contracts.PaymentLinkFactory}
	for pair, a := range contracts.Pools {
		all["pool "+pair] = a
	}
	for name, a := range all {
		require.NotEqual(t, common.Address{}, a, "%s", name)
		var code hexutil.Bytes
		rpcCall(t, an.URL, "eth_getCode", []any{a.Hex(), "latest"}, &code)
		require.NotEmpty(t, code, "no code at %s (%s) on anvil", a, name)
	}

	// fxd serve on anvil.
	srv := startServer(t, t.TempDir(), "--chain", "rpc", "--rpc-url", an.URL, "--contracts", contractsFile,
		"--relayer-key-file", relayerFile, "--faucet-key-file", deployerFile)
	require.Equal(t, an.URL, srv.chainRPC(t), "the service points callers at the node it runs on")
	h := getHealth(t, srv)
	require.Equal(t, uint64(chainID), h.Chain.ChainID, "/health chain.chain_id is anvil's")
	require.Positive(t, h.Chain.Head, "anvil seals a block every second")

	acct := srv.createAccount(t, "rpc mode on anvil")
	key := srv.createKey(t, acct, "read,wallets")
	c := srv.client(t, key)
	curs, curChain := getCurrencies(t, c)
	require.Equal(t, uint64(chainID), curChain)
	require.Equal(t, contracts.USDC, common.HexToAddress(curs["USDC"].Address))
	require.Equal(t, contracts.USDT, common.HexToAddress(curs["USDT"].Address))
	require.Equal(t, contracts.EURC, common.HexToAddress(curs["EURC"].Address))

	// A wallet linked by SIWE, funded from the faucet.
	a := newEthKey(t)
	w := registerWallet(t, srv, c, a, chainID)
	require.True(t, w.Primary)
	A := a.Address.Hex()
	mint := srv.faucet(t, a.Address, "USDC", "1000")
	mintBlock := receiptBlock(t, an.URL, mint)
	var gas hexutil.Big
	rpcCall(t, an.URL, "eth_getBalance", []any{A, "latest"}, &gas)
	require.Positive(t, gas.ToInt().Sign(), "the faucet sent gas on anvil")

	bal := getBalances(t, c)
	require.GreaterOrEqual(t, bal.BlockNumber, mintBlock)
	requireBalances(t, bal, map[string]map[string]string{
		"USDC": {"total": "1000", A: "1000"},
		"USDT": {"total": "0", A: "0"},
		"EURC": {"total": "0", A: "0"},
	})

	// The wallet self-broadcasts on anvil with ethers.
	to := newEthKey(t).Address
	_, sentBlock := erc20Transfer(t, an.URL, chainID, a, contracts.USDC, to, units(250))
	bal = getBalances(t, c)
	require.GreaterOrEqual(t, bal.BlockNumber, sentBlock)
	requireBalances(t, bal, map[string]map[string]string{
		"USDC": {"total": "750", A: "750"},
		"USDT": {"total": "0", A: "0"},
		"EURC": {"total": "0", A: "0"},
	})
	require.Equal(t, 0, tokenBalance(t, an.URL, contracts.USDC, to).Cmp(units(250)))

	// FX on anvil: the AMM rail, signed with ethers and relayed by the
	// service's gas-only key; an rpc chain has no embedded makers.
	fk := srv.createKey(t, acct, "read,trade")
	tr := &fxTrader{srv: srv, c: srv.client(t, fk), key: fk, wallet: a, rpc: an.URL, chainID: chainID,
		tokens:  map[string]common.Address{"USDC": contracts.USDC, "USDT": contracts.USDT, "EURC": contracts.EURC},
		permit2: contracts.Permit2}
	tr.approvePermit2(t, "USDC")
	q := tr.quote(t, "USDC", "EURC", "100")
	require.Len(t, q.Quotes, 1, "only the AMM quotes on an rpc chain: %+v", q)
	resp, o := tr.accept(t, q.BestQuoteID, "")
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	eurc0 := tr.balance(t, "EURC")
	require.Equal(t, 200, tr.submit(t, o.OrderID, fmt.Sprintf(`{"signature":%q}`, tr.signTyped(t, o.Signing))).Status)
	done := tr.await(t, o.OrderID, "settled", 60*time.Second)
	require.Equal(t, 0, tr.balance(t, "USDC").Cmp(units(650)), "exactly 100 USDC left the wallet")
	require.Equal(t, new(big.Int).Add(eurc0, baseUnits(t, done.AmountOut)), tr.balance(t, "EURC"))
}
