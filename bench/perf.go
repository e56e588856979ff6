package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// perfRecorder profiles a server process with Linux perf during a load
// phase's measured window. fxd serves no pprof endpoint and the bench may
// not change it, so a sampling profiler from outside is the way in; Go
// binaries carry the symbols perf needs.
type perfRecorder struct {
	dir string
}

// start begins recording pid into <dir>/<phase>.perf.data and returns the
// function that stops it and summarizes the profile.
func (p *perfRecorder) start(phase string, pid int) func() (*Profile, error) {
	if p == nil || p.dir == "" || pid <= 0 {
		return func() (*Profile, error) { return nil, nil }
	}
	file := filepath.Join(p.dir, phase+".perf.data")
	cmd := exec.Command("perf", "record", "-F", "499", "-g", "-p", strconv.Itoa(pid), "-o", file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return func() (*Profile, error) { return nil, fmt.Errorf("perf record: %w", err) }
	}
	return func() (*Profile, error) {
		_ = cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if _, err := os.Stat(file); err != nil {
			return nil, fmt.Errorf("perf record: no output (%s)", strings.TrimSpace(stderr.String()))
		}
		top, shares, err := perfTop(file, 25)
		if err != nil {
			return nil, err
		}
		return &Profile{Phase: phase, File: file, Top: top, Shares: shares}, nil
	}
}

// perfTop returns the hottest symbols (self time) of a perf.data file and
// the share of the samples per category of code.
func perfTop(file string, n int) ([]string, []Share, error) {
	cmd := exec.Command("perf", "report", "-i", file, "--stdio", "--no-children",
		"--sort", "symbol", "-g", "none", "-F", "overhead,sym", "--percent-limit", "0")
	out, err := cmd.Output()
	if err != nil {
		return nil, nil, fmt.Errorf("perf report: %w", err)
	}
	type line struct {
		pct       float64
		kind, sym string
	}
	var lines []line
	cats := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || !strings.HasSuffix(f[0], "%") {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
		if err != nil {
			continue
		}
		for len(f) > 3 && f[len(f)-1] == "-" { // empty IPC columns
			f = f[:len(f)-1]
		}
		l := line{pct, f[1], strings.Join(f[2:], " ")}
		lines = append(lines, l)
		cats[category(l.kind, l.sym)] += pct
	}
	sort.SliceStable(lines, func(i, j int) bool { return lines[i].pct > lines[j].pct })
	var top []string
	for _, l := range lines[:min(n, len(lines))] {
		top = append(top, fmt.Sprintf("%6.2f%% %s %s", l.pct, l.kind, l.sym))
	}
	shares := make([]Share, 0, len(cats))
	for c, p := range cats {
		shares = append(shares, Share{Category: c, Percent: math.Round(p*10) / 10})
	}
	sort.Slice(shares, func(i, j int) bool { return shares[i].Percent > shares[j].Percent })
	return top, shares, nil
}

// Share is a category's share of a profile's samples.
type Share struct {
	Category string  `json:"category"`
	Percent  float64 `json:"percent"`
}

// category sorts a symbol into a coarse bucket for the summary.
func category(kind, sym string) string {
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(sym, s) {
				return true
			}
		}
		return false
	}
	switch {
	case kind == "[k]":
		return "kernel (network, scheduling, fsync)"
	case has("edwards25519", "ed25519", "curve25519-voi", "sha512"):
		return "Ed25519 verify"
	case has("sha256"):
		return "SHA-256 (body hash)"
	case has("valyala/fasthttp"):
		return "fasthttp"
	case has("asynkron/protoactor"):
		return "protoactor (actor mailboxes)"
	case has("fxd-labs/fxd/"):
		return "fxd code"
	case has("encoding/json", "encoding/base64", "strconv"):
		return "encoding (json, base64, strconv)"
	case has("cockroachdb/", "tidwall/"):
		return "storage libs (pebble, tidwall/wal)"
	case has("runtime.gc", "runtime.scanobject", "runtime.greyobject", "runtime.findObject",
		"runtime.markBits", "runtime.mallocgc", "runtime.(*mspan)", "runtime.(*mheap)", "runtime.(*mcache)",
		"runtime.(*gcWork)", "runtime.heapBits", "runtime.wbBuf", "runtime.bulkBarrier", "runtime.typePointers",
		"runtime.memclrNoHeapPointers", "runtime.nextFreeFast", "runtime.(*mcentral)", "runtime.sweepone",
		"runtime.(*sweepLocked)", "runtime.spanOf", "runtime.scanblock", "runtime.markroot", "runtime.newobject",
		"runtime.makeslice", "runtime.growslice", "runtime.(*gcBits)", "runtime.deductAssistCredit"):
		return "Go runtime: allocation and GC"
	case has("runtime.", "runtime/", "sync.", "sync/atomic", "indexbytebody", "memeqbody", "cmpbody", "aeshashbody", "__vdso"):
		return "Go runtime: scheduler, locks, memmove, other"
	case strings.HasPrefix(sym, "0x"):
		return "unsymbolized"
	}
	return "other"
}
