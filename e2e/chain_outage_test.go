//go:build linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"net"
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
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/internal/logsink"
)

// Chain outages (issue 15): while the chain does not answer, a request that
// needs it is 503 unavailable with Retry-After, answered by the chain's
// request deadline rather than the request timeout; reads served from memory
// and writes that need no chain go on; and every record left waiting on the
// chain when it went away (an amm order relayed, a transfer submitted before
// its tx was mined, a paid link to forward) finishes once it is back, each
// exactly once.
//
// The outages: anvil frozen with SIGSTOP (the node's socket accepts, nothing
// answers: calls hang) and anvil stopped and started again on the same port
// from its state file (connections refused; pending transactions may be
// lost), for --chain rpc; the embedded chain's RPC stalled by the
// chain-stall-file fault (faultinject build), for --chain embedded.

// outageWait bounds how long a waiting record may take to finish after the
// chain is back (a deadline, not an expectation).
const outageWait = 60 * time.Second

// TestChainOutageRPCAnvil runs both anvil outages, one after the other, on
// one service in rpc mode.
func TestChainOutageRPCAnvil(t *testing.T) {
	t.Parallel()
	jsDir(t)
	const chainID = 31337
	an := startStatefulAnvil(t, chainID)
	keys := t.TempDir()
	deployerFile := writeKeyFile(t, keys, "deployer.key", anvilKey0)
	relayerFile := writeKeyFile(t, keys, "relayer.key", anvilKey1)
	contractsFile := filepath.Join(keys, "contracts.json")
	cliJSON(t, "chain", "deploy", "--rpc-url", an.URL, "--deployer-key-file", deployerFile, "--out", contractsFile)
	var contracts struct{ Permit2 common.Address }
	b, err := os.ReadFile(contractsFile)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &contracts))

	srv := startServer(t, t.TempDir(), "--chain", "rpc", "--rpc-url", an.URL, "--contracts", contractsFile,
		"--relayer-key-file", relayerFile, "--faucet-key-file", deployerFile)
	rig := newOutageRig(t, srv, contracts.Permit2)

	// Mining is paused before the order is submitted, so its relay (and
	// the link's forward) are pending when anvil goes away: the freeze
	// holds them; the restart loses them (anvil 1.7.1's state file keeps
	// the chain, blocks and hashes included, not its pool), and the
	// relayer must send them again on the nonces they freed.
	t.Run("sigstop", func(t *testing.T) {
		rig.round(t, outage{
			pause: an.pauseMining,
			begin: func() { an.signal(t, syscall.SIGSTOP) },
			end:   func() { an.signal(t, syscall.SIGCONT); an.resumeMining(t) },
		})
	})
	t.Run("restart", func(t *testing.T) {
		rig.round(t, outage{pause: an.pauseMining, begin: func() { an.stop(t) }, end: func() { an.start(t) }})
	})
}

// TestChainOutageEmbeddedStall stalls the embedded chain (its JSON-RPC
// listener, the service's own client and the sealing of blocks) while a
// file exists.
func TestChainOutageEmbeddedStall(t *testing.T) {
	t.Parallel()
	jsDir(t)
	stall := filepath.Join(t.TempDir(), "stall")
	srv := startFaultServer(t, t.TempDir(), "chain-stall-file="+stall)
	rig := newOutageRig(t, srv, canonicalPermit2)
	rig.round(t, outage{
		begin: func() {
			require.NoError(t, os.WriteFile(stall, nil, 0o600))
			awaitNoAnswer(t, rig.tr.rpc)
		},
		end: func() { require.NoError(t, os.Remove(stall)) },
	})
}

// awaitNoAnswer waits until the node at url stops answering (the stall
// file is looked at every 100 ms, not at once).
func awaitNoAnswer(t *testing.T, url string) {
	t.Helper()
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`)
	deadline := time.Now().Add(startDeadline)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		_, err := rpcPost(ctx, url, body)
		cancel()
		if err != nil {
			return
		}
		require.True(t, time.Now().Before(deadline), "the chain at %s still answers", url)
	}
}

// outageRig is one service and one account trading and paying from one
// wallet, which is also its links' payout wallet.
type outageRig struct {
	srv *server
	tr  *fxTrader
}

func newOutageRig(t *testing.T, srv *server, permit2 common.Address) *outageRig {
	t.Helper()
	acct := srv.createAccount(t, "outage")
	key := srv.createKey(t, acct, "read,trade,pay,wallets")
	c := srv.client(t, key)
	curs, chainID := getCurrencies(t, c)
	tr := &fxTrader{srv: srv, c: c, key: key, wallet: newEthKey(t), rpc: srv.chainRPC(t), chainID: chainID,
		tokens: map[string]common.Address{}, permit2: permit2}
	for sym, cur := range curs {
		tr.tokens[sym] = common.HexToAddress(cur.Address)
	}
	registerWallet(t, srv, c, tr.wallet, chainID)
	srv.faucet(t, tr.wallet.Address, "USDC", "1000")
	tr.approvePermit2(t, "USDC")
	return &outageRig{srv: srv, tr: tr}
}

// outage is one way for the chain to go away and come back. pause, if
// set, stops the chain mining before the order is submitted, so that the
// round waits for the relayer's transactions to be pending when it begins.
type outage struct {
	pause      func(t testing.TB)
	begin, end func()
}

// round leaves records waiting, begins the outage, checks the answers
// during it, ends it (also when a check failed, so the chain is back for
// what follows) and checks that the records finish.
func (r *outageRig) round(t *testing.T, o outage) {
	t.Helper()
	w := r.leaveWaiting(t, o.pause)
	o.begin()
	ended := false
	defer func() {
		if !ended {
			o.end()
		}
	}()
	r.duringOutage(t, w)
	ended = true
	o.end()
	r.afterOutage(t, w)
}

// waiting is what an outage interrupts: its records and the balances
// before them.
type waiting struct {
	order        orderView
	transfer     transferView
	submitted    replayable // the transfer's submit, under an Idempotency-Key
	raw          string     // the transfer's signed tx, broadcast after the outage
	payee        common.Address
	link         linkView
	usdc0, eurc0 *big.Int
	relayerNonce uint64
}

// Amounts of one round (USDC, 6 decimals).
const (
	outageSwap     = "10"
	outageTransfer = "5"
	outageLink     = "7"
)

// leaveWaiting pays a link, submits a signed amm order (its relay starts at
// once) and submits a transfer's tx hash before the tx exists, so that each
// has chain work left when the outage begins.
func (r *outageRig) leaveWaiting(t *testing.T, pause func(testing.TB)) waiting {
	t.Helper()
	tr := r.tr
	w := waiting{usdc0: tr.balance(t, "USDC"), eurc0: tr.balance(t, "EURC"), relayerNonce: r.relayerNonce(t), payee: newEthKey(t).Address}

	w.link = tr.createLink(t, fmt.Sprintf(`{"currency":"USDC","amount":%q}`, outageLink))
	payer := newEthKey(t)
	r.srv.faucet(t, payer.Address, "USDC", outageLink)
	erc20Transfer(t, tr.rpc, tr.chainID, payer, tr.tokens["USDC"], common.HexToAddress(w.link.ReceiveAddress), baseUnits(t, outageLink))
	if pause != nil {
		pause(t)
	}

	resp, tv := tr.createTransfer(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":%q,"recipient":%q}`,
		outageTransfer, w.payee.Hex()), nil)
	require.Equal(t, 201, resp.Status, "%s", resp.Body)
	var signed struct {
		TxHash string `json:"tx_hash"`
		Raw    string `json:"raw"`
	}
	runNode(t, "pay.mjs", map[string]any{"op": "sign_tx", "rpc": tr.rpc, "chain_id": tr.chainID, "key": tr.wallet.Hex,
		"tx": signingTx(t, tv.Signing)}, &signed)
	w.raw = signed.Raw
	w.submitted = replayable{target: basePath + "/transfers/" + tv.ID + "/submit", body: fmt.Sprintf(`{"tx_hash":%q}`, signed.TxHash),
		key: "outage-submit-" + tv.ID}
	sub := w.submitted.send(t, tr.c)
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	w.submitted.answer = sub.Body
	decodeStrictJSON(t, sub.Body, &w.transfer)
	require.Equal(t, "submitted", w.transfer.State)

	q := tr.quote(t, "USDC", "EURC", outageSwap).pick(t, "amm")
	resp, w.order = tr.accept(t, q.ID, "")
	require.Equal(t, 200, resp.Status, "%s", resp.Body)
	sub = tr.submit(t, w.order.OrderID, fmt.Sprintf(`{"signature":%q}`, tr.signTyped(t, w.order.Signing)))
	require.Equal(t, 200, sub.Status, "%s", sub.Body)
	if pause != nil {
		// The link's forward and the order's relay are sent, not mined.
		awaitState(t, r.srv, "relayer pending nonce", "sent", outageWait, func() uint64 { return r.relayerNonce(t) },
			func(n uint64) string {
				if n >= w.relayerNonce+2 {
					return "sent"
				}
				return strconv.FormatUint(n, 10)
			})
	}
	return w
}

// duringOutage: what needs the chain is 503 unavailable with Retry-After,
// refused for the chain's sake (not the request timeout); reads and
// chain-free writes are answered.
func (r *outageRig) duringOutage(t *testing.T, w waiting) {
	t.Helper()
	tr := r.tr
	q := tr.quote(t, "USDC", "EURC", "3").pick(t, "amm") // priced from memory
	chainNeeded := map[string]func() *client.Response{
		"accept": func() *client.Response { return call(t, tr.c, "POST", basePath+"/fx/quotes/"+q.ID+"/accept", "", nil) },
		"create link": func() *client.Response {
			return call(t, tr.c, "POST", basePath+"/payment-links", `{"currency":"USDC","amount":"1"}`, nil)
		},
		"balances":           func() *client.Response { return call(t, tr.c, "GET", basePath+"/balances", "", nil) },
		"submit transfer tx": func() *client.Response { return r.submitStrangerTx(t) },
	}
	for what, send := range chainNeeded {
		resp := send()
		if assert.Equal(t, 503, resp.Status, "%s during the outage: %s", what, resp.Body) {
			assert.Equal(t, "unavailable", errorCode(t, resp.Body), what)
			assert.Equal(t, "1", resp.Header.Get("Retry-After"), "%s: Retry-After", what)
			assert.Contains(t, errorMessage(t, resp.Body), "chain", "%s: refused for the chain's sake: %s", what, resp.Body)
		}
	}
	for _, target := range []string{"/account", "/fx/orders/" + w.order.OrderID, "/transfers/" + w.transfer.ID,
		"/payment-links/" + w.link.ID, "/transactions", "/currencies", "/contacts"} {
		resp := call(t, tr.c, "GET", basePath+target, "", nil)
		assert.Equal(t, 200, resp.Status, "GET %s during the outage: %s", target, resp.Body)
	}
	h := callPublic(t, r.srv.unsigned(t), "GET", basePath+"/health")
	if assert.Equal(t, 200, h.Status, "GET /health during the outage: %s", h.Body) {
		var hv healthView
		require.NoError(t, json.Unmarshal(h.Body, &hv))
		assert.Equal(t, "ok", hv.Status)
		if assert.NotNil(t, hv.Chain, "/health names the chain: %s", h.Body) {
			assert.Equal(t, tr.chainID, hv.Chain.ChainID)
		}
	}
	// A replay is its stored answer, chain or not (the desk's look-up of
	// the tx is for a first submit); another body under the key is 422.
	again := w.submitted.send(t, tr.c)
	if assert.Equal(t, 200, again.Status, "the submit replayed during the outage: %s", again.Body) {
		assert.Equal(t, "true", again.Header.Get("Idempotency-Replayed"))
		assert.Equal(t, string(w.submitted.answer), string(again.Body), "byte for byte")
	}
	other := call(t, tr.c, "POST", w.submitted.target, fmt.Sprintf(`{"tx_hash":%q}`, common.BytesToHash(randomBytes(32)).Hex()),
		map[string]string{"Idempotency-Key": w.submitted.key})
	assert.Equal(t, 422, other.Status, "another body under the key during the outage: %s", other.Body)
	contact := call(t, tr.c, "POST", basePath+"/contacts", string(contactBody("during the outage", randomAddress())), nil)
	assert.Equal(t, 201, contact.Status, "POST /contacts during the outage: %s", contact.Body)
	created, _ := tr.createTransfer(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":"1","recipient":%q}`, randomAddress()), nil)
	assert.Equal(t, 201, created.Status, "POST /transfers during the outage: %s", created.Body)
}

// replayable is a write sent under its own Idempotency-Key, and the
// answer it got.
type replayable struct {
	target, body, key string
	answer            []byte
}

func (r replayable) send(t *testing.T, c *client.Client) *client.Response {
	t.Helper()
	return call(t, c, "POST", r.target, r.body, map[string]string{"Idempotency-Key": r.key})
}

// submitStrangerTx submits, for a fresh transfer, the hash of a tx the
// chain must be asked about.
func (r *outageRig) submitStrangerTx(t *testing.T) *client.Response {
	t.Helper()
	resp, tv := r.tr.createTransfer(t, fmt.Sprintf(`{"from_currency":"USDC","currency":"USDC","amount":"1","recipient":%q}`, randomAddress()), nil)
	if resp.Status != 201 {
		return resp // reported by the caller
	}
	return r.tr.submitTransfer(t, tv.ID, fmt.Sprintf(`{"tx_hash":%q}`, common.BytesToHash(randomBytes(32)).Hex()))
}

// afterOutage: each waiting record reaches its end state once, and the
// chain holds exactly what they moved.
func (r *outageRig) afterOutage(t *testing.T, w waiting) {
	t.Helper()
	tr := r.tr
	done := tr.await(t, w.order.OrderID, "settled", outageWait)
	paid := tr.awaitLink(t, w.link.ID, "paid", outageWait)
	require.Equal(t, outageLink, paid.AmountReceived, "the payment counted once")
	require.Len(t, paid.TxHashes, 1)

	var sent struct {
		TxHash string `json:"tx_hash"`
		Status int    `json:"status"`
	}
	runNode(t, "pay.mjs", map[string]any{"op": "send_raw", "rpc": tr.rpc, "chain_id": tr.chainID, "raw": w.raw}, &sent)
	require.Equal(t, 1, sent.Status)
	tr.awaitTransfer(t, w.transfer.ID, "confirmed", outageWait)
	require.Equal(t, baseUnits(t, outageTransfer), ethersBalance(t, tr.rpc, tr.chainID, tr.tokens["USDC"], w.payee), "the payee holds exactly the amount")

	// The wallet paid the swap and the transfer once and got the link's
	// money once (forwarded); the swap paid out once.
	wantUSDC := new(big.Int).Sub(w.usdc0, baseUnits(t, outageSwap))
	wantUSDC.Sub(wantUSDC, baseUnits(t, outageTransfer))
	wantUSDC.Add(wantUSDC, baseUnits(t, outageLink))
	tr.awaitBalance(t, tr.tokens["USDC"], tr.wallet.Address, wantUSDC, outageWait)
	require.Equal(t, new(big.Int).Add(w.eurc0, baseUnits(t, done.AmountOut)), tr.balance(t, "EURC"))
	// One relay of the order and one forward of the link: the relayer's
	// nonce moved by exactly two (a second relay, even a reverted one,
	// would show).
	require.Equal(t, w.relayerNonce+2, r.relayerNonce(t), "relayer transactions for one order and one link")
}

// relayerNonce is the relayer's pending nonce (fxd_relayer_pending_nonce).
func (r *outageRig) relayerNonce(t *testing.T) uint64 {
	t.Helper()
	v, ok := r.srv.metrics(t)["fxd_relayer_pending_nonce"]
	require.True(t, ok, "no fxd_relayer_pending_nonce in /metrics")
	n, err := strconv.ParseFloat(v, 64)
	require.NoError(t, err)
	return uint64(n)
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
	return b
}

// statefulAnvil is an anvil on a fixed port that keeps its chain in a
// state file across a stop and a start.
type statefulAnvil struct {
	URL, port, state string
	chainID          uint64
	cur              *anvilProc
	t                testing.TB
}

// anvilProc is one anvil process.
type anvilProc struct {
	cmd    *exec.Cmd
	out    *logsink.Buffer
	exited chan struct{}
}

// startStatefulAnvil starts anvil on a free loopback port outside the
// ephemeral range (so no outgoing connection takes it while anvil is
// down), with --state: it loads the file at start and writes it at exit.
func startStatefulAnvil(t *testing.T, chainID uint64) *statefulAnvil {
	t.Helper()
	a := &statefulAnvil{chainID: chainID, state: filepath.Join(t.TempDir(), "anvil-state.json"), t: t}
	for a.port == "" {
		p := strconv.Itoa(20000 + rand.IntN(12000))
		if ln, err := net.Listen("tcp", "127.0.0.1:"+p); err == nil {
			ln.Close()
			a.port = p
		}
	}
	a.URL = "http://127.0.0.1:" + a.port
	t.Cleanup(func() {
		if a.cur != nil {
			a.cur.kill()
			if t.Failed() {
				t.Logf("anvil output, last 8 KiB:\n%s", tail(a.cur.out.String(), 8<<10))
			}
		}
	})
	a.start(t)
	return a
}

// start runs anvil and waits until it answers.
func (a *statefulAnvil) start(t testing.TB) {
	t.Helper()
	p := &anvilProc{out: &logsink.Buffer{}, exited: make(chan struct{})}
	p.cmd = exec.Command(anvilBin(t), "--host", "127.0.0.1", "--port", a.port, "--chain-id", strconv.FormatUint(a.chainID, 10),
		"--block-time", "1", "--accounts", "4", "--state", a.state)
	p.cmd.Env = cleanEnv()
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	require.NoError(t, p.cmd.Start(), "start anvil")
	go func() {
		_ = p.cmd.Wait()
		close(p.exited)
	}()
	a.cur = p
	deadline := time.Now().Add(startDeadline)
	for {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []any{}})
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		res, err := rpcPost(ctx, a.URL, body)
		cancel()
		if err == nil && strings.Contains(string(res), hexutil.EncodeUint64(a.chainID)) {
			return
		}
		select {
		case <-p.exited:
			t.Fatalf("anvil exited before it answered:\n%s", p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("anvil did not answer within %v:\n%s", startDeadline, p.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends anvil with SIGTERM, on which it writes its state file.
func (a *statefulAnvil) stop(t testing.TB) {
	t.Helper()
	require.NoError(t, a.cur.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-a.cur.exited:
	case <-time.After(stopDeadline):
		t.Fatalf("anvil did not exit within %v of SIGTERM", stopDeadline)
	}
	fi, err := os.Stat(a.state)
	require.NoError(t, err, "anvil wrote no state file")
	require.Positive(t, fi.Size())
}

// pauseMining stops interval mining: transactions stay pending.
func (a *statefulAnvil) pauseMining(t testing.TB) {
	t.Helper()
	var out any
	rpcCall(t, a.URL, "evm_setIntervalMining", []any{0}, &out)
}

// resumeMining mines a block every second again.
func (a *statefulAnvil) resumeMining(t testing.TB) {
	t.Helper()
	var out any
	rpcCall(t, a.URL, "evm_setIntervalMining", []any{1}, &out)
}

// signal sends sig to anvil (SIGSTOP freezes it, SIGCONT thaws it).
func (a *statefulAnvil) signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	require.NoError(t, a.cur.cmd.Process.Signal(sig))
}

// kill ends the process group with SIGKILL (a stopped process too).
func (p *anvilProc) kill() { killGroup(p.cmd, p.exited) }
