package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
)

// Phases of the backup test's load, as each request saw them.
const (
	beforeBackup int32 = iota // `fxd backup create` not started yet
	duringBackup              // running
	afterBackup               // returned: the backup's last index was fixed before
)

// backupWrite is one POST /contacts of the backup test.
type backupWrite struct {
	name, idemKey string
	key           int
	body          []byte
	sentIn        int32  // phase when it was sent
	ackedIn       int32  // phase when its 201 came; -1: no 201
	refused       bool   // answered 429: never executed
	resp          []byte // the 201 body
}

// backupLoad sends contact creates from one worker per key until stopped.
type backupLoad struct {
	phase  atomic.Int32
	acked  atomic.Int64
	mu     sync.Mutex
	writes []*backupWrite
	stop   chan struct{}
	wg     sync.WaitGroup
}

func (l *backupLoad) run(t *testing.T, clients []*client.Client, perKey int) {
	for k, c := range clients {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			for i := 0; i < perKey; i++ {
				select {
				case <-l.stop:
					return
				case <-time.After(500 * time.Millisecond): // pacing: a key may write 120/min
				}
				name := fmt.Sprintf("backup k%02d n%03d", k, i)
				w := &backupWrite{name: name, idemKey: "bk-" + strings.ReplaceAll(name, " ", "-"), key: k,
					body: contactBody(name, randomAddress()), sentIn: l.phase.Load(), ackedIn: -1}
				ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
				resp, err := c.Do(ctx, "POST", basePath+"/contacts", w.body, map[string]string{"Idempotency-Key": w.idemKey})
				cancel()
				switch {
				case err != nil: // no answer: executed or not
				case resp.Status == 201:
					w.ackedIn, w.resp = l.phase.Load(), resp.Body
					l.acked.Add(1)
				case resp.Status == 429:
					w.refused = true
				default:
					t.Errorf("%s: %d %s", name, resp.Status, resp.Body)
				}
				l.mu.Lock()
				l.writes = append(l.writes, w)
				l.mu.Unlock()
			}
		}()
	}
}

func (l *backupLoad) waitAcked(t *testing.T, n int64) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); l.acked.Load() < n; time.Sleep(10 * time.Millisecond) {
		require.False(t, time.Now().After(deadline), "only %d of %d writes acknowledged", l.acked.Load(), n)
	}
}

// TestBackupRestoreUnderLoad is issue 14's proof through the binary:
// `fxd backup create` on a running server while signed writes go on,
// `fxd backup verify`, `fxd backup restore` into a new data dir, and a
// server started there: every write acknowledged before the backup was
// asked for is present exactly once and replays byte for byte, nothing
// sent after it returned is, nothing unsent is; the chain is at least at
// the backup's head with the same block; the restored server serves and
// takes writes, with a new admin token; no secret travelled; the
// restored log verifies. Damaged backups and a non-empty target are
// refused.
func TestBackupRestoreUnderLoad(t *testing.T) {
	t.Parallel()
	const nKeys, perKey = 16, 100 // at most one write per key per 500 ms
	dataDir := t.TempDir()
	srv := startServer(t, dataDir)
	acct := srv.createAccount(t, "backup test")
	keys := make([]apiKey, nKeys)
	clients := make([]*client.Client, nKeys)
	for i := range keys {
		keys[i] = srv.createKey(t, acct, "pay")
		clients[i] = srv.client(t, keys[i])
	}
	l := &backupLoad{stop: make(chan struct{})}
	l.run(t, clients, perKey)
	l.waitAcked(t, 80)

	out := filepath.Join(t.TempDir(), "backup")
	l.phase.Store(duringBackup)
	summary := cliJSON(t, "backup", "create", "--out", out, "--data-dir", dataDir)
	l.phase.Store(afterBackup)
	require.Equal(t, out, summary["dir"])
	l.waitAcked(t, l.acked.Load()+40) // writes after the backup
	close(l.stop)
	l.wg.Wait()
	srv.Stop(t)
	requireNoSecretFiles(t, out)

	rep := cliJSON(t, "backup", "verify", out)
	require.Equal(t, true, rep["ok"], "%v", rep)
	require.Equal(t, summary["last_index"], rep["last_index"])
	requireBackupRefusals(t, out)

	restored := filepath.Join(t.TempDir(), "restored")
	res := cliJSON(t, "backup", "restore", out, "--data-dir", restored)
	require.Equal(t, true, res["ok"], "%v", res)
	require.Equal(t, summary["last_index"], res["last_index"])
	requireNoSecretFiles(t, restored)
	again := runCLI(t, "backup", "restore", out, "--data-dir", restored)
	requireCLIFails(t, again, "restore into a data dir that is not empty")

	srv2 := startServer(t, restored)
	checkRestoredWrites(t, srv2, keys, l)
	checkRestoredChain(t, srv2, summary)
	token, err := os.ReadFile(filepath.Join(restored, "admin.token"))
	require.NoError(t, err, "the restored server made an admin token")
	old, err := os.ReadFile(filepath.Join(dataDir, "admin.token"))
	require.NoError(t, err)
	require.NotEqual(t, string(old), string(token))
	srv2.createAccount(t, "after restore") // the new token works
	resp := call(t, srv2.client(t, keys[0]), "POST", basePath+"/contacts", string(contactBody("after restore", randomAddress())), nil)
	requireStatus(t, resp, 201)
	srv2.Stop(t)
	walRep := cliJSON(t, "wal", "verify", "--data-dir", restored)
	require.Equal(t, true, walRep["ok"], "%v", walRep)
}

// checkRestoredWrites lists the restored contacts and checks them against
// the load, then replays a create acknowledged before the backup.
func checkRestoredWrites(t *testing.T, srv *server, keys []apiKey, l *backupLoad) {
	t.Helper()
	list := listAllContacts(t, srv.client(t, keys[0]), 200)
	seen := map[string]int{}
	for _, c := range list {
		seen[c.Name]++
	}
	sent := map[string]bool{}
	must, mustNot := 0, 0
	var replay *backupWrite
	for _, w := range l.writes {
		sent[w.name] = true
		switch {
		case w.ackedIn == beforeBackup:
			require.Equal(t, 1, seen[w.name], "%q was acknowledged before the backup", w.name)
			must++
			replay = w
		case w.sentIn == afterBackup || w.refused:
			require.Zero(t, seen[w.name], "%q was sent after the backup returned, or refused", w.name)
			mustNot++
		default:
			require.LessOrEqual(t, seen[w.name], 1, "%q", w.name)
		}
	}
	for name := range seen {
		require.True(t, sent[name], "contact %q was never sent", name)
	}
	require.Positive(t, must)
	require.Positive(t, mustNot)
	resp := call(t, srv.client(t, keys[replay.key]), "POST", basePath+"/contacts", string(replay.body), map[string]string{"Idempotency-Key": replay.idemKey})
	requireStatus(t, resp, 201)
	require.Equal(t, "true", resp.Header.Get("Idempotency-Replayed"))
	require.Equal(t, string(replay.resp), string(resp.Body), "the replay is the acknowledged answer, byte for byte")
	t.Logf("restored: %d contacts; %d acknowledged before the backup, %d sent after it, %d writes in all", len(list), must, mustNot, len(l.writes))
}

// checkRestoredChain: the restored chain has the backup's head block.
func checkRestoredChain(t *testing.T, srv *server, summary map[string]any) {
	t.Helper()
	chain, ok := summary["chain"].(map[string]any)
	require.True(t, ok, "summary has a chain object: %v", summary)
	require.Equal(t, "embedded", chain["mode"])
	head, err := chain["head"].(json.Number).Int64()
	require.NoError(t, err)
	rpcURL := srv.chainRPC(t)
	var number hexutil.Uint64
	rpcCall(t, rpcURL, "eth_blockNumber", nil, &number)
	require.GreaterOrEqual(t, uint64(number), uint64(head))
	var block struct {
		Hash string `json:"hash"`
	}
	rpcCall(t, rpcURL, "eth_getBlockByNumber", []any{hexutil.Uint64(head).String(), false}, &block)
	require.Equal(t, chain["head_hash"], block.Hash)
}

// requireBackupRefusals: verify and restore refuse a damaged copy of the
// backup and a directory without a manifest.
func requireBackupRefusals(t *testing.T, good string) {
	t.Helper()
	damaged := filepath.Join(t.TempDir(), "damaged")
	require.NoError(t, os.CopyFS(damaged, os.DirFS(good)))
	blocks := filepath.Join(damaged, "chain", "blocks.rlp")
	b, err := os.ReadFile(blocks)
	require.NoError(t, err)
	b[len(b)/2] ^= 0x01
	require.NoError(t, os.WriteFile(blocks, b, 0o600))
	res := runCLI(t, "backup", "verify", damaged)
	require.Equal(t, 1, res.Code, "verify of a damaged backup; stdout %s", res.Stdout)
	rep := jsonLine(t, res.Stdout)
	require.Equal(t, false, rep["ok"])
	require.Contains(t, rep["problem"], "chain/blocks.rlp")
	require.NotEmpty(t, strings.TrimSpace(res.Stderr))
	requireCLIFails(t, runCLI(t, "backup", "restore", damaged, "--data-dir", filepath.Join(t.TempDir(), "x")), "restore of a damaged backup")

	unfinished := filepath.Join(t.TempDir(), "unfinished")
	require.NoError(t, os.CopyFS(unfinished, os.DirFS(good)))
	require.NoError(t, os.Remove(filepath.Join(unfinished, "manifest.json")))
	res = runCLI(t, "backup", "verify", unfinished)
	require.Equal(t, 1, res.Code)
	require.Contains(t, jsonLine(t, res.Stdout)["problem"], "manifest.json")
}

// requireNoSecretFiles: no admin token or address, no key file, under dir.
func requireNoSecretFiles(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		name := d.Name()
		require.False(t, name == "admin.token" || name == "admin.addr" || strings.HasSuffix(name, ".pem") || strings.HasSuffix(name, ".key"),
			"%s must not be in %s", p, dir)
		return nil
	}))
}
