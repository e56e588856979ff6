package e2e

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fxd-labs/fxd/internal/repo"

	"github.com/stretchr/testify/require"

	"github.com/fxd-labs/fxd/client"
	"github.com/fxd-labs/fxd/internal/logsink"
	"github.com/fxd-labs/fxd/reqsig"
)

// basePath is the API base path of the test environment.
const basePath = "/public/v1"

// Waits of the harness. They are deadlines, never expectations: a slow
// machine only makes a test take longer.
const (
	startDeadline = 60 * time.Second // fxd serve until "listening on"
	stopDeadline  = 30 * time.Second // SIGTERM or SIGKILL until exit
	cliDeadline   = 60 * time.Second // one CLI invocation
	httpTimeout   = 20 * time.Second // one API request
)

// fxdBin is the binary built once by TestMain; binDir holds it (and the
// faultinject build, faultBin).
var fxdBin, binDir string

func TestMain(m *testing.M) { os.Exit(runMain(m)) }

func runMain(m *testing.M) int {
	root, err := repo.Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	dir, err := os.MkdirTemp("", "fxd-e2e-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	binDir = dir
	fxdBin = filepath.Join(dir, "fxd")
	build := exec.Command("go", "build", "-buildvcs=false", "-o", fxdBin, "./cmd/fxd")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build ./cmd/fxd: %v\n%s", err, out)
		return 1
	}
	// Every listener on an ephemeral port, so servers can run in
	// parallel: the embedded chain's JSON-RPC too, once the binary has it.
	if probeServeFlag("chain-rpc-listen", "127.0.0.1:0") {
		serveFlags = append(serveFlags, "--chain-rpc-listen", "127.0.0.1:0")
	}
	return m.Run()
}

// serveFlags are added to every `fxd serve` of the tests.
var serveFlags = []string{"--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0"}

// probeServeFlag reports whether `fxd serve` knows the flag: it runs serve
// with the flag and an invalid --env, which a binary that parses the flag
// refuses after parsing (and one that does not, while parsing).
func probeServeFlag(name, value string) bool {
	dir, err := os.MkdirTemp("", "fxd-e2e-probe-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, fxdBin, append([]string{"serve", "--data-dir", dir, "--env", "e2e-probe", "--" + name + "=" + value}, serveFlags...)...)
	cmd.Env = cleanEnv()
	out, _ := cmd.CombinedOutput()
	// cobra's pflag says "unknown flag"; the standard flag package said
	// "flag provided but not defined".
	return !strings.Contains(string(out), "unknown flag") && !strings.Contains(string(out), "flag provided but not defined")
}

// cleanEnv is the environment without SVC_* variables, which fxd reads as
// flag defaults and which would make the tests depend on the caller's
// shell.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SVC_") {
			env = append(env, kv)
		}
	}
	return env
}

// lineWriter hands every complete line written to it to a channel (never
// blocking the child: lines beyond the buffer are dropped) and keeps a copy.
type lineWriter struct {
	mu      sync.Mutex
	partial []byte
	lines   chan string
	copy    *logsink.Buffer
}

func (w *lineWriter) Write(p []byte) (int, error) {
	_, _ = w.copy.Write(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(w.partial[:i])
		w.partial = w.partial[i+1:]
		select {
		case w.lines <- line:
		default:
		}
	}
}

// server is one running `fxd serve`.
type server struct {
	DataDir   string
	Addr      string // host:port of the public listener
	BaseURL   string // http://host:port
	AdminAddr string // host:port of the admin listener
	// Launched is taken just before the process started and Ready just
	// after it printed its listening lines: the server's own start time
	// lies between them.
	Launched, Ready time.Time

	clientsMu sync.Mutex
	clients   map[string]*client.Client // by key id
	// clustered marks a cluster node: call waits out its 503 unavailable
	// answers (see clusterPatience).
	clustered bool

	cmd     *exec.Cmd
	lines   chan string // stdout lines
	stdout  *logsink.Buffer
	stderr  *logsink.Buffer
	exited  chan struct{}
	waitErr error
	kill    sync.Once
}

// startServer runs `fxd serve` on loopback with ephemeral ports over
// dataDir and returns once it printed both listening lines and the clock
// has moved past the second it did so in. The server is killed when the
// test ends; its stderr is logged if the test failed.
//
// The last wait is there because a timestamp of the second the server
// started in may have been used before a restart, so a server is right to
// refuse it (CONTRACT.md: timestamps earlier than its start time are
// stale); the tests then never sign in that second.
func startServer(t testing.TB, dataDir string, extraArgs ...string) *server {
	t.Helper()
	s := launchServer(t, dataDir, extraArgs...)
	if d := time.Until(time.Unix(s.Ready.Unix()+1, 0)); d > 0 {
		time.Sleep(d)
	}
	return s
}

// launchServer is startServer without the wait for the next second.
func launchServer(t testing.TB, dataDir string, extraArgs ...string) *server {
	t.Helper()
	return awaitListening(t, spawnServer(t, dataDir, extraArgs...))
}

// awaitListening waits until a spawned server prints both listening lines.
func awaitListening(t testing.TB, s *server) *server {
	t.Helper()
	if err := s.waitListening(startDeadline); err != nil {
		t.Fatal(err)
	}
	return s
}

// waitListening waits, at most d, until the server prints both listening
// lines; it fails at once if the server exits first.
func (s *server) waitListening(d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for s.Addr == "" || s.AdminAddr == "" {
		select {
		case line := <-s.lines:
			switch {
			case strings.HasPrefix(line, "admin listening on "):
				s.AdminAddr = strings.TrimPrefix(line, "admin listening on ")
			case strings.HasPrefix(line, "listening on "):
				s.Addr = strings.TrimPrefix(line, "listening on ")
			}
		case <-s.exited:
			return fmt.Errorf("fxd serve exited before it was ready: %v\nstdout:\n%s\nstderr:\n%s", s.waitErr, s.stdout, s.stderr)
		case <-timer.C:
			return fmt.Errorf("fxd serve did not print its listening lines within %v\nstdout:\n%s\nstderr:\n%s", d, s.stdout, s.stderr)
		}
	}
	s.Ready = time.Now()
	s.BaseURL = "http://" + s.Addr
	return nil
}

// spawnServer starts `fxd serve` and returns at once, without waiting for
// it to be ready (launchServer does that).
func spawnServer(t testing.TB, dataDir string, extraArgs ...string) *server {
	t.Helper()
	return spawnServerWith(t, spawnOpts{}, dataDir, extraArgs...)
}

// spawnOpts choose the binary and add to the environment of a server.
type spawnOpts struct {
	bin string   // default fxdBin
	env []string // added to cleanEnv()
}

// spawnServerWith is spawnServer with a chosen binary and environment.
func spawnServerWith(t testing.TB, o spawnOpts, dataDir string, extraArgs ...string) *server {
	t.Helper()
	s := &server{DataDir: dataDir, stdout: &logsink.Buffer{}, stderr: &logsink.Buffer{}, exited: make(chan struct{}), lines: make(chan string, 64)}
	args := append(append([]string{"serve", "--data-dir", dataDir}, serveFlags...), extraArgs...)
	s.cmd = exec.Command(cmp.Or(o.bin, fxdBin), args...)
	s.cmd.Env = append(cleanEnv(), o.env...)
	s.cmd.Stdout = &lineWriter{lines: s.lines, copy: s.stdout}
	s.cmd.Stderr = s.stderr
	s.Launched = time.Now()
	require.NoError(t, s.cmd.Start(), "start fxd serve")
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() {
		s.Kill()
		if t.Failed() {
			t.Logf("fxd serve --data-dir %s (pid %d) stderr, last 16 KiB:\n%s", dataDir, s.cmd.Process.Pid, tail(s.stderr.String(), 16<<10))
		}
	})
	return s
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// Kill sends SIGKILL and waits for the process to be gone. It is safe to
// call from any goroutine, more than once.
func (s *server) Kill() {
	if !s.end(syscall.SIGKILL) {
		panic(fmt.Sprintf("fxd serve pid %d did not die within %v of SIGKILL", s.cmd.Process.Pid, stopDeadline))
	}
}

// DumpStacks sends SIGQUIT: the Go runtime writes every goroutine's stack
// to stderr (kept with the log) and exits. For a failure's story when a
// live node stopped doing something and logged nothing about it.
func (s *server) DumpStacks() {
	if !s.end(syscall.SIGQUIT) {
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
		<-s.exited
	}
}

// end sends sig unless the process has exited or Kill or DumpStacks
// signalled it before, and reports whether it is gone within stopDeadline.
func (s *server) end(sig syscall.Signal) bool {
	s.kill.Do(func() {
		select {
		case <-s.exited:
			return
		default:
		}
		_ = s.cmd.Process.Signal(sig)
	})
	select {
	case <-s.exited:
		return true
	case <-time.After(stopDeadline):
		return false
	}
}

// Stop sends SIGTERM and requires a clean exit.
func (s *server) Stop(t testing.TB) {
	t.Helper()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case <-s.exited:
	case <-time.After(stopDeadline):
		t.Fatalf("fxd serve did not exit within %v of SIGTERM", stopDeadline)
	}
	require.NoError(t, s.waitErr, "fxd serve exit after SIGTERM; stderr:\n%s", tail(s.stderr.String(), 8<<10))
	requireJSONLines(t, s.stderr.String())
}

// requireJSONLines: every line the server logged is one JSON object, its
// own and its libraries' (protoactor, go-ethereum) alike, so a log
// pipeline never meets a line it cannot parse.
func requireJSONLines(t testing.TB, log string) {
	t.Helper()
	for i, line := range strings.Split(strings.TrimRight(log, "\n"), "\n") {
		if line == "" {
			continue
		}
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &v), "stderr line %d is not a JSON object: %q", i+1, line)
	}
}

// Stderr is what the server logged so far.
func (s *server) Stderr() string { return s.stderr.String() }

// cliResult is one finished CLI invocation.
type cliResult struct {
	Stdout, Stderr string
	Code           int
}

// runCLI runs `fxd args...` to completion (runCLIEnv without extra
// environment).
func runCLI(t testing.TB, args ...string) cliResult {
	t.Helper()
	return runCLIEnv(t, nil, args...)
}

// jsonLine requires out to be exactly one line holding one JSON object and
// returns it.
func jsonLine(t testing.TB, out string) map[string]any {
	t.Helper()
	require.True(t, strings.HasSuffix(out, "\n"), "output %q does not end in a newline", out)
	line := strings.TrimSuffix(out, "\n")
	require.NotContains(t, line, "\n", "want one line of output, got %q", out)
	var v map[string]any
	dec := json.NewDecoder(strings.NewReader(line))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&v), "output %q is not a JSON object", out)
	require.False(t, dec.More(), "trailing data after the JSON object in %q", out)
	return v
}

// walDumpOut is `fxd wal dump`'s one JSON object.
type walDumpOut struct {
	Records []struct {
		Index  uint64           `json:"index"`
		Entity string           `json:"entity"`
		Events []map[string]any `json:"events"`
	} `json:"records"`
	Count int    `json:"count"`
	Error string `json:"error"`
}

// walDump requires out to be exactly one JSON object, as `fxd wal dump`
// prints it, and returns it.
func walDump(t testing.TB, out string) walDumpOut {
	t.Helper()
	var d walDumpOut
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&d), "wal dump output is not one JSON object: %.500s", out)
	require.False(t, dec.More(), "trailing data after wal dump's JSON object")
	require.Empty(t, d.Error)
	return d
}

// cliJSON runs a CLI command that must succeed and print one JSON line.
func cliJSON(t testing.TB, args ...string) map[string]any {
	t.Helper()
	res := runCLI(t, args...)
	require.Equal(t, 0, res.Code, "fxd %s failed\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.Stdout, res.Stderr)
	return jsonLine(t, res.Stdout)
}

// admin runs `fxd admin args... --data-dir D` and returns its JSON line.
func (s *server) admin(t testing.TB, args ...string) map[string]any {
	t.Helper()
	return cliJSON(t, append(append([]string{"admin"}, args...), "--data-dir", s.DataDir)...)
}

// createAccount creates an account (extra flags: --kyc, --swap=, --pay=)
// and returns its id.
func (s *server) createAccount(t testing.TB, name string, extra ...string) string {
	t.Helper()
	out := s.admin(t, append([]string{"accounts", "create", "--name", name}, extra...)...)
	id, _ := out["id"].(string)
	require.True(t, strings.HasPrefix(id, "acct_"), "accounts create: id %q", id)
	return id
}

// apiKey is a key created through the CLI, with its private half loaded.
type apiKey struct {
	ID      string
	Account string
	Scopes  []string
	File    string
	Priv    ed25519.PrivateKey
}

// createKey creates a key with the scopes (e.g. "read,pay") for account,
// writing its private key into a fresh temp dir.
func (s *server) createKey(t testing.TB, account, scopes string) apiKey {
	t.Helper()
	file := filepath.Join(t.TempDir(), "key.pem")
	out := s.admin(t, "keys", "create", "--account", account, "--scopes", scopes, "--out", file)
	k := apiKey{Account: account, File: file}
	k.ID, _ = out["key_id"].(string)
	require.True(t, strings.HasPrefix(k.ID, "svc_test_"), "keys create: key_id %q", k.ID)
	for _, sc := range out["scopes"].([]any) {
		k.Scopes = append(k.Scopes, sc.(string))
	}
	pemBytes, err := os.ReadFile(file)
	require.NoError(t, err)
	k.Priv, err = reqsig.ParsePrivateKeyPEM(pemBytes)
	require.NoError(t, err)
	return k
}

// revokeKey revokes a key through the CLI.
func (s *server) revokeKey(t testing.TB, keyID string) map[string]any {
	t.Helper()
	return s.admin(t, "keys", "revoke", keyID)
}

// client returns the SDK client for the key against this server: one per
// key, shared, because uniqueness of signed requests within a second holds
// per client (two clients sending the same request in the same second
// would be one request signed twice: a replay).
func (s *server) client(t testing.TB, k apiKey) *client.Client {
	t.Helper()
	s.clientsMu.Lock()
	defer s.clientsMu.Unlock()
	if c := s.clients[k.ID]; c != nil {
		return c
	}
	c, err := client.New(s.BaseURL, k.ID, k.Priv, client.WithTimeout(httpTimeout))
	require.NoError(t, err)
	if s.clients == nil {
		s.clients = map[string]*client.Client{}
	}
	s.clients[k.ID] = c
	if s.clustered {
		patient.Store(c, struct{}{})
	}
	return c
}

// patient holds the clients of cluster nodes (server.clustered).
var patient sync.Map // *client.Client → struct{}

// clusterPatience is how long call waits out a cluster node's 503
// unavailable (and a take-over's stale_timestamp, movedOwner), as a
// careful client of a cluster would: it is what a
// partition answers while no node runs it (an election after its owner
// died or stepped down; on this 2-core machine, with three nodes, anvil
// and the test on it, a stream can stay without quorum for several
// seconds). The server refused before acting, so a retry is safe.
const clusterPatience = 30 * time.Second

// unsigned returns an SDK client without a key, for the public routes.
func (s *server) unsigned(t testing.TB) *client.Client {
	t.Helper()
	c, err := client.New(s.BaseURL, "", nil, client.WithTimeout(httpTimeout))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	if s.clustered {
		patient.Store(c, struct{}{})
		t.Cleanup(func() { patient.Delete(c) })
	}
	return c
}

// call signs and sends one request through the SDK and requires an answer.
func call(t testing.TB, c *client.Client, method, target, body string, headers map[string]string) *client.Response {
	t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	return patiently(t, c, method, target, func(ctx context.Context) (*client.Response, error) {
		return c.Do(ctx, method, target, b, headers)
	})
}

// callPublic sends one unsigned request.
func callPublic(t testing.TB, c *client.Client, method, target string) *client.Response {
	t.Helper()
	return patiently(t, c, method, target, func(ctx context.Context) (*client.Response, error) {
		return c.DoUnsigned(ctx, method, target, nil, nil)
	})
}

// patiently sends with send (each try within httpTimeout) and requires an
// answer; for a cluster node's client it sends again while the answer is
// a 503 with Retry-After, up to clusterPatience.
func patiently(t testing.TB, c *client.Client, method, target string, send func(context.Context) (*client.Response, error)) *client.Response {
	t.Helper()
	do := func() *client.Response {
		ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
		defer cancel()
		resp, err := send(ctx)
		require.NoError(t, err, "%s %s", method, target)
		return resp
	}
	resp := do()
	if _, ok := patient.Load(c); ok {
		for deadline := time.Now().Add(clusterPatience); movedOwner(resp) && time.Now().Before(deadline); {
			time.Sleep(time.Second)
			resp = do()
		}
	}
	return resp
}

// movedOwner reports the answers of a partition changing owner, which a
// careful client of a cluster waits out and signs again: 503 with
// Retry-After (no node runs it yet), and 401 stale_timestamp for a
// signature stamped before the new owner took the partition up (it
// refuses what its replay cache never saw). Neither acted.
func movedOwner(resp *client.Response) bool {
	switch resp.Status {
	case 503:
		return resp.Header.Get("Retry-After") != ""
	case 401:
		return bytes.Contains(resp.Body, []byte(`"code":"stale_timestamp"`)) && bytes.Contains(resp.Body, []byte("took the account over"))
	}
	return false
}

// object decodes a JSON object body (numbers kept as json.Number).
func object(t testing.TB, body []byte) map[string]any {
	t.Helper()
	var v map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&v), "body %q is not a JSON object", body)
	return v
}

// errorCode returns error.code of a contract error body and requires the
// shape {"error":{"code","message"}}.
func errorCode(t testing.TB, body []byte) string {
	t.Helper()
	var e struct {
		Error *struct {
			Code    *string `json:"code"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e), "error body %q", body)
	require.NotNil(t, e.Error, "no error object in %q", body)
	require.NotNil(t, e.Error.Code, "no error.code in %q", body)
	require.NotNil(t, e.Error.Message, "no error.message in %q", body)
	return *e.Error.Code
}

// errorMessage returns error.message of a contract error body.
func errorMessage(t testing.TB, body []byte) string {
	t.Helper()
	var e struct {
		Error struct{ Message string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &e))
	return e.Error.Message
}

// requireError requires a contract error with the status and code.
func requireError(t testing.TB, resp *client.Response, status int, code string) {
	t.Helper()
	require.Equal(t, status, resp.Status, "%s: body %s", resp.Target, resp.Body)
	require.Equal(t, code, errorCode(t, resp.Body), "%s: body %s", resp.Target, resp.Body)
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"), "%s: content type of an error", resp.Target)
}

// requireStatus requires a status, showing the body otherwise.
func requireStatus(t testing.TB, resp *client.Response, status int) {
	t.Helper()
	require.Equal(t, status, resp.Status, "%s: body %s", resp.Target, resp.Body)
}

// scanLines splits output into its lines (without the final empty one).
func scanLines(out string) []string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}
