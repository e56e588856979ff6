package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/fxd-labs/fxd/internal/buildinfo"
)

// Machine describes where the numbers were taken.
type Machine struct {
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	NumCPU     int    `json:"num_cpu"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GoVersion  string `json:"go_version"`
	CPUModel   string `json:"cpu_model,omitempty"`
	Kernel     string `json:"kernel,omitempty"`
	MemTotalMB int64  `json:"mem_total_mb,omitempty"`
	GitCommit  string `json:"git_commit,omitempty"`
	GitDirty   bool   `json:"git_dirty,omitempty"`
	// FXD is the build of the fxd binary measured (`fxd version`), which
	// need not be the checkout's: an A/B run benches another commit's
	// binary with -bin.
	FXD *buildinfo.Info `json:"fxd_build,omitempty"`
	// Load averages at the start and the end of the run: other work on the
	// machine makes absolute numbers noisy.
	LoadAvgStart string `json:"loadavg_start,omitempty"`
	LoadAvgEnd   string `json:"loadavg_end,omitempty"`
}

// MachineInfo collects what it can about the machine and the fxd binary
// bin ("" for none); every field but the Go ones is best effort.
func MachineInfo(bin string) Machine {
	m := Machine{
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version(),
		LoadAvgStart: loadAvg(),
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPUModel = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if kb, err := meminfo("MemTotal"); err == nil {
		m.MemTotalMB = kb / 1024
	}
	if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		m.GitCommit = strings.TrimSpace(string(out))
		if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil {
			m.GitDirty = len(bytes.TrimSpace(st)) > 0
		}
	}
	if bin != "" {
		if out, err := exec.Command(bin, "version").Output(); err == nil {
			var info buildinfo.Info
			if json.Unmarshal(out, &info) == nil && info.Commit != "" && info.Commit != "unknown" {
				m.FXD = &info
			}
		}
	}
	return m
}

// Commit names the code measured: the fxd binary's commit when it says
// (+dirty when built from a changed tree), else the checkout's.
func (m Machine) Commit() string {
	if m.FXD != nil {
		return shortCommit(m.FXD.Commit, strings.HasSuffix(m.FXD.Version, "-dirty"))
	}
	return shortCommit(m.GitCommit, m.GitDirty)
}

// BenchCommit is the checkout's commit when it differs from the binary's
// (the bench's own code then is not the binary's), else "".
func (m Machine) BenchCommit() string {
	if m.FXD == nil || m.GitCommit == "" || strings.HasPrefix(m.GitCommit, m.FXD.Commit) {
		return ""
	}
	return shortCommit(m.GitCommit, m.GitDirty)
}

// shortCommit is a commit as reports show it: 12 hex digits, +dirty.
func shortCommit(c string, dirty bool) string {
	if len(c) > 12 {
		c = c[:12]
	}
	if dirty {
		c += "+dirty"
	}
	return c
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

func meminfo(field string) (int64, error) {
	return procStatusField("/proc/meminfo", field)
}

// procStatusField reads "Field:   123 kB" from a /proc status-style file.
func procStatusField(path, field string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != field {
			continue
		}
		num := strings.Fields(v)
		if len(num) == 0 {
			break
		}
		return strconv.ParseInt(num[0], 10, 64)
	}
	return 0, fmt.Errorf("%s: no %s", path, field)
}

// procRSS returns a process's resident set size in bytes (Linux).
func procRSS(pid int) (int64, error) {
	kb, err := procStatusField(fmt.Sprintf("/proc/%d/status", pid), "VmRSS")
	return kb * 1024, err
}

// clockTicks is USER_HZ, 100 on every Linux this runs on (it is not
// readable without cgo).
const clockTicks = 100

// procCPU returns the user+system CPU time a process has used (Linux).
func procCPU(pid int) (time.Duration, error) {
	if pid <= 0 {
		return 0, errors.New("no pid")
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; fields after ')' are
	// fixed: utime and stime are the 12th and 13th after it.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("bad /proc stat")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, errors.New("bad /proc stat times")
	}
	return time.Duration(ut+st) * time.Second / clockTicks, nil
}

// selfWriteSyscalls returns this process's write system calls so far
// (/proc/self/io syscw), or -1 where that is not available.
func selfWriteSyscalls() int64 {
	n, err := procStatusField("/proc/self/io", "syscw")
	if err != nil {
		return -1
	}
	return n
}

// selfWriteBytes is the bytes this process passed to write system calls
// so far (/proc/self/io wchar), or -1.
func selfWriteBytes() int64 {
	n, err := procStatusField("/proc/self/io", "wchar")
	if err != nil {
		return -1
	}
	return n
}

// systemBusy returns the CPU time all CPUs spent busy (not idle or waiting
// for I/O) since boot (Linux /proc/stat), or -1.
func systemBusy() time.Duration {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 6 || f[0] != "cpu" {
		return -1
	}
	var busy int64
	for i, v := range f[1:] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return -1
		}
		if i == 3 || i == 4 || i >= 8 { // idle, iowait; guest time is already in user
			continue
		}
		busy += n
	}
	return time.Duration(busy) * time.Second / clockTicks
}
