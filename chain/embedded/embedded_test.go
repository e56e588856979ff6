package embedded

import (
	"context"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/fxd-labs/fxd/chain"
	"github.com/stretchr/testify/require"
)

var (
	_ chain.Backend        = (*ethclient.Client)(nil)
	_ bind.ContractBackend = chain.Backend(nil)
	_ bind.DeployBackend   = chain.Backend(nil)
)

func TestDevKeysDeterministic(t *testing.T) {
	a, b := DevKey("deployer"), DevKey("deployer")
	require.Equal(t, crypto.FromECDSA(a), crypto.FromECDSA(b))
	require.Equal(t, crypto.Keccak256([]byte("fxd/deployer")), crypto.FromECDSA(a))
	require.NotEqual(t, DevAddress("deployer"), DevAddress("relayer"))
	alloc := DefaultAlloc("deployer", "relayer")
	require.Len(t, alloc, 2)
	require.Equal(t, DevFunding, alloc[DevAddress("relayer")].Balance)
	// Same inputs, same genesis hash; a different alloc or id changes it.
	h1 := Genesis(0, 0, alloc).ToBlock().Hash()
	require.Equal(t, h1, Genesis(DefaultChainID, DefaultGasLimit, DefaultAlloc("deployer", "relayer")).ToBlock().Hash())
	require.NotEqual(t, h1, Genesis(0, 0, DefaultAlloc("deployer")).ToBlock().Hash())
	require.Nil(t, Genesis(0, 0, nil).Config.BogotaTime)
}

// TestInProcess sends transfers and deploys and calls a contract through
// the in-process client.
func TestInProcess(t *testing.T) {
	alloc := DefaultAlloc("deployer", "alice")
	n := startNode(t, Config{DataDir: t.TempDir(), Alloc: alloc})
	c := n.Client()
	ctx := ctxT(t, 30*time.Second)

	id, err := c.ChainID(ctx)
	require.NoError(t, err)
	require.EqualValues(t, DefaultChainID, id.Uint64())
	require.Equal(t, Genesis(0, 0, alloc).ToBlock().Hash(), n.GenesisHash())
	g, err := c.HeaderByNumber(ctx, big.NewInt(0))
	require.NoError(t, err)
	require.Equal(t, n.GenesisHash(), g.Hash())
	require.Empty(t, n.RPCURL())

	// New heads are pushed to in-process subscribers.
	heads := make(chan *types.Header, 16)
	sub, err := c.SubscribeNewHead(ctx, heads)
	require.NoError(t, err)
	defer sub.Unsubscribe()

	// A plain transfer, mined within ~2 s.
	bob := common.HexToAddress("0x000000000000000000000000000000000000b0b0")
	value := big.NewInt(params.Ether)
	sent := time.Now()
	tx := send(t, ctx, c, DefaultChainID, DevKey("alice"), &bob, value, 21000, nil)
	r := waitMined(t, ctx, c, tx.Hash())
	latency := time.Since(sent)
	t.Logf("transfer mined in block %d after %v", r.BlockNumber, latency.Round(time.Millisecond))
	require.EqualValues(t, 1, r.Status)
	require.Less(t, latency, 2500*time.Millisecond)
	// Not faster than the gather window either (see gatherWindow: ethers
	// caches the nonce lookup for 250 ms).
	require.GreaterOrEqual(t, latency, 250*time.Millisecond)
	bal, err := c.BalanceAt(ctx, bob, nil)
	require.NoError(t, err)
	require.Equal(t, value, bal)
	select {
	case h := <-heads:
		require.LessOrEqual(t, h.Number.Uint64(), r.BlockNumber.Uint64())
	case <-time.After(3 * time.Second):
		t.Fatal("no new head pushed")
	}

	// Several transfers in a row land in one or two blocks.
	alice := DevKey("alice")
	nonce, err := c.PendingNonceAt(ctx, DevAddress("alice"))
	require.NoError(t, err)
	var last common.Hash
	for i := range 20 {
		tx := signTx(DefaultChainID, alice, nonce+uint64(i), &bob, big.NewInt(1), 21000, nil)
		require.NoError(t, c.SendTransaction(ctx, tx))
		last = tx.Hash()
	}
	r = waitMined(t, ctx, c, last)
	blk, err := c.BlockByNumber(ctx, r.BlockNumber)
	require.NoError(t, err)
	t.Logf("20 transfers: last in block %d with %d txs", r.BlockNumber, len(blk.Transactions()))

	// A contract deployment, a call and a log.
	tx = send(t, ctx, c, DefaultChainID, DevKey("deployer"), nil, nil, 200_000, deployCode(logRuntime))
	r = waitMined(t, ctx, c, tx.Hash())
	require.EqualValues(t, 1, r.Status)
	require.Equal(t, crypto.CreateAddress(DevAddress("deployer"), 0), r.ContractAddress)
	code, err := c.CodeAt(ctx, r.ContractAddress, nil)
	require.NoError(t, err)
	require.Equal(t, logRuntime, code)
	out, err := c.CallContract(ctx, ethereum.CallMsg{To: &r.ContractAddress}, nil)
	require.NoError(t, err)
	require.EqualValues(t, 42, new(big.Int).SetBytes(out).Int64())

	contract := r.ContractAddress
	gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: DevAddress("alice"), To: &contract})
	require.NoError(t, err)
	tx = send(t, ctx, c, DefaultChainID, alice, &contract, nil, gas, nil)
	r = waitMined(t, ctx, c, tx.Hash())
	require.Len(t, r.Logs, 1)
	awaitHead(t, ctx, c, r.BlockNumber.Uint64())
	logs, err := c.FilterLogs(ctx, ethereum.FilterQuery{Addresses: []common.Address{contract}, Topics: [][]common.Hash{{logTopic}}})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	require.Equal(t, tx.Hash(), logs[0].TxHash)
}

// TestHTTP uses the chain as an external tool would: ethclient over HTTP.
func TestHTTP(t *testing.T) {
	n := startNode(t, Config{DataDir: t.TempDir(), RPCListen: "127.0.0.1:0", Alloc: DefaultAlloc("deployer", "alice"), ChainID: 31337})
	require.True(t, strings.HasPrefix(n.RPCURL(), "http://127.0.0.1:"), n.RPCURL())
	ctx := ctxT(t, 30*time.Second)
	c, err := ethclient.DialContext(ctx, n.RPCURL())
	require.NoError(t, err)
	defer c.Close()

	id, err := c.ChainID(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 31337, id.Uint64())
	for _, f := range []func() (*big.Int, error){
		func() (*big.Int, error) { return c.SuggestGasPrice(ctx) },
		func() (*big.Int, error) { return c.SuggestGasTipCap(ctx) },
	} {
		v, err := f()
		require.NoError(t, err)
		require.Positive(t, v.Sign())
	}
	fh, err := c.FeeHistory(ctx, 4, nil, []float64{50})
	require.NoError(t, err)
	require.NotEmpty(t, fh.BaseFee)

	// Deploy and use the log contract over HTTP, with ethers-like fee fields.
	deployer := DevKey("deployer")
	tx := send(t, ctx, c, 31337, deployer, nil, nil, 200_000, deployCode(logRuntime))
	r := waitMined(t, ctx, c, tx.Hash())
	require.EqualValues(t, 1, r.Status)
	contract := r.ContractAddress
	gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: DevAddress("alice"), To: &contract})
	require.NoError(t, err)
	tx = send(t, ctx, c, 31337, DevKey("alice"), &contract, nil, gas, nil)
	r = waitMined(t, ctx, c, tx.Hash())
	awaitHead(t, ctx, c, r.BlockNumber.Uint64())
	logs, err := c.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{contract}})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	nonce, err := c.PendingNonceAt(ctx, DevAddress("alice"))
	require.NoError(t, err)
	require.EqualValues(t, 1, nonce)

	// Raw JSON-RPC: what ethers/cast call, and what must be refused.
	rc, err := rpc.DialContext(ctx, n.RPCURL())
	require.NoError(t, err)
	defer rc.Close()
	var s string
	require.NoError(t, rc.CallContext(ctx, &s, "net_version"))
	require.Equal(t, "31337", s)
	require.NoError(t, rc.CallContext(ctx, &s, "web3_clientVersion"))
	require.NoError(t, rc.CallContext(ctx, &s, "eth_maxPriorityFeePerGas"))
	var status map[string]any
	require.NoError(t, rc.CallContext(ctx, &status, "txpool_status"))
	var blk map[string]any
	require.NoError(t, rc.CallContext(ctx, &blk, "eth_getBlockByNumber", "latest", false))
	require.NoError(t, rc.CallContext(ctx, &s, "eth_getTransactionCount", DevAddress("alice"), "pending"))
	require.Equal(t, "0x1", s)
	var fid string
	require.NoError(t, rc.CallContext(ctx, &fid, "eth_newFilter", map[string]any{"address": contract}))
	var changes []any
	require.NoError(t, rc.CallContext(ctx, &changes, "eth_getFilterChanges", fid))

	for _, m := range []string{
		"admin_nodeInfo", "admin_addPeer", "admin_startHTTP", "debug_setHead", "debug_traceTransaction",
		"debug_chaindbCompact", "miner_setGasLimit", "personal_listAccounts", "dev_setFeeRecipient",
		"engine_forkchoiceUpdatedV3",
	} {
		var res any
		err := rc.CallContext(ctx, &res, m)
		require.Error(t, err, m)
		require.Contains(t, err.Error(), "does not exist", m)
	}
}

// TestRestart closes and reopens the data dir: same chain, same state.
func TestRestart(t *testing.T) {
	dir := t.TempDir()
	alloc := DefaultAlloc("alice")
	logger := common.HexToAddress("0x000000000000000000000000000000000000106e")
	alloc[logger] = types.Account{Code: logRuntime, Balance: new(big.Int)}
	cfg := Config{DataDir: dir, Alloc: alloc}
	n, err := Start(cfg)
	require.NoError(t, err)
	ctx := ctxT(t, 60*time.Second)
	bob := common.HexToAddress("0xb0b")
	logTx := send(t, ctx, n.Client(), DefaultChainID, DevKey("alice"), &logger, nil, 100_000, nil)
	tx := send(t, ctx, n.Client(), DefaultChainID, DevKey("alice"), &bob, big.NewInt(12345), 21000, nil)
	r := waitMined(t, ctx, n.Client(), tx.Hash())
	head, err := n.Client().HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	genesis := n.GenesisHash()
	require.NoError(t, n.Close())
	require.NoError(t, n.Close()) // idempotent

	n = startNode(t, cfg)
	c := n.Client()
	require.Equal(t, genesis, n.GenesisHash())
	again, err := c.HeaderByNumber(ctx, head.Number)
	require.NoError(t, err)
	require.Equal(t, head.Hash(), again.Hash())
	latest, err := c.BlockNumber(ctx)
	require.NoError(t, err)
	require.GreaterOrEqual(t, latest, head.Number.Uint64())
	bal, err := c.BalanceAt(ctx, bob, nil)
	require.NoError(t, err)
	require.EqualValues(t, 12345, bal.Int64())
	r2, err := c.TransactionReceipt(ctx, tx.Hash())
	require.NoError(t, err)
	require.Equal(t, r.BlockHash, r2.BlockHash)
	logs, err := c.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), Addresses: []common.Address{logger}})
	require.NoError(t, err)
	require.Len(t, logs, 1)
	require.Equal(t, logTx.Hash(), logs[0].TxHash)

	// The restarted chain keeps sealing.
	tx = send(t, ctx, c, DefaultChainID, DevKey("alice"), &bob, big.NewInt(1), 21000, nil)
	waitMined(t, ctx, c, tx.Hash())
}

// TestGenesisMismatch: a data dir only opens with the genesis it was made with.
func TestGenesisMismatch(t *testing.T) {
	dir := t.TempDir()
	n, err := Start(Config{DataDir: dir, Alloc: DefaultAlloc("alice")})
	require.NoError(t, err)
	require.NoError(t, n.Close())

	_, err = Start(Config{DataDir: dir, Alloc: DefaultAlloc("mallory")})
	require.ErrorContains(t, err, "different chain")
	// The genesis hash does not cover the chain id; it is checked apart.
	_, err = Start(Config{DataDir: dir, Alloc: DefaultAlloc("alice"), ChainID: 5})
	require.ErrorContains(t, err, "chain id")
	// The refused starts left the chain usable.
	n = startNode(t, Config{DataDir: dir, Alloc: DefaultAlloc("alice")})
	require.Equal(t, Genesis(0, 0, DefaultAlloc("alice")).ToBlock().Hash(), n.GenesisHash())
}

// TestChainTimeKeepsUp: a burst of transactions must not run chain time
// ahead of the wall clock, and an idle chain still moves time forward.
func TestChainTimeKeepsUp(t *testing.T) {
	n := startNode(t, Config{DataDir: t.TempDir(), Alloc: DefaultAlloc("alice")})
	c := n.Client()
	ctx := ctxT(t, 60*time.Second)
	alice := DevKey("alice")
	bob := common.HexToAddress("0xb0b")

	start, err := c.BlockNumber(ctx)
	require.NoError(t, err)
	begin := time.Now()
	var last common.Hash
	for i := range 200 {
		tx := signTx(DefaultChainID, alice, uint64(i), &bob, big.NewInt(1), 21000, nil)
		require.NoError(t, c.SendTransaction(ctx, tx))
		last = tx.Hash()
		// One at a time, as fast as receipts come back for every 20th.
		if i%20 == 19 {
			waitMined(t, ctx, c, tx.Hash())
		}
	}
	waitMined(t, ctx, c, last)
	elapsed := time.Since(begin)
	head, err := c.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	now := time.Now()
	drift := time.Unix(int64(head.Time), 0).Sub(now)
	blocks := head.Number.Uint64() - start
	t.Logf("200 txs in %v over %d blocks; head time - wall clock = %v", elapsed.Round(time.Millisecond), blocks, drift)
	require.LessOrEqual(t, drift, 2*time.Second)
	require.GreaterOrEqual(t, drift, -2*time.Second)
	require.LessOrEqual(t, blocks, uint64(elapsed/time.Second)+2, "more than one block per second")

	// Every block's time is at most the wall clock.
	for i := start + 1; i <= head.Number.Uint64(); i++ {
		h, err := c.HeaderByNumber(ctx, new(big.Int).SetUint64(i))
		require.NoError(t, err)
		require.LessOrEqual(t, int64(h.Time), now.Unix())
	}

	// Idle: empty blocks keep time moving (one at least every 2 s).
	time.Sleep(4500 * time.Millisecond)
	idle, err := c.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	require.GreaterOrEqual(t, idle.Number.Uint64(), head.Number.Uint64()+2)
	drift = time.Until(time.Unix(int64(idle.Time), 0))
	require.LessOrEqual(t, drift, 0*time.Second)
	require.GreaterOrEqual(t, drift, -2*time.Second-200*time.Millisecond)
}

func TestSealDelay(t *testing.T) {
	base := time.Unix(1_000_000, 0)
	at := func(ms int) time.Time { return base.Add(time.Duration(ms) * time.Millisecond) }
	none := time.Time{}
	cases := []struct {
		parent       uint64
		pendingSince time.Time
		now          time.Time
		want         time.Duration
	}{
		// Idle: an empty block 2 s after the parent.
		{1_000_000, none, at(300), 1700 * time.Millisecond},
		{1_000_000, none, at(2100), -100 * time.Millisecond},
		// Pending, parent recent: the next second boundary.
		{1_000_000, at(100), at(300), 700 * time.Millisecond},
		{1_000_000, at(0), at(0), time.Second},
		// Pending, parent old: the gather window after first seen.
		{1_000_000, at(5000), at(5000), 300 * time.Millisecond},
		{1_000_000, at(5000), at(5200), 100 * time.Millisecond},
		{1_000_000, at(5000), at(5400), -100 * time.Millisecond},
		// Window ends just after the boundary.
		{1_000_000, at(800), at(900), 200 * time.Millisecond},
		// Parent ahead of the wall clock: never stall past the interval.
		{1_000_100, none, base, 2 * time.Second},
		{1_000_100, at(0), base, time.Second},
	}
	for i, tc := range cases {
		require.Equal(t, tc.want, sealDelay(tc.parent, tc.pendingSince, tc.now), "case %d", i)
	}
}

// TestRPCPortBusy: a taken port fails Start cleanly (data dir lock released).
func TestRPCPortBusy(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	dir := t.TempDir()
	_, err = Start(Config{DataDir: dir, RPCListen: l.Addr().String()})
	require.Error(t, err)
	startNode(t, Config{DataDir: dir})
	// The same data dir cannot be opened twice.
	_, err = Start(Config{DataDir: dir})
	require.Error(t, err)
}

// awaitHead waits until the chain's head reaches block n. A receipt can be
// served a moment before the head moves to its block (geth indexes it
// first), and a log query without a range stops at the head.
func awaitHead(t *testing.T, ctx context.Context, c interface {
	BlockNumber(context.Context) (uint64, error)
}, n uint64) {
	t.Helper()
	require.Eventually(t, func() bool {
		head, err := c.BlockNumber(ctx)
		return err == nil && head >= n
	}, 10*time.Second, 10*time.Millisecond, "the head reaches the receipt's block %d", n)
}
