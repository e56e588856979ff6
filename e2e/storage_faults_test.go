package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/wal"
)

// Storage faults: the log's disk fills up or an fsync fails while the
// service is under concurrent write load. The process must end (status 3,
// one JSON line naming the cause and the file) instead of serving on;
// every write the client saw a 2xx for must be there after a restart,
// exactly once, and replay byte for byte through its Idempotency-Key; and
// `fxd wal verify` must pass.

const (
	msgStorageFailure = "storage failure, exiting" // actors/fatal.go
	storageExitStatus = 3
	sfKeys            = 16
	// sfPerKey bounds each key's creates in one run, so that after the
	// restart (whose rate limiter starts empty) every acknowledged create
	// and every unanswered one can be re-sent within the key's 120
	// writes a minute.
	sfPerKey = 100
	// sfFaultDeadline is how long the load may run before the fault must
	// have ended the process.
	sfFaultDeadline = 60 * time.Second
)

// sfCreate is one POST /contacts of a storage-fault run.
type sfCreate struct {
	name, idemKey string
	key           int
	body          []byte
	status        int    // 0: no answer
	resp          []byte // the 201 body
	afterFault    bool   // sent once the failure line was already on stderr
}

// sfRun is what one run sent and was told.
type sfRun struct {
	mu    sync.Mutex
	sent  []*sfCreate
	acked map[string]*sfCreate // by name: answered 201 (not a replay)
}

// sfBody is a create whose record is about 2 KB (names and memos of
// three-byte runes at their limits), so that a small disk fills fast.
func sfBody(name string) []byte {
	b, _ := json.Marshal(map[string]string{"name": name, "address": randomAddress(), "memo": strings.Repeat("€", 140)})
	return b
}

func sfName(tag string, k, i int) string {
	p := fmt.Sprintf("%s k%02d n%03d ", tag, k, i)
	return p + strings.Repeat("€", 100-len(p))
}

// loadUntilExit runs one worker per client creating contacts until the
// server exits, each at most sfPerKey times, and records every answer.
// A request sent once the failure line is on stderr is marked: it must
// not be acknowledged.
func loadUntilExit(t *testing.T, srv *server, clients []*client.Client, tag string) *sfRun {
	t.Helper()
	run := &sfRun{acked: map[string]*sfCreate{}}
	var wg sync.WaitGroup
	for k := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < sfPerKey && !srv.hasExited(); i++ {
				name := sfName(tag, k, i)
				r := &sfCreate{name: name, idemKey: "sf-" + tag + fmt.Sprintf("-k%02d-n%03d", k, i), key: k, body: sfBody(name)}
				r.afterFault = strings.Contains(srv.Stderr(), msgStorageFailure)
				ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
				resp, err := clients[k].Do(ctx, "POST", basePath+"/contacts", r.body, map[string]string{"Idempotency-Key": r.idemKey})
				cancel()
				run.mu.Lock()
				run.sent = append(run.sent, r)
				if err == nil {
					r.status = resp.Status
					if resp.Status == 201 && resp.Header.Get("Idempotency-Replayed") == "" {
						r.resp = resp.Body
						run.acked[name] = r
					}
				}
				run.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	select {
	case <-srv.exited:
	case <-time.After(sfFaultDeadline):
		t.Fatalf("the server still runs after %d creates; stderr:\n%s", len(run.sent), tail(srv.Stderr(), 8<<10))
	}
	return run
}

func (s *server) hasExited() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// failureLine is the storage failure line as an operator reads it.
type failureLine struct {
	Level string `json:"level"`
	Msg   string `json:"msg"`
	Cause string `json:"cause"`
	Op    string `json:"op"`
	File  string `json:"file"`
	Err   string `json:"err"`
}

// requireStorageExit: the process exited with status 3 after exactly one
// storage failure line, which names the cause, the operation and a file
// under the data dir; nothing else reported it (no "wal: fatal" line) and
// every line on stderr is JSON. It returns the line.
func requireStorageExit(t *testing.T, srv *server, dataDir string) failureLine {
	t.Helper()
	stderr := srv.Stderr()
	var exit *exec.ExitError
	require.True(t, errors.As(srv.waitErr, &exit), "exit: %v; stderr:\n%s", srv.waitErr, tail(stderr, 8<<10))
	require.Equal(t, storageExitStatus, exit.ExitCode(), "exit status; stderr:\n%s", tail(stderr, 8<<10))
	requireJSONLines(t, stderr)
	require.NotContains(t, stderr, "wal: fatal", "the failure is reported once, by the storage failure line")
	var lines []failureLine
	for _, raw := range scanLines(stderr) {
		var l failureLine
		require.NoError(t, json.Unmarshal([]byte(raw), &l))
		if l.Msg == msgStorageFailure {
			lines = append(lines, l)
		}
	}
	require.Len(t, lines, 1, "storage failure lines; stderr:\n%s", tail(stderr, 8<<10))
	l := lines[0]
	require.Equal(t, "ERROR", l.Level)
	abs, err := filepath.Abs(dataDir)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(l.File, abs+string(filepath.Separator)), "file %q is not under the data dir %s", l.File, abs)
	// A log segment stays; a store file whose write failed is removed
	// by Pebble.
	_, err = os.Stat(filepath.Dir(l.File))
	require.NoError(t, err, "the named file's directory exists")
	if filepath.Dir(l.File) == filepath.Join(abs, "wal") {
		_, err = os.Stat(l.File)
		require.NoError(t, err, "the named log segment exists")
	}
	return l
}

// requireNothingAckedAfterFault: no request sent once the failure line
// was out got a 2xx, and the process did not serve on after it.
func (run *sfRun) requireNothingAckedAfterFault(t *testing.T) {
	t.Helper()
	after := 0
	for _, r := range run.sent {
		if r.afterFault {
			after++
			require.False(t, r.status >= 200 && r.status < 300, "%q sent after the failure line got %d", r.name, r.status)
		}
	}
	t.Logf("%d creates sent, %d acknowledged, %d sent after the failure line (none acknowledged)", len(run.sent), len(run.acked), after)
}

// verifyAfterRestart checks the restarted server: every acknowledged
// create present exactly once with its acknowledged fields, nothing
// present that was not sent, every acknowledged create replaying its
// stored answer byte for byte, every unanswered or failed one executing
// at most once when re-sent.
func (run *sfRun) verifyAfterRestart(t *testing.T, clients []*client.Client) {
	t.Helper()
	sent := map[string]*sfCreate{}
	for _, r := range run.sent {
		sent[r.name] = r
	}
	seen := map[string]bool{}
	for _, ct := range listAllContacts(t, clients[0], 200) {
		require.False(t, seen[ct.Name], "contact %q listed twice", ct.Name)
		seen[ct.Name] = true
		r := sent[ct.Name]
		require.NotNil(t, r, "contact %s %q was never sent", ct.ID, ct.Name)
		if r.resp != nil {
			require.Equal(t, decodeContact(t, r.resp), ct, "listed as acknowledged")
		}
	}
	for name := range run.acked {
		require.True(t, seen[name], "acknowledged create %q is lost", name)
	}
	for _, r := range run.sent {
		resp := call(t, clients[r.key], "POST", basePath+"/contacts", string(r.body), map[string]string{"Idempotency-Key": r.idemKey})
		requireStatus(t, resp, 201)
		if r.resp != nil {
			require.Equal(t, "true", resp.Header.Get("Idempotency-Replayed"), "acknowledged create %q not replayed", r.name)
			require.True(t, bytes.Equal(r.resp, resp.Body), "%q replays different bytes\nacknowledged: %s\nreplayed:     %s", r.name, r.resp, resp.Body)
		} else {
			// Durable without an answer (replayed) or not (executes now).
			require.Equal(t, r.name, decodeContact(t, resp.Body).Name)
			require.Equal(t, seen[r.name], resp.Header.Get("Idempotency-Replayed") == "true",
				"%q: listed %v, so its re-send must replay exactly then", r.name, seen[r.name])
		}
	}
}

// stopAndVerifyWAL stops the server and runs `fxd wal verify`.
func stopAndVerifyWAL(t *testing.T, srv *server, dataDir string) {
	t.Helper()
	srv.Stop(t)
	rep := cliJSON(t, "wal", "verify", "--data-dir", dataDir)
	require.Equal(t, true, rep["ok"], "wal verify: %v", rep)
}

// sfSetup creates an account and sfKeys keys on srv and their clients.
func sfSetup(t *testing.T, srv *server) []apiKey {
	t.Helper()
	acct := srv.createAccount(t, "storage faults")
	keys := make([]apiKey, sfKeys)
	for i := range keys {
		keys[i] = srv.createKey(t, acct, "pay")
	}
	return keys
}

func sfClients(t *testing.T, srv *server, keys []apiKey) []*client.Client {
	t.Helper()
	clients := make([]*client.Client, len(keys))
	for i, k := range keys {
		clients[i] = srv.client(t, k)
	}
	return clients
}

// TestStorageFaults runs the faults side by side: a real ENOSPC on a
// small tmpfs holding the data dir, and one holding the snapshot store
// alone (both need root to mount; without, only the injected ones run),
// and, on the faultinject build, ENOSPC injected at the log's write and
// at its fsync and EIO at its fsync.
func TestStorageFaults(t *testing.T) {
	t.Parallel()
	t.Run("tmpfs-enospc", func(t *testing.T) {
		t.Parallel()
		testTmpfsENOSPC(t)
	})
	t.Run("tmpfs-enospc-store", func(t *testing.T) {
		t.Parallel()
		testTmpfsStoreENOSPC(t)
	})
	for _, tc := range []struct {
		name, fault, op string
		errno           syscall.Errno
	}{
		{"injected-write-enospc", wal.FaultWriteENOSPC, "write", syscall.ENOSPC},
		{"injected-fsync-enospc", wal.FaultFsyncENOSPC, "fdatasync", syscall.ENOSPC},
		{"injected-fsync-eio", wal.FaultFsyncEIO, "fdatasync", syscall.EIO},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The 200th append since the start: past the setup's
			// (account, keys, chain records), within the load.
			dataDir := t.TempDir()
			srv := startFaultServer(t, dataDir, tc.fault+"=200")
			require.Contains(t, srv.Stderr(), "wal: fault injection", "the fault is not armed: wal.Open must install faultsFromEnv's faults (wal/faults.go)")
			keys := sfSetup(t, srv)
			run := loadUntilExit(t, srv, sfClients(t, srv, keys), tc.name)
			line := requireStorageExit(t, srv, dataDir)
			require.Equal(t, tc.op, line.Op)
			require.Equal(t, tc.errno.Error(), line.Cause)
			require.Equal(t, filepath.Join(dataDir, "wal"), filepath.Dir(line.File), "a log segment")
			run.requireNothingAckedAfterFault(t)
			require.NotEmpty(t, run.acked, "nothing was acknowledged before the fault")

			srv = startServer(t, dataDir)
			run.verifyAfterRestart(t, sfClients(t, srv, keys))
			stopAndVerifyWAL(t, srv, dataDir)
		})
	}
}

// testTmpfsENOSPC fills the data dir's file system for real: a tmpfs the
// test mounts, shrunk after the setup to leave about 1 MiB, which the
// load fills within a few hundred creates. Whichever of the log and the
// snapshot store meets the full disk first (the log, in every run so
// far: the store writes only every 5 s), the process must end with the
// one line naming ENOSPC and its file; after the tmpfs is grown (space
// freed), a restart recovers everything acknowledged.
func testTmpfsENOSPC(t *testing.T) {
	mnt := t.TempDir()
	if !mountTmpfs(t, mnt) {
		return
	}
	dataDir := filepath.Join(mnt, "data")
	srv := startServer(t, dataDir)
	keys := sfSetup(t, srv)
	clients := sfClients(t, srv, keys)
	used := tmpfsUsed(t, mnt)
	remountTmpfs(t, mnt, used+1<<20)
	t.Logf("tmpfs: %d KiB used after the setup, shrunk to %d KiB", used>>10, (used+1<<20)>>10)

	run := loadUntilExit(t, srv, clients, "tmpfs")
	line := requireStorageExit(t, srv, dataDir)
	require.Equal(t, syscall.ENOSPC.Error(), line.Cause)
	t.Logf("tmpfs: the full disk was met first by %s %s (%s)", line.Op, line.File, line.Err)
	if filepath.Dir(line.File) == filepath.Join(dataDir, "wal") {
		run.requireNothingAckedAfterFault(t)
	}
	require.NotEmpty(t, run.acked, "nothing was acknowledged before the disk was full")

	remountTmpfs(t, mnt, 256<<20) // space freed
	srv = startServer(t, dataDir)
	run.verifyAfterRestart(t, sfClients(t, srv, keys))
	stopAndVerifyWAL(t, srv, dataDir)
}

// testTmpfsStoreENOSPC puts the snapshot store's directory alone on a
// small tmpfs, so that the store meets the full disk while the log still
// has room: its next flush (every 5 s) fails. Pebble would retry that
// flush forever, one stderr line a try, and serve on; the process must
// instead end with the same one line, naming the store's file, and lose
// nothing acknowledged (the log is the truth).
func testTmpfsStoreENOSPC(t *testing.T) {
	dataDir := t.TempDir()
	state := filepath.Join(dataDir, "state")
	require.NoError(t, os.MkdirAll(state, 0o700))
	if !mountTmpfs(t, state) {
		return
	}
	srv := startServer(t, dataDir)
	keys := sfSetup(t, srv)
	clients := sfClients(t, srv, keys)
	used := tmpfsUsed(t, state)
	remountTmpfs(t, state, used+32<<10)

	run := loadUntilExit(t, srv, clients, "store")
	line := requireStorageExit(t, srv, dataDir)
	require.Equal(t, syscall.ENOSPC.Error(), line.Cause)
	require.Equal(t, state, filepath.Dir(line.File), "a file of the store")
	t.Logf("store tmpfs: %s %s (%s); %d creates sent, %d acknowledged", line.Op, line.File, line.Err, len(run.sent), len(run.acked))
	require.NotEmpty(t, run.acked, "nothing was acknowledged before the disk was full")

	remountTmpfs(t, state, 256<<20) // space freed
	srv = startServer(t, dataDir)
	run.verifyAfterRestart(t, sfClients(t, srv, keys))
	stopAndVerifyWAL(t, srv, dataDir)
}

// mountTmpfs mounts a tmpfs at dir, unmounted when the test ends (after
// the servers started later are killed: cleanups run last first). It
// reports false, saying why, where mounting is refused (not root).
func mountTmpfs(t *testing.T, dir string) bool {
	t.Helper()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=256m,mode=0700"); err != nil {
		t.Logf("tmpfs: mount refused (%v): the real ENOSPC case cannot run here; the injected faults run without it", err)
		return false
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
			_ = syscall.Unmount(dir, syscall.MNT_DETACH)
		}
	})
	return true
}

// tmpfsUsed is the bytes in use on the file system at dir.
func tmpfsUsed(t *testing.T, dir string) uint64 {
	t.Helper()
	var st syscall.Statfs_t
	require.NoError(t, syscall.Statfs(dir, &st))
	return (st.Blocks - st.Bfree) * uint64(st.Bsize)
}

// remountTmpfs sets the size of the tmpfs at dir (it may shrink down to
// what is in use).
func remountTmpfs(t *testing.T, dir string, size uint64) {
	t.Helper()
	require.NoError(t, syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, fmt.Sprintf("size=%d,mode=0700", size)), "remount %s", dir)
}
