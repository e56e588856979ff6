package embedded

import (
	"bufio"
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/stretchr/testify/require"
)

const crashDirEnv = "FXD_EMBEDDED_CRASH_HELPER_DIR"

var (
	crashRecipient = common.HexToAddress("0x00000000000000000000000000000000c0ffee00")
	crashValue     = big.NewInt(1_000_000_007)
)

// crashLogger holds logRuntime: the helper calls it once per batch, so the
// log index is checked after the kills too.
var crashLogger = common.HexToAddress("0x00000000000000000000000000000000c0ffee01")

func crashAlloc() types.GenesisAlloc {
	alloc := DefaultAlloc("crash-sender")
	alloc[crashLogger] = types.Account{Code: logRuntime, Balance: new(big.Int)}
	return alloc
}

func crashConfig(dir string) Config {
	return Config{DataDir: dir, Alloc: crashAlloc()}
}

// TestCrashHelper is not a test: TestKill9 runs the test binary again with
// crashDirEnv set, and this function then starts the node, keeps sending
// transfers and prints "synced <number> <hash>" after each block is fsynced
// until it is killed.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv(crashDirEnv)
	if dir == "" {
		t.Skip("helper process for TestKill9")
	}
	cfg := crashConfig(dir)
	cfg.afterSync = func(h *types.Header) {
		fmt.Fprintf(os.Stdout, "synced %d %s\n", h.Number.Uint64(), h.Hash().Hex())
	}
	n, err := Start(cfg)
	if err != nil {
		fmt.Fprintln(os.Stdout, "error", err)
		os.Exit(2)
	}
	ctx := context.Background()
	c := n.Client()
	key := DevKey("crash-sender")
	nonce, err := c.PendingNonceAt(ctx, DevAddress("crash-sender"))
	if err != nil {
		fmt.Fprintln(os.Stdout, "error", err)
		os.Exit(2)
	}
	fmt.Fprintf(os.Stdout, "started %d\n", nonce)
	for {
		for i := range 25 {
			tx := signTx(DefaultChainID, key, nonce, &crashRecipient, crashValue, 21000, nil)
			if i == 0 {
				tx = signTx(DefaultChainID, key, nonce, &crashLogger, nil, 100_000, nil)
			}
			if err := c.SendTransaction(ctx, tx); err != nil {
				fmt.Fprintln(os.Stdout, "error", err)
				os.Exit(2)
			}
			nonce++
		}
		time.Sleep(37 * time.Millisecond)
	}
}

// TestKill9 kills a process running the chain with SIGKILL while it seals
// blocks full of transfers, twice, and checks that every block reported as
// synced survived, with consistent state.
func TestKill9(t *testing.T) {
	dir := t.TempDir()
	var lastNum uint64
	var lastHash common.Hash
	for round := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashDirEnv+"="+dir)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		done := make(chan struct{})
		timer := time.AfterFunc(40*time.Second, func() { _ = cmd.Process.Kill() })

		sc := bufio.NewScanner(out)
		synced := 0
		for sc.Scan() {
			line := sc.Text()
			f := strings.Fields(line)
			if len(f) == 0 {
				continue
			}
			switch f[0] {
			case "error":
				t.Fatalf("helper: %s", line)
			case "synced":
				num, err := strconv.ParseUint(f[1], 10, 64)
				require.NoError(t, err)
				require.Greater(t, num, lastNum, "synced blocks go up")
				lastNum, lastHash = num, common.HexToHash(f[2])
				synced++
			}
			// Kill at a random moment of the next block interval, so the kill
			// lands while transfers are sent, while a block is sealed, or
			// between sealing and fsync.
			if synced >= 4 {
				time.Sleep(time.Duration(rand.Int64N(int64(1100 * time.Millisecond))))
				require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
				break
			}
		}
		go func() { _, _ = bufio.NewReader(out).WriteTo(devNull{}); close(done) }()
		_ = cmd.Wait()
		timer.Stop()
		<-done
		require.GreaterOrEqual(t, synced, 4, "round %d: helper ended early", round)
		t.Logf("round %d: killed after synced block %d", round, lastNum)
	}

	// Reopen in-process and check the chain.
	n := startNode(t, crashConfig(dir))
	require.Equal(t, Genesis(0, 0, crashAlloc()).ToBlock().Hash(), n.GenesisHash())
	c := n.Client()
	ctx := ctxT(t, 30*time.Second)
	head, err := c.HeaderByNumber(ctx, nil)
	require.NoError(t, err)
	require.GreaterOrEqual(t, head.Number.Uint64(), lastNum)
	h, err := c.HeaderByNumber(ctx, new(big.Int).SetUint64(lastNum))
	require.NoError(t, err)
	require.Equal(t, lastHash, h.Hash(), "block %d changed", lastNum)

	// State agrees with the blocks: recipient balance = sum of transfers
	// mined, sender nonce = number of its mined txs.
	var count, transfers int64
	var calls []common.Hash
	for i := uint64(1); i <= head.Number.Uint64(); i++ {
		b, err := c.BlockByNumber(ctx, new(big.Int).SetUint64(i))
		require.NoError(t, err)
		for _, tx := range b.Transactions() {
			count++
			switch *tx.To() {
			case crashRecipient:
				transfers++
			case crashLogger:
				calls = append(calls, tx.Hash())
			}
		}
	}
	require.Positive(t, transfers)
	bal, err := c.BalanceAt(ctx, crashRecipient, head.Number)
	require.NoError(t, err)
	require.Equal(t, new(big.Int).Mul(crashValue, big.NewInt(transfers)), bal)
	nonce, err := c.NonceAt(ctx, DevAddress("crash-sender"), head.Number)
	require.NoError(t, err)
	require.EqualValues(t, count, nonce)
	logs, err := c.FilterLogs(ctx, ethereum.FilterQuery{FromBlock: big.NewInt(0), ToBlock: head.Number, Addresses: []common.Address{crashLogger}})
	require.NoError(t, err)
	require.Len(t, logs, len(calls))
	for i, l := range logs {
		require.Equal(t, calls[i], l.TxHash)
	}
	t.Logf("after 2 kills: head %d (last synced %d), %d txs, %d logs, state consistent", head.Number, lastNum, count, len(logs))

	// And it keeps going.
	tx := send(t, ctx, c, DefaultChainID, DevKey("crash-sender"), &crashRecipient, big.NewInt(1), 21000, nil)
	waitMined(t, ctx, c, tx.Hash())
}

type devNull struct{}

func (devNull) Write(p []byte) (int, error) { return len(p), nil }
