package torture

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fxd-labs/fxd/bench"
	"github.com/fxd-labs/fxd/internal/loopback"
)

// Process control waits (deadlines, never expectations).
const (
	startDeadline = 2 * time.Minute  // fxd serve until it listens
	stopDeadline  = 30 * time.Second // SIGTERM until exit
	keepLogs      = 8                // server logs kept: the latest starts
)

// server runs fxd serve on one data dir and fixed loopback ports, so the
// workload's clients and the chain client keep their addresses across
// restarts. Each start is a generation; workers wait for the current one
// to serve.
type server struct {
	bin, dataDir, logDir string
	opts                 bench.SpawnOptions
	flags                []string
	logf                 func(string, ...any)

	mu      sync.Mutex
	cur     *bench.FXD
	gen     int
	up      chan struct{} // closed while the current generation serves
	serving int           // the generation that closed up
	lastRun time.Duration // how long the last successful start took
}

func newServer(cfg Config, flags []string) (*server, error) {
	ports, err := loopback.FreeAddrs(3)
	if err != nil {
		return nil, err
	}
	s := &server{bin: cfg.Bin, dataDir: filepath.Join(cfg.WorkDir, "data"), logDir: filepath.Join(cfg.WorkDir, "logs"),
		flags: flags, logf: cfg.Logf, up: make(chan struct{})}
	env := append(cleanEnv(), fmt.Sprintf("GOMEMLIMIT=%dMiB", memLimitOf(cfg.RSSLimit)>>20))
	s.opts = bench.SpawnOptions{Env: env, Listen: ports[0], AdminListen: ports[1], ChainRPCListen: ports[2]}
	for _, d := range []string{s.dataDir, s.logDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, fmt.Errorf("torture: %w", err)
		}
	}
	return s, nil
}

// memLimitOf is the server's soft memory limit (GOMEMLIMIT) under an RSS
// bound: three quarters of it, as an operator sizes it for a box of that
// memory. Without one, fxd's GOGC=400 lets garbage grow to four times the
// live heap (cmd/fxd/serve.go), and the bound would measure GC slack; with
// it, the bound is broken only by what stays live: a leak.
func memLimitOf(rssLimit uint64) uint64 { return rssLimit / 4 * 3 }

// cleanEnv is our environment without SVC_* variables (fxd reads them as
// flag defaults; the run must not depend on the caller's shell) and
// without GOMEMLIMIT (the run sets its own).
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SVC_") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			env = append(env, kv)
		}
	}
	return env
}

// baseURL and rpcURL are where clients reach the API and the chain.
func (s *server) baseURL() string { return "http://" + s.opts.Listen }
func (s *server) rpcURL() string  { return "http://" + s.opts.ChainRPCListen }

// spawn starts a new generation without waiting for it.
func (s *server) spawn() (*bench.FXD, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil && !s.cur.Exited() {
		return nil, 0, errors.New("torture: a server is still running")
	}
	s.gen++
	logPath := filepath.Join(s.logDir, fmt.Sprintf("fxd-%04d.log", s.gen))
	_ = os.Remove(filepath.Join(s.logDir, fmt.Sprintf("fxd-%04d.log", s.gen-keepLogs)))
	p, err := bench.SpawnFXD(s.bin, s.dataDir, logPath, s.opts, s.flags...)
	if err != nil {
		return nil, 0, fmt.Errorf("torture: start fxd: %w", err)
	}
	s.cur = p
	return p, s.gen, nil
}

// start spawns a generation and waits until it serves and the second it
// started in has passed (the server refuses timestamps from before its
// start's next second: an earlier process may have accepted them).
func (s *server) start() error {
	p, gen, err := s.spawn()
	if err != nil {
		return err
	}
	if err := p.WaitReady(startDeadline); err != nil {
		return fmt.Errorf("torture: generation %d: %w", gen, err)
	}
	took := p.Ready
	if d := time.Until(p.Started.Truncate(time.Second).Add(2 * time.Second)); d > 0 {
		time.Sleep(d)
	}
	s.mu.Lock()
	s.lastRun = took
	s.serving = gen
	close(s.up)
	s.mu.Unlock()
	return nil
}

// current is the running generation (nil between a kill and a spawn).
func (s *server) current() (*bench.FXD, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur, s.gen
}

// startTook is how long the last successful start took until it listened.
func (s *server) startTook() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastRun
}

// markDown makes waiters wait for the next generation.
func (s *server) markDown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.up:
		s.up = make(chan struct{})
	default:
	}
}

// kill sends SIGKILL to the running generation and waits until it is
// gone; it reports whether it had started serving.
func (s *server) kill() (serving bool, err error) {
	s.markDown()
	p, _ := s.current()
	if p == nil {
		return false, nil
	}
	serving = p.Serving()
	return serving, p.Kill()
}

// pause stops the process for d (SIGSTOP), then resumes it (SIGCONT).
func (s *server) pause(ctx context.Context, d time.Duration) error {
	p, _ := s.current()
	if p == nil {
		return errors.New("torture: no server to pause")
	}
	if err := p.Signal(syscall.SIGSTOP); err != nil {
		return err
	}
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
	return p.Signal(syscall.SIGCONT)
}

// stop ends the running generation with SIGTERM and requires a clean exit.
func (s *server) stop() error {
	s.markDown()
	p, gen := s.current()
	if p == nil || p.Exited() {
		return nil
	}
	if _, err := p.Stop(stopDeadline); err != nil {
		return fmt.Errorf("torture: generation %d after SIGTERM: %w", gen, err)
	}
	return nil
}

// genUnknown labels an answer that cannot be pinned to one generation.
const genUnknown = -1

// serveLease is what waitUp hands a sender: the generation serving when it
// returned and the up channel it served under.
type serveLease struct {
	gen int
	up  chan struct{}
}

// waitUp waits until a generation serves and returns its lease.
func (s *server) waitUp(ctx context.Context) (serveLease, error) {
	for {
		s.mu.Lock()
		up := s.up
		s.mu.Unlock()
		select {
		case <-up:
			s.mu.Lock()
			l, same := serveLease{s.serving, up}, s.up == up
			s.mu.Unlock()
			if same {
				return l, nil
			}
			// Marked down again since: wait for the next generation.
		case <-ctx.Done():
			return serveLease{}, ctx.Err()
		}
	}
}

// answeredBy is the generation that answered a request sent under l: l's
// when no kill or stop began since (each marks the server down first),
// else genUnknown, as the request may have reached the next generation.
// A label never claims a generation it cannot prove: the accept check
// relies on it.
func (s *server) answeredBy(l serveLease) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.up != l.up {
		return genUnknown
	}
	return l.gen
}
