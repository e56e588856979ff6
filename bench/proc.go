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
}

// PID is the process id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// startProc starts name with args, its stderr going to logPath, and waits
// (up to timeout) until it has printed a "<w> on ADDR" line for every w in
// want on stdout.
func startProc(name, bin string, args []string, logPath string, want []string, timeout time.Duration) (*Proc, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stderr = logFile
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	p := &Proc{Name: name, cmd: cmd, Addrs: map[string]string{}, done: make(chan struct{}), logFile: logFile}
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	var mu sync.Mutex
	seen := make(chan struct{})
	var seenOnce sync.Once
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			what, addr, ok := strings.Cut(line, " on ")
			if !ok || !strings.HasSuffix(what, "listening") {
				continue
			}
			mu.Lock()
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
			mu.Unlock()
			if all {
				seenOnce.Do(func() { close(seen) })
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.done)
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-seen:
		mu.Lock()
		defer mu.Unlock()
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("%s exited before it served: %v (log: %s%s)", name, p.waitErr, logPath, tail(logPath))
	case <-t.C:
		_ = p.Kill()
		return nil, fmt.Errorf("%s did not print %v within %v (log: %s%s)", name, want, timeout, logPath, tail(logPath))
	}
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
