package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxd-labs/fxd/reqsig"
)

// adminTimeout bounds one `fxd admin` command.
const adminTimeout = 2 * time.Minute

// FXD is a running `fxd serve` on loopback ports and a temp data dir,
// driven through its operator CLI.
type FXD struct {
	*Proc
	Bin     string
	DataDir string
	LogPath string

	adminOnce sync.Once // adminAPI
	adminC    *adminHTTP
	adminErr  error
}

// StartFXD starts `bin serve` on dataDir with loopback ports chosen by the
// kernel, and the extra flags if any, and waits until it prints both
// listening lines.
func StartFXD(bin, dataDir, logPath string, extra ...string) (*FXD, error) {
	args := append([]string{"serve", "--data-dir", dataDir,
		"--listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0", "--chain-rpc-listen", "127.0.0.1:0"}, extra...)
	p, err := startProc("fxd", bin, args, logPath, fxdReadyLines, 5*time.Minute)
	if err != nil {
		return nil, err
	}
	return &FXD{Proc: p, Bin: bin, DataDir: dataDir, LogPath: logPath}, nil
}

// fxdReadyLines are the stdout lines fxd serve prints once it serves.
var fxdReadyLines = []string{"listening", "admin listening"}

// SpawnOptions choose how SpawnFXD runs fxd serve.
type SpawnOptions struct {
	// Env is the whole environment of the process; nil inherits ours.
	Env []string
	// Listen, AdminListen and ChainRPCListen are the listen addresses;
	// "" lets the kernel choose a loopback port. A caller that restarts
	// the server on the same data dir passes fixed ones, so its clients
	// keep their addresses.
	Listen, AdminListen, ChainRPCListen string
}

// SpawnFXD starts `bin serve` on dataDir and returns at once, before it
// recovers and listens (a caller may mean to kill it during recovery);
// WaitReady waits for the listening lines.
func SpawnFXD(bin, dataDir, logPath string, o SpawnOptions, extra ...string) (*FXD, error) {
	orAny := func(a string) string {
		if a == "" {
			return "127.0.0.1:0"
		}
		return a
	}
	args := append([]string{"serve", "--data-dir", dataDir, "--listen", orAny(o.Listen),
		"--admin-listen", orAny(o.AdminListen), "--chain-rpc-listen", orAny(o.ChainRPCListen)}, extra...)
	p, err := spawnProc("fxd", bin, args, o.Env, logPath, fxdReadyLines)
	if err != nil {
		return nil, err
	}
	return &FXD{Proc: p, Bin: bin, DataDir: dataDir, LogPath: logPath}, nil
}

// Addr is the public API address.
func (s *FXD) Addr() string { return s.Addrs["listening"] }

// admin runs `fxd admin ARGS --data-dir D` and decodes its JSON answer.
func (s *FXD) admin(ctx context.Context, v any, args ...string) error {
	args = append(append([]string{"admin"}, args...), "--data-dir", s.DataDir)
	ctx, cancel := context.WithTimeout(ctx, adminTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Bin, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("fxd %s: %v: %s", strings.Join(args[:3], " "), err, strings.TrimSpace(stderr.String()))
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("fxd %s: %w in %q", strings.Join(args[:3], " "), err, out)
	}
	return nil
}

// CreateAccount creates an account (approved, swap and pay permitted).
func (s *FXD) CreateAccount(ctx context.Context, name string) (string, error) {
	var a struct {
		ID string `json:"id"`
	}
	if err := s.admin(ctx, &a, "accounts", "create", "--name", name); err != nil {
		return "", err
	}
	if a.ID == "" {
		return "", fmt.Errorf("fxd accounts create: no id")
	}
	return a.ID, nil
}

// CreateKey creates a key on the account, its private key in out.
func (s *FXD) CreateKey(ctx context.Context, account, scopes, out string) (Key, error) {
	var k struct {
		KeyID string `json:"key_id"`
	}
	if err := s.admin(ctx, &k, "keys", "create", "--account", account, "--scopes", scopes, "--out", out); err != nil {
		return Key{}, err
	}
	pem, err := os.ReadFile(out)
	if err != nil {
		return Key{}, err
	}
	priv, err := reqsig.ParsePrivateKeyPEM(pem)
	if err != nil {
		return Key{}, err
	}
	return Key{ID: k.KeyID, Account: account, Priv: priv}, nil
}

// parallel runs fn(i) for i in [0,n) on p goroutines, printing progress
// every second, and returns the first error (after which it stops
// starting new calls).
func parallel(n, p int, what string, progress io.Writer, fn func(i int) error) error {
	if p < 1 {
		p = 1
	}
	var next, done atomic.Int64
	var firstErr error
	var errOnce sync.Once
	var failed atomic.Bool
	var wg sync.WaitGroup
	stop := make(chan struct{})
	start := time.Now()
	if progress != nil {
		go func() {
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					d := done.Load()
					fmt.Fprintf(progress, "  [setup] %s: %d/%d (%.0f/s)\n", what, d, n, float64(d)/time.Since(start).Seconds())
				}
			}
		}()
	}
	for range p {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := fn(i); err != nil {
					errOnce.Do(func() { firstErr = err })
					failed.Store(true)
					return
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	close(stop)
	return firstErr
}

// CreateAccounts creates n accounts named prefix-NNNN, p at a time.
func (s *FXD) CreateAccounts(ctx context.Context, n, p int, prefix string, progress io.Writer) ([]string, error) {
	ids := make([]string, n)
	err := parallel(n, p, "accounts", progress, func(i int) error {
		id, err := s.CreateAccount(ctx, fmt.Sprintf("%s-%04d", prefix, i))
		ids[i] = id
		return err
	})
	return ids, err
}

// CreateKeys creates len(owner) keys, key i on account owner[i], their
// PEM files in dir, p at a time.
func (s *FXD) CreateKeys(ctx context.Context, owner []string, scopes, dir string, p int, progress io.Writer) ([]Key, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	keys := make([]Key, len(owner))
	err := parallel(len(owner), p, "keys", progress, func(i int) error {
		k, err := s.CreateKey(ctx, owner[i], scopes, filepath.Join(dir, fmt.Sprintf("key-%06d.pem", i)))
		keys[i] = k
		return err
	})
	return keys, err
}

// Faucet sends amount of currency, and gas, to address from the admin
// listener's test faucet, and returns the tx hash once it is mined.
func (s *FXD) Faucet(ctx context.Context, address, currency, amount string) (string, error) {
	b, err := s.adminDo(ctx, http.MethodPost, "/admin/faucet",
		map[string]string{"address": address, "currency": currency, "amount": amount}, adminTimeout)
	if err != nil {
		return "", err
	}
	var ans struct {
		TxHash string `json:"tx_hash"`
	}
	if err := json.Unmarshal(b, &ans); err != nil || ans.TxHash == "" {
		return "", fmt.Errorf("admin faucet: answer %.200q", b)
	}
	return ans.TxHash, nil
}

// Health reads GET <base>/health (unauthenticated).
func (s *FXD) Health() (Health, error) {
	var h Health
	resp, err := http.Get("http://" + s.Addr() + "/public/v1/health")
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return h, err
	}
	if resp.StatusCode != 200 {
		return h, fmt.Errorf("GET /health: %d %s", resp.StatusCode, b)
	}
	return h, json.Unmarshal(b, &h)
}

// Health is the body of GET /health.
type Health struct {
	Status   string `json:"status"`
	WALIndex uint64 `json:"wal_index"`
}

// Recovered is fxd's "recovered" log line.
type Recovered struct {
	FromIndex uint64 `json:"from_index"`
	Replayed  uint64 `json:"replayed"`
	LastIndex uint64 `json:"last_index"`
	Keys      int    `json:"keys"`
	TookMs    int64  `json:"took_ms"`
}

// RecoveredLine finds the "recovered" line in fxd's log.
func (s *FXD) RecoveredLine() (*Recovered, error) {
	f, err := os.Open(s.LogPath)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var line struct {
			Msg string `json:"msg"`
			Recovered
		}
		if json.Unmarshal(sc.Bytes(), &line) == nil && line.Msg == "recovered" {
			r := line.Recovered
			return &r, nil
		}
	}
	return nil, fmt.Errorf("no \"recovered\" line in %s", s.LogPath)
}
