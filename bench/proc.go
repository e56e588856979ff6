package bench

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proc is a server process started by the bench: fxd or the floor.
type Proc struct {
	Name    string
	cmd     *exec.Cmd
	Started time.Time
	// Ready is how long after the start the process printed its
	// "listening on" line (fxd prints it after recovery).
	Ready time.Duration
	// Addrs holds the addresses of the "<what> on ADDR" lines seen, keyed
	// by <what> ("listening", "admin listening").
	Addrs map[string]string

	done    chan struct{}
	waitErr error
	logFile *os.File
	logPath string
	mu      sync.Mutex    // Addrs and Ready while stdout is read
	seen    chan struct{} // closed once every wanted listening line was printed
}

// PID is the process id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// startProc starts name with args, its stderr going to logPath, and waits
// (up to timeout) until it has printed a "<w> on ADDR" line for every w in
// want on stdout.
func startProc(name, bin string, args []string, logPath string, want []string, timeout time.Duration) (*Proc, error) {
	p, err := spawnProc(name, bin, args, nil, logPath, want)
	if err != nil {
		return nil, err
	}
	if err := p.WaitReady(timeout); err != nil {
		return nil, err
	}
	return p, nil
}

// spawnProc starts name with args (and env, nil: this process's), its
// stderr going to logPath, and returns at once; WaitReady waits for the
// "<w> on ADDR" lines of want.
func spawnProc(name, bin string, args, env []string, logPath string, want []string) (*Proc, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	p := &Proc{Name: name, cmd: cmd, Addrs: map[string]string{}, done: make(chan struct{}), logFile: logFile,
		seen: make(chan struct{}), logPath: logPath}
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	go p.readStdout(stdout, want)
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// readStdout records the "<what> on ADDR" lines and closes p.seen once
// every line of want was printed.
func (p *Proc) readStdout(stdout io.Reader, want []string) {
	var seenOnce sync.Once
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		what, addr, ok := strings.Cut(line, " on ")
		if !ok || !strings.HasSuffix(what, "listening") {
			continue
		}
		p.mu.Lock()
		if what == "listening" && p.Ready == 0 {
			p.Ready = time.Since(p.Started)
		}
		p.Addrs[what] = strings.TrimSpace(addr)
		all := true
		for _, w := range want {
			if p.Addrs[w] == "" {
				all = false
			}
		}
		p.mu.Unlock()
		if all {
			seenOnce.Do(func() { close(p.seen) })
		}
	}
	_, _ = io.Copy(io.Discard, stdout)
}

// WaitReady waits (up to timeout) until the process printed every
// listening line it was started to wait for. It kills the process when
// the time runs out.
func (p *Proc) WaitReady(timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-p.seen:
		return nil
	case <-p.done:
		return fmt.Errorf("%s exited before it served: %v (log: %s%s)", p.Name, p.waitErr, p.logPath, tail(p.logPath))
	case <-t.C:
		_ = p.Kill()
		return fmt.Errorf("%s did not print its listening lines within %v (log: %s%s)", p.Name, timeout, p.logPath, tail(p.logPath))
	}
}

// Serving reports whether the process printed every listening line it
// was started to wait for (fxd prints them after recovery).
func (p *Proc) Serving() bool {
	select {
	case <-p.seen:
		return true
	default:
		return false
	}
}

// Addr returns the address of the "<what> on ADDR" line, "" until seen.
func (p *Proc) Addr(what string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.Addrs[what]
}

// tail returns the last lines of a log file, for error messages.
func tail(path string) string {
	b, err := os.ReadFile(path)
	if err != nil || len(b) == 0 {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return "; last lines:\n  " + strings.Join(lines, "\n  ")
}

// Stop sends SIGTERM and waits up to timeout for the process to exit; it
// returns how long the exit took. After the timeout it kills the process
// and reports an error.
func (p *Proc) Stop(timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	select {
	case <-p.done:
		return 0, p.exitErr()
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return 0, err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-p.done:
		return time.Since(start), p.exitErr()
	case <-t.C:
		_ = p.Kill()
		return time.Since(start), fmt.Errorf("%s did not exit within %v of SIGTERM; killed", p.Name, timeout)
	}
}

func (p *Proc) exitErr() error {
	if p.waitErr != nil {
		return fmt.Errorf("%s: %w", p.Name, p.waitErr)
	}
	return nil
}

// Kill ends the process at once (only used when it failed to start or to
// stop) and waits for it.
func (p *Proc) Kill() error {
	select {
	case <-p.done:
		return nil
	default:
	}
	err := p.cmd.Process.Kill()
	if errors.Is(err, os.ErrProcessDone) {
		err = nil
	}
	<-p.done
	return err
}

// Signal sends sig to the process (SIGSTOP and SIGCONT pause and resume
// it; a stopped process still dies of SIGKILL).
func (p *Proc) Signal(sig os.Signal) error {
	if p.Exited() {
		return os.ErrProcessDone
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		return fmt.Errorf("signal %v to %s: %w", sig, p.Name, err)
	}
	return nil
}

// Done is closed once the process has ended.
func (p *Proc) Done() <-chan struct{} { return p.done }

// ExitErr is how the process ended (nil while it runs, or after a clean
// exit).
func (p *Proc) ExitErr() error {
	if !p.Exited() {
		return nil
	}
	return p.waitErr
}

// Exited reports whether the process has ended.
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// cpuUse is the CPU one load window cost: the generator's, the server's
// (-1: unknown) and the whole machine's (-1: unknown).
type cpuUse struct{ gen, server, sys time.Duration }

// cpuShare is a cpuUse per OK answer and in cores over the window.
// ServerUs and ServerCores stay 0 when the server's CPU is unknown;
// OtherCores, what the rest of the machine used, is -1 when unknown.
type cpuShare struct{ GenUs, GenCores, ServerUs, ServerCores, OtherCores float64 }

// share renders u for ok answers in secs seconds.
func (u cpuUse) share(ok int64, secs float64) cpuShare {
	s := cpuShare{OtherCores: -1}
	if secs <= 0 {
		return s
	}
	if ok > 0 {
		s.GenUs, s.GenCores = u.gen.Seconds()*1e6/float64(ok), u.gen.Seconds()/secs
		if u.server >= 0 {
			s.ServerUs, s.ServerCores = u.server.Seconds()*1e6/float64(ok), u.server.Seconds()/secs
		}
	}
	if u.sys >= 0 {
		own := u.gen
		if u.server > 0 {
			own += u.server
		}
		s.OtherCores = max(0, (u.sys-own).Seconds()/secs)
	}
	return s
}
